"""Activation functions and friends of ``jaxtyped.nn`` (layer L5), JAX's
``jax.nn``: same formulas (so values, dtypes and weak types agree) and the
same derivative rules where JAX defines its own (``relu``, ``relu6``,
``log1mexp``; ``softplus`` and its relatives inherit ``logaddexp``'s).

``softmax``, ``log_softmax`` and ``logsumexp`` are ``jaxtyped.scipy.special``'s
(:mod:`jaxtyped._src.scipy.special`), re-exported by ``jaxtyped.nn``.
"""

import math
import operator
from collections.abc import Sequence
from typing import Literal

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.special import erfc
from jaxtyped._src.lax.structural import broadcasted_iota, expand_dims, full_like_aval, select_n
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import asarray_operand, broadcast_to_shape, check_arraylike, promote_args_inexact
from jaxtyped._src.scipy.special import logsumexp
from jaxtyped._src.util import canonicalize_axes, canonicalize_axis

__all__ = [
    "identity", "relu", "relu6", "squareplus", "softplus", "sparse_plus", "soft_sign", "sigmoid",
    "sparse_sigmoid", "silu", "swish", "mish", "log_sigmoid", "elu", "leaky_relu", "hard_tanh",
    "celu", "selu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish", "tanh",
    "standardize", "one_hot", "log1mexp", "logmeanexp",
]  # fmt: skip

Axis = int | Sequence[int] | None


def _operand(name: str, x: ArrayLike) -> Array:
    return asarray_operand(name, x)


def _zeros_like(x: Array) -> Array:
    return full_like_aval(x.aval, 0)


def identity(x: ArrayLike) -> Array:
    """``x`` unchanged (as an array)."""
    return _operand("identity", x)


# === rectifiers, with JAX's derivative at the kinks ===


def _relu_fun(x: Array) -> Array:
    return ju.maximum(x, 0)


def _relu_tangent(g: Array, ans: Array, x: Array) -> Array:
    # The derivative at 0 is 0 (JAX's choice), not the 1/2 that
    # maximum's tie rule would give.
    return select_n(ju.greater(x, 0), _zeros_like(g), g)


_relu = custom_jvp(_relu_fun)
_relu.defjvps(_relu_tangent)


def relu(x: ArrayLike) -> Array:
    """``max(x, 0)``; its derivative is 0 at 0 (as JAX's)."""
    return _relu(_operand("relu", x))


def _relu6_fun(x: Array) -> Array:
    return ju.minimum(ju.maximum(x, 0), 6.0)


def _relu6_tangent(g: Array, ans: Array, x: Array) -> Array:
    inside = lcmp.bitwise_and(ju.greater(x, 0), ju.less(x, 6))
    return select_n(inside, _zeros_like(g), g)


_relu6 = custom_jvp(_relu6_fun)
_relu6.defjvps(_relu6_tangent)


def relu6(x: ArrayLike) -> Array:
    """``min(max(x, 0), 6)``; its derivative is 0 at 0 and at 6 (as JAX's)."""
    return _relu6(_operand("relu6", x))


def leaky_relu(x: ArrayLike, negative_slope: ArrayLike = 1e-2) -> Array:
    """``x`` for ``x >= 0``, ``negative_slope * x`` below."""
    a = _operand("leaky_relu", x)
    return ju.where(ju.greater_equal(a, 0), a, ju.multiply(negative_slope, a))


def elu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise."""
    a = _operand("elu", x)
    positive = ju.greater(a, 0)
    # expm1 only sees non-positive values, so large x cannot overflow it
    # (an inf there would poison the gradient through where).
    return ju.where(positive, a, ju.multiply(alpha, ju.expm1(ju.where(positive, 0.0, a))))


def celu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    a = _operand("celu", x)
    return ju.add(ju.maximum(a, 0.0), ju.multiply(alpha, ju.expm1(ju.divide(ju.minimum(a, 0.0), alpha))))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(x: ArrayLike) -> Array:
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    return ju.multiply(_SELU_SCALE, elu(x, _SELU_ALPHA))


def hard_tanh(x: ArrayLike) -> Array:
    """``x`` clipped to ``[-1, 1]``."""
    a = _operand("hard_tanh", x)
    return ju.where(ju.greater(a, 1), 1, ju.where(ju.less(a, -1), -1, a))


# === smooth rectifiers and sigmoids ===


def softplus(x: ArrayLike) -> Array:
    """``log(1 + exp(x))``, as ``logaddexp(x, 0)`` (stable for large ``|x|``)."""
    return ju.logaddexp(_operand("softplus", x), 0)


def log_sigmoid(x: ArrayLike) -> Array:
    """``log(sigmoid(x))`` = ``-softplus(-x)``."""
    return ju.negative(softplus(ju.negative(_operand("log_sigmoid", x))))


def sigmoid(x: ArrayLike) -> Array:
    """``1 / (1 + exp(-x))`` (``lax.logistic``)."""
    return lt.logistic(_operand("sigmoid", x))


def silu(x: ArrayLike) -> Array:
    """``x * sigmoid(x)``."""
    a = _operand("silu", x)
    return ju.multiply(a, sigmoid(a))


swish = silu


def mish(x: ArrayLike) -> Array:
    """``x * tanh(softplus(x))``."""
    a = _operand("mish", x)
    return ju.multiply(a, ju.tanh(softplus(a)))


def squareplus(x: ArrayLike, b: ArrayLike = 4) -> Array:
    """``(x + sqrt(x**2 + b)) / 2``."""
    check_arraylike("squareplus", x, b)
    return ju.divide(ju.add(x, ju.sqrt(ju.add(ju.square(x), b))), 2)


def soft_sign(x: ArrayLike) -> Array:
    """``x / (|x| + 1)``."""
    a = _operand("soft_sign", x)
    return ju.divide(a, ju.add(ju.abs(a), 1))


def sparse_plus(x: ArrayLike) -> Array:
    """0 for ``x <= -1``, ``x`` for ``x >= 1``, ``(x + 1)**2 / 4`` between."""
    a = _operand("sparse_plus", x)
    between = ju.divide(ju.power(ju.add(a, 1.0), 2), 4)
    return ju.where(ju.less_equal(a, -1.0), 0.0, ju.where(ju.greater_equal(a, 1.0), a, between))


def sparse_sigmoid(x: ArrayLike) -> Array:
    """``clip((x + 1) / 2, 0, 1)``, the derivative of ``sparse_plus``."""
    a = _operand("sparse_sigmoid", x)
    return ju.multiply(0.5, ju.clip(ju.add(a, 1.0), 0.0, 2.0))


def hard_sigmoid(x: ArrayLike) -> Array:
    """``relu6(x + 3) / 6``."""
    return ju.divide(relu6(ju.add(_operand("hard_sigmoid", x), 3.0)), 6.0)


def hard_silu(x: ArrayLike) -> Array:
    """``x * hard_sigmoid(x)``."""
    a = _operand("hard_silu", x)
    return ju.multiply(a, hard_sigmoid(a))


hard_swish = hard_silu


def tanh(x: ArrayLike, /) -> Array:
    """Hyperbolic tangent (``jnp.tanh``)."""
    return ju.tanh(x)


def gelu(x: ArrayLike, approximate: bool = True) -> Array:
    """Gaussian error linear unit: ``x * Phi(x)``, by its tanh
    approximation (``approximate=True``) or exactly through ``erf``."""
    (a,) = promote_args_inexact("gelu", x)
    if approximate:
        scale = asarray(np.sqrt(2 / np.pi).astype(a.dtype))
        inner = ju.multiply(scale, ju.add(a, ju.multiply(0.044715, ju.power(a, 3))))
        return ju.multiply(a, ju.multiply(0.5, ju.add(1.0, ju.tanh(inner))))
    half_root = asarray(np.sqrt(0.5).astype(a.dtype))
    # erfc keeps the far left tail (1 + erf(x / sqrt 2) rounds it to 0).
    cdf_twice = erfc(ju.multiply(ju.negative(a), half_root))
    out = ju.multiply(ju.multiply(0.5, a), cdf_twice)
    return convert_to(out, a.dtype, weak_type=False)


def glu(x: ArrayLike, axis: int = -1) -> Array:
    """Gated linear unit: the first half of ``axis`` times the sigmoid of
    the second half."""
    a = _operand("glu", x)
    axis_ = canonicalize_axis(operator.index(axis), a.ndim, where="nn.glu axis")
    size = a.shape[axis_]
    if size % 2:
        raise JaxtypedValueError(f"nn.glu: axis {axis} has odd size {size}; it must split in two halves")
    first = slice_in_dim(a, 0, size // 2, axis=axis_)
    second = slice_in_dim(a, size // 2, size, axis=axis_)
    return ju.multiply(first, sigmoid(second))


def _log1mexp_fun(x: Array) -> Array:
    # Two formulas, each accurate on its side of log 2 (Maechler's note).
    return ju.where(
        ju.less(x, math.log(2.0)),
        ju.log(ju.negative(ju.expm1(ju.negative(x)))),
        ju.log1p(ju.negative(ju.exp(ju.negative(x)))),
    )


def _log1mexp_tangent(g: Array, ans: Array, x: Array) -> Array:
    return ju.divide(g, ju.expm1(x))


_log1mexp = custom_jvp(_log1mexp_fun)
_log1mexp.defjvps(_log1mexp_tangent)


def log1mexp(x: ArrayLike) -> Array:
    """``log(1 - exp(-x))``, accurate for small and large ``x``, with
    derivative ``1 / expm1(x)``."""
    return _log1mexp(_operand("log1mexp", x))


def logmeanexp(x: ArrayLike, axis: Axis = None, where: ArrayLike | None = None, keepdims: bool = False) -> Array:
    """``log(mean(exp(x)))`` over ``axis`` (the entries ``where`` selects),
    computed stably as ``logsumexp(x) - log(count)``."""
    total = logsumexp(x, axis=axis, where=where, keepdims=keepdims)
    a = _operand("logmeanexp", x)
    if where is None:
        given = range(a.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        axes = canonicalize_axes(tuple(given), a.ndim, where="nn.logmeanexp axis")
        count = asarray(np.asarray(math.prod(a.shape[i] for i in axes)).astype(total.dtype))
    else:
        selected = broadcast_to_shape(asarray(where), a.shape)
        count = jr.sum(selected, axis, dtype=total.dtype, keepdims=keepdims)
    return ju.subtract(total, ju.log(count))


# === normalisation and encodings ===


def standardize(
    x: ArrayLike,
    axis: Axis = -1,
    mean: ArrayLike | None = None,
    variance: ArrayLike | None = None,
    epsilon: ArrayLike = 1e-5,
    where: ArrayLike | None = None,
    *,
    algorithm: Literal["fast", "stable"] = "fast",
) -> Array:
    """``(x - mean) / sqrt(variance + epsilon)`` over ``axis``; the mean
    and variance are computed when not given, the variance as ``E[x**2] -
    mean**2`` clipped at 0 (``algorithm="fast"``) or as ``E[(x -
    mean)**2]`` (``"stable"``)."""
    check_arraylike("standardize", x)
    check_arraylike("standardize", *(v for v in (mean, variance, where) if v is not None))
    if mean is None:
        mean = jr.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = jr.mean(ju.square(ju.subtract(x, mean)), axis, keepdims=True, where=where)
        elif algorithm == "fast":
            second = jr.mean(ju.square(x), axis, keepdims=True, where=where)
            variance = ju.clip(ju.subtract(second, ju.square(mean)), 0)
        else:
            raise JaxtypedValueError(f"nn.standardize: unknown algorithm {algorithm!r}; expected 'fast' or 'stable'")
    (scale_base,) = promote_args_inexact("standardize", ju.add(variance, epsilon))
    return ju.multiply(ju.subtract(x, mean), lt.rsqrt(scale_base))


def one_hot(x: ArrayLike, num_classes: int, *, dtype: "dtypes.DTypeLike | None" = None, axis: int = -1) -> Array:
    """``x``'s integer entries as one-hot vectors of length ``num_classes``
    along a new ``axis`` (entries out of range give all zeros)."""
    try:
        classes = operator.index(num_classes)
    except TypeError:
        raise JaxtypedTypeError(
            f"nn.one_hot: num_classes must be a concrete integer, got {type(num_classes).__name__}"
        ) from None
    a = asarray(x)
    target = dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    position = canonicalize_axis(operator.index(axis), a.ndim + 1, where="nn.one_hot axis")
    shape = [1] * a.ndim
    shape.insert(position, classes)
    labels = broadcasted_iota(a.dtype, shape, position)
    return convert_to(ju.equal(expand_dims(a, (position,)), labels), target, weak_type=False)
