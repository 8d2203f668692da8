"""jt.jit keeps the wrapped function's signature in every idiomatic form:
as a bare decorator, as ``jit(f, static_argnums=...)``, through
``functools.partial(jit, static_argnames=...)`` and on methods (called on an
instance and through the class). The staging API (``trace``/``lower``/
``compile``), ``cache_info``, ``disable_jit`` and the device helpers are
typed too. Every annotated assignment below would be rejected if the
jitted callable had degraded to ``Any`` parameters or a wrong result."""

import dataclasses
import functools

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import tree_util
from jaxtyped.stages import CacheInfo, Compiled, Jitted, Lowered, Traced
from jaxtyped.core import ClosedJaxpr
from jaxtyped.typing import Array

# --- the bare decorator ---


@jt.jit
def affine(x: Array, y: Array) -> Array:
    return jnp.sin(x) * y + x


x = jnp.arange(3.0)
y = jnp.ones(3)
z: Array = affine(x, y)
assert np.allclose(np.asarray(z), np.sin(np.arange(3.0)) + np.arange(3.0))
assert np.allclose(np.asarray(affine(x, y=y)), np.asarray(z))  # by keyword
assert np.allclose(np.asarray(affine(y=y, x=x)), np.asarray(z))
info: CacheInfo = affine.cache_info()
assert (info.misses, info.size) == (3, 3), info  # each way of passing arguments is a signature


# --- jit(f, static_argnums=...) ---


def repeat_add(x: Array, n: int) -> Array:
    out = x
    for _ in range(n):  # n is a Python int at trace time
        out = out + x
    return out


repeat_jit: Jitted[[Array, int], Array] = jt.jit(repeat_add, static_argnums=1)
r: Array = repeat_jit(x, 2)
assert np.allclose(np.asarray(r), 3 * np.arange(3.0))
repeat_jit(x, 2)
repeat_jit(x, 3)
assert repeat_jit.cache_info().misses == 2  # one trace per static value
n_hits: int = repeat_jit.cache_info().hits
assert n_hits == 1


# --- @partial(jit, static_argnames=...) ---


@functools.partial(jt.jit, static_argnames="n")
def scaled_sin(x: Array, *, n: int = 2) -> Array:
    return jnp.sin(x) * n


s: Array = scaled_sin(x, n=3)
assert np.allclose(np.asarray(s), 3 * np.sin(np.arange(3.0)))
s_default: Array = scaled_sin(x)
assert np.allclose(np.asarray(s_default), 2 * np.sin(np.arange(3.0)))


@functools.partial(jt.jit, static_argnums=(1,), donate_argnums=0)
def bump(buffer: Array, amount: float) -> Array:
    return buffer + amount


bumped: Array = bump(jnp.zeros(4), 1.5)
assert np.allclose(np.asarray(bumped), 1.5)


# --- pytrees in and out ---


@jt.jit
def stats(params: dict[str, Array], x: Array) -> dict[str, Array]:
    return {"out": params["w"] * x + params["b"], "sin": jnp.sin(x)}


params = {"w": jnp.ones(3), "b": jnp.zeros(3)}
result: dict[str, Array] = stats(params, x)
assert sorted(result) == ["out", "sin"]
assert np.allclose(np.asarray(result["out"]), np.arange(3.0))


@jt.jit
def pair(x: Array) -> tuple[Array, Array]:
    return x + 1.0, x * 2.0


first, second = pair(x)
assert np.allclose(np.asarray(second), 2 * np.arange(3.0))


# --- methods: the instance binds as self ---


@tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Linear:
    weight: Array
    bias: Array

    @jt.jit
    def __call__(self, x: Array) -> Array:
        return self.weight * x + self.bias

    @jt.jit
    def shifted(self, x: Array, shift: Array) -> Array:
        return self(x) + shift


@dataclasses.dataclass(frozen=True)
class Scaler:
    """A hashable instance, passed to the jitted method as a static argument."""

    factor: float

    @functools.partial(jt.jit, static_argnums=0)
    def apply(self, x: Array) -> Array:
        return jnp.sin(x) * self.factor


layer = Linear(weight=jnp.ones(3) * 2.0, bias=jnp.ones(3))
out: Array = layer(x)
assert np.allclose(np.asarray(out), 2 * np.arange(3.0) + 1)
bound: Jitted[[Array, Array], Array] = layer.shifted
assert np.allclose(np.asarray(bound(x, y)), np.asarray(out) + 1)
assert np.allclose(np.asarray(layer.shifted(x, shift=y)), np.asarray(out) + 1)
through_class: Array = Linear.shifted(layer, x, y)  # unbound: self passed explicitly
assert np.allclose(np.asarray(through_class), np.asarray(out) + 1)
assert layer.shifted.cache_info().misses >= 1

scaler = Scaler(3.0)
scaled: Array = scaler.apply(x)
assert np.allclose(np.asarray(scaled), 3 * np.sin(np.arange(3.0)))
assert np.allclose(np.asarray(Scaler.apply(scaler, x)), np.asarray(scaled))
method_text: str = scaler.apply.lower(x).as_text()
assert "stablehlo.sine" in method_text


# --- staging: trace -> lower -> compile ---

traced: Traced[[Array, Array], Array] = affine.trace(x, y)
closed: ClosedJaxpr = traced.jaxpr
assert [eqn.primitive.name for eqn in closed.jaxpr.eqns] == ["sin", "mul", "add"]
lowered: Lowered[[Array, Array], Array] = affine.lower(x, y)
text: str = lowered.as_text()
assert text.startswith("module @jit_affine") and "stablehlo.sine" in text
compiled: Compiled[[Array, Array], Array] = lowered.compile()
z_compiled: Array = compiled(x, y)  # the stages keep the signature
assert np.allclose(np.asarray(z_compiled), np.asarray(z))
hlo: str = compiled.as_text()
assert hlo
static_text: str = repeat_jit.lower(x, 4).as_text()
assert static_text.count("stablehlo.add") == 4
assert scaled_sin.trace(x, n=5).jaxpr.jaxpr.eqns[0].primitive.name == "sin"


# --- disable_jit: the Python function runs eagerly ---

with jt.disable_jit():
    eager: Array = affine(x, y)
assert np.allclose(np.asarray(eager), np.asarray(z))


# --- devices and transfers ---

assert len(jt.devices()) >= 1
on_device = jt.device_put(np.arange(4.0, dtype=np.float32))
assert isinstance(on_device, jt.Array)
ready: Array = jt.block_until_ready(affine(x, y))
assert np.allclose(np.asarray(ready), np.asarray(z))
ready_tree: dict[str, Array] = jt.block_until_ready(stats(params, x))
assert sorted(ready_tree) == ["out", "sin"]
host = jt.device_get(result)  # NumPy leaves at run time (typed as the input: typing/pending/NOTES.md, J1)
assert np.allclose(np.asarray(host["out"]), np.arange(3.0))
