"""The implementation of ``jaxtyped.extend`` (JEP 15856) (layer L5)."""
