"""Statistical distributions (JAX's ``jax.scipy.stats``): ``norm``,
``uniform``, ``expon``, ``laplace``, ``logistic``, ``cauchy``, ``gamma``,
``t``, ``poisson``, ``bernoulli``, ``multivariate_normal``."""

from jaxtyped.scipy.stats import (
    bernoulli,
    cauchy,
    expon,
    gamma,
    laplace,
    logistic,
    multivariate_normal,
    norm,
    poisson,
    t,
    uniform,
)

__all__ = [
    "bernoulli", "cauchy", "expon", "gamma", "laplace", "logistic", "multivariate_normal", "norm", "poisson", "t",
    "uniform",
]  # fmt: skip
