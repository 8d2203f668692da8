"""Return types of the continuous distributions of jaxtyped.random: every
sampler returns Array, whatever key (typed or legacy) and parameters it
is given."""

from typing_extensions import assert_type

import jaxtyped.random as jrandom
from jaxtyped.typing import Array, ArrayLike, KeyArray


def check(key: KeyArray, legacy: Array, p: ArrayLike) -> None:
    assert_type(jrandom.uniform(key), Array)
    assert_type(jrandom.uniform(legacy, (2,), minval=p, maxval=2.0), Array)
    assert_type(jrandom.normal(key, (2,)), Array)
    assert_type(jrandom.truncated_normal(key, p, 1.0), Array)
    assert_type(jrandom.exponential(key), Array)
    assert_type(jrandom.laplace(key), Array)
    assert_type(jrandom.logistic(key), Array)
    assert_type(jrandom.gumbel(key, mode="low"), Array)
    assert_type(jrandom.cauchy(key), Array)
    assert_type(jrandom.bernoulli(key, p), Array)
    assert_type(jrandom.rademacher(key), Array)
    assert_type(jrandom.pareto(key, p), Array)
    assert_type(jrandom.lognormal(key), Array)
    assert_type(jrandom.maxwell(key), Array)
    assert_type(jrandom.double_sided_maxwell(key, p, 1.0), Array)
    assert_type(jrandom.weibull_min(key, 1.0, p), Array)
    assert_type(jrandom.rayleigh(key, p), Array)
    assert_type(jrandom.wald(key, p), Array)
    assert_type(jrandom.triangular(key, 0.0, p, 1.0), Array)
    assert_type(jrandom.generalized_normal(key, p), Array)
