"""Return types of the gamma family and counting distributions of
jaxtyped.random: every sampler returns Array, for typed and legacy keys."""

from typing_extensions import assert_type

import jaxtyped.random as jrandom
from jaxtyped.typing import Array, ArrayLike, KeyArray


def check(key: KeyArray, legacy: Array, a: ArrayLike) -> None:
    assert_type(jrandom.gamma(key, a), Array)
    assert_type(jrandom.gamma(legacy, 1.0, (2,)), Array)
    assert_type(jrandom.loggamma(key, a), Array)
    assert_type(jrandom.beta(key, a, 2.0), Array)
    assert_type(jrandom.dirichlet(key, a), Array)
    assert_type(jrandom.chisquare(key, a), Array)
    assert_type(jrandom.t(key, a), Array)
    assert_type(jrandom.f(key, a, 3.0), Array)
    assert_type(jrandom.poisson(key, a), Array)
    assert_type(jrandom.binomial(key, 10, a), Array)
    assert_type(jrandom.geometric(key, a), Array)
