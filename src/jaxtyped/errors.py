"""jaxtyped's exceptions (JAX's ``jax.errors`` names plus jaxtyped's own)."""

from jaxtyped._src.errors import (
    AnnotationMismatchError,
    ConcretizationTypeError,
    DebugTypeError,
    DTypeMismatchError,
    JaxprTypeError,
    JaxtypedError,
    JaxtypedIndexError,
    JaxtypedTypeError,
    JaxtypedValueError,
    MissingRuleError,
    PyTreeStructureError,
    ShapeMismatchError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)

__all__ = [
    "AnnotationMismatchError",
    "ConcretizationTypeError",
    "DebugTypeError",
    "DTypeMismatchError",
    "JaxprTypeError",
    "JaxtypedError",
    "JaxtypedIndexError",
    "JaxtypedTypeError",
    "JaxtypedValueError",
    "MissingRuleError",
    "PyTreeStructureError",
    "ShapeMismatchError",
    "TracerArrayConversionError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "UnexpectedTracerError",
]
