"""``ragged_dot_general``: the grouped matrix product of mixture-of-experts
models, JAX's ``lax.ragged_dot`` and ``lax.ragged_dot_general`` (layer L4).

``group_sizes`` splits the lhs *ragged* axis into ``g`` consecutive groups.
JAX's three modes, by the kind of that axis:

1. a non-contracting axis ``m``: group ``i``'s rows are multiplied by slice
   ``i`` of the rhs *group* axis (``[m, k] x [g, k, n] -> [m, n]``);
2. a contracting axis ``k``: each group is contracted on its own and the
   result gets a leading group axis (``[m, k] x [k, n] -> [g, m, n]``);
3. a batch axis: the groups change nothing (a plain batched product).

Elements of the ragged axis past the groups' total belong to no group: their
rows are zeros in mode 1 and they contribute nothing in mode 2, as in JAX.
Evaluation and lowering are JAX's CPU formulation (its
``_ragged_dot_general_impl``): the ragged operand is expanded to a dense
``[g, ...]`` array masked by group membership, and one ``dot_general``
contracts it, so values (integers bit for bit) equal JAX's.

Beyond JAX: ``vmap`` batches any operand at any axis (JAX batches only all
three at axis 0), and reverse mode works in every mode (JAX transposes only
mode 1): mode 2's cotangents are mode-1 products, mode 3's are
``dot_general``'s.
"""

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer, wrap_buffer
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import EVAL, bind1, interpreting
from jaxtyped._src.core.primitive import LinearArg, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError
from jaxtyped._src.lax.arithmetic import add_tangents, sub
from jaxtyped._src.lax.bilinear import check_one_linear
from jaxtyped._src.lax.comparison import bitwise_and, le, lt
from jaxtyped._src.lax.convenience import full_like, select
from jaxtyped._src.lax.cumulative import cumsum
from jaxtyped._src.lax.dot import DotDimensionNumbers, DotGeneral, PrecisionLike, canonicalize_precision, dot_general
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import bdim_to_front, broadcast_in_dim, broadcasted_iota, inverse_permutation, moveaxis, transpose
from jaxtyped._src.lax.util import check_arity, check_int_tuple, as_operand, short_types

__all__ = ["RaggedDotDimensionNumbers", "RaggedDotGeneral", "ragged_dot", "ragged_dot_general"]


@final
@dataclass(frozen=True, slots=True)
class RaggedDotDimensionNumbers:
    """The dimension numbers of :func:`ragged_dot_general` (JAX's
    ``lax.RaggedDotDimensionNumbers``): ``dot_dimension_numbers`` as
    ``dot_general``'s ``((lhs_contracting, rhs_contracting), (lhs_batch,
    rhs_batch))``, the lhs ragged axis (exactly one) and the rhs group axes
    (one in mode 1, none otherwise). Any int sequences are accepted and kept
    as tuples."""

    dot_dimension_numbers: DotDimensionNumbers
    lhs_ragged_dimensions: tuple[int, ...]
    rhs_group_dimensions: tuple[int, ...]

    def __init__(
        self,
        dot_dimension_numbers: Sequence[Sequence[Sequence[int]]],
        lhs_ragged_dimensions: Sequence[int],
        rhs_group_dimensions: Sequence[int],
    ) -> None:
        where = "lax.RaggedDotDimensionNumbers"
        try:
            (lc, rc), (lb, rb) = dot_dimension_numbers
        except (TypeError, ValueError):
            raise JaxtypedTypeError(
                f"{where}: dot_dimension_numbers must be ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)), "
                f"got {dot_dimension_numbers!r}"
            ) from None
        axes = [check_int_tuple(where, "dot_dimension_numbers", a) for a in (lc, rc, lb, rb)]
        object.__setattr__(self, "dot_dimension_numbers", ((axes[0], axes[1]), (axes[2], axes[3])))
        object.__setattr__(self, "lhs_ragged_dimensions", check_int_tuple(where, "lhs_ragged_dimensions", lhs_ragged_dimensions))
        object.__setattr__(self, "rhs_group_dimensions", check_int_tuple(where, "rhs_group_dimensions", rhs_group_dimensions))


class _Mode(enum.Enum):
    """What kind of lhs axis is ragged (JAX's ``RaggedDotMode``)."""

    RAGGED_NONCONTRACTING = 1
    RAGGED_CONTRACTING = 2
    RAGGED_BATCH = 3


def _remaining(n: int, *taken: Sequence[int]) -> tuple[int, ...]:
    return tuple(i for i in range(n) if not any(i in t for t in taken))


def _incr(axes: Sequence[int]) -> tuple[int, ...]:
    return tuple(a + 1 for a in axes)


def _mode(lhs_ndim: int, numbers: RaggedDotDimensionNumbers) -> tuple[_Mode, int]:
    (ragged,) = numbers.lhs_ragged_dimensions
    (lc, _), (lb, _) = numbers.dot_dimension_numbers
    if ragged in lc:
        return _Mode.RAGGED_CONTRACTING, ragged
    if ragged in lb:
        return _Mode.RAGGED_BATCH, ragged
    return _Mode.RAGGED_NONCONTRACTING, ragged


def _prefix(mode: _Mode, ndim: int, ragged: int, batch: tuple[int, ...], contract: tuple[int, ...]) -> tuple[int, ...]:
    """The operand's axes that ``group_sizes``'s leading axes stand for
    (JAX's ``_ragged_dot_prefix_dims``): the batch axes and the axes of the
    ragged axis's kind listed before it."""
    if mode is _Mode.RAGGED_NONCONTRACTING:
        free = _remaining(ndim, contract, batch)
        return batch + free[: free.index(ragged)]
    if mode is _Mode.RAGGED_CONTRACTING:
        return batch + contract[: contract.index(ragged)]
    return batch[: batch.index(ragged)]


def _expand(x: Array, ragged: int, group_sizes: Array, prefix: tuple[int, ...]) -> Array:
    """``x`` with a new leading group axis: slice ``i`` keeps the elements
    whose index along ``ragged`` lies in group ``i`` (``[start_i, end_i)``
    from the cumulative sizes, in their integer type, as JAX computes them)
    and is zero elsewhere. ``group_sizes`` is ``[g]`` or ``[*prefix, g]``."""
    shape = (group_sizes.shape[-1], *x.shape)
    ends = cumsum(group_sizes, axis=group_sizes.ndim - 1)
    starts = sub(ends, group_sizes)  # the previous end, wrapping as the sum does
    if group_sizes.ndim == 1:
        order: tuple[int, ...] = (0,)
        targets: tuple[int, ...] = (0,)
    else:  # broadcast_in_dim maps axes in increasing order: the group axis first, then the prefix by position in x
        by_position = sorted(range(len(prefix)), key=lambda i: prefix[i])
        order = (group_sizes.ndim - 1, *by_position)
        targets = (0, *(1 + prefix[i] for i in by_position))
        ends, starts = transpose(ends, order), transpose(starts, order)
    index = broadcasted_iota(group_sizes.dtype, shape, ragged + 1)
    inside = bitwise_and(le(broadcast_in_dim(starts, shape, targets), index), lt(index, broadcast_in_dim(ends, shape, targets)))
    tiled = broadcast_in_dim(x, shape, tuple(range(1, x.ndim + 1)))
    return select(inside, tiled, full_like(tiled, 0))


@final
@dataclass(frozen=True, slots=True)
class RaggedDotGeneral(Primitive):
    """``dot_general`` of ``lhs`` and ``rhs`` whose lhs ragged axis is split
    into groups by the integer ``group_sizes`` (JAX's
    ``ragged_dot_general_p``; see the module's docstring for the modes)."""

    ragged_dot_dimension_numbers: RaggedDotDimensionNumbers
    precision: None = None
    preferred_element_type: np.dtype[Any] | None = None
    name = "ragged_dot_general"

    def _dot(self) -> DotGeneral:
        return DotGeneral(self.ragged_dot_dimension_numbers.dot_dimension_numbers, None, self.preferred_element_type)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 3)
        lhs, rhs, group_sizes = avals
        numbers = self.ragged_dot_dimension_numbers
        (lc, rc), (lb, rb) = numbers.dot_dimension_numbers
        where = f"ragged_dot_general with {numbers} on ({short_types(avals)})"
        if len(numbers.lhs_ragged_dimensions) != 1:
            raise JaxtypedTypeError(f"{where}: expects exactly one lhs ragged dimension")
        (ragged,) = numbers.lhs_ragged_dimensions
        if not 0 <= ragged < lhs.ndim:
            raise JaxtypedTypeError(f"{where}: the lhs ragged dimension {ragged} is out of range for lhs of rank {lhs.ndim}")
        for axes, aval, side in ((lc + lb, lhs, "lhs"), (rc + rb, rhs, "rhs")):
            if len(set(axes)) != len(axes) or any(not 0 <= a < aval.ndim for a in axes):
                raise JaxtypedTypeError(f"{where}: {side} contracting and batch axes out of range or repeated")
        if len(lc) != len(rc) or len(lb) != len(rb):
            raise JaxtypedTypeError(f"{where}: lhs and rhs need as many contracting and batch axes")
        for a, b in (*zip(lc, rc), *zip(lb, rb)):
            if lhs.shape[a] != rhs.shape[b]:
                raise JaxtypedTypeError(f"{where}: axis {a} of lhs has size {lhs.shape[a]} but axis {b} of rhs has size {rhs.shape[b]}")
        mode, _ = _mode(lhs.ndim, numbers)
        if not dtypes.is_integer(group_sizes.dtype):
            raise JaxtypedTypeError(f"{where}: group_sizes must have an integer dtype, got {group_sizes.dtype}")
        if group_sizes.ndim == 0:
            raise JaxtypedTypeError(f"{where}: group_sizes must have rank >= 1, got a scalar")
        if group_sizes.ndim != 1:
            expected = (*(lhs.shape[i] for i in _prefix(mode, lhs.ndim, ragged, lb, lc)), group_sizes.shape[-1])
            if group_sizes.shape != expected:
                raise JaxtypedTypeError(f"{where}: expected group_sizes to have shape {expected}, got {group_sizes.shape}")
        groups = group_sizes.shape[-1]
        rg = numbers.rhs_group_dimensions
        if mode is _Mode.RAGGED_NONCONTRACTING:
            if len(rg) != 1:
                raise JaxtypedTypeError(f"{where}: a non-contracting lhs ragged dimension needs exactly one rhs group dimension")
            if not 0 <= rg[0] < rhs.ndim:
                raise JaxtypedTypeError(f"{where}: the rhs group dimension {rg[0]} is out of range for rhs of rank {rhs.ndim}")
            if rg[0] in rb or rg[0] in rc:
                raise JaxtypedTypeError(f"{where}: the rhs group dimension must be neither contracting nor batch")
            if rhs.shape[rg[0]] != groups:
                raise JaxtypedTypeError(f"{where}: expected rhs group dimension size to be {groups}, got {rhs.shape[rg[0]]}")
        elif rg:
            raise JaxtypedTypeError(f"{where}: a contracting or batch lhs ragged dimension takes no rhs group dimensions")
        try:
            dtype = self._dot().out_dtype(lhs, rhs)
        except JaxtypedTypeError as e:
            raise JaxtypedTypeError(f"{where}: {e}") from None
        shape = (
            tuple(lhs.shape[a] for a in lb)
            + tuple(lhs.shape[a] for a in _remaining(lhs.ndim, lc, lb))
            + tuple(rhs.shape[a] for a in _remaining(rhs.ndim, rc, rb, rg))
        )
        if mode is _Mode.RAGGED_CONTRACTING:
            shape = (groups, *shape)
        return (ShapedArray(shape, dtype, lhs.weak_type and rhs.weak_type and group_sizes.weak_type),)

    def dense(self, lhs: Array, rhs: Array, group_sizes: Array) -> Array:
        """The product as JAX computes it on CPU: the ragged as_operand(s)
        expanded to a masked ``[g, ...]`` array and one ``dot_general``."""
        numbers = self.ragged_dot_dimension_numbers
        (lc, rc), (lb, rb) = numbers.dot_dimension_numbers
        mode, ragged = _mode(lhs.ndim, numbers)
        preferred = self.preferred_element_type
        if mode is _Mode.RAGGED_BATCH:
            return dot_general(lhs, rhs, numbers.dot_dimension_numbers, preferred_element_type=preferred)
        expanded = _expand(lhs, ragged, group_sizes, _prefix(mode, lhs.ndim, ragged, lb, lc))
        if mode is _Mode.RAGGED_NONCONTRACTING:
            (group,) = numbers.rhs_group_dimensions
            dims = ((_incr(lc) + (0,), rc + (group,)), (_incr(lb), rb))
            return dot_general(expanded, rhs, dims, preferred_element_type=preferred)
        rhs_ragged = rc[lc.index(ragged)]
        rhs_expanded = _expand(rhs, rhs_ragged, group_sizes, _prefix(mode, rhs.ndim, rhs_ragged, rb, rc))
        dims = ((_incr(lc), _incr(rc)), ((0, *_incr(lb)), (0, *_incr(rb))))
        return dot_general(expanded, rhs_expanded, dims, preferred_element_type=preferred)

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        # The dense formulation, op by op on NumPy (each op's own impl).
        with interpreting(EVAL):
            out = self.dense(*args)
        if type(out) is not ArrayImpl:
            raise AssertionError(f"internal error: eager ragged_dot_general produced {type(out).__name__}")
        return (wrap_buffer(host_buffer(out), out_avals[0], self.name),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        def dense(lhs: Array, rhs: Array, group_sizes: Array) -> tuple[Array]:
            return (self.dense(lhs, rhs, group_sizes),)

        return ctx.lower_fun(dense, args)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Bilinear in lhs and rhs; the integer group sizes have no tangent.
        (lhs, rhs, group_sizes), (t_lhs, t_rhs, _) = primals, tangents
        out = bind1(self, lhs, rhs, group_sizes)
        total: Tangent = Zero(out.aval.to_tangent_aval())
        if not isinstance(t_lhs, Zero):
            total = add_tangents(total, bind1(self, t_lhs, rhs, group_sizes))
        if not isinstance(t_rhs, Zero):
            total = add_tangents(total, bind1(self, lhs, t_rhs, group_sizes))
        return (out,), (total,)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Each cotangent is a ragged product again: mode 1's lhs cotangent a
        # mode-1 product and its rhs cotangent a mode-2 one (JAX's rule);
        # mode 2's are mode-1 products (JAX has none); mode 3 ignores the
        # groups, so its cotangents are dot_general's.
        (ct,), (lhs, rhs, group_sizes) = cts, args
        assert not isinstance(ct, Zero) and not isinstance(group_sizes, UndefinedPrimal)
        check_one_linear(self.name, lhs, rhs)
        numbers = self.ragged_dot_dimension_numbers
        mode, _ = _mode(lhs.aval.ndim, numbers)
        if mode is _Mode.RAGGED_BATCH:
            cotangents = self._dot().transpose(cts, (lhs, rhs))
            return (*cotangents, None)
        lhs_is_linear = isinstance(lhs, UndefinedPrimal)
        known = rhs if lhs_is_linear else lhs
        assert not isinstance(known, UndefinedPrimal)
        linear = (lhs if lhs_is_linear else rhs).aval
        if mode is _Mode.RAGGED_NONCONTRACTING:
            product, axes = self._noncontracting_cotangent(ct, known, group_sizes, lhs.aval.ndim, rhs.aval.ndim, lhs_is_linear)
        else:
            product, axes = self._contracting_cotangent(ct, known, group_sizes, lhs.aval.ndim, rhs.aval.ndim, lhs_is_linear)
        cotangent = transpose(product, inverse_permutation(axes))
        want = linear.to_tangent_aval()
        if cotangent.dtype != want.dtype:
            cotangent = convert_to(cotangent, want.dtype, weak_type=want.weak_type)
        return (cotangent, None, None) if lhs_is_linear else (None, cotangent, None)

    def _noncontracting_cotangent(
        self, ct: Array, known: Array, group_sizes: Array, lhs_ndim: int, rhs_ndim: int, lhs_is_linear: bool
    ) -> tuple[Array, tuple[int, ...]]:
        """JAX's transpose of mode 1: the product giving the linear
        operand's cotangent and the operand's axes its result holds."""
        numbers = self.ragged_dot_dimension_numbers
        (lc, rc), (lb, rb) = numbers.dot_dimension_numbers
        _, ragged = _mode(lhs_ndim, numbers)
        rg = numbers.rhs_group_dimensions
        lhs_kept = _remaining(lhs_ndim, lc, lb)
        rhs_kept = _remaining(rhs_ndim, rc, rb, rg)
        ct_batch = tuple(range(len(lb)))
        ct_lhs = tuple(range(len(lb), len(lb) + len(lhs_kept)))
        if lhs_is_linear:
            ct_rhs = tuple(range(len(lb) + len(lhs_kept), ct.ndim))
            dims = RaggedDotDimensionNumbers(((ct_rhs, rhs_kept), (ct_batch, rb)), (len(lb) + lhs_kept.index(ragged),), rg)
            product = bind1(self._with(dims), ct, known, group_sizes)
            return product, (*lb, *lhs_kept, *(lc[i] for i in sorted(range(len(rc)), key=rc.__getitem__)))
        dims = RaggedDotDimensionNumbers(((lhs_kept, ct_lhs), (lb, ct_batch)), (ragged,), ())
        product = bind1(self._with(dims), known, ct, group_sizes)
        return product, (*rg, *rb, *(rc[i] for i in sorted(range(len(lc)), key=lc.__getitem__)), *rhs_kept)

    def _contracting_cotangent(
        self, ct: Array, known: Array, group_sizes: Array, lhs_ndim: int, rhs_ndim: int, lhs_is_linear: bool
    ) -> tuple[Array, tuple[int, ...]]:
        """The transpose of mode 2, ``ct`` being ``[g, batch, lhs free, rhs
        free]``: the known operand, laid out as ``[batch, contracting (in
        the listed order), free]`` so that the groups' prefix is unchanged,
        ragged along its contracting axis, times ``ct`` grouped along its
        first axis, contracted over the known operand's free axes."""
        numbers = self.ragged_dot_dimension_numbers
        (lc, rc), (lb, rb) = numbers.dot_dimension_numbers
        _, ragged = _mode(lhs_ndim, numbers)
        lhs_free, rhs_free = _remaining(lhs_ndim, lc, lb), _remaining(rhs_ndim, rc, rb)
        nb, nc = len(lb), len(lc)
        known_batch, known_contract, known_free = (rb, rc, rhs_free) if lhs_is_linear else (lb, lc, lhs_free)
        laid_out = transpose(known, (*known_batch, *known_contract, *known_free))
        # Where the known operand's free axes sit in ct.
        start = 1 + nb + (len(lhs_free) if lhs_is_linear else 0)
        ct_free = tuple(range(start, start + len(known_free)))
        dims = RaggedDotDimensionNumbers(
            ((tuple(range(nb + nc, nb + nc + len(known_free))), ct_free), (tuple(range(nb)), tuple(range(1, nb + 1)))),
            (nb + lc.index(ragged),),
            (0,),
        )
        product = bind1(self._with(dims), laid_out, ct, group_sizes)
        if lhs_is_linear:
            return product, (*lb, *lc, *lhs_free)
        return product, (*rb, *rc, *rhs_free)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (lhs, rhs, group_sizes), (ld, rd, gd) = args, dims
        numbers = self.ragged_dot_dimension_numbers
        (lc, rc), (lb, rb) = numbers.dot_dimension_numbers
        rg = numbers.rhs_group_dimensions
        lhs_ndim = lhs.ndim - (ld is not None)
        mode, ragged = _mode(lhs_ndim, numbers)
        lead = int(mode is _Mode.RAGGED_CONTRACTING)  # the result's group axis
        lhs_free = len(_remaining(lhs_ndim, lc, lb))
        if gd is None and rd is None:
            # A free lhs axis after every other: the groups' prefix is unchanged.
            assert ld is not None
            new = RaggedDotDimensionNumbers(((lc, rc), (lb, rb)), (ragged,), rg)
            out = bind1(self._with(new), moveaxis(lhs, ld, lhs_ndim), rhs, group_sizes)
            return (out,), (lead + len(lb) + lhs_free,)
        if gd is None and ld is None:
            assert rd is not None
            rhs_ndim = rhs.ndim - 1
            new = RaggedDotDimensionNumbers(((lc, rc), (lb, rb)), (ragged,), rg)
            out = bind1(self._with(new), lhs, moveaxis(rhs, rd, rhs_ndim), group_sizes)
            return (out,), (lead + len(lb) + lhs_free + len(_remaining(rhs_ndim, rc, rb, rg)),)
        prefix_sizes = tuple(lhs.shape[i + (ld is not None and i >= ld)] for i in _prefix(mode, lhs_ndim, ragged, lb, lc))
        lhs = bdim_to_front(lhs, ld, axis.size)
        if mode is _Mode.RAGGED_NONCONTRACTING and rd is None:
            # The batch axis as the lhs's first free axis (in the groups'
            # prefix, after the batch axes): the rhs, the experts' weights,
            # is not copied per example.
            new = RaggedDotDimensionNumbers(((_incr(lc), rc), (_incr(lb), rb)), (ragged + 1,), rg)
            at = len(lb)
        else:
            rhs = bdim_to_front(rhs, rd, axis.size)
            new = RaggedDotDimensionNumbers(((_incr(lc), _incr(rc)), ((0, *_incr(lb)), (0, *_incr(rb)))), (ragged + 1,), _incr(rg))
            at = 0
        sizes = (*prefix_sizes[:at], axis.size, *prefix_sizes[at:])
        if gd is not None:
            group_sizes = moveaxis(group_sizes, gd, 0)
            if group_sizes.ndim == 2:  # one [g] per example: spelled out over the whole prefix
                shape = (*sizes, group_sizes.shape[-1])
                group_sizes = broadcast_in_dim(group_sizes, shape, (at, len(shape) - 1))
            else:
                group_sizes = moveaxis(group_sizes, 0, at)
        elif group_sizes.ndim > 1:
            shape = (*sizes, group_sizes.shape[-1])
            group_sizes = broadcast_in_dim(group_sizes, shape, tuple(i for i in range(len(shape)) if i != at))
        out = bind1(self._with(new), lhs, rhs, group_sizes)
        return (out,), (lead + at,)

    def _with(self, numbers: RaggedDotDimensionNumbers) -> "RaggedDotGeneral":
        return RaggedDotGeneral(numbers, self.precision, self.preferred_element_type)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        # JAX's parameters, its unimplemented group_offset and sharding included.
        return (("group_offset", None), ("out_sharding", None), *self.params())


def _group_offset_unimplemented(group_offset: ArrayLike | None) -> None:
    if group_offset is not None:
        raise JaxtypedNotImplementedError("Unimplemented group_offset support.")


# ``ragged_dot``'s numbers: [m, k] x [g, k, n], rows ragged, rhs axis 0 the groups.
_BASIC = RaggedDotDimensionNumbers((((1,), (1,)), ((), ())), (0,), (0,))


def ragged_dot_general(
    lhs: ArrayLike,
    rhs: ArrayLike,
    group_sizes: ArrayLike,
    ragged_dot_dimension_numbers: RaggedDotDimensionNumbers,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
    group_offset: ArrayLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Grouped matrix product (JAX's ``lax.ragged_dot_general``): like
    ``dot_general``, with the lhs ragged axis split into consecutive groups
    of ``group_sizes`` (integers, ``[g]`` or ``[*prefix, g]``). A ragged
    non-contracting axis multiplies each group by its slice of the rhs group
    axis; a ragged contracting axis contracts each group separately and adds
    a leading axis of size ``g``; a ragged batch axis is a plain batched
    product. ``precision`` is checked and has no effect on CPU.

    Raises:
        JaxtypedTypeError: wrong ranks, sizes or dimension numbers, or
            ``group_sizes`` not integer or of the wrong shape.
        JaxtypedNotImplementedError: ``group_offset`` is given
            (unimplemented in JAX too).
    """
    del out_sharding  # one device: nothing to lay out
    _group_offset_unimplemented(group_offset)
    if not isinstance(ragged_dot_dimension_numbers, RaggedDotDimensionNumbers):  # pyright: ignore[reportUnnecessaryIsInstance]  # untyped callers pass JAX's tuples
        raise JaxtypedTypeError(
            "lax.ragged_dot_general: ragged_dot_dimension_numbers must be a lax.RaggedDotDimensionNumbers, "
            f"got {ragged_dot_dimension_numbers!r}"
        )
    canonicalize_precision(precision, "lax.ragged_dot_general")
    preferred = None if preferred_element_type is None else dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type))
    a = as_operand(lhs, "lax.ragged_dot_general lhs")
    b = as_operand(rhs, "lax.ragged_dot_general rhs")
    sizes = as_operand(group_sizes, "lax.ragged_dot_general group_sizes")
    return bind1(RaggedDotGeneral(ragged_dot_dimension_numbers, None, preferred), a, b, sizes)


def ragged_dot(
    lhs: ArrayLike,
    rhs: ArrayLike,
    group_sizes: ArrayLike,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
    group_offset: ArrayLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Grouped matrix product (JAX's ``lax.ragged_dot``): ``lhs`` ``[m, k]``
    split into consecutive row groups of ``group_sizes`` (``[g]``,
    integers), group ``i`` multiplied by ``rhs[i]`` (``rhs`` ``[g, k, n]``),
    giving ``[m, n]``; rows past the groups' total are zero.

    Raises:
        JaxtypedTypeError: ``lhs`` is not of rank 2 or ``rhs`` of rank 3,
            their ``k`` or ``g`` differ, or ``group_sizes`` is not an
            integer ``[g]``.
        JaxtypedNotImplementedError: ``group_offset`` is given
            (unimplemented in JAX too).
    """
    del out_sharding  # one device: nothing to lay out
    _group_offset_unimplemented(group_offset)
    a = as_operand(lhs, "lax.ragged_dot lhs")
    b = as_operand(rhs, "lax.ragged_dot rhs")
    sizes = as_operand(group_sizes, "lax.ragged_dot group_sizes")
    if a.ndim != 2 or b.ndim != 3:
        raise JaxtypedTypeError(
            f"lax.ragged_dot: lhs must be [m, k] and rhs [g, k, n], got {a.aval.str_short()} and {b.aval.str_short()}"
        )
    return ragged_dot_general(a, b, sizes, _BASIC, precision, preferred_element_type)
