"""Statistical distributions (JAX's ``jax.scipy.stats``): ``norm``,
``uniform``, ``expon``, ``laplace``, ``logistic``, ``cauchy``, ``gamma``,
``t``, ``poisson``, ``bernoulli``, ``multivariate_normal``, ``beta``,
``betabinom``, ``binom``, ``chi2``, ``dirichlet``, ``gennorm``, ``geom``,
``gumbel_l``, ``gumbel_r``, ``multinomial``, ``nbinom``, ``pareto``,
``truncnorm``, ``vonmises``, ``wrapcauchy``; the summary statistics
``sem``, ``mode`` and ``rankdata``; and ``gaussian_kde``."""

from jaxtyped._src.scipy.stats.kde import gaussian_kde
from jaxtyped._src.scipy.stats.summary import mode, rankdata, sem

from jaxtyped.scipy.stats import (
    bernoulli,
    beta,
    betabinom,
    binom,
    cauchy,
    chi2,
    dirichlet,
    expon,
    gamma,
    gennorm,
    geom,
    gumbel_l,
    gumbel_r,
    laplace,
    logistic,
    multinomial,
    multivariate_normal,
    nbinom,
    norm,
    pareto,
    poisson,
    t,
    truncnorm,
    uniform,
    vonmises,
    wrapcauchy,
)

__all__ = [
    "bernoulli", "beta", "betabinom", "binom", "cauchy", "chi2", "dirichlet", "expon", "gamma", "gennorm", "geom",
    "gumbel_l", "gumbel_r", "laplace", "logistic", "multinomial", "multivariate_normal", "nbinom", "norm", "pareto",
    "poisson", "t", "truncnorm", "uniform", "vonmises", "wrapcauchy",
    "gaussian_kde", "mode", "rankdata", "sem",
]  # fmt: skip
