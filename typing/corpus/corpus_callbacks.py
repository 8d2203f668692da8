"""Calling host NumPy code from jitted code with pure_callback."""
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp


def host_median(x):
    return np.median(np.asarray(x)).astype(np.float32)


@jt.jit
def robust_center(x):
    med = jt.pure_callback(host_median, jt.ShapeDtypeStruct((), jnp.float32), x, vmap_method="sequential")
    return x - med


out = robust_center(jnp.array([1.0, 2.0, 100.0]))
assert jnp.allclose(out, jnp.array([-1.0, 0.0, 98.0]))
batched = jt.vmap(robust_center)(jnp.arange(6.0).reshape(2, 3))
assert batched.shape == (2, 3)
host = jt.device_get(out)
assert isinstance(host, np.ndarray)
ready = jt.block_until_ready(out * 2)
reveal_type(out)
reveal_type(batched)
reveal_type(ready)
