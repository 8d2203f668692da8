"""Return types of the discrete and multivariate distributions of
jaxtyped.random: every sampler returns Array, for typed and legacy keys."""

from typing_extensions import assert_type

import jaxtyped.random as jrandom
from jaxtyped.typing import Array, ArrayLike, KeyArray


def check(key: KeyArray, legacy: Array, x: ArrayLike) -> None:
    assert_type(jrandom.randint(key, (2,), 0, 5), Array)
    assert_type(jrandom.randint(legacy, 3, x, 9, dtype="int8"), Array)
    assert_type(jrandom.permutation(key, 5), Array)
    assert_type(jrandom.permutation(legacy, x, axis=1, independent=True), Array)
    assert_type(jrandom.choice(key, x, (2,), p=x), Array)
    assert_type(jrandom.categorical(key, x, shape=(3,), replace=False), Array)
    assert_type(jrandom.multinomial(key, 10, x, shape=(2,)), Array)
    assert_type(jrandom.multivariate_normal(key, x, x, method="svd"), Array)
    assert_type(jrandom.ball(key, 3), Array)
    assert_type(jrandom.orthogonal(legacy, 4, m=2), Array)
