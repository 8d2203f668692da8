"""Statistical distributions (JAX's ``jax.scipy.stats``): ``norm``,
``uniform``, ``expon``, ``laplace``, ``logistic``, ``cauchy``, ``gamma``,
``t``, ``poisson``, ``bernoulli``."""

from jaxtyped.scipy.stats import bernoulli, cauchy, expon, gamma, laplace, logistic, norm, poisson, t, uniform

__all__ = ["bernoulli", "cauchy", "expon", "gamma", "laplace", "logistic", "norm", "poisson", "t", "uniform"]
