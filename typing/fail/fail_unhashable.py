"""Arrays compare elementwise and are unhashable at run time
(Array.__hash__ is declared ClassVar[None]).

Known divergence: pyright rejects an Array used as a dict key or set
element (reportUnhashable); mypy has no hashability check for those and
accepts them, so the expectations name pyright only. Neither checker
rejects hash(x) itself (see typing/pending/NOTES.md)."""

import jaxtyped.numpy as jnp

x = jnp.ones(3)

table = {x: "value"}  # expect: pyright[reportUnhashable]
members = {x, x}  # expect: pyright[reportUnhashable]
