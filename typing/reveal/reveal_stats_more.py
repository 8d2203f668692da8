"""Result types of the newer ``jaxtyped.scipy.stats`` distributions:
``Array`` for every function, whatever mix of arrays and Python scalars
they are given; ``mode`` gives a named pair of arrays, ``gaussian_kde`` an
estimate whose methods give arrays."""

from typing_extensions import assert_type

from jaxtyped.scipy import stats
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, k: Array) -> None:
    assert_type(stats.beta.logpdf(x, 2.0, a), Array)
    assert_type(stats.beta.cdf(x, a, a, loc=0.5, scale=2), Array)
    assert_type(stats.betabinom.pmf(k, 5, a, 3.0), Array)
    assert_type(stats.binom.logpmf(k, 5, 0.3, loc=1), Array)
    assert_type(stats.chi2.sf(x, a), Array)
    assert_type(stats.dirichlet.logpdf(x, a), Array)
    assert_type(stats.gennorm.cdf(0.5, a), Array)
    assert_type(stats.geom.pmf(k, a), Array)
    assert_type(stats.gumbel_l.ppf(0.5), Array)
    assert_type(stats.gumbel_r.logsf(x, scale=a), Array)
    assert_type(stats.multinomial.logpmf(k, 3, x), Array)
    assert_type(stats.nbinom.logpmf(k, 2.5, a), Array)
    assert_type(stats.pareto.ppf(a, 3.0, loc=x), Array)
    assert_type(stats.truncnorm.logcdf(x, -1.0, 2.0), Array)
    assert_type(stats.vonmises.pdf(x, a), Array)
    assert_type(stats.wrapcauchy.logpdf(x, 0.5), Array)
    assert_type(stats.sem(x, axis=None, nan_policy="omit"), Array)
    assert_type(stats.mode(a).mode, Array)
    assert_type(stats.mode(a, axis=None, keepdims=True).count, Array)
    assert_type(stats.rankdata(a, "dense", axis=1), Array)
    kde = stats.gaussian_kde(x, bw_method="silverman", weights=a)
    assert_type(kde, stats.gaussian_kde)
    assert_type(kde.logpdf(a), Array)
    assert_type(kde(a), Array)
    assert_type(kde.integrate_box_1d(0.0, 1.0), Array)
    assert_type(kde.d, int)
