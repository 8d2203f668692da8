"""``jaxtyped.random``'s implementation (layer L5): typed keys and threefry
bits in :mod:`.keys`; the distributions build on its internal API."""
