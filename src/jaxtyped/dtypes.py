"""Dtype utilities (JAX's ``jax.dtypes``): the extended dtypes
(``extended``, ``prng_key``: ``issubdtype(key.dtype, prng_key)``),
``canonicalize_dtype``, ``result_type`` with its weak-type flag,
``itemsize_bits``, ``scalar_type_of``, and the names ``jaxtyped.numpy``
also has (``bfloat16``, ``float0``, ``finfo``, ``iinfo``, ``issubdtype``)."""

from jaxtyped._src.api_dtypes import canonicalize_dtype, itemsize_bits, result_type, scalar_type_of
from jaxtyped._src.dtypes import bfloat16, extended, finfo, float0, iinfo, prng_key
from jaxtyped._src.dtypes import dtypes_issubdtype as issubdtype
from jaxtyped._src.errors import TypePromotionError

__all__ = [
    "TypePromotionError",
    "bfloat16",
    "canonicalize_dtype",
    "extended",
    "finfo",
    "float0",
    "iinfo",
    "issubdtype",
    "itemsize_bits",
    "prng_key",
    "result_type",
    "scalar_type_of",
]
