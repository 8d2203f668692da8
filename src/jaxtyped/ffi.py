"""Calling foreign functions through XLA's FFI (JAX's ``jax.ffi``):
:func:`ffi_call`, :func:`register_ffi_target`, :func:`ffi_lowering`,
:func:`include_dir` and :func:`pycapsule`."""

from jaxtyped._src.ffi import FfiCall as FfiCall
from jaxtyped._src.ffi import VmapMethod as VmapMethod
from jaxtyped._src.ffi import ffi_call as ffi_call
from jaxtyped._src.ffi import ffi_lowering as ffi_lowering
from jaxtyped._src.ffi import include_dir as include_dir
from jaxtyped._src.ffi import pycapsule as pycapsule
from jaxtyped._src.ffi import register_ffi_target as register_ffi_target

__all__ = ["FfiCall", "VmapMethod", "ffi_call", "ffi_lowering", "include_dir", "pycapsule", "register_ffi_target"]
