"""Flax-linen-style layers written by hand, annotated: initializers typed as
the library types them, dense and convolution through lax primitives, dtype
promotion, dropout and batch norm over explicit parameter dicts."""
from collections.abc import Callable, Sequence
from typing import Any, reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array, lax
from jaxtyped.nn import initializers
from jaxtyped.typing import DTypeLike

Shape = Sequence[int]
PRNGKey = Array
Initializer = Callable[[PRNGKey, Shape, DTypeLike], Array]
PrecisionLike = lax.Precision | None

default_kernel_init: Initializer = initializers.lecun_normal()
zeros_init: Initializer = initializers.zeros


def canonicalize_dtype(*args: Array | None, dtype: DTypeLike | None = None) -> np.dtype[Any]:
    if dtype is None:
        args_filtered = [jnp.asarray(x) for x in args if x is not None]
        dtype = jnp.result_type(*args_filtered)
        if not jnp.issubdtype(dtype, jnp.inexact):
            dtype = jnp.promote_types(jnp.float32, dtype)
    return jnp.dtype(dtype)


def promote_dtype(*args: Array | None, dtype: DTypeLike | None = None) -> list[Array | None]:
    dtype = canonicalize_dtype(*args, dtype=dtype)
    return [jnp.asarray(x, dtype) if x is not None else None for x in args]


def dense_init(key: PRNGKey, in_features: int, features: int, *, kernel_init: Initializer = default_kernel_init,
               dtype: DTypeLike = jnp.float32) -> dict[str, Array]:
    kkey, bkey = jt.random.split(key)
    return {"kernel": kernel_init(kkey, (in_features, features), dtype), "bias": zeros_init(bkey, (features,), dtype)}


def dense_apply(params: dict[str, Array], inputs: Array, precision: PrecisionLike = None) -> Array:
    x, kernel, bias = promote_dtype(inputs, params["kernel"], params["bias"])
    assert x is not None and kernel is not None and bias is not None
    y = lax.dot_general(x, kernel, (((x.ndim - 1,), (0,)), ((), ())), precision=precision)
    return y + jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))


def conv_init(key: PRNGKey, in_channels: int, features: int, kernel_size: tuple[int, int]) -> dict[str, Array]:
    shape = kernel_size + (in_channels, features)
    return {"kernel": initializers.he_normal()(key, shape, jnp.float32), "bias": jnp.zeros((features,))}


def conv_apply(params: dict[str, Array], x: Array, strides: tuple[int, int] = (1, 1), padding: str = "SAME") -> Array:
    dn = lax.conv_dimension_numbers(x.shape, params["kernel"].shape, ("NHWC", "HWIO", "NHWC"))
    y = lax.conv_general_dilated(x, params["kernel"], window_strides=strides, padding=padding,
                                 rhs_dilation=(1, 1), dimension_numbers=dn)
    return y + params["bias"]


def dropout(key: PRNGKey, x: Array, rate: float, deterministic: bool) -> Array:
    if deterministic or rate == 0.0:
        return x
    keep_prob = 1.0 - rate
    mask = jt.random.bernoulli(key, p=keep_prob, shape=x.shape)
    return lax.select(mask, x / keep_prob, jnp.zeros_like(x))


def batch_norm(x: Array, scale: Array, bias: Array, epsilon: float = 1e-5) -> tuple[Array, Array, Array]:
    reduction_axes = tuple(range(x.ndim - 1))
    mean = jnp.mean(x, axis=reduction_axes)
    var = jnp.mean(jnp.square(x), axis=reduction_axes) - jnp.square(mean)
    y = (x - mean) * lax.rsqrt(var + epsilon)
    return y * scale + bias, mean, var


def avg_pool(x: Array, window: tuple[int, int]) -> Array:
    summed = lax.reduce_window(x, 0.0, lax.add, (1,) + window + (1,), (1,) + window + (1,), "VALID")
    return summed / np.prod(window)


def model_apply(params: dict[str, dict[str, Array]], x: Array, key: PRNGKey, train: bool) -> Array:
    h = jt.nn.relu(conv_apply(params["conv"], x))
    h, _, _ = batch_norm(h, jnp.ones(h.shape[-1]), jnp.zeros(h.shape[-1]))
    h = avg_pool(h, (2, 2))
    h = h.reshape((h.shape[0], -1))
    h = dropout(key, h, 0.1, deterministic=not train)
    return dense_apply(params["dense"], h, precision=lax.Precision.HIGHEST)


root = jt.random.key(0)
k1, k2, k3 = jt.random.split(root, 3)
params = {"conv": conv_init(k1, 1, 4, (3, 3)), "dense": dense_init(k2, 4 * 4 * 4, 10)}
images = jt.random.normal(k3, (2, 8, 8, 1))
logits = jt.jit(model_apply, static_argnames="train")(params, images, k3, train=True)
assert logits.shape == (2, 10)
labels = jnp.array([1, 7])


def loss(params: dict[str, dict[str, Array]], key: PRNGKey) -> Array:
    out = model_apply(params, images, key, train=True)
    return -jnp.mean(jnp.take_along_axis(jt.nn.log_softmax(out), labels[:, None], axis=-1))


grads = jt.grad(loss)(params, k1)
assert grads["dense"]["kernel"].shape == (64, 10)
assert canonicalize_dtype(jnp.ones(2, jnp.int32)) == np.dtype(np.float32)
assert jnp.finfo(canonicalize_dtype(None, dtype=jnp.bfloat16)).bits == 16
reveal_type(logits)
reveal_type(grads)
reveal_type(k1)
reveal_type(promote_dtype(images, None))
