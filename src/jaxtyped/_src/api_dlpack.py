"""JAX's ``jax.dlpack``: ``from_dlpack`` (arrays from other libraries'
host tensors) and ``is_supported_dtype``. Exporting is ``Array.__dlpack__``
(``np.from_dlpack(x)``, ``torch.from_dlpack(x)``)."""

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.numpy.creation import from_dlpack as _jnp_from_dlpack
from jaxtyped._src.runtime import xla

__all__ = ["from_dlpack", "is_supported_dtype"]

# What DLPack carries through NumPy, jaxtyped's host side: no bfloat16 or
# narrower ml_dtypes types (JAX's device export has bfloat16 too).
_SUPPORTED: frozenset[np.dtype[np.generic]] = frozenset(
    np.dtype(name)
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128")
)  # fmt: skip


def from_dlpack(external_array: object, device: "xla.DeviceOrSharding | None" = None, copy: bool | None = None) -> Array:
    """An array from an object implementing the DLPack protocol
    (``__dlpack__`` and ``__dlpack_device__``) on the host: a NumPy array,
    a CPU tensor of another library (``jnp.from_dlpack``)."""
    return _jnp_from_dlpack(external_array, device=device, copy=copy)


def is_supported_dtype(dtype: dtypes.DTypeLike) -> bool:
    """Whether arrays of ``dtype`` go through DLPack (booleans, integers,
    float16/32/64, complex64/128; not bfloat16, which JAX's device export
    also carries)."""
    return dtypes.dtype(dtype) in _SUPPORTED
