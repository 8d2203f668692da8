"""Exporting staged functions as self-contained, serialisable programs
(JAX's ``jax.export``).

``export(jit(f))(*args)`` lowers ``f`` for the arguments' types (arrays or
``ShapeDtypeStruct``\\ s) into an :class:`Exported`; ``serialize()`` and
:func:`deserialize` write and read it as bytes, and ``Exported.call`` runs
it, eagerly or inside ``jit``, differentiable with ``grad`` through the VJP
exported with it.

Example:
    >>> import jaxtyped as jt, jaxtyped.numpy as jnp
    >>> from jaxtyped import export
    >>> exp = export.export(jt.jit(lambda x: x * 2))(jnp.arange(3.0))
    >>> blob = exp.serialize(vjp_order=1)
    >>> jt.grad(lambda x: export.deserialize(blob).call(x).sum())(jnp.ones(3))
    Array([2., 2., 2.], dtype=float32)
"""

from jaxtyped._src.export import (
    DisabledSafetyCheck,
    Exported,
    default_export_platform,
    deserialize,
    export,
    is_symbolic_dim,
    maximum_supported_calling_convention_version,
    minimum_supported_calling_convention_version,
    register_namedtuple_serialization,
    register_pytree_node_serialization,
)

__all__ = [
    "DisabledSafetyCheck",
    "Exported",
    "default_export_platform",
    "deserialize",
    "export",
    "is_symbolic_dim",
    "maximum_supported_calling_convention_version",
    "minimum_supported_calling_convention_version",
    "register_namedtuple_serialization",
    "register_pytree_node_serialization",
]
