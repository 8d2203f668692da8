"""Comparison, logic and dtype predicates of ``jaxtyped.numpy`` (layer L5):
``isclose``/``allclose``, ``array_equal``/``array_equiv``, the
``is*``/``signbit`` predicates, ``can_cast`` and ``isdtype``.

Results follow JAX: comparisons of inexact operands use the tolerances in
the operands' (real) dtype; integers and booleans compare exactly.
"""

from collections.abc import Callable, Iterable
from typing import Any, cast

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import complex_ops as lc
from jaxtyped._src.lax.bitwise_misc import bitcast_convert_type
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import full_like_aval
from jaxtyped._src.lax.util import scalar_like, strong_constant_like
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import asarray_operand, promote_args

__all__ = [
    "isclose", "allclose", "array_equal", "array_equiv", "isneginf", "isposinf", "isreal",
    "iscomplex", "isrealobj", "iscomplexobj", "isscalar", "iterable", "signbit", "can_cast",
    "isdtype",
]  # fmt: skip


def _full_bool(like: Array, value: bool) -> Array:
    return full_like_aval(like.aval.update(dtype=np.dtype(np.bool_), weak_type=False), value)


def _tolerance(name: str, value: ArrayLike, dtype: np.dtype[Any]) -> Array:
    return convert_to(asarray_operand(name, value), dtype, weak_type=False)


def isclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-05, atol: ArrayLike = 1e-08, equal_nan: bool = False) -> Array:
    """Whether ``|a - b| <= atol + rtol * |b|`` elementwise (infinities are
    close only to themselves; NaNs to NaNs when ``equal_nan``)."""
    x, y = promote_args("isclose", a, b)
    if not dtypes.is_inexact(x.dtype):
        return lcmp.eq(x, y)
    real_dtype = lc.real(x).dtype if dtypes.is_complex(x.dtype) else x.dtype
    rtol_, atol_ = _tolerance("isclose", rtol, real_dtype), _tolerance("isclose", atol, real_dtype)
    distance = la.abs(la.sub(x, y))
    close = lcmp.le(distance, la.add(atol_, la.mul(rtol_, la.abs(y))))
    infinite = lcmp.bitwise_or(uf.isinf(x), uf.isinf(y))
    close = uf.where(infinite, lcmp.eq(x, y), close)
    if equal_nan:
        close = lcmp.bitwise_or(close, lcmp.bitwise_and(uf.isnan(x), uf.isnan(y)))
    return close


def allclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-05, atol: ArrayLike = 1e-08, equal_nan: bool = False) -> Array:
    """Whether every element of ``a`` is close to ``b`` (see :func:`isclose`)."""
    return red.all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> Array:
    """Whether ``a1`` and ``a2`` have the same shape and elements (a
    boolean Array; NaNs are equal when ``equal_nan``)."""
    try:
        x, y = asarray(a1), asarray(a2)
    except TypeError:
        return asarray(False)
    if x.shape != y.shape:
        return asarray(False)
    equal = uf.equal(x, y)
    if equal_nan:
        equal = lcmp.bitwise_or(equal, lcmp.bitwise_and(uf.isnan(x), uf.isnan(y)))
    return red.all(equal)


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> Array:
    """Whether ``a1`` and ``a2`` are equal once broadcast together (shapes
    that do not broadcast raise, as in JAX)."""
    return red.all(uf.equal(asarray(a1), asarray(a2)))


def _infinity_test(name: str, x: ArrayLike, value: float) -> Array:
    a = asarray_operand(name, x)
    if not dtypes.is_inexact(a.dtype):
        return _full_bool(a, False)
    if dtypes.is_complex(a.dtype):
        raise JaxtypedValueError(f"jnp.{name}: isposinf/isneginf are not defined for complex input {a.aval.str_short()}")
    return lcmp.eq(a, strong_constant_like(a, value))


def isneginf(x: ArrayLike, /, out: None = None) -> Array:
    """Whether each element is -inf (false for integers)."""
    return _infinity_test("isneginf", x, float("-inf"))


def isposinf(x: ArrayLike, /, out: None = None) -> Array:
    """Whether each element is +inf (false for integers)."""
    return _infinity_test("isposinf", x, float("inf"))


def isreal(x: ArrayLike) -> Array:
    """Whether each element has a zero imaginary part."""
    imaginary = uf.imag(asarray_operand("isreal", x))
    return lcmp.eq(imaginary, scalar_like(0, imaginary.dtype, "zero", weak_type=imaginary.weak_type))


def iscomplex(x: ArrayLike) -> Array:
    """Whether each element has a nonzero imaginary part."""
    imaginary = uf.imag(asarray_operand("iscomplex", x))
    return lcmp.ne(imaginary, scalar_like(0, imaginary.dtype, "zero", weak_type=imaginary.weak_type))


def iscomplexobj(x: object) -> bool:
    """Whether ``x`` has a complex dtype (None is not complex)."""
    if x is None:
        return False
    kind: object = getattr(getattr(x, "dtype", None), "kind", None)
    if isinstance(kind, str):  # an array or a scalar with a dtype
        return kind == "c"
    try:
        return dtypes.is_complex(asarray(x).dtype)
    except TypeError:  # not array-like (strings, objects): not complex
        return False


def isrealobj(x: object) -> bool:
    """Whether ``x`` does not have a complex dtype."""
    return not iscomplexobj(x)


def isscalar(element: object) -> bool:
    """Whether ``element`` is a scalar: a Python/NumPy scalar or a 0-d array."""
    if np.isscalar(element):
        return True
    if isinstance(element, (Array, np.ndarray)):
        return element.ndim == 0
    return False


def iterable(y: object) -> bool:
    """Whether ``iter(y)`` works (0-d arrays are not iterable)."""
    if isinstance(y, (Array, np.ndarray)):
        return y.ndim > 0
    try:
        iter(cast("Iterable[object]", y))  # probing: any object may be passed
    except TypeError:
        return False
    return True


def signbit(x: ArrayLike, /) -> Array:
    """Whether the sign bit is set (``-0.0`` and ``-nan`` included)."""
    a = asarray_operand("signbit", x)
    if dtypes.is_bool(a.dtype) or dtypes.is_unsigned_integer(a.dtype):
        return _full_bool(a, False)
    if dtypes.is_integer(a.dtype):
        return lcmp.lt(a, strong_constant_like(a, 0))
    if dtypes.is_complex(a.dtype):
        raise JaxtypedValueError(f"jnp.signbit: not defined for complex input {a.aval.str_short()}")
    # The sign bit is the integer's: negative zeros and NaNs have one too.
    bits = bitcast_convert_type(a, np.dtype(f"int{8 * a.dtype.itemsize}"))
    return lcmp.lt(bits, strong_constant_like(bits, 0))


def can_cast(from_: "dtypes.DTypeLike | Array", to: "dtypes.DTypeLike", casting: str = "safe") -> bool:
    """Whether ``from_`` (a dtype or an array's dtype) casts to ``to`` under
    NumPy's ``casting`` rule."""
    if isinstance(from_, (bool, int, float, complex)):
        raise JaxtypedTypeError(
            "jnp.can_cast: Python ints, floats and complex are not accepted (the result would depend on the value); "
            "pass a dtype or an array"
        )
    source = from_.dtype if isinstance(from_, Array) else dtypes.dtype(from_)
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise JaxtypedValueError(f"jnp.can_cast: casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe', got {casting!r}")
    return bool(np.can_cast(source, dtypes.dtype(to), casting=casting))  # type: ignore[arg-type]  # checked above


_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric")


def _is_kind(d: np.dtype[Any], kind: str) -> bool:
    tests: dict[str, Callable[[np.dtype[Any]], bool]] = {
        "bool": dtypes.is_bool,
        "signed integer": dtypes.is_signed_integer,
        "unsigned integer": dtypes.is_unsigned_integer,
        "integral": dtypes.is_integer,
        "real floating": dtypes.is_floating,
        "complex floating": dtypes.is_complex,
        "numeric": lambda t: dtypes.is_integer(t) or dtypes.is_inexact(t),
    }
    return tests[kind](d)


def isdtype(dtype: "dtypes.DTypeLike", kind: "str | dtypes.DTypeLike | tuple[str | dtypes.DTypeLike, ...]") -> bool:
    """Whether ``dtype`` is of ``kind`` (the Array API's kinds: ``'bool'``,
    ``'signed integer'``, ``'unsigned integer'``, ``'integral'``, ``'real
    floating'``, ``'complex floating'``, ``'numeric'``; a dtype; or a tuple)."""
    the_dtype = dtypes.dtype(dtype)
    kinds: tuple[object, ...] = kind if isinstance(kind, tuple) else (kind,)
    for item in kinds:
        if isinstance(item, str):
            if item not in _KINDS:
                raise JaxtypedValueError(f"jnp.isdtype: unrecognized kind={item!r}; expected one of {list(_KINDS)} or a dtype")
            if _is_kind(the_dtype, item):
                return True
        elif the_dtype == dtypes.dtype(item):  # type: ignore[arg-type]  # a dtype-like by the signature
            return True
    return False
