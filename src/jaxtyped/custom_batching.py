"""User-defined batching rules (JAX's ``jax.custom_batching``).

``custom_vmap(f)`` gives ``f`` a batching rule of its own, set with
``f.def_vmap(rule)``: under ``vmap`` the rule is called as
``rule(axis_size, in_batched, *args)`` (batched arguments with their batch
axis first, ``in_batched`` one pytree of bools per argument) and returns
``(out, out_batched)``. ``sequential_vmap(f)`` is ``f`` with a rule that
loops over the batch with ``lax.map``.
"""

from jaxtyped._src.custom_batching import custom_vmap, sequential_vmap

__all__ = ["custom_vmap", "sequential_vmap"]
