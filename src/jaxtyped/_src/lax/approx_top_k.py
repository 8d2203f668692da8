"""``approx_max_k`` and ``approx_min_k`` (layer L4).

JAX's approximate top-k is a TPU algorithm; on CPU it returns the exact
``k`` extreme values, sorted, ties broken by the lower index, NaN counting
as the largest value (for both). Here it is exact everywhere, composed
from ``top_k`` and ``sort`` (so derivatives and batching come from them);
``recall_target`` and ``reduction_input_size_override`` only matter to
the approximation and are checked, not used.
"""

from dataclasses import dataclass

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.sorting import sort, top_k
from jaxtyped._src.lax.structural import broadcasted_iota
from jaxtyped._src.lax.util import as_operand
from jaxtyped._src.util import canonicalize_axis, is_int

__all__ = ["approx_max_k", "approx_min_k"]


@dataclass(frozen=True, slots=True)
class _Request:
    x: Array
    k: int
    axis: int


def _request(
    name: str, operand: ArrayLike, k: int, reduction_dimension: int, recall_target: float, aggregate_to_topk: bool
) -> _Request:
    x = as_operand(operand, f"lax.{name} operand")
    if not dtypes.is_floating(x.dtype):
        raise JaxtypedValueError(f"lax.{name}: operand must be a floating type, got {x.aval.str_short()}")
    if not is_int(k) or not is_int(reduction_dimension):
        raise JaxtypedValueError(f"lax.{name}: k and reduction_dimension must be ints, got {k!r}, {reduction_dimension!r}")
    axis = canonicalize_axis(int(reduction_dimension), x.ndim, where=f"lax.{name} reduction_dimension")
    size = x.shape[axis]
    if not 0 <= int(k) <= size:
        raise JaxtypedValueError(f"k must be smaller than the size of reduction_dim {size}, got {k}")
    if not 0.0 < float(recall_target) <= 1.0:
        raise JaxtypedValueError(f"lax.{name}: recall_target must be in (0, 1], got {recall_target}")
    if not aggregate_to_topk:
        # JAX then returns a backend-dependent number of candidates.
        raise JaxtypedNotImplementedError(f"lax.{name}: aggregate_to_topk=False is not supported; the exact top k is returned")
    return _Request(x, int(k), axis)


def approx_max_k(
    operand: ArrayLike,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> tuple[Array, Array]:
    """The ``k`` largest values along ``reduction_dimension`` and their
    int32 indices (JAX's ``lax.approx_max_k``; exact here, as JAX on CPU):
    descending, NaN first, ties by the lower index."""
    del reduction_input_size_override
    req = _request("approx_max_k", operand, k, reduction_dimension, recall_target, aggregate_to_topk)
    return top_k(req.x, req.k, axis=req.axis)


def approx_min_k(
    operand: ArrayLike,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> tuple[Array, Array]:
    """The ``k`` smallest values along ``reduction_dimension`` and their
    int32 indices (JAX's ``lax.approx_min_k``; exact here, as JAX on CPU):
    ascending, NaN last, ties by the lower index."""
    del reduction_input_size_override
    req = _request("approx_min_k", operand, k, reduction_dimension, recall_target, aggregate_to_topk)
    x, axis = req.x, req.axis
    positions = broadcasted_iota(dtypes.dtype("int32"), x.shape, axis)
    values, indices = sort((x, positions), dimension=axis, is_stable=True, num_keys=1)
    return slice_in_dim(values, 0, req.k, 1, axis), slice_in_dim(indices, 0, req.k, 1, axis)
