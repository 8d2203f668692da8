"""The utility decorators and context managers libraries wrap their layers
in: named_scope and named_call for profiles, profiler annotations,
ensure_compile_time_eval for shapes computed while tracing, checkify for
runtime checks, a gradient clipped by a custom_vjp with a static argument,
value_and_grad with a dict of metrics, eval_shape of an initializer,
default_device and disable_jit for debugging, make_array_from_callback
for data loading, and a linear_transpose."""
import functools
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental import checkify


@jt.named_scope("dense")
def dense(params, x):
    with jt.named_scope("matmul"):
        y = x @ params["w"]
    return y + params["b"]


@functools.partial(jt.custom_vjp, nondiff_argnums=(1,))
def clip_gradient(x, bound):
    return x


def clip_fwd(x, bound):
    return x, None


def clip_bwd(bound, _, g):
    return (jnp.clip(g, -bound, bound),)


clip_gradient.defvjp(clip_fwd, clip_bwd)


def loss_fn(params, batch):
    x, y = batch
    pred = jt.named_call(dense, name="head")(params, x)
    pred = clip_gradient(pred, 0.1)
    err = pred - y
    loss = jnp.mean(err**2)
    return loss, {"mae": jnp.mean(jnp.abs(err)), "max_err": jnp.max(jnp.abs(err))}


def init(key, n_in, n_out):
    with jt.ensure_compile_time_eval():
        scale = np.sqrt(2.0 / n_in)
    return {"w": scale * jt.random.normal(key, (n_in, n_out)), "b": jnp.zeros(n_out)}


shapes = jt.eval_shape(functools.partial(init, n_in=3, n_out=2), jt.random.key(0))
reveal_type(shapes)
assert shapes["w"].shape == (3, 2) and shapes["b"].dtype == jnp.float32
params = init(jt.random.key(0), 3, 2)
batch = (jnp.ones((8, 3)), jnp.zeros((8, 2)))

with jt.profiler.TraceAnnotation("train_step"):
    (loss, metrics), grads = jt.value_and_grad(loss_fn, has_aux=True)(params, batch)
reveal_type(loss)
reveal_type(metrics)
assert float(metrics["mae"]) > 0 and set(metrics) == {"mae", "max_err"}
assert float(jnp.abs(grads["b"]).max()) <= 0.1 * 8 + 1e-6  # each of 8 rows clipped to 0.1


@jt.profiler.annotate_function
def safe_log(x):
    checkify.check(jnp.all(x > 0), "log of a non-positive value: {}", x.min())
    return jnp.log(x)


checked = checkify.checkify(jt.jit(safe_log))
err, out = checked(jnp.array([1.0, 2.0]))
reveal_type(err)
err.throw()
assert out.shape == (2,)
err, _ = checked(jnp.array([1.0, -2.0]))
assert err.get() is not None and "non-positive" in str(err.get())

with jt.default_device(jt.devices()[0]):
    on_default = jnp.ones(3)
with jt.disable_jit():
    eager = jt.jit(lambda v: v * 2)(on_default)
assert float(eager.sum()) == 6.0

host = np.arange(12.0, dtype=np.float32).reshape(4, 3)
sharding = jt.sharding.SingleDeviceSharding(jt.devices()[0])
loaded = jt.make_array_from_callback(host.shape, sharding, lambda index: host[index])
reveal_type(loaded)
assert np.array_equal(np.asarray(loaded), host)


def project(v):
    return v @ params["w"]


transpose = jt.linear_transpose(project, jnp.zeros(3))
(back,) = transpose(jnp.ones(2))
reveal_type(back)
assert np.allclose(np.asarray(back), np.asarray(params["w"].sum(axis=1)))
