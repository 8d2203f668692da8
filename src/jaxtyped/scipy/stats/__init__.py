"""Statistical distributions (JAX's ``jax.scipy.stats``): ``norm``,
``uniform``, ``expon``, ``laplace``, ``logistic``."""

from jaxtyped.scipy.stats import expon, laplace, logistic, norm, uniform

__all__ = ["expon", "laplace", "logistic", "norm", "uniform"]
