"""JAX's ``jax.experimental.checkify``: functionalized runtime checks.

``checkify(f)`` returns ``f`` computing ``(error, out)``: the user ``check``\\ s
and the enabled automatic checks (NaNs, division by zero, out-of-bounds
indexing) that fail while computing ``out`` are recorded in the
:class:`Error` instead of raising, so the checked function can be jitted,
vmapped and differentiated."""

from jaxtyped._src.checkify import (
    Error,
    ErrorCategory,
    JaxRuntimeError,
    all_checks,
    automatic_checks,
    check,
    check_error,
    checkify,
    debug_check,
    div_checks,
    float_checks,
    index_checks,
    init_error,
    nan_checks,
    user_checks,
)

__all__ = [
    "Error",
    "ErrorCategory",
    "JaxRuntimeError",
    "all_checks",
    "automatic_checks",
    "check",
    "check_error",
    "checkify",
    "debug_check",
    "div_checks",
    "float_checks",
    "index_checks",
    "init_error",
    "nan_checks",
    "user_checks",
]
