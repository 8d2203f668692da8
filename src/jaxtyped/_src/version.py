"""The package's version (layer L0: read by ``jaxtyped.__version__`` and ``jaxtyped.version``)."""

__version__ = "0.1.0"
