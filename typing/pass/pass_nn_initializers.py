"""jaxtyped.nn.initializers as model code uses them: builders configured
once and called with a key, a shape and a dtype; zeros/ones used directly
as initializers; a table of initializers typed with the Initializer
protocol; every result an Array of the requested shape and dtype."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.nn import initializers
from jaxtyped.nn.initializers import Initializer
from jaxtyped.typing import Array

key = jt.random.key(0)
k1, k2 = jt.random.split(key)

table: dict[str, Initializer] = {
    "zeros": initializers.zeros,
    "ones": initializers.ones,
    "constant": initializers.constant(0.5),
    "uniform": initializers.uniform(0.1),
    "normal": initializers.normal(stddev=0.02, dtype=jnp.float32),
    "truncated_normal": initializers.truncated_normal(0.02, lower=-1.0, upper=1.0),
    "variance_scaling": initializers.variance_scaling(2.0, "fan_geo_avg", "normal", in_axis=(0, 1), batch_axis=()),
    "glorot_uniform": initializers.glorot_uniform(),
    "glorot_normal": initializers.glorot_normal(in_axis=-2, out_axis=-1),
    "xavier_uniform": initializers.xavier_uniform(),
    "xavier_normal": initializers.xavier_normal(),
    "he_uniform": initializers.he_uniform(),
    "he_normal": initializers.he_normal(dtype=jnp.bfloat16),
    "kaiming_uniform": initializers.kaiming_uniform(),
    "kaiming_normal": initializers.kaiming_normal(),
    "lecun_uniform": initializers.lecun_uniform(),
    "lecun_normal": initializers.lecun_normal(batch_axis=0),
    "orthogonal": initializers.orthogonal(scale=1.0, column_axis=-1),
}
for name, init in table.items():
    weights: Array = init(k1, (4, 6))
    assert weights.shape == (4, 6), name

kernel: Array = initializers.delta_orthogonal()(k2, (3, 3, 4, 4), jnp.float32)
assert kernel.shape == (3, 3, 4, 4)
assert float(jnp.sum(jnp.abs(kernel[0, 0]))) == 0.0

complex_weights: Array = initializers.variance_scaling(1.0, "fan_in", "uniform")(k2, [2, 3], jnp.complex64)
assert complex_weights.dtype == np.complex64
legacy: Array = initializers.lecun_normal()(jt.random.PRNGKey(1), (5, 2))
assert legacy.dtype == np.float32
assert isinstance(initializers.glorot_normal(), Initializer)
