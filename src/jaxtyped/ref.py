"""Mutable array references (JAX's ``jax.ref``; seed 003): ``Ref``,
``new_ref``, ``freeze`` and the explicit accesses ``get``, ``swap``,
``addupdate`` (``ref[idx]``, ``ref[idx] = v`` and ``ref[idx] += v`` are
the usual spelling)."""

from jaxtyped._src.state.types import Indexer, Ref, addupdate, freeze, get, new_ref, swap

__all__ = ["Indexer", "Ref", "addupdate", "freeze", "get", "new_ref", "swap"]
