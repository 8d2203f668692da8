"""Runtime utilities around a training script: configuration, devices,
named scopes, compile-time evaluation, donation, device_get of a tree,
AOT compile and cost analysis."""
import time
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp

jt.config.update("jax_enable_x64", False)
print("backend", jt.default_backend(), jt.device_count(), jt.local_device_count(), jt.process_index())
devices = jt.local_devices()
mesh = jt.make_mesh((1,), ("data",))


@jt.named_call
def residual(x, w):
    with jt.named_scope("residual_block"):
        return x + jnp.tanh(x @ w)


def make_step(lr):
    @jt.jit
    def step(params, x):
        with jt.ensure_compile_time_eval():
            scale = jnp.float32(lr) * 2
        loss, grads = jt.value_and_grad(lambda p: jnp.mean(residual(x, p["w"]) ** 2))(params)
        return jt.tree_util.tree_map(lambda p, g: p - scale * g, params, grads), loss

    return step


params = {"w": jnp.eye(4) * 0.5}
x = jnp.ones((8, 4))
step = make_step(0.01)
lowered = step.lower(params, x)
compiled = lowered.compile()
text = lowered.as_text()
assert "func" in text
cost = compiled.cost_analysis()
start = time.perf_counter()
loss = jnp.zeros(())
for _ in range(3):
    params, loss = compiled(params, x)
jt.block_until_ready(params)
host = jt.device_get(params)
assert isinstance(host["w"], np.ndarray)
numpy_tree = jt.tree_util.tree_map(np.asarray, params)
placed = jt.device_put(numpy_tree, devices[0])
donating = jt.jit(lambda p, g: jt.tree_util.tree_map(lambda a, b: a - b, p, g), donate_argnums=0)
params = donating(placed, jt.tree_util.tree_map(jnp.zeros_like, placed))
print(f"{time.perf_counter() - start:.3f}s", float(loss))
with jt.default_device(devices[0]):
    y = jnp.arange(3)
with jt.disable_jit():
    z = step(params, x)
reveal_type(compiled)
reveal_type(host)
reveal_type(loss)
reveal_type(params)
