"""``lax.reduce``: reduction with a user's computation (layer L4).

A computation that is one of lax's monoids (``lax.add``, ``lax.mul``,
``lax.max``, ``lax.min``, ``lax.bitwise_and/or/xor``) applied with that
monoid's identity as its initial value becomes the matching ``reduce_*``
primitive, as in JAX. Any other computation is traced, on scalars, into a
jaxpr of ``(accumulators..., elements...) -> accumulators...`` and applied
by the ``Reduce`` primitive to several operands at once (variadic reduce,
e.g. value/index pairs); it lowers to a ``stablehlo.reduce`` whose region
is that jaxpr, and runs eagerly through XLA (XLA may combine in any order,
so the computation should be associative and commutative).

Its jvp is JAX's: the reduced axes are flattened and halved repeatedly,
combining the halves with the jvp of the computation (odd lengths padded
with the initial values), so primal and tangent come from that tree.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast, final, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, PyTree, require_concrete
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import Primitive, Tangent
from jaxtyped._src.errors import ConcretizationTypeError, JaxtypedIndexError, JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax import arithmetic, comparison
from jaxtyped._src.lax.control_flow.common import evaluate_compiled
from jaxtyped._src.lax.reductions import reduce_and, reduce_max, reduce_min, reduce_or, reduce_prod, reduce_sum, reduce_xor
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.arithmetic import const_like
from jaxtyped._src.lax.structural import bdim_to_front, broadcast_in_dim, instantiate, pad, reshape, transpose
from jaxtyped._src.lax.util import check_int_tuple, leaf_as_array, named_leaves, short_types, zero_tangents
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import batch_jaxpr, consts_as_invars, jvp_jaxpr
from jaxtyped._src.tree_util import PyTreeDef
from jaxtyped._src.util import canonicalize_axis, prod

__all__ = ["Reduce", "reduce"]


@final
@dataclass(frozen=True, slots=True)
class Reduce(Primitive):
    """Reduce ``n`` operands over ``dimensions`` with ``jaxpr``, applied to
    the operands followed by their ``n`` scalar initial values."""

    name: ClassVar[str] = "reduce"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing jaxprs costs O(size)
    jaxpr: Jaxpr
    dimensions: tuple[int, ...]

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        n = len(avals) // 2
        operands, inits = avals[:n], avals[n:]
        where = f"reduce on ({short_types(avals)})"
        if not n or len(avals) != 2 * n:
            raise JaxtypedTypeError(f"{where}: needs as many initial values as operands, at least one")
        if any(o.shape != operands[0].shape for o in operands):
            raise JaxtypedTypeError(f"{where}: operands must have the same shape")
        if any(i.shape for i in inits):
            raise JaxtypedTypeError(f"{where}: initial values must be scalars")
        if any(o.dtype != i.dtype for o, i in zip(operands, inits)):
            raise JaxtypedTypeError(f"{where}: operand dtypes should match corresponding initial value dtypes")
        ndim = operands[0].ndim
        if any(not 0 <= d < ndim for d in self.dimensions) or len(set(self.dimensions)) != len(self.dimensions):
            raise JaxtypedValueError(f"{where}: dimensions {self.dimensions} out of range or repeated")
        shape = tuple(s for i, s in enumerate(operands[0].shape) if i not in self.dimensions)
        return tuple(ShapedArray(shape, o.dtype, o.weak_type) for o in operands)

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        return evaluate_compiled(self, args, out_avals)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        n = len(args) // 2
        scalars = [ShapedArray((), a.aval.dtype) for a in args[n:]]
        with ctx.region(scalars + scalars) as (params, body):
            ctx.ret(list(lower_jaxpr_inline(ctx, self.jaxpr, (), params)))
        return ctx.op("stablehlo.reduce", args, out_avals, {"dimensions": i64_array(self.dimensions)}, body)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        n = len(primals) // 2
        operands, inits = primals[:n], primals[n:]
        if any(not isinstance(t, Zero) for t in tangents[n:]):
            raise JaxtypedNotImplementedError(
                "jvp of lax.reduce: differentiating a general reduction with respect to its initial values is not "
                "supported (as in JAX)"
            )
        # Tangents travel with the inexact operands (zeros made real); the
        # others (indices of an argmax-style pair) have none.
        live = tuple(dtypes.is_inexact(o.dtype) for o in operands)
        pair_jaxpr, out_live = jvp_jaxpr(self.jaxpr, live + live, instantiate=live)
        if out_live != live:
            raise JaxtypedTypeError("jvp of lax.reduce: the computation gives a tangent to a non-float output")
        shape = operands[0].shape
        kept = [d for d in range(len(shape)) if d not in self.dimensions]
        rows = (prod(shape[d] for d in self.dimensions), prod(shape[d] for d in kept))
        perm = (*self.dimensions, *kept)
        out_shape = tuple(shape[d] for d in kept)

        def flat(x: Array) -> Array:
            return reshape(transpose(x, perm), rows)

        xs = [flat(x) for x in operands]
        ts = [flat(instantiate(t)) for t, lv in zip(tangents[:n], live) if lv]
        fills = list(inits) + [const_like(i, 0) for i, lv in zip(inits, live) if lv]
        while xs[0].shape[0] > 1:
            size = xs[0].shape[0]
            half = (size + 1) // 2
            first = [slice_in_dim(v, 0, half) for v in xs + ts]
            second = [slice_in_dim(v, half, size) for v in xs + ts]
            if size % 2:
                second = [pad(v, f, [(0, 1, 0), (0, 0, 0)]) for v, f in zip(second, fills)]
            combined = _apply_elementwise(pair_jaxpr, first[:n] + second[:n] + first[n:] + second[n:])
            xs, ts = combined[:n], combined[n:]
        if xs[0].shape[0] == 0:
            outs = [broadcast_in_dim(i, out_shape, ()) for i in inits]
            return tuple(outs), zero_tangents(outs)
        outs = [reshape(x, out_shape) for x in xs]
        out_ts = iter(reshape(t, out_shape) for t in ts)
        return tuple(outs), tuple(next(out_ts) if lv else Zero(o.aval.to_tangent_aval()) for o, lv in zip(outs, live))

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        n = len(args) // 2
        if any(d is not None for d in dims[n:]):
            raise JaxtypedNotImplementedError("vmap of lax.reduce with batched initial values is not supported (as in JAX)")
        operands = [bdim_to_front(x, d, axis.size) for x, d in zip(args[:n], dims[:n])]
        prim = Reduce(self.jaxpr, tuple(d + 1 for d in self.dimensions))
        return bind(prim, *operands, *args[n:]), (0,) * n

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("dimensions", self.dimensions), ("jaxpr", self.jaxpr))


def _apply_elementwise(closed: ClosedJaxpr[Array], args: Sequence[Array]) -> list[Array]:
    """Apply a closed jaxpr on scalars to every element of same-shaped
    arrays (flattened and batched along one axis)."""
    shape = args[0].shape
    flat = [reshape(a, (prod(shape),)) for a in args]
    consts = list(closed.consts)
    jaxpr = consts_as_invars(closed.jaxpr) if consts else closed.jaxpr
    in_avals = tuple(c.aval for c in consts) + tuple(ShapedArray((prod(shape),), a.dtype, a.weak_type) for a in flat)
    batched, _ = batch_jaxpr(
        jaxpr, BatchAxis(prod(shape)), in_avals, (None,) * len(consts) + (0,) * len(flat),
        force_out=(True,) * len(jaxpr.outvars),
    )
    outs = eval_jaxpr(batched.jaxpr, batched.consts, *consts, *flat)
    return [reshape(o, shape) for o in outs]


# The monoids lax.reduce recognises: computation -> (identity test, reducer).
def _monoid_reducer(
    computation: object, init: Array
) -> Callable[[Array, Sequence[int]], Array] | None:
    """The reduce_* function for ``computation`` if ``init`` is a concrete
    identity of its monoid (JAX's rule), else None."""
    if init.shape:
        return None
    try:
        # A tracer of a known value (under jvp or vmap) counts, as in JAX.
        value = (host_buffer(init) if isinstance(init, ArrayImpl) else require_concrete(init, "item")).item()
    except ConcretizationTypeError:
        return None
    dtype = init.dtype
    if computation is arithmetic.add:
        return reduce_sum if value == 0 else None
    if computation is arithmetic.mul:
        return reduce_prod if value == 1 else None
    if computation is arithmetic.max:
        return reduce_max if value == _lowest(dtype) else None
    if computation is arithmetic.min:
        return reduce_min if value == _highest(dtype) else None
    if computation is comparison.bitwise_or and not dtypes.is_inexact(dtype):
        return reduce_or if value == 0 else None
    if computation is comparison.bitwise_xor and not dtypes.is_inexact(dtype):
        return reduce_xor if value == 0 else None
    if computation is comparison.bitwise_and and not dtypes.is_inexact(dtype):
        all_ones = np.array(-1).astype(dtype).item()
        return reduce_and if value == all_ones else None
    return None


def _lowest(dtype: np.dtype[Any]) -> object:
    if dtypes.is_bool(dtype):
        return False
    return -np.inf if dtypes.is_inexact(dtype) else np.iinfo(dtype).min


def _highest(dtype: np.dtype[Any]) -> object:
    if dtypes.is_bool(dtype):
        return True
    return np.inf if dtypes.is_inexact(dtype) else np.iinfo(dtype).max


@overload
def reduce(
    operands: ArrayLike, init_values: ArrayLike, computation: Callable[[Array, Array], ArrayLike],
    dimensions: Sequence[int],
) -> Array: ...
@overload
def reduce(
    operands: tuple[ArrayLike, ...],
    init_values: tuple[ArrayLike, ...],
    computation: Callable[[tuple[Array, ...], tuple[Array, ...]], tuple[ArrayLike, ...]],
    dimensions: Sequence[int],
) -> tuple[Array, ...]: ...
@overload
def reduce(
    operands: list[PyTree] | Mapping[str, PyTree],
    init_values: list[PyTree] | Mapping[str, PyTree],
    computation: Callable[..., PyTree],
    dimensions: Sequence[int],
) -> PyTree: ...
def reduce(
    operands: PyTree, init_values: PyTree, computation: Callable[..., PyTree], dimensions: Sequence[int]
) -> PyTree:
    """Reduce ``operands`` (a pytree of arrays of one shape) over
    ``dimensions`` with ``computation(accumulators, elements)`` starting
    from ``init_values`` (a pytree of scalars of the same structure and
    dtypes); JAX's ``lax.reduce``. The result has the structure of
    ``operands``."""
    op_leaves, op_names, op_tree = named_leaves(operands, "operands")
    init_leaves, init_names, init_tree = named_leaves(init_values, "init_values")
    if op_tree != init_tree:
        raise JaxtypedValueError(
            f"lax.reduce: operands must have the same tree structure as init_values: {op_tree} vs. {init_tree}"
        )
    ops = [leaf_as_array(leaf, f"lax.reduce {name}") for leaf, name in zip(op_leaves, op_names)]
    inits = [leaf_as_array(leaf, f"lax.reduce {name}") for leaf, name in zip(init_leaves, init_names)]
    if not ops:
        raise JaxtypedValueError("lax.reduce: needs at least one operand")
    ndim = ops[0].ndim
    given = check_int_tuple("lax.reduce", "dimensions", dimensions)
    for d in given:
        if not -ndim <= d < ndim:
            raise JaxtypedIndexError(f"lax.reduce: dimension {d} is out of bounds for operands of rank {ndim}")
    dims = tuple(canonicalize_axis(d, ndim, where="lax.reduce dimensions") for d in given)
    if len(ops) == 1 and len(inits) == 1:
        # JAX looks for a monoid before comparing dtypes (a Python 0.0
        # sums float16 operands).
        reducer = _monoid_reducer(computation, inits[0])
        if reducer is not None:
            return cast(PyTree, op_tree.unflatten([reducer(ops[0], dims)]))
    for o, i in zip(ops, inits):
        if o.dtype != i.dtype:
            raise JaxtypedTypeError(
                "lax.reduce: operand dtypes should match corresponding initial value dtypes, got operands "
                f"({short_types([x.aval for x in ops])}) and initial values ({short_types([x.aval for x in inits])})"
            )
    jaxpr = _trace_computation(computation, init_tree, [i.aval for i in inits])
    outs = bind(Reduce(jaxpr, dims), *ops, *inits)
    return cast(PyTree, op_tree.unflatten(list(outs)))


def _trace_computation(computation: Callable[..., PyTree], tree: PyTreeDef, init_avals: Sequence[ShapedArray]) -> Jaxpr:
    """``computation`` traced on scalar accumulators and elements (each of
    ``tree``'s structure) into a const-free jaxpr."""
    scalars = [ShapedArray((), a.dtype, a.weak_type) for a in init_avals]
    interp = StagingInterpreter(current_interpreter(), "lax.reduce computation", "lax.reduce")
    with transformation_scope(interp):
        accs = [interp.new_arg(a) for a in scalars]
        elems = [interp.new_arg(a) for a in scalars]
        out = computation(tree.unflatten(accs), tree.unflatten(elems))
        leaves, names, out_tree = named_leaves(out, "output")
        if out_tree != tree:
            raise JaxtypedTypeError(
                f"lax.reduce: the computation must return the structure of the operands ({tree}), got {out_tree}"
            )
        arrays = [leaf_as_array(leaf, f"lax.reduce computation {name}") for leaf, name in zip(leaves, names)]
        closed = interp.build(arrays)
    for a, want in zip(closed.jaxpr.out_avals, scalars):
        if a.shape != () or a.dtype != want.dtype:
            raise JaxtypedTypeError(
                f"lax.reduce: the computation must return scalars of the operands' dtypes ({want.str_short()}), "
                f"got {a.str_short()}"
            )
    if closed.consts:
        raise JaxtypedTypeError(
            "lax.reduce: the computation closes over array values "
            f"({short_types([c.aval for c in closed.consts])}); pass them as operands instead"
        )
    return closed.jaxpr
