"""DLPack array interchange (JAX's ``jax.dlpack``): ``from_dlpack`` makes
an array from another library's host tensor; ``np.from_dlpack(x)`` and
other libraries' ``from_dlpack`` read a jaxtyped array (``Array.__dlpack__``,
a read-only view where the consumer supports DLPack 1.0)."""

from jaxtyped._src.api_dlpack import from_dlpack, is_supported_dtype

__all__ = ["from_dlpack", "is_supported_dtype"]
