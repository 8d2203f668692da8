"""jt.config.update with a bool value; the flag is read back as a bool and
restored at the end (config is process-wide)."""

import jaxtyped as jt
import jaxtyped.numpy as jnp

previous: bool = jt.config.jax_enable_x64
try:
    jt.config.update("jax_enable_x64", True)
    assert jt.config.jax_enable_x64
    assert jnp.zeros(2, dtype=jnp.float64).dtype == jnp.float64.dtype
    assert jnp.arange(3.0).dtype.itemsize == 8
    jt.config.update("jax_enable_x64", False)
    assert jnp.zeros(2, dtype=jnp.float64).dtype == jnp.float32.dtype
finally:
    jt.config.update("jax_enable_x64", previous)
assert jt.config.jax_enable_x64 == previous

values: dict[str, bool] = jt.config.values()
assert values["jax_enable_x64"] == previous
