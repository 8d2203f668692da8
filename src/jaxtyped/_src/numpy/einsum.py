"""``einsum`` and ``einsum_path`` (layer L5).

The contraction order comes from ``opt_einsum``, as in JAX: measured in
``benchmarks/einsum.py``, its path search costs well under a millisecond at
trace time (nothing at run time), and taking JAX's paths makes our jaxprs
JAX's, equation for equation. It is imported on first use: importing it
costs about 70 ms, which ``import jaxtyped`` should not pay. Paths are
cached per (subscripts, shapes, strategy), so retraces and eager loops
search once (JAX searches at every call).

Each step of the path contracts one operand (sums over its private indices
and the diagonals of repeated ones) or two (one ``dot_general``, after
those sums), then transposes to the step's output order when the
contraction's natural order differs.
"""

import collections
import functools
from collections.abc import Sequence
from types import EllipsisType
from typing import Any, cast, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import to_array
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax.dot import PrecisionLike, canonicalize_precision, dot_general
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.reductions import reduce_max, reduce_sum
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, full_like_aval, select_n, squeeze, transpose
from jaxtyped._src.numpy.promotion import check_arraylike, result_dtype_of

__all__ = ["einsum", "einsum_path", "EinsumOptimize"]

# ``optimize``: an opt_einsum strategy name ("auto", "greedy", "optimal",
# ...), True for "optimal", False for left-to-right pairs, or an explicit
# path (a list of operand-position tuples, as einsum_path returns).
EinsumOptimize = str | bool | list[tuple[int, ...]]
# A subscript list of the interleaved form: ints and Ellipsis.
Sublist = Sequence[int | EllipsisType]
# One step of a path: the positions it takes (popped in this order), the
# indices it sums over, and its own "in,in->out" subscripts.
_Step = tuple[tuple[int, ...], frozenset[str], str]


class _Shaped:
    """What opt_einsum reads of an operand: its shape (so it never converts
    or inspects our arrays, tracers included)."""

    __slots__ = ("shape",)

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape


def _strategy(optimize: EinsumOptimize, num_operands: int) -> EinsumOptimize:
    if optimize is True:
        return "optimal"
    if optimize is False:
        # Left to right, pair by pair. One operand has one step whatever
        # the strategy (JAX's empty path would skip it, and its transpose).
        return [(0, 1)] * (num_operands - 1) if num_operands > 1 else "auto"
    return optimize


def _stand_ins(name: str, args: tuple[object, ...]) -> tuple[dict[int, Array], list[object]]:
    """The operands of either call form (``"ij,jk", x, y`` or ``x, [0, 1],
    y, [1, 2]``) as arrays by argument position, and the arguments with
    every operand replaced by its shape stand-in, for opt_einsum."""
    interleaved = not isinstance(args[0], str)
    positions = range(0, len(args) - len(args) % 2, 2) if interleaved else range(1, len(args))
    check_arraylike(name, *(args[i] for i in positions))
    arrays = {i: to_array(args[i], f"jnp.{name} operand {n}") for n, i in enumerate(positions)}
    return arrays, [_Shaped(arrays[i].shape) if i in arrays else arg for i, arg in enumerate(args)]


def _contract_path(name: str, call_args: list[object], optimize: EinsumOptimize, *, einsum_call: bool) -> tuple[Any, Any]:
    """opt_einsum's ``contract_path`` (its steps with ``einsum_call``, else
    the path and its description), its errors as jaxtyped's."""
    import opt_einsum  # noqa: PLC0415 - imported on first use (see the module docstring)

    num_operands = sum(isinstance(a, _Shaped) for a in call_args)
    strategy = _strategy(optimize, num_operands)
    try:
        if einsum_call:
            return opt_einsum.contract_path(*call_args, einsum_call=True, use_blas=True, optimize=strategy)
        return opt_einsum.contract_path(*call_args, optimize=strategy)
    except ValueError as error:
        raise JaxtypedValueError(f"jnp.{name}: {error}") from None
    except (TypeError, KeyError) as error:
        raise JaxtypedTypeError(f"jnp.{name}: {error}") from None
    except IndexError as error:  # an explicit path naming operands that are not there
        raise JaxtypedIndexError(f"jnp.{name}: optimize={optimize!r} is not a valid path: {error}") from None


def _plan(args: tuple[object, ...], optimize: EinsumOptimize) -> tuple[list[Array], tuple[_Step, ...]]:
    """The operands in opt_einsum's order and its steps."""
    arrays, call_args = _stand_ins("einsum", args)
    key = _plan_key(call_args, optimize)
    if key is None:
        order, steps = _search(call_args, optimize)
    else:
        order, steps = _cached_search(*key)
    positions = sorted(arrays)
    return [arrays[positions[i]] for i in order], steps


# The path depends only on the subscripts, the shapes and the strategy, so a
# retrace (a new dtype, an eager loop calling the same einsum) skips the
# search. Interleaved calls key by their sublists made tuples.
_PlanKey = tuple[tuple[object, ...], object]


def _plan_key(call_args: list[object], optimize: EinsumOptimize) -> _PlanKey | None:
    def frozen(arg: object) -> object:
        if isinstance(arg, _Shaped):
            return ("shape", arg.shape)
        if isinstance(arg, (list, tuple)):
            return tuple(cast(Sequence[object], arg))
        return arg

    key = (tuple(frozen(a) for a in call_args), tuple(optimize) if isinstance(optimize, list) else optimize)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _thaw(arg: object) -> object:
    """A frozen argument back as opt_einsum takes it."""
    if not isinstance(arg, tuple):
        return arg
    items = cast(tuple[object, ...], arg)
    if len(items) == 2 and items[0] == "shape":
        return _Shaped(cast(tuple[int, ...], items[1]))
    return list(items)


@functools.lru_cache(maxsize=512)
def _cached_search(frozen_args: tuple[object, ...], optimize: object) -> tuple[tuple[int, ...], tuple[_Step, ...]]:
    strategy = list(cast(tuple[tuple[int, ...], ...], optimize)) if isinstance(optimize, tuple) else optimize
    return _search([_thaw(a) for a in frozen_args], cast(EinsumOptimize, strategy))


def _search(call_args: list[object], optimize: EinsumOptimize) -> tuple[tuple[int, ...], tuple[_Step, ...]]:
    """opt_einsum's operand order (as positions among the operands) and steps."""
    ordered, steps = _contract_path("einsum", call_args, optimize, einsum_call=True)
    stand_ins = [id(a) for a in call_args if isinstance(a, _Shaped)]
    order = tuple(stand_ins.index(id(s)) for s in ordered)
    return order, tuple((tuple(step[0]), frozenset(step[1]), str(step[2])) for step in steps)


@overload
def einsum(
    subscripts: str,
    /,
    *operands: ArrayLike,
    out: None = None,
    optimize: EinsumOptimize = "auto",
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array: ...


@overload
def einsum(
    subscripts: ArrayLike,
    axes: Sublist,
    /,
    *operands: ArrayLike | Sublist,
    out: None = None,
    optimize: EinsumOptimize = "auto",
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array: ...


def einsum(
    subscripts: str | ArrayLike,
    /,
    *operands: ArrayLike | Sublist,
    out: None = None,
    optimize: EinsumOptimize = "auto",
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Einstein summation (JAX's ``jnp.einsum``): ``einsum("ij,jk->ik", x, y)``
    or the interleaved form ``einsum(x, [0, 1], y, [1, 2], [0, 2])``.

    Operands are promoted to their common dtype (the result's, unless
    ``preferred_element_type`` names one); the contraction order is
    opt_einsum's ``optimize`` strategy, each pairwise step one
    ``dot_general``.
    """
    if out is not None:
        raise JaxtypedNotImplementedError("jnp.einsum: the 'out' argument is not supported (arrays are immutable)")
    canonicalize_precision(precision, "jnp.einsum")  # checked; no effect on CPU (as lax.dot_general)
    arrays, steps = _plan((subscripts, *operands), optimize)
    if preferred_element_type is None:
        dtype, weak = result_dtype_of(*arrays)
    else:
        dtype, weak = dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type)), False
    for positions, summed, subscripts_ in steps:
        inputs, out_names = subscripts_.split("->")
        taken = [arrays.pop(p) for p in positions]
        names = inputs.split(",")
        if len(taken) == 1:
            result, result_names = _contract_one(taken[0], names[0], sorted(summed), out_names, dtype)
        elif len(taken) == 2:
            result, result_names = _contract_two(taken, names, sorted(summed), out_names, dtype)
        else:  # an explicit path may name three operands in one step (JAX's error kind)
            raise JaxtypedNotImplementedError(
                f"jnp.einsum: a path step may contract one or two operands, got {len(taken)} ({subscripts_})"
            )
        if result_names != out_names:
            result = transpose(result, tuple(result_names.index(n) for n in out_names))
        arrays.append(result)
    return convert_to(arrays[0], dtype, weak_type=weak)


def _without(names: str, drop: str) -> str:
    return "".join(n for n in names if n not in drop)


def _sum(x: Array, axes: Sequence[int], dtype: np.dtype[Any]) -> Array:
    """The sum over ``axes``, in ``dtype`` when ``x`` promotes to it."""
    if dtypes.result_dtype((x.dtype, x.weak_type), (dtype, False))[0] != x.dtype:
        x = convert_to(x, dtype, weak_type=False)
    # A sum of booleans is their "or".
    return reduce_max(x, tuple(axes)) if dtypes.is_bool(x.dtype) else reduce_sum(x, tuple(axes))


def _sum_private(x: Array, names: str, private: Sequence[str], dtype: np.dtype[Any]) -> tuple[Array, str]:
    """Sum over the indices only this operand has, once each."""
    if not private:
        return x, names
    return _sum(x, [names.index(n) for n in private], dtype), _without(names, "".join(private))


def _diagonal_mask(shape: tuple[int, ...], axes: list[int]) -> Array:
    """True where the coordinates along ``axes`` are all equal."""
    sub_shape = tuple(shape[a] for a in axes)
    counters = [broadcasted_iota(np.uint32, sub_shape, d) for d in range(len(axes))]
    mask = lcmp.eq(counters[0], counters[1])
    for counter in counters[2:]:
        mask = lcmp.bitwise_and(mask, lcmp.eq(counters[0], counter))
    return mask if sub_shape == shape else broadcast_in_dim(mask, shape, axes)


def _sum_repeated(x: Array, names: str, keep: str, dtype: np.dtype[Any]) -> tuple[Array, str]:
    """Reduce every index repeated within ``names`` to its diagonal: kept
    once (its last occurrence) where ``keep`` names it, summed otherwise."""
    for name, count in collections.Counter(names).items():
        if count < 2:
            continue
        axes = [i for i, n in enumerate(names) if n == name]
        x = select_n(_diagonal_mask(x.shape, axes), full_like_aval(x.aval, 0), x)
        if name in keep:
            x, names = _sum(x, axes[:-1], dtype), names.replace(name, "", count - 1)
        else:
            x, names = _sum(x, axes, dtype), names.replace(name, "")
    return x, names


def _contract_one(x: Array, names: str, summed: list[str], out: str, dtype: np.dtype[Any]) -> tuple[Array, str]:
    counts = collections.Counter(names)
    x, names = _sum_private(x, names, [n for n in summed if counts[n] == 1], dtype)
    return _sum_repeated(x, names, out, dtype)


def _drop_broadcast_ones(x: Array, names: str, other: Array, other_names: str) -> tuple[Array, str]:
    """Squeeze axes of size 1 that meet a larger axis of the other operand
    (ellipsis broadcasting), so that dot_general sees equal sizes."""
    drop = [
        i for i, n in enumerate(names)
        if x.shape[i] == 1 and n in other_names and other.shape[other_names.index(n)] != 1
    ]  # fmt: skip
    if not drop:
        return x, names
    return squeeze(x, drop), "".join(n for i, n in enumerate(names) if i not in drop)


def _contract_two(
    taken: list[Array], names: list[str], summed: list[str], out: str, dtype: np.dtype[Any]
) -> tuple[Array, str]:
    lhs, rhs = taken
    lhs_names, rhs_names = names
    lhs, lhs_names = _drop_broadcast_ones(lhs, lhs_names, rhs, rhs_names)
    rhs, rhs_names = _drop_broadcast_ones(rhs, rhs_names, lhs, lhs_names)
    lhs_counts, rhs_counts = collections.Counter(lhs_names), collections.Counter(rhs_names)
    lhs, lhs_names = _sum_private(lhs, lhs_names, [n for n in summed if lhs_counts[n] == 1 and not rhs_counts[n]], dtype)
    rhs, rhs_names = _sum_private(rhs, rhs_names, [n for n in summed if rhs_counts[n] == 1 and not lhs_counts[n]], dtype)
    lhs, lhs_names = _sum_repeated(lhs, lhs_names, out + rhs_names, dtype)
    rhs, rhs_names = _sum_repeated(rhs, rhs_names, out + lhs_names, dtype)
    contracted = [n for n in summed if n in lhs_names or n in rhs_names]
    batch = "".join(n for n in out if n in lhs_names and n in rhs_names)
    lhs_free, rhs_free = _without(lhs_names, batch + "".join(contracted)), _without(rhs_names, batch + "".join(contracted))

    def numbers(a: str, b: str) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]:
        return (
            (tuple(a.index(n) for n in contracted), tuple(b.index(n) for n in contracted)),
            (tuple(a.index(n) for n in batch), tuple(b.index(n) for n in batch)),
        )

    # opt_einsum tends to put the operand whose axes come first last, so
    # (rhs, lhs) is tried first: it often needs no transpose.
    if batch + rhs_free + lhs_free == out:
        return dot_general(rhs, lhs, numbers(rhs_names, lhs_names), preferred_element_type=dtype), out
    return dot_general(lhs, rhs, numbers(lhs_names, rhs_names), preferred_element_type=dtype), batch + lhs_free + rhs_free


@overload
def einsum_path(
    subscripts: str, /, *operands: ArrayLike, optimize: EinsumOptimize = "auto"
) -> tuple[list[tuple[int, ...]], object]: ...


@overload
def einsum_path(
    subscripts: ArrayLike, axes: Sublist, /, *operands: ArrayLike | Sublist, optimize: EinsumOptimize = "auto"
) -> tuple[list[tuple[int, ...]], object]: ...


def einsum_path(
    subscripts: str | ArrayLike, /, *operands: ArrayLike | Sublist, optimize: EinsumOptimize = "auto"
) -> tuple[list[tuple[int, ...]], object]:
    """The contraction path ``einsum`` would take, and opt_einsum's printable
    description of it (its ``str`` is the cost table), without computing."""
    _, call_args = _stand_ins("einsum_path", (subscripts, *operands))
    path, info = _contract_path("einsum_path", call_args, optimize, einsum_call=False)
    return [tuple(int(i) for i in step) for step in path], info
