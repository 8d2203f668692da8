"""The jaxtyped exception hierarchy (layer L0).

Every error jaxtyped raises on purpose derives from :class:`JaxtypedError`.
Where JAX raises a builtin (``TypeError``, ``ValueError``) our class also
derives from that builtin, so ``except TypeError`` code ported from JAX keeps
working. Each class's docstring says what causes it and how to fix it; the
message itself names the user's function, the argument and the short types
(``f32[3,4]``) involved.
"""

__all__ = [
    "JaxtypedError",
    "JaxtypedTypeError",
    "JaxtypedValueError",
    "JaxtypedIndexError",
    "ShapeMismatchError",
    "DTypeMismatchError",
    "ConcretizationTypeError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
    "UnexpectedTracerError",
    "MissingRuleError",
    "PyTreeStructureError",
    "JaxprTypeError",
    "DebugTypeError",
    "AnnotationMismatchError",
    # advanced indexing family
    "NonConcreteBooleanIndexError",
    # array manipulation and bad-input family
    "JaxtypedOverflowError",
    "OutOfMemoryError",
    # nn.initializers family
    "JaxtypedZeroDivisionError",
]


class JaxtypedError(Exception):
    """Base class of every error raised on purpose by jaxtyped."""


class JaxtypedTypeError(JaxtypedError, TypeError):
    """An operation received operands of the wrong type, shape or dtype.

    Fix: the message names the operation and the operands' short types
    (``f32[3]``); convert or reshape the operands so that they agree.
    """


class JaxtypedValueError(JaxtypedError, ValueError):
    """An argument has the right type but an invalid value (an axis out of
    range, a negative size, a bad static parameter).

    Fix: the message names the function, the argument and the allowed range.
    """


class JaxtypedIndexError(JaxtypedError, IndexError):
    """An index is out of bounds or of an unsupported kind.

    Fix: the message names the indexed shape and the offending index.
    """


class ShapeMismatchError(JaxtypedTypeError):
    """Operands of one operation have incompatible shapes.

    Fix: broadcast, reshape or transpose the operands; the message shows both
    shapes, for example ``f32[3]`` vs ``f32[4]``.
    """


class DTypeMismatchError(JaxtypedTypeError):
    """Operands of one primitive have different dtypes, or a dtype the
    primitive does not accept.

    Fix: convert with ``x.astype(...)`` (or use the ``jaxtyped.numpy``
    function, which promotes dtypes for you).
    """


class ConcretizationTypeError(JaxtypedTypeError):
    """A concrete Python value was needed from an abstract (traced) array.

    Inside ``make_jaxpr``, ``vmap`` or ``jit`` the value of an array that
    depends on the function's arguments is unknown while Python runs.
    Fix: use structured operations (``jnp.where``, ``lax.cond``) instead of
    Python control flow, or mark the argument static.
    """


class TracerBoolConversionError(ConcretizationTypeError):
    """``bool()`` (an ``if``, ``while``, ``and``/``or``) was applied to a
    traced array whose value is not known while tracing.

    Fix: use ``jnp.where`` or ``lax.cond``/``lax.select`` for data-dependent
    choices.
    """


class TracerIntegerConversionError(JaxtypedTypeError):
    """``int()``, ``operator.index()`` or ``float()`` was applied to a traced
    array whose value is not known while tracing (for example to use it as a
    Python index or a shape).

    Fix: keep the value as an array (``lax.dynamic_slice`` accepts traced
    indices) or make the argument static.
    """


class TracerArrayConversionError(JaxtypedTypeError):
    """A traced array was converted to a NumPy array (``np.asarray(x)``).

    Fix: use ``jaxtyped.numpy`` functions on traced values instead of NumPy.
    """


class UnexpectedTracerError(JaxtypedError):
    """A tracer was used outside the transformation that created it (it
    "leaked", for example by being stored in a global or a list that outlived
    the call).

    Fix: return values from the transformed function instead of storing them
    elsewhere; the message names the transformation and function that made
    the tracer.
    """


class MissingRuleError(JaxtypedError, NotImplementedError):
    """A transformation needs a rule that a primitive does not define, for
    example a transpose rule under ``grad``.

    Fix: add the rule to the primitive (or register it through
    ``jaxtyped.extend``); the message names the transformation and the
    primitive.
    """


class JaxtypedNotImplementedError(JaxtypedError, NotImplementedError):
    """A feature that is not implemented: one JAX refuses too (``jnp.fromiter``,
    ``eigh`` with ``subset_by_index`` on CPU), or one jaxtyped does not have yet.

    Fix: the message names the function and the option; use the alternative
    it suggests.
    """


class PyTreeStructureError(JaxtypedValueError):
    """Two pytrees that must have the same structure do not (for example
    primals and tangents of ``jvp``, or ``in_axes`` and the arguments of
    ``vmap``).

    Fix: the message gives the key path of the first difference.
    """


class DebugTypeError(JaxtypedTypeError):
    """In debug mode (``JAXTYPED_DEBUG=1``), a call to a jaxtyped function
    violated the function's type annotations (checked by beartype before
    the function body runs), or a jaxpr node (``Var``, ``Eqn``, ``Jaxpr``,
    ``ShapedArray``, ...) was built from an argument, or a tuple item, of
    the wrong type.

    Fix: the message names the function or node class, the parameter (or
    return value, or field and item), the annotation and the offending
    value. It is a ``TypeError``, as the errors jaxtyped raises for bad
    input without debug mode are.
    """


class JaxprTypeError(JaxtypedTypeError):
    """A jaxpr is ill-typed: a variable is used before it is defined, defined
    twice, or an equation's output types disagree with its primitive's
    shape rule.

    This indicates a bug in a transformation or a hand-built jaxpr; the
    message names the equation.
    """


class AnnotationMismatchError(JaxtypedTypeError):
    """An argument or result does not match its shape-and-dtype annotation
    (``Float[Array, "batch n"]``): wrong dtype kind, wrong rank, a fixed
    size that differs, or a named dimension whose size disagrees with the
    size it took earlier in the same call. Checked by ``jit`` when tracing
    and, in debug mode, by ``jaxtyped.typing.typechecked`` at every call.

    Fix: the message names the function, the argument (and the path inside
    it), the annotation, the actual type, and for a named dimension the
    argument that fixed its size.
    """


# --- array manipulation and bad-input family ---


class JaxtypedOverflowError(JaxtypedError, OverflowError):
    """A Python integer does not fit the dtype it is converted to
    (``jnp.array([300], dtype=jnp.uint8)``, ``jnp.array([1, 2**40])``).

    Fix: the message names the function, the value and the dtype; pass a
    wider ``dtype`` (or enable x64), or a NumPy array to wrap around on purpose.
    """


class OutOfMemoryError(JaxtypedError, RuntimeError, MemoryError):
    """An array would need more memory than this machine has
    (``jnp.zeros((10**6, 10**6))``); JAX raises a RESOURCE_EXHAUSTED runtime
    error for it when it allocates.

    Fix: the message names the function, the shape, the dtype and the bytes
    needed; make the array smaller, or build it inside ``jit`` where XLA may
    never need to materialise it.
    """


# --- advanced indexing family ---


class NonConcreteBooleanIndexError(JaxtypedIndexError):
    """A boolean mask whose value is not known while tracing was used as an
    index (``x[mask]`` inside ``jit``): the result's shape would depend on
    the mask's values.

    Fix: use a concrete (NumPy) mask, ``jnp.where(mask, x, fill)`` to keep
    the shape, or ``jnp.nonzero(mask, size=n)`` / ``jnp.where(mask, size=n)``
    for a fixed number of indices.
    """


# --- nn.initializers family ---


class JaxtypedZeroDivisionError(JaxtypedError, ZeroDivisionError):
    """A computation divides by a zero size, as JAX's does (the fans of a
    weights shape with a zero-sized axis in a variance-scaling initializer).

    Fix: the message names the function and the shape; give every axis
    the fans use a nonzero size.
    """


# Tracebacks show the public module users import the classes from.
for _name in __all__:
    globals()[_name].__module__ = "jaxtyped.errors"


# --- callbacks family (issue 16) ---


class CallbackError(JaxtypedError, RuntimeError):
    """A host callback (``pure_callback``, ``io_callback``, ``debug.callback``,
    ``debug.print``) raised, or returned values of the wrong shape or dtype,
    while a program ran; JAX raises a runtime error (``JaxRuntimeError``)
    for it.

    Fix: the message names the callback's primitive and the original
    exception, which is chained as ``__cause__``; fix the callback or its
    ``result_shape_dtypes``.
    """


# --- sharding family (issue 17) ---


class UnboundAxisNameError(JaxtypedError, NameError):
    """A collective (``psum``, ``axis_index``, ...) names an axis that no
    enclosing ``vmap(..., axis_name=...)`` binds; JAX raises ``NameError``.

    Fix: the message names the collective, the axis and the names that are
    bound; call the collective inside a ``vmap`` with that ``axis_name``.
    """


# --- custom_batching family ---


class JaxtypedAttributeError(JaxtypedError, AttributeError):
    """Something a call needs was never defined on the object: a
    ``custom_vmap`` function called before ``def_vmap`` gave it a rule
    (JAX raises ``AttributeError``).

    Fix: the message names what to define.
    """


# --- dtypes family ---


class TypePromotionError(JaxtypedValueError):
    """Two dtypes have no implicit promotion path (the narrow ml_dtypes
    types, such as float8 with bfloat16); JAX's
    ``jax.dtypes.TypePromotionError``, also a ``ValueError``.

    Fix: convert one operand explicitly with ``.astype(...)``.
    """


# --- devices family ---


class UnknownBackendError(JaxtypedError, RuntimeError):
    """A ``backend=`` argument (``jt.devices("gpu")``) names a platform this
    process has no devices of; JAX raises ``RuntimeError``.

    Fix: the message lists the platforms present; jaxtyped drives jaxlib's
    CPU client, so ``"cpu"`` (or ``None``, the default) is the one there is.
    """


# --- sharding family ---


class ShardingAssertionError(JaxtypedError, AssertionError):
    """``with_sharding_constraint`` under ``set_mesh`` of a mesh whose axes
    are all Explicit checks, rather than changes, the array's layout (an
    Explicit axis is part of the array's type), and the array is laid out
    otherwise; JAX raises ``AssertionError``.

    Fix: lay the array out with ``jt.sharding.reshard`` first, or give the
    mesh Auto axes (``make_mesh(..., axis_types=(AxisType.Auto,))``) for the
    constraint to lay it out.
    """


# Classes outside this module's __all__ that jaxtyped.errors exports too.
for _cls in (
    UnboundAxisNameError,
    CallbackError,
    JaxtypedNotImplementedError,
    JaxtypedAttributeError,
    TypePromotionError,
    UnknownBackendError,
    ShardingAssertionError,
):
    _cls.__module__ = "jaxtyped.errors"
