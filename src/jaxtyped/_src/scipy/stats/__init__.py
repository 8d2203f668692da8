"""Distributions of ``jaxtyped.scipy.stats`` other than ``norm`` (which
is ``jaxtyped._src.scipy.norm``): one module per distribution, each a
composition of ``jaxtyped.numpy`` and ``scipy.special`` functions."""
