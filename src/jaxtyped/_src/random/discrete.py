"""Discrete distributions of ``jaxtyped.random`` (layer L5): ``randint``,
``permutation``, ``choice``, ``categorical`` and ``multinomial``, bit-exact
with JAX 0.10.2 for the same key.

Each follows JAX's algorithm step for step, because the bits a key gives
are only reproducible if they are drawn, split and combined in the same
order:

- ``randint`` draws two words per value (from the two halves of a split
  key) and reduces ``hi * 2**nbits + lo`` modulo the span with unsigned
  arithmetic; 8- and 16-bit dtypes sample in int32 to keep the bias small;
- ``permutation`` sorts by fresh 32-bit keys, ``ceil(3 ln n / ln(2**32-1))``
  rounds (a stable sort, so collisions keep the previous order);
- ``choice`` uses ``randint``/``permutation`` without ``p``, inverse-CDF
  search with ``p`` and replacement, Gumbel top-k without replacement;
- ``categorical`` is the Gumbel-max (top-k without replacement) trick.

The parts JAX jits internally are jitted here too (static shapes and
dtypes), so XLA compiles the same arithmetic eagerly and under ``jit``.
"""

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedTypeError, JaxtypedValueError, ShapeMismatchError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax.control_flow.scan import scan
from jaxtyped._src.lax.cumulative import cumsum as lax_cumsum
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.sorting import sort_key_val, top_k
from jaxtyped._src.lax.structural import reshape as lax_reshape
from jaxtyped._src.lax.structural import select_n
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import arange, asarray, zeros
from jaxtyped._src.numpy.index_functions import take
from jaxtyped._src.numpy.promotion import broadcast_shapes, broadcast_to_shape, check_arraylike, promote_dtypes
from jaxtyped._src.numpy.reductions import argmax
from jaxtyped._src.numpy.shape_ops import broadcast_to, expand_dims, moveaxis
from jaxtyped._src.numpy.sorting import cumsum, searchsorted
from jaxtyped._src.random.continuous import gumbel, uniform
from jaxtyped._src.random.counts import binomial
from jaxtyped._src.random.keys import KeyArray, KeyArrayLike, canonical_shape, check_single_key, random_bits, split
from jaxtyped._src.util import canonicalize_axis, index_arg

__all__ = [
    "randint", "permutation", "choice", "categorical", "multinomial",
    # helpers shared with multivariate.py
    "check_shape_argument", "broadcast_shapes_checked", "split_pair", "check_no_sharding",
]  # fmt: skip


def split_pair(name: str, key: KeyArray) -> tuple[KeyArray, KeyArray]:
    """``split(key)``'s two keys, typed."""
    first, second = split(key)
    return check_single_key(name, first), check_single_key(name, second)


def broadcast_shapes_checked(name: str, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy broadcasting of parameter shapes; a ValueError (JAX's
    ``lax.broadcast_shapes`` error kind) when they do not broadcast."""
    try:
        return broadcast_shapes(name, *shapes)
    except ShapeMismatchError as error:
        raise JaxtypedValueError(f"{name}: incompatible shapes for broadcasting: {shapes}") from error


def check_shape_argument(name: str, shape: tuple[int, ...], *param_shapes: tuple[int, ...]) -> None:
    """The parameters' shapes broadcast to exactly ``shape`` (JAX's rule
    for a ``shape`` argument next to array parameters).

    Raises:
        JaxtypedValueError: naming ``name``, the broadcast result and ``shape``.
    """
    if not param_shapes:
        return
    result = broadcast_shapes_checked(name, shape, *param_shapes)
    if result != shape:
        raise JaxtypedValueError(
            f"{name} parameter shapes must be broadcast-compatible with shape argument, and the result of "
            f"broadcasting the shapes must equal the shape argument, but got result {result} for shape argument {shape}."
        )


def check_no_sharding(name: str, out_sharding: None) -> None:
    """``out_sharding`` is accepted for JAX's signature; only ``None`` (one device) is supported."""
    if out_sharding is not None:
        raise JaxtypedValueError(f"random.{name}: out_sharding is not supported (one device); pass None")


def _int_dtype(name: str, dtype: dtypes.DTypeLike | None) -> np.dtype[Any]:
    result = dtypes.canonicalize_dtype(int if dtype is None else dtype)
    if not dtypes.is_integer(result):
        raise JaxtypedTypeError(f"{name} only accepts integer dtypes, got {result}")
    return result


# === randint ===


def _convert_and_clip(value: Array, dtype: np.dtype[Any]) -> Array:
    """Integer ``value`` as ``dtype``, saturating instead of wrapping."""
    low = max(dtypes.iinfo(dtype).min, dtypes.iinfo(value.dtype).min)
    high = min(dtypes.iinfo(dtype).max, dtypes.iinfo(value.dtype).max)
    where = "random.randint bounds"
    clipped = la.min(la.max(value, scalar_like(low, value.dtype, where)), scalar_like(high, value.dtype, where))
    return convert_to(clipped, dtype, weak_type=False)


def _randint_impl(key: KeyArray, minval_in: ArrayLike, maxval_in: ArrayLike, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    minval, maxval = asarray(minval_in), asarray(maxval_in)  # tracers already: no equation
    check_shape_argument("randint", shape, minval.shape, maxval.shape)
    default_int = dtypes.canonicalize_dtype(int)
    if not dtypes.is_integer(minval.dtype):
        minval = convert_to(minval, default_int, weak_type=False)
    if not dtypes.is_integer(maxval.dtype):
        maxval = convert_to(maxval, default_int, weak_type=False)
    nbits = dtypes.iinfo(dtype).bits
    unsigned = np.dtype(f"uint{nbits}")
    # maxval beyond the dtype (randint(k, s, 0, 256, uint8)) makes the span one larger.
    dtype_max = _convert_and_clip(asarray(dtypes.iinfo(dtype).max, dtype), maxval.dtype)
    maxval_out_of_range = maxval > dtype_max
    low = _convert_and_clip(minval, dtype)
    high = _convert_and_clip(maxval, dtype)
    bshape = broadcast_shapes("randint", low.shape, high.shape)
    low, high = broadcast_to_shape(low, bshape), broadcast_to_shape(high, bshape)

    key_hi, key_lo = split_pair("randint", key)
    higher_bits = random_bits(key_hi, nbits, shape)
    lower_bits = random_bits(key_lo, nbits, shape)

    one = scalar_like(1, unsigned, "random.randint", weak_type=False)
    span = convert_to(la.sub(high, low), unsigned, weak_type=False)
    empty = high <= low  # then minval is returned: a span of 1
    span = select_n(empty, span, broadcast_to(one, bshape))
    # With maxval out of range the span grows by one; from 2**nbits - 1 it
    # wraps to 0, and x % 0 == x for XLA: the full range, as wanted.
    grow = ju.logical_and(broadcast_to_shape(maxval_out_of_range, bshape), ju.logical_not(empty))
    span = select_n(grow, span, la.add(span, broadcast_to(one, bshape)))
    span = broadcast_to_shape(span, shape)

    # hi * 2**nbits + lo modulo span, without overflow: (a*b) % n == ((a%n)*(b%n)) % n.
    half = broadcast_to(scalar_like(2 ** (nbits // 2), unsigned, "random.randint", weak_type=False), shape)
    multiplier = la.rem(half, span)
    multiplier = la.rem(la.mul(multiplier, multiplier), span)
    offset = la.add(la.mul(la.rem(higher_bits, span), multiplier), la.rem(lower_bits, span))
    offset = la.rem(offset, span)
    return la.add(broadcast_to_shape(low, shape), convert_to(offset, dtype, weak_type=False))


_randint_jit = jit(_randint_impl, static_argnums=(3, 4))


def randint(
    key: KeyArrayLike,
    shape: ShapeLike,
    minval: ArrayLike,
    maxval: ArrayLike,
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Uniform random integers in ``[minval, maxval)`` (JAX's ``jax.random.randint``).

    Bounds outside ``dtype`` are clipped to it (``maxval`` one past its
    maximum is allowed); where ``maxval <= minval`` the result is ``minval``.
    The default dtype is int32 (int64 with x64).
    """
    check_no_sharding("randint", out_sharding)
    typed_key = check_single_key("randint", key)
    out_dtype = _int_dtype("randint", dtype)
    out_shape = canonical_shape("randint", shape)
    info = dtypes.iinfo(out_dtype)
    sampling = out_dtype
    if info.bits < 32:
        # Sampled in 32 bits (less bias), bounds clipped to the dtype first.
        sampling = np.dtype(np.int32)
        int32 = np.dtype(np.int32)
        lo = convert_to(asarray(minval), int32, weak_type=False)
        hi = convert_to(asarray(maxval), int32, weak_type=False)
        minval = ju.clip(lo, int(info.min), int(info.max))
        maxval = ju.clip(hi, int(info.min), int(info.max) + 1)
    else:
        check_arraylike("randint", minval, maxval)
    result = _randint_jit(typed_key, minval, maxval, out_shape, sampling)
    return convert_to(result, out_dtype, weak_type=False)


# === permutation ===


def _shuffle_rounds(size: int) -> int:
    """Sort rounds for ``size`` items: enough that colliding sort keys are
    unlikely to survive all of them (JAX's static criterion, exponent 3)."""
    return math.ceil(3 * math.log(max(1, size)) / math.log(np.iinfo(np.uint32).max))


def _shuffle_impl(key: KeyArray, x: Array, axis: int) -> Array:
    for _ in range(_shuffle_rounds(x.size)):
        key, subkey = split_pair("permutation", key)
        sort_keys = random_bits(subkey, 32, x.shape)
        _, x = sort_key_val(sort_keys, x, axis)
    return x


_shuffle = jit(_shuffle_impl, static_argnums=(2,))


def permutation(
    key: KeyArrayLike,
    x: int | ArrayLike,
    axis: int = 0,
    independent: bool = False,
    *,
    out_sharding: None = None,
) -> Array:
    """A random permutation of ``arange(x)`` (an int) or of ``x``'s slices
    along ``axis`` (JAX's ``jax.random.permutation``); ``independent``
    shuffles every 1-d slice along ``axis`` on its own."""
    check_no_sharding("permutation", out_sharding)
    typed_key = check_single_key("permutation", key)
    check_arraylike("permutation", x)
    array = asarray(x)
    ndim = array.ndim
    axis = canonicalize_axis(axis, ndim or 1, where="random.permutation axis")
    if not ndim:
        if not dtypes.is_integer(array.dtype):
            raise JaxtypedTypeError("x must be an integer or at least 1-dimensional")
        return _shuffle(typed_key, arange(_concrete_int("permutation", "x", array)), axis)
    if independent or ndim == 1:
        return _shuffle(typed_key, array, axis)
    order = _shuffle(typed_key, arange(array.shape[axis]), 0)
    return take(array, order, axis, unique_indices=True)


def _concrete_int(name: str, arg: str, value: Array) -> int:
    """A 0-d integer array's Python value; a tracer cannot give one."""
    try:
        return int(value)
    except Exception as error:  # a tracer: JAX's concretization error is a TypeError
        raise JaxtypedTypeError(
            f"random.{name}: argument {arg} must be a concrete integer (its value decides the output shape), got {value}"
        ) from error


# === choice ===


def choice(
    key: KeyArrayLike,
    a: int | ArrayLike,
    shape: Sequence[int] = (),
    replace: bool = True,
    p: ArrayLike | None = None,
    axis: int = 0,
    mode: str | None = None,
) -> Array:
    """Random samples of ``a``'s entries along ``axis`` (of ``arange(a)`` for
    an int), with or without replacement, uniformly or with probabilities
    ``p`` (JAX's ``jax.random.choice``)."""
    typed_key = check_single_key("choice", key)
    if not isinstance(shape, Sequence):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass an int
        raise JaxtypedTypeError(f"shape argument of jax.random.choice must be a sequence, got {shape}")
    out_shape = tuple(index_arg(d, "random.choice shape") for d in shape)
    check_arraylike("choice", a)
    arr = asarray(a)
    if arr.ndim == 0:
        n_inputs = _concrete_int("choice", "a", arr)
    else:
        axis = canonicalize_axis(axis, arr.ndim, where="random.choice axis")
        n_inputs = arr.shape[axis]
    n_draws = math.prod(out_shape)
    if n_draws == 0:
        return zeros(out_shape, dtype=arr.dtype)
    if n_inputs <= 0:
        raise JaxtypedValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise JaxtypedValueError(
            f"Cannot take a larger sample (size {n_draws}) than population (size {n_inputs}) when 'replace=False'"
        )

    if p is None:
        if replace:
            ind = randint(typed_key, out_shape, 0, n_inputs)
            result = ind if arr.ndim == 0 else take(arr, ind, axis)
        else:
            shuffled = permutation(typed_key, n_inputs if arr.ndim == 0 else arr, axis)
            result = shuffled[(slice(None),) * axis + (slice(n_draws),)]
    else:
        check_arraylike("choice", p)
        (p_arr,) = promote_dtypes("choice", [p], inexact=True)
        if p_arr.shape != (n_inputs,):
            raise JaxtypedValueError(
                "p must be None or a 1D vector with the same size as a.shape[axis]. "
                f"p has shape {p_arr.shape} and a.shape[axis] is {n_inputs}."
            )
        if replace:
            p_cuml = cumsum(p_arr)
            r = p_cuml[-1] * (1 - uniform(typed_key, out_shape, dtype=p_cuml.dtype))
            ind = searchsorted(p_cuml, r).astype(int)
        else:
            g = gumbel(typed_key, (n_inputs,), dtype=p_arr.dtype, mode=mode) + ju.log(p_arr)
            ind = top_k(g, n_draws)[1].astype(int)
        result = ind if arr.ndim == 0 else take(arr, ind, axis)
    final = out_shape if arr.ndim == 0 else arr.shape[:axis] + out_shape + arr.shape[axis + 1 :]
    return result.reshape(final)


# === categorical ===


def categorical(
    key: KeyArrayLike,
    logits: ArrayLike,
    axis: int = -1,
    shape: ShapeLike | None = None,
    replace: bool = True,
    mode: str | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Samples of categorical distributions given by unnormalised
    log-probabilities along ``axis`` (JAX's ``jax.random.categorical``),
    with replacement (Gumbel-max) or without (Gumbel top-k). The result
    has ``shape`` (default: ``logits``' shape without ``axis``), int dtype."""
    check_no_sharding("categorical", out_sharding)
    typed_key = check_single_key("categorical", key)
    check_arraylike("categorical", logits)
    logits_arr = asarray(logits)
    axis = index_arg(axis, "random.categorical axis")
    if not -logits_arr.ndim <= axis < logits_arr.ndim:
        raise JaxtypedIndexError(f"random.categorical: axis {axis} is out of bounds for logits of rank {logits_arr.ndim}")
    batch_shape = tuple(np.delete(np.array(logits_arr.shape, dtype=np.int64), axis).tolist())
    if shape is None:
        out_shape = batch_shape
    else:
        out_shape = canonical_shape("categorical", shape)
        check_shape_argument("categorical", out_shape, batch_shape)
    prefix = out_shape[: len(out_shape) - len(batch_shape)]
    ndim = logits_arr.ndim
    if replace:
        negative_axis = axis - ndim if axis >= 0 else axis
        logits_shape = list(out_shape[len(out_shape) - len(batch_shape) :])
        logits_shape.insert(negative_axis % ndim, logits_arr.shape[negative_axis])
        noise = gumbel(typed_key, (*prefix, *logits_shape), logits_arr.dtype, mode=mode)
        return argmax(noise + expand_dims(logits_arr, tuple(range(len(prefix)))), axis=negative_axis)
    perturbed = logits_arr + gumbel(typed_key, logits_arr.shape, logits_arr.dtype, mode=mode)
    k = math.prod(prefix)
    if k > logits_arr.shape[axis]:
        raise JaxtypedValueError(
            f"Number of samples without replacement ({k}) cannot exceed number of categories ({logits_arr.shape[axis]})."
        )
    _, indices = top_k(moveaxis(perturbed, axis, -1), k)
    # batch + (k,) -> prefix + batch: the sample axis moves to the front.
    return lax_reshape(indices, out_shape, (indices.ndim - 1, *range(indices.ndim - 1)))


# === multinomial ===


def multinomial(
    key: KeyArrayLike,
    n: ArrayLike,
    p: ArrayLike,
    *,
    shape: ShapeLike | None = None,
    dtype: dtypes.DTypeLike | None = None,
    unroll: int | bool = 1,
) -> Array:
    """Counts of ``n`` trials over outcomes with probabilities ``p`` along
    the last axis (JAX's ``jax.random.multinomial``): one binomial draw per
    outcome, of the trials left, with the outcome's share of the
    probability left. The result has ``p``'s shape (or ``shape``) and
    ``dtype`` (default float)."""
    typed_key = check_single_key("multinomial", key)
    check_arraylike("multinomial", n, p)
    n_arr, p_arr = promote_dtypes("multinomial", [n, p], inexact=True)
    out_shape = p_arr.shape if shape is None else canonical_shape("multinomial", shape)
    n_arr = broadcast_to(n_arr, out_shape[:-1])
    p_arr = broadcast_to(p_arr, out_shape)
    out_dtype = dtypes.canonicalize_dtype(float if dtype is None else dtype)

    def draw(remainder: Array, ratio_and_key: tuple[Array, Array]) -> tuple[Array, Array]:
        ratio, step_key = ratio_and_key
        count = binomial(step_key, remainder, ju.clip(ratio, 0, 1), dtype=remainder.dtype)
        return remainder - count, count

    p_first = moveaxis(p_arr, -1, 0)
    remaining = lax_cumsum(p_first, 0, reverse=True)
    ratios = p_first / ju.where(remaining == 0, 1, remaining)
    keys = split(typed_key, ratios.shape[0])
    _, counts = scan(draw, n_arr, (ratios, keys), unroll=unroll)
    return convert_to(moveaxis(counts, 0, -1), out_dtype, weak_type=False)
