"""Reductions for ``jaxtyped.numpy`` (layer L5): ``sum``, ``prod``,
``max``, ``min``, ``mean``, ``all``, ``any``, ``argmax``, ``argmin``.

dtypes follow JAX: sums and products of booleans and narrow integers
accumulate in the default integer type; ``mean`` of integers is a float;
results are never weakly typed.
"""

import builtins
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import reductions as lr
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import expand_dims, full_like_aval, reshape
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy.promotion import asarray_operand, to_inexact_dtype
from jaxtyped._src.numpy.ufuncs import where
from jaxtyped._src.util import axis_tuple, canonicalize_axes, canonicalize_axis, name_function

__all__ = ["sum", "prod", "max", "min", "amax", "amin", "mean", "all", "any", "argmax", "argmin"]

Axis = int | Sequence[int] | None


# The signatures of the functions the factories below build, so that type
# checkers check calls to ``jnp.sum`` & co. (runtime-checkable because the
# factories' return annotations name them, and debug mode checks those).
@runtime_checkable
class SumLike(Protocol):
    """The signature of ``sum`` and ``prod``."""

    def __call__(
        self,
        a: ArrayLike,
        axis: Axis = None,
        dtype: "dtypes.DTypeLike | None" = None,
        out: None = None,
        keepdims: bool = False,
        initial: ArrayLike | None = None,
        where: ArrayLike | None = None,
        promote_integers: bool = True,
    ) -> Array: ...


@runtime_checkable
class ExtremumLike(Protocol):
    """The signature of ``max`` and ``min``."""

    def __call__(
        self,
        a: ArrayLike,
        axis: Axis = None,
        out: None = None,
        keepdims: bool = False,
        initial: ArrayLike | None = None,
        where: ArrayLike | None = None,
    ) -> Array: ...


@runtime_checkable
class ArgExtremumLike(Protocol):
    """The signature of ``argmax`` and ``argmin``."""

    def __call__(self, a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Array: ...


def reduction_axes(name: str, x: Array, axis: Axis) -> tuple[int, ...]:
    """The sorted, nonnegative axes ``axis`` names (all of ``x``'s for
    None); errors name ``jnp.<name>``."""
    if axis is None:
        return tuple(range(x.ndim))
    given = axis_tuple(axis, f"jnp.{name} axis")
    return tuple(sorted(canonicalize_axes(given, x.ndim, where=f"jnp.{name} axis")))


def _keep(x: Array, axes: tuple[int, ...], keepdims: bool) -> Array:
    return expand_dims(x, axes) if keepdims and axes else x


def accumulation_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype sums and products of ``dtype`` accumulate in: booleans
    and integers narrower than the default (unsigned) integer widen to it."""
    if dtypes.is_bool(dtype):
        return dtypes.default_int_dtype()
    if dtypes.is_integer(dtype):
        default = dtypes.default_uint_dtype() if dtypes.is_unsigned_integer(dtype) else dtypes.default_int_dtype()
        return default if dtype.itemsize < default.itemsize else dtype
    return dtype


def _accumulator(x: Array, dtype: "dtypes.DTypeLike | None") -> np.dtype[Any]:
    if dtype is not None:
        return dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    return accumulation_dtype(x.dtype)


def check_out(name: str, out: None) -> None:
    """Reject NumPy's ``out=`` argument (arrays are immutable)."""
    if out is not None:
        raise JaxtypedTypeError(f"jnp.{name}: the out argument is not supported (arrays are immutable)")


def _masked(x: Array, where_: ArrayLike | None, identity: bool | int | float) -> Array:
    if where_ is None:
        return x
    return where(where_, x, scalar_like(identity, x.dtype, "where identity"))


def _sum_like(
    name: str,
    reduce: Callable[[Array, tuple[int, ...]], Array],
    identity: int,
    combine: Callable[[Array, Array], Array],
) -> SumLike:
    def fun(
        a: ArrayLike,
        axis: Axis = None,
        dtype: "dtypes.DTypeLike | None" = None,
        out: None = None,
        keepdims: bool = False,
        initial: ArrayLike | None = None,
        where: ArrayLike | None = None,
        promote_integers: bool = True,
    ) -> Array:
        check_out(name, out)
        x = asarray_operand(name, a)
        axes = reduction_axes(name, x, axis)
        accumulator = _accumulator(x, dtype) if promote_integers or dtype is not None else x.dtype
        x = convert_to(x, accumulator, weak_type=False)
        # Booleans have no sum or product primitive: they are or and and.
        boolean_reduce = {0: lr.reduce_max, 1: lr.reduce_min}[identity] if dtypes.is_bool(x.dtype) else reduce
        result = boolean_reduce(_masked(x, where, identity), axes)
        if initial is not None:
            result = combine(result, convert_to(asarray_operand(name, initial), result.dtype, weak_type=False))
        return _keep(result, axes, keepdims)

    return name_function(fun, name)


sum: SumLike = _sum_like("sum", lr.reduce_sum, 0, la.add)  # noqa: A001 - NumPy's name
sum.__doc__ = "Sum of elements over ``axis`` (all axes by default)."
prod: SumLike = _sum_like("prod", lr.reduce_prod, 1, la.mul)
prod.__doc__ = "Product of elements over ``axis`` (all axes by default)."


def _extremum(name: str, reduce: Callable[[Array, tuple[int, ...]], Array], pick: Callable[[Array, Array], Array]) -> ExtremumLike:
    def fun(
        a: ArrayLike,
        axis: Axis = None,
        out: None = None,
        keepdims: bool = False,
        initial: ArrayLike | None = None,
        where: ArrayLike | None = None,
    ) -> Array:
        check_out(name, out)
        x = asarray_operand(name, a)
        axes = reduction_axes(name, x, axis)
        if initial is None and builtins.any(x.shape[i] == 0 for i in axes):
            raise JaxtypedValueError(
                f"jnp.{name}: zero-size array {x.aval.str_short()} to reduction operation {name}, "
                "which has no identity; pass initial="
            )
        if where is not None and initial is None:
            raise JaxtypedValueError(f"jnp.{name}: reductions with where= need initial=")
        x = x if where is None else where_select(where, x, initial)
        result = reduce(convert_to(x, x.dtype, weak_type=False), axes)
        if initial is not None:
            result = pick(result, convert_to(asarray_operand(name, initial), result.dtype, weak_type=False))
        return _keep(result, axes, keepdims)

    return name_function(fun, name)


def where_select(mask: ArrayLike, x: Array, fill: ArrayLike | None) -> Array:
    """``x`` where ``mask`` holds, ``fill`` elsewhere (in ``x``'s dtype)."""
    assert fill is not None
    return where(mask, x, convert_to(asarray_operand("where", fill), x.dtype, weak_type=False))


max: ExtremumLike = _extremum("max", lr.reduce_max, la.max)  # noqa: A001 - NumPy's name
max.__doc__ = "Maximum over ``axis`` (all axes by default)."
min: ExtremumLike = _extremum("min", lr.reduce_min, la.min)  # noqa: A001 - NumPy's name
min.__doc__ = "Minimum over ``axis`` (all axes by default)."
amax = max
amin = min


def mean(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    keepdims: bool = False,
    where: ArrayLike | None = None,
) -> Array:
    """Arithmetic mean over ``axis`` (integers give the default float)."""
    check_out("mean", out)
    x = asarray_operand("mean", a)
    axes = reduction_axes("mean", x, axis)
    target = dtypes.canonicalize_dtype(dtypes.dtype(dtype)) if dtype is not None else to_inexact_dtype(x.dtype)
    x = convert_to(x, target, weak_type=False)
    if where is None:
        count: Array = scalar_like(int(np.prod([x.shape[i] for i in axes])), target, "jnp.mean")
        total = lr.reduce_sum(x, axes)
    else:
        mask = convert_to(where_select(where, _ones_like(x), 0), target, weak_type=False)
        total = lr.reduce_sum(la.mul(x, mask), axes)
        count = lr.reduce_sum(mask, axes)
    return _keep(la.div(total, count), axes, keepdims)


def _ones_like(x: Array) -> Array:
    return full_like_aval(x.aval, 1)


def all(  # noqa: A001 - NumPy's name
    a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None
) -> Array:
    """Whether every element is true (nonzero) over ``axis`` (elements
    outside ``where`` count as true)."""
    check_out("all", out)
    x = _masked(_as_bool(asarray_operand("all", a)), where, True)
    axes = reduction_axes("all", x, axis)
    return _keep(lr.reduce_min(x, axes), axes, keepdims)


def any(  # noqa: A001 - NumPy's name
    a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None
) -> Array:
    """Whether any element is true (nonzero) over ``axis`` (elements
    outside ``where`` count as false)."""
    check_out("any", out)
    x = _masked(_as_bool(asarray_operand("any", a)), where, False)
    axes = reduction_axes("any", x, axis)
    return _keep(lr.reduce_max(x, axes), axes, keepdims)


def _as_bool(x: Array) -> Array:
    """``x != 0`` as a strongly typed boolean (reductions drop weak types)."""
    as_bool = x if dtypes.is_bool(x.dtype) else lcmp.ne(x, scalar_like(0, x.dtype, "zero", weak_type=False))
    return convert_to(as_bool, as_bool.dtype, weak_type=False)


def _arg_extremum(name: str, reduce: Callable[[Array, int, "dtypes.DTypeLike"], Array]) -> ArgExtremumLike:
    def fun(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Array:
        check_out(name, out)
        x = asarray_operand(name, a)
        if axis is None:
            flat = reshape(x, (x.size,))
            if flat.size == 0:
                raise JaxtypedValueError(f"jnp.{name}: attempt to get {name} of an empty sequence")
            result = reduce(flat, 0, dtypes.default_int_dtype())
            return reshape(result, (1,) * x.ndim) if keepdims else result
        ax = canonicalize_axis(axis, x.ndim, where=f"jnp.{name} axis")
        if x.shape[ax] == 0:
            raise JaxtypedValueError(f"jnp.{name}: attempt to get {name} of an empty sequence")
        result = reduce(x, ax, dtypes.default_int_dtype())
        return expand_dims(result, (ax,)) if keepdims else result

    return name_function(fun, name)


argmax: ArgExtremumLike = _arg_extremum("argmax", lr.argmax)
argmax.__doc__ = "Index of the maximum along ``axis`` (of the flattened array by default)."
argmin: ArgExtremumLike = _arg_extremum("argmin", lr.argmin)
argmin.__doc__ = "Index of the minimum along ``axis`` (of the flattened array by default)."
