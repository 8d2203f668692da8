"""jaxtyped's exceptions (JAX's ``jax.errors`` names plus jaxtyped's own)."""

from jaxtyped._src.errors import (
    AnnotationMismatchError,
    ConcretizationTypeError,
    DebugTypeError,
    DTypeMismatchError,
    JaxprTypeError,
    JaxtypedError,
    JaxtypedIndexError,
    JaxtypedNotImplementedError,
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
from jaxtyped._src.errors import JaxtypedOverflowError, OutOfMemoryError  # manipulation family
from jaxtyped._src.errors import NonConcreteBooleanIndexError  # advanced indexing family
from jaxtyped._src.errors import JaxtypedZeroDivisionError  # nn.initializers family
from jaxtyped._src.errors import CallbackError  # callbacks family (issue 16)
from jaxtyped._src.errors import UnboundAxisNameError  # sharding family (issue 17)
from jaxtyped._src.errors import JaxtypedAttributeError  # custom_batching family
from jaxtyped._src.errors import TypePromotionError  # dtypes family
from jaxtyped._src.errors import UnknownBackendError  # devices family
from jaxtyped._src.errors import ShardingAssertionError  # sharding family

__all__ = [
    "AnnotationMismatchError",
    "ConcretizationTypeError",
    "DebugTypeError",
    "DTypeMismatchError",
    "JaxprTypeError",
    "JaxtypedError",
    "JaxtypedIndexError",
    "JaxtypedNotImplementedError",
    "JaxtypedTypeError",
    "JaxtypedValueError",
    "MissingRuleError",
    "PyTreeStructureError",
    "ShapeMismatchError",
    "TracerArrayConversionError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "UnexpectedTracerError",
    "JaxtypedOverflowError",  # manipulation family
    "OutOfMemoryError",
    "NonConcreteBooleanIndexError",  # advanced indexing family
    "JaxtypedZeroDivisionError",  # nn.initializers family
    "CallbackError",  # callbacks family (issue 16)
    "UnboundAxisNameError",  # sharding family (issue 17)
    "JaxtypedAttributeError",  # custom_batching family
    "TypePromotionError",  # dtypes family
    "UnknownBackendError",  # devices family
    "ShardingAssertionError",  # sharding family
]
