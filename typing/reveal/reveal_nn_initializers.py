"""Return types of jaxtyped.nn.initializers: builders return the
Initializer protocol, initializers (zeros and ones included) return Array."""

from typing_extensions import assert_type

from jaxtyped.nn import initializers
from jaxtyped.nn.initializers import Initializer
from jaxtyped.typing import Array, KeyArray


def check(key: KeyArray) -> None:
    assert_type(initializers.zeros(key, (2, 3)), Array)
    assert_type(initializers.ones(key, (2,), "float16"), Array)
    assert_type(initializers.constant(1.0), Initializer)
    assert_type(initializers.uniform(), Initializer)
    assert_type(initializers.normal(0.1), Initializer)
    assert_type(initializers.truncated_normal(), Initializer)
    assert_type(initializers.variance_scaling(1.0, "fan_in", "truncated_normal"), Initializer)
    assert_type(initializers.glorot_uniform(), Initializer)
    assert_type(initializers.glorot_normal(), Initializer)
    assert_type(initializers.xavier_uniform(), Initializer)
    assert_type(initializers.xavier_normal(), Initializer)
    assert_type(initializers.he_uniform(), Initializer)
    assert_type(initializers.he_normal(), Initializer)
    assert_type(initializers.kaiming_uniform(), Initializer)
    assert_type(initializers.kaiming_normal(), Initializer)
    assert_type(initializers.lecun_uniform(), Initializer)
    assert_type(initializers.lecun_normal(), Initializer)
    assert_type(initializers.orthogonal(), Initializer)
    assert_type(initializers.delta_orthogonal(), Initializer)
    assert_type(initializers.glorot_normal()(key, (3, 4)), Array)
    assert_type(initializers.orthogonal()(key, (3, 4), "float32"), Array)
