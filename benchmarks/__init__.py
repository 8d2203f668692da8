"""Benchmarks of jaxtyped beside JAX; a package so that ``python -m benchmarks.history`` runs."""
