"""``dot_product_attention`` (layer L5): JAX's ``jax.nn`` attention by its
XLA formulation (there is no cuDNN here).

Grouped-query attention keeps the query heads as ``K`` key/value heads of
``G`` queries each, so both contractions are one ``einsum`` each; bias and
mask, given per query head (or broadcast over heads), are regrouped the
same way. Logits and the softmax are computed in at least float32, as in
JAX, and masked-out logits are a large negative number rather than
``-inf`` (a fully masked row gives a uniform average, not NaN).
"""

import operator
from typing import Any, Literal, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.lax.arithmetic import stop_gradient
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import broadcasted_iota
from jaxtyped._src.numpy import shape_ops as js
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.einsum import einsum
from jaxtyped._src.scipy.special import logsumexp, softmax

__all__ = ["dot_product_attention"]


def _four_d(x: ArrayLike) -> Array:
    """``x`` with leading axes of size 1 up to rank 4 (unbatched inputs)."""
    a = asarray(x)
    return a if a.ndim >= 4 else js.expand_dims(a, tuple(range(4 - a.ndim)))


def _check(x: Array | None, shape: tuple[int, ...], dtype: np.dtype[Any] | None, name: str) -> None:
    """JAX's checks: rank, dtype, and every size that is not -1."""
    if x is None:
        return
    if x.ndim != len(shape):
        raise JaxtypedValueError(f"nn.dot_product_attention: {name} ndim should be {len(shape)}, but got {x.ndim}")
    if dtype is not None and x.dtype != dtype:
        raise JaxtypedValueError(f"nn.dot_product_attention: {name} dtype should be {dtype}, but got {x.dtype}")
    if any(want not in (-1, got) for want, got in zip(shape, x.shape)):
        raise JaxtypedValueError(f"nn.dot_product_attention: {name} shape should be {shape}: but got {x.shape}")


def _grouped(x: Array, heads: int, groups: int) -> Array:
    """A (B, N|1, T, S) bias or mask as (B, K|1, G, T, S), matching logits
    laid out as (B, K, G, T, S)."""
    b, n, t, s = x.shape
    if n == 1:
        return js.broadcast_to(js.expand_dims(x, 2), (b, 1, groups, t, s))
    if n != heads * groups:
        raise JaxtypedValueError(
            f"nn.dot_product_attention: bias and mask need {heads * groups} heads (or 1), got {n}"
        )
    return js.reshape(x, (b, heads, groups, t, s))


def _large_negative(dtype: np.dtype[Any]) -> Array:
    # Finite even after the softmax's cast to float32.
    biggest = min(float(dtypes.finfo(dtype).max), float(np.finfo(np.float32).max))
    return asarray(np.asarray(-0.7 * biggest).astype(dtype))


def _positions(t: int, s: int) -> tuple[Array, Array]:
    """Query and key positions, as (T, 1) and (1, S) broadcastable grids."""
    return broadcasted_iota(np.int32, (t, 1), 0), broadcasted_iota(np.int32, (1, s), 1)


def _mask(
    logits: Array,
    mask: Array | None,
    is_causal: bool,
    q_lengths: Array | None,
    kv_lengths: Array | None,
    window: tuple[int, int] | None,
) -> Array | None:
    """Where attention is allowed, broadcastable to the (B, K, G, T, S)
    logits, or None when everything is."""
    t, s = logits.shape[-2], logits.shape[-1]
    allowed: Array | None = mask
    query_pos, key_pos = _positions(t, s)

    def both(extra: Array) -> Array:
        return extra if allowed is None else ju.logical_and(allowed, extra)

    if is_causal:
        allowed = both(ju.less_equal(key_pos, query_pos))
    if window is not None:
        left, right = window
        allowed = both(ju.logical_and(ju.less_equal(query_pos, ju.add(key_pos, left)), ju.greater_equal(query_pos, ju.subtract(key_pos, right))))
    if q_lengths is not None or kv_lengths is not None:
        padding: Array | None = None
        if q_lengths is not None:
            padding = ju.less(js.reshape(query_pos, (1, t, 1)), js.reshape(q_lengths, (-1, 1, 1)))
        if kv_lengths is not None:
            keys = ju.less(js.reshape(key_pos, (1, 1, s)), js.reshape(kv_lengths, (-1, 1, 1)))
            padding = keys if padding is None else ju.logical_and(padding, keys)
        assert padding is not None
        allowed = both(js.expand_dims(padding, (1, 2)))  # (B, 1, 1, T|1, S|1)
    return allowed


def _attend(
    query: Array,
    key: Array,
    value: Array,
    bias: Array | None,
    mask: Array | None,
    is_causal: bool,
    scale: float,
    q_lengths: Array | None,
    kv_lengths: Array | None,
    window: tuple[int, int] | None,
) -> tuple[Array, Array]:
    """The attention output (B, T, N, H) and the logsumexp residual (B, T, N)."""
    b, t, n, h = query.shape
    heads = key.shape[2]
    groups = n // heads
    logits_dtype = dtypes.promote_types(query.dtype, np.dtype(np.float32))
    grouped_query = js.reshape(query, (b, t, heads, groups, h))
    logits = einsum("btkgh,bskh->bkgts", grouped_query, key, preferred_element_type=logits_dtype)
    logits = ju.multiply(logits, asarray(np.asarray(scale).astype(logits_dtype)))
    if bias is not None:
        logits = convert_to(ju.add(logits, _grouped(bias, heads, groups)), logits.dtype, weak_type=False)
    allowed = _mask(logits, None if mask is None else _grouped(mask, heads, groups), is_causal, q_lengths, kv_lengths, window)
    if allowed is not None:
        logits = ju.where(allowed, logits, _large_negative(logits.dtype))
    padded = convert_to(logits, np.dtype(np.float32), weak_type=False)
    probs = convert_to(softmax(padded, axis=-1), key.dtype, weak_type=False)
    encoded = js.reshape(einsum("bkgts,bskh->btkgh", probs, value), (b, t, n, h))
    if q_lengths is not None:
        rows = ju.less(broadcasted_iota(np.int32, (1, t), 1), js.reshape(q_lengths, (-1, 1)))
        encoded = ju.multiply(encoded, convert_to(js.reshape(rows, (-1, t, 1, 1)), encoded.dtype, weak_type=False))
    residual = convert_to(logsumexp(padded, axis=-1), key.dtype, weak_type=False)
    residual = js.reshape(js.transpose(residual, (0, 3, 1, 2)), (b, t, n))
    return encoded, stop_gradient(residual)


@overload
def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    bias: ArrayLike | None = None,
    mask: ArrayLike | None = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: ArrayLike | None = None,
    key_value_seq_lengths: ArrayLike | None = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: Literal["xla", "cudnn"] | None = None,
    return_residual: Literal[False] = False,
) -> Array: ...
@overload
def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    bias: ArrayLike | None = None,
    mask: ArrayLike | None = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: ArrayLike | None = None,
    key_value_seq_lengths: ArrayLike | None = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: Literal["xla", "cudnn"] | None = None,
    return_residual: Literal[True],
) -> tuple[Array, Array]: ...
def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    bias: ArrayLike | None = None,
    mask: ArrayLike | None = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: ArrayLike | None = None,
    key_value_seq_lengths: ArrayLike | None = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: Literal["xla", "cudnn"] | None = None,
    return_residual: bool = False,
) -> Array | tuple[Array, Array]:
    """Scaled dot-product attention, ``softmax(q k^T * scale + bias) v``
    over (batch, length, heads, head_dim) arrays (batch optional), with
    grouped-query heads, a boolean ``mask``, causal and local-window masks
    and per-example sequence lengths (JAX's ``jax.nn.dot_product_attention``,
    XLA implementation). ``return_residual`` adds the logsumexp of each
    query's logits, shaped like ``query`` without its last axis."""
    if implementation not in (None, "xla"):
        raise JaxtypedValueError(
            f"nn.dot_product_attention: implementation {implementation!r} is not available (only 'xla')"
        )
    out_shape = asarray(query).shape
    q, k, v = _four_d(query), _four_d(key), _four_d(value)
    bias_ = None if bias is None else _four_d(bias)
    mask_ = None if mask is None else _four_d(mask)
    q_lengths = None if query_seq_lengths is None else asarray(query_seq_lengths)
    kv_lengths = None if key_value_seq_lengths is None else asarray(key_value_seq_lengths)
    b, s, heads, h = k.shape
    _check(v, (b, s, heads, h), k.dtype, "value")
    _check(q, (b, -1, -1, h), k.dtype, "query")
    _check(mask_, (-1, -1, -1, -1), np.dtype(np.bool_), "mask")
    _check(bias_, (-1, -1, -1, -1), None, "bias")
    _check(q_lengths, (b,), np.dtype(np.int32), "query_seq_lengths")
    _check(kv_lengths, (b,), np.dtype(np.int32), "key_value_seq_lengths")
    if q.shape[2] % heads:
        raise JaxtypedValueError(
            "nn.dot_product_attention: the number of query heads must be a multiple of key/value heads, "
            f"but got {q.shape[2]} vs {heads}"
        )
    window: tuple[int, int] | None
    if isinstance(local_window_size, int):
        window = (operator.index(local_window_size), operator.index(local_window_size))
    else:
        window = local_window_size
    scale_ = 1.0 / float(np.sqrt(h)) if scale is None else scale
    encoded, residual = _attend(q, k, v, bias_, mask_, is_causal, scale_, q_lengths, kv_lengths, window)
    encoded = js.reshape(encoded, out_shape)
    if return_residual:
        return encoded, js.reshape(residual, out_shape[:-1])
    return encoded
