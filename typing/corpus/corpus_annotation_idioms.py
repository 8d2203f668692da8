"""The annotation idioms of JAX code in the wild: jnp.ndarray, jax.Array,
jax.typing, unions with NumPy, jnp scalar types, devices and dtypes."""
from typing import Any, Optional, Union, reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import ArrayLike, DTypeLike

HostOrDevice = Union[np.ndarray, jnp.ndarray]


def normalize(x: jnp.ndarray, axis: int = -1, eps: float = 1e-6) -> jnp.ndarray:
    return x / (jnp.linalg.norm(x, axis=axis, keepdims=True) + eps)


def to_device(x: HostOrDevice, dtype: Optional[DTypeLike] = None) -> jt.Array:
    if isinstance(x, jnp.ndarray):
        return x if dtype is None else x.astype(dtype)
    return jnp.asarray(x, dtype=dtype)


def describe(x: ArrayLike) -> str:
    arr = jnp.asarray(x)
    kind = "float" if jnp.issubdtype(arr.dtype, jnp.floating) else "int" if jnp.issubdtype(arr.dtype, jnp.integer) else "other"
    return f"{kind}{arr.dtype.itemsize * 8}{list(arr.shape)}"


def cast_like(x: jt.Array, like: jt.Array) -> jt.Array:
    return x.astype(like.dtype)


def scalar_types() -> list[jt.Array]:
    return [jnp.float32(1.5), jnp.int32(3), jnp.bool_(True), jnp.uint8(255), jnp.complex64(1 + 2j)]


def is_jax_array(x: object) -> bool:
    return isinstance(x, jt.Array) and not isinstance(x, np.ndarray)


def dtype_table(dtypes: list[DTypeLike]) -> dict[str, int]:
    return {jnp.dtype(d).name: jnp.dtype(d).itemsize for d in dtypes}


def first_device() -> jt.Device:
    return jt.devices()[0]


def stats(x: jnp.ndarray) -> tuple[float, float, int]:
    return float(jnp.mean(x)), float(jnp.std(x)), int(jnp.argmax(x))


def as_numpy(x: jnp.ndarray) -> np.ndarray:
    return np.asarray(x)


def maybe_mask(x: jt.Array, mask: Optional[jt.Array] = None) -> jt.Array:
    if mask is None:
        return x
    return jnp.where(mask, x, jnp.finfo(x.dtype).min)


def mixed(items: list[Any]) -> jt.Array:
    return jnp.stack([jnp.asarray(i, dtype=jnp.float32) for i in items])


x = jnp.arange(6.0).reshape(2, 3)
n = normalize(x)
assert n.shape == (2, 3)
assert to_device(np.ones(3), jnp.float16).dtype == jnp.float16
assert describe(np.int16(3)) == "int16[]"
assert cast_like(jnp.ones(2, jnp.int32), x).dtype == jnp.float32
assert [s.dtype for s in scalar_types()][0] == jnp.float32
assert is_jax_array(x) and not is_jax_array(np.ones(2))
assert dtype_table([jnp.float32, "int8", np.dtype("bool")]) == {"float32": 4, "int8": 1, "bool": 1}
assert first_device().platform == "cpu"
assert stats(jnp.array([1.0, 3.0]))[2] == 1
assert as_numpy(x).dtype == np.float32
assert float(maybe_mask(x, x > 2.0)[0, 0]) < -1e30
assert mixed([1, 2.5, True]).shape == (3,)
reveal_type(n)
reveal_type(to_device(np.ones(3)))
reveal_type(scalar_types())
reveal_type(first_device())
reveal_type(jnp.float32(1.5))
