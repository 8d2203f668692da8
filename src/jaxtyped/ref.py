"""Mutable array references (JAX's ``jax.ref``; seed 003): ``Ref``,
``new_ref``, ``empty_ref``, ``freeze``, ``free_ref`` and the explicit
accesses ``get``, ``set``, ``swap``, ``addupdate`` (``ref[idx]``,
``ref[idx] = v`` and ``ref[idx] += v`` are the usual spelling)."""

from jaxtyped._src.state.types import Indexer, Ref, addupdate, empty_ref, free_ref, freeze, get, new_ref, set, swap

__all__ = ["Indexer", "Ref", "addupdate", "empty_ref", "free_ref", "freeze", "get", "new_ref", "set", "swap"]
