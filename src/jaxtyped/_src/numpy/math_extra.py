"""More elementwise math of ``jaxtyped.numpy`` (layer L5): ``heaviside``,
``copysign``, ``ldexp``/``frexp``, ``modf``, ``gcd``/``lcm``,
``fmax``/``fmin``, ``fabs``, ``float_power``, ``nan_to_num``,
``bitwise_count``, ``angle``, and the Array API's aliases (``acos``,
``bitwise_invert``, ...).

Compositions follow JAX's, so derivatives agree with JAX's at ties and at 0
(``fmax`` gives a tie to its second operand, ``copysign``'s derivative at 0
is that of ``abs``). ``ldexp``/``frexp`` work on exponents arithmetically
(no bitcast primitive exists): subnormal inputs are outside their contract.
"""

from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.lax.bitwise_misc import bitcast_convert_type
from jaxtyped._src.lax.control_flow.loops import while_loop
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.elementwise_extra import nextafter as lax_nextafter
from jaxtyped._src.lax.reductions import reduce_max
from jaxtyped._src.lax.special import bessel_i0e, bessel_i1e
from jaxtyped._src.lax.util import constant_like_scalar, scalar_like, strong_constant_like
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.ufuncs import BinaryFunction, UnaryFunction
from jaxtyped._src.numpy.logic import isneginf, isposinf, signbit
from jaxtyped._src.numpy.promotion import (
    asarray_operand,
    broadcast_shapes,
    broadcast_to_shape,
    promote_args,
    promote_args_inexact,
)

__all__ = [
    "heaviside", "copysign", "ldexp", "frexp", "modf", "gcd", "lcm", "fmax", "fmin", "fabs",
    "float_power", "nan_to_num", "bitwise_count", "angle", "nextafter", "spacing", "i0", "acos", "acosh", "asin", "asinh",
    "atan", "atanh", "atan2", "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift",
]  # fmt: skip


def _reject_complex(name: str, x: Array, kind: type[Exception] = JaxtypedTypeError) -> None:
    if dtypes.is_complex(x.dtype):
        raise kind(f"jnp.{name} does not support complex input {x.aval.str_short()}")


def heaviside(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """0 where ``x1 < 0``, 1 where ``x1 > 0``, ``x2`` where ``x1 == 0``."""
    a, b = promote_args_inexact("heaviside", x1, x2)
    zero = constant_like_scalar(a, 0)
    at_zero = uf.where(uf.isnan(a), a, b)  # NaN stays NaN
    return uf.where(lcmp.lt(a, zero), zero, uf.where(lcmp.gt(a, zero), constant_like_scalar(a, 1), at_zero))


def copysign(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``|x1|`` with the sign of ``x2`` (``-0.0`` counts as negative)."""
    a, b = promote_args_inexact("copysign", x1, x2)
    _reject_complex("copysign", a)
    magnitude = la.abs(a)
    return uf.where(signbit(b), la.neg(magnitude), magnitude)


def _power_of_two(exponent: Array, dtype: np.dtype[Any]) -> Array:
    """``2.0 ** exponent`` (an integer array) in ``dtype``, exactly."""
    return lt.pow(_float_scalar(2.0, dtype), convert_to(exponent, dtype, weak_type=False))


def _float_scalar(value: float, dtype: np.dtype[Any]) -> Array:
    return scalar_like(value, dtype, "constant", weak_type=False)


def _scale(x: Array, exponent: Array) -> Array:
    """``x * 2**exponent`` in two steps, so that neither factor overflows
    while the product is representable."""
    half = uf.floor_divide(exponent, 2)
    rest = la.sub(exponent, half)
    return la.mul(la.mul(x, _power_of_two(half, x.dtype)), _power_of_two(rest, x.dtype))


def ldexp(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``x1 * 2**x2`` (``x2`` an integer array)."""
    exponent = asarray_operand("ldexp", x2, 1)
    if not dtypes.is_integer(exponent.dtype):
        raise JaxtypedValueError(f"jnp.ldexp: the exponent must be an integer array, got {exponent.aval.str_short()}")
    (mantissa,) = promote_args_inexact("ldexp", x1)
    _reject_complex("ldexp", mantissa)
    limit = 2 * (dtypes.finfo(mantissa.dtype).maxexp + dtypes.finfo(mantissa.dtype).nmant + 2)
    wide = convert_to(exponent, dtypes.canonicalize_dtype(np.dtype(np.int32)) if exponent.dtype.itemsize < 4 else exponent.dtype, weak_type=False)
    clipped = la.max(la.min(wide, strong_constant_like(wide, limit)), strong_constant_like(wide, -limit))
    shape = broadcast_shapes("ldexp", mantissa.shape, clipped.shape)
    x = broadcast_to_shape(mantissa, shape)
    scaled = _scale(x, broadcast_to_shape(clipped, shape))
    # Zeros and infinities pass through (so does their derivative, as in JAX).
    return uf.where(lcmp.bitwise_or(uf.isinf(x), lcmp.eq(x, constant_like_scalar(x, 0))), x, scaled)


def frexp(x: ArrayLike, /) -> tuple[Array, Array]:
    """Mantissa in ``[0.5, 1)`` (by magnitude) and int32 exponent with
    ``x == mantissa * 2**exponent``; 0, inf and NaN give exponent 0. Works
    on the bits (as JAX does), so results agree with JAX's bit for bit."""
    (a,) = promote_args_inexact("frexp", x)
    _reject_complex("frexp", a)
    a = convert_to(a, a.dtype, weak_type=False)
    info = dtypes.finfo(a.dtype)
    int_dtype = np.dtype(f"int{8 * a.dtype.itemsize}")
    int32 = np.dtype(np.int32)
    mantissa_bits, exponent_mask, bias = int(info.nmant), (1 << int(info.nexp)) - 1, 1 - int(info.minexp)
    # Subnormals first become normal (times 2**nmant), their exponent lowered to match.
    tiny = lcmp.lt(la.abs(a), strong_constant_like(a, float(info.tiny)))
    normal = uf.where(tiny, la.mul(a, strong_constant_like(a, float(2**mantissa_bits))), a)
    shift = uf.where(tiny, strong_constant_like(convert_to(a, int32, weak_type=False), -mantissa_bits), strong_constant_like(convert_to(a, int32, weak_type=False), 0))
    bits = bitcast_convert_type(normal, int_dtype)
    field = lcmp.bitwise_and(lcmp.shift_right_logical(bits, strong_constant_like(bits, mantissa_bits)), strong_constant_like(bits, exponent_mask))
    exponent = la.add(shift, convert_to(la.sub(field, strong_constant_like(field, bias - 1)), int32, weak_type=False))
    cleared = lcmp.bitwise_and(bits, strong_constant_like(bits, ~(exponent_mask << mantissa_bits)))
    mantissa = bitcast_convert_type(lcmp.bitwise_or(cleared, strong_constant_like(cleared, (bias - 1) << mantissa_bits)), a.dtype)
    special = lcmp.bitwise_or(lcmp.eq(a, strong_constant_like(a, 0)), lcmp.bitwise_not(la.is_finite(a)))
    exponent = uf.where(special, strong_constant_like(exponent, 0), exponent)
    # The bits carry no derivative; JAX's mantissa has d/dx = 2**-exponent.
    slope = _power_of_two(la.neg(exponent), a.dtype)
    mantissa = la.add(mantissa, la.mul(la.sub(a, la.stop_gradient(a)), slope))
    return uf.where(special, a, mantissa), exponent


def modf(x: ArrayLike, /, out: None = None) -> tuple[Array, Array]:
    """Fractional and integral parts, both with the sign of ``x``."""
    (a,) = promote_args_inexact("modf", x)
    whole = uf.where(lcmp.ge(a, constant_like_scalar(a, 0)), uf.floor(a), uf.ceil(a))
    return la.sub(a, whole), whole


def _integer_operands(name: str, x1: ArrayLike, x2: ArrayLike) -> tuple[Array, Array]:
    a, b = promote_args(name, x1, x2)
    if not dtypes.is_integer(a.dtype):
        raise JaxtypedValueError(f"jnp.{name}: arguments must be integers, got {a.aval.str_short()}")
    return uf.abs(a), uf.abs(b)


def gcd(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Greatest common divisor of ``|x1|`` and ``|x2|`` (Euclid's algorithm)."""
    a, b = _integer_operands("gcd", x1, x2)
    shape = broadcast_shapes("gcd", a.shape, b.shape)
    a, b = broadcast_to_shape(a, shape), broadcast_to_shape(b, shape)

    def unfinished(carry: tuple[Array, Array]) -> Array:
        return reduce_max(lcmp.ne(carry[1], strong_constant_like(carry[1], 0)), tuple(range(len(shape))))

    def step(carry: tuple[Array, Array]) -> tuple[Array, Array]:
        p, q = carry
        nonzero = lcmp.ne(q, strong_constant_like(q, 0))
        safe_q = uf.where(nonzero, q, strong_constant_like(q, 1))
        return uf.where(nonzero, q, p), uf.where(nonzero, la.rem(p, safe_q), strong_constant_like(q, 0))

    return while_loop(unfinished, step, (a, b))[0]


def lcm(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Least common multiple of ``|x1|`` and ``|x2|`` (0 if either is 0)."""
    a, b = _integer_operands("lcm", x1, x2)
    divisor = gcd(a, b)
    safe = uf.where(lcmp.eq(divisor, strong_constant_like(divisor, 0)), strong_constant_like(divisor, 1), divisor)
    return uf.where(lcmp.eq(divisor, strong_constant_like(divisor, 0)), strong_constant_like(divisor, 0), uf.multiply(a, uf.floor_divide(b, safe)))


def fmax(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Elementwise maximum ignoring NaNs (a tie picks ``x2``)."""
    a, b = promote_args("fmax", x1, x2)
    return uf.where(lcmp.bitwise_or(uf.greater(a, b), uf.isnan(b)), a, b)


def fmin(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Elementwise minimum ignoring NaNs (a tie picks ``x2``)."""
    a, b = promote_args("fmin", x1, x2)
    return uf.where(lcmp.bitwise_or(uf.less(a, b), uf.isnan(b)), a, b)


def fabs(x: ArrayLike, /) -> Array:
    """``|x|`` as a float (complex input is rejected)."""
    (a,) = promote_args_inexact("fabs", x)
    _reject_complex("fabs", a)
    return la.abs(a)


def float_power(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x ** y`` computed in an inexact dtype."""
    a, b = promote_args_inexact("float_power", x, y)
    return lt.pow(a, b)


def nan_to_num(
    x: ArrayLike, copy: bool = True, nan: ArrayLike = 0.0, posinf: ArrayLike | None = None, neginf: ArrayLike | None = None
) -> Array:
    """NaN, +inf and -inf replaced by ``nan``, ``posinf`` and ``neginf``
    (by default 0 and the dtype's largest and lowest finite values)."""
    a = asarray_operand("nan_to_num", x)
    if dtypes.is_complex(a.dtype):
        from jaxtyped._src.lax import complex_ops as lc

        parts = [nan_to_num(part, copy, nan, posinf, neginf) for part in (lc.real(a), lc.imag(a))]
        return lc.complex(parts[0], parts[1])
    if not dtypes.is_inexact(a.dtype):
        return a
    info = dtypes.finfo(a.dtype)
    high = info.max if posinf is None else posinf
    low = info.min if neginf is None else neginf

    def value(v: ArrayLike) -> Array:
        return convert_to(asarray_operand("nan_to_num", v), a.dtype, weak_type=a.weak_type)

    out = uf.where(uf.isnan(a), value(nan), a)
    out = uf.where(isposinf(out), value(high), out)
    return uf.where(isneginf(out), value(low), out)


def bitwise_count(x: ArrayLike, /) -> Array:
    """The number of set bits of each element's absolute value (uint8), as
    NumPy counts them."""
    a = asarray_operand("bitwise_count", x)
    if not (dtypes.is_integer(a.dtype) or dtypes.is_bool(a.dtype)):
        raise JaxtypedTypeError(f"jnp.bitwise_count: integer or boolean input required, got {a.aval.str_short()}")
    uint8 = np.dtype(np.uint8)
    if dtypes.is_bool(a.dtype):
        return convert_to(a, uint8, weak_type=False)
    bits = a.dtype.itemsize * 8
    if dtypes.is_signed_integer(a.dtype):
        a = la.abs(a)  # the most negative value stays itself: one bit, as NumPy
    unsigned = convert_to(a, np.dtype(f"uint{bits}"), weak_type=False)
    one = strong_constant_like(unsigned, 1)
    count = convert_to(lcmp.bitwise_and(unsigned, one), uint8, weak_type=False)
    for shift in range(1, bits):
        bit = lcmp.bitwise_and(lcmp.shift_right_logical(unsigned, strong_constant_like(unsigned, shift)), one)
        count = la.add(count, convert_to(bit, uint8, weak_type=False))
    return count


def angle(z: ArrayLike, deg: bool = False) -> Array:
    """The argument of each complex element (0 or pi for reals), in radians
    or in degrees."""
    c = asarray_operand("angle", z)
    re, im = uf.real(c), uf.imag(c)
    if not dtypes.is_inexact(re.dtype) or (dtypes.is_floating(c.dtype) and c.ndim == 0):
        target = dtypes.default_float_dtype()
        re, im = convert_to(re, target, weak_type=False), convert_to(im, target, weak_type=False)
    result = lt.atan2(im, re)
    return uf.degrees(result) if deg else result


def nextafter(x: ArrayLike, y: ArrayLike, /) -> Array:
    """The next representable value after ``x`` in the direction of ``y``."""
    a, b = promote_args_inexact("nextafter", x, y)
    return lax_nextafter(a, b)


def spacing(x: ArrayLike, /) -> Array:
    """The distance from ``x`` to the next representable value away from
    zero (toward +inf for float16, as NumPy), negative for negative ``x``."""
    (a,) = promote_args_inexact("spacing", x)
    if dtypes.is_complex(a.dtype):
        raise JaxtypedValueError(f"jnp.spacing is not defined for complex input {a.aval.str_short()}")
    infinity = constant_like_scalar(a, float("inf"))
    if a.dtype == np.dtype(np.float16):
        return la.sub(lax_nextafter(a, infinity), a)
    step = la.sub(lax_nextafter(a, copysign(infinity, a)), a)
    tiny = copysign(strong_constant_like(a, float(dtypes.finfo(a.dtype).smallest_subnormal)), a)
    return uf.where(lcmp.eq(step, constant_like_scalar(step, 0)), tiny, step)


def _i0_of(x: Array) -> Array:
    magnitude = la.abs(x)
    return la.mul(lt.exp(magnitude), bessel_i0e(magnitude))


def _i0_rule(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (t,) = primals, tangents
    # I0' = I1 = exp(|x|) i1e(x): smooth through 0, where it is 0 (the
    # composition's |x| would leave a kink there).
    out = _i0(x)
    return out, la.mul(t, la.mul(lt.exp(la.abs(x)), bessel_i1e(x)))


_i0 = custom_jvp(_i0_of)
_i0.defjvp(_i0_rule)


def i0(x: ArrayLike) -> Array:
    """The modified Bessel function of the first kind, order 0."""
    (a,) = promote_args_inexact("i0", x)
    if not dtypes.is_floating(a.dtype):
        raise JaxtypedValueError(f"jnp.i0: unsupported input type {a.aval.str_short()}")
    return _i0(a)


# The Array API's names for NumPy's functions.
acos: UnaryFunction = uf.arccos
acosh: UnaryFunction = uf.arccosh
asin: UnaryFunction = uf.arcsin
asinh: UnaryFunction = uf.arcsinh
atan: UnaryFunction = uf.arctan
atanh: UnaryFunction = uf.arctanh
atan2: BinaryFunction = uf.arctan2
bitwise_invert: UnaryFunction = uf.invert
bitwise_left_shift: BinaryFunction = uf.left_shift
bitwise_right_shift: BinaryFunction = uf.right_shift
