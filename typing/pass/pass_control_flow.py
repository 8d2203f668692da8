"""Idiomatic control flow type-checks and runs: ``cond``, ``switch``,
``while_loop``, ``fori_loop``, ``scan`` and ``map`` with ``Array``
operands, tuple and dict carries, a Python-float initial carry or operand
(the function then gets, and the loop returns, an ``Array``), ``scan``
without ``xs``, functions written with ``def`` and as lambdas, inside a
``jt.jit``-decorated function and under ``jt.grad``/``jt.vmap``. Every
annotated assignment would be rejected if a result had the wrong type; the
asserts compare with NumPy."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike

Params = dict[str, Array]


def close(a: ArrayLike, b: ArrayLike | list[float]) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5))


host_x = np.array([0.5, -1.0, 2.0], np.float32)
x = jnp.asarray(host_x)


# --- cond and switch ---


def double(v: Array) -> Array:
    return v * 2.0


def negate(v: Array) -> Array:
    return -v


def scaled(v: Array, s: Array) -> Array:
    return v * s


def shifted(v: Array, s: Array) -> Array:
    return v + s


c1: Array = jt.lax.cond(True, double, negate, x)
assert close(c1, 2 * host_x)
c2: Array = jt.lax.cond(x.sum() > 10, double, negate, x)  # an Array predicate
assert close(c2, -host_x)
c3: Array = jt.lax.cond(False, double, negate, 1.5)  # a Python float reaches the branches as an Array
assert close(c3, -1.5)
c4: Array = jt.lax.cond(True, scaled, shifted, x, jnp.asarray(3.0))
assert close(c4, 3 * host_x)
c5: Array = jt.lax.cond(False, lambda v: v + 1.0, lambda v: v - 1.0, x)
assert close(c5, host_x - 1)
c6: Array = jt.lax.cond(True, lambda: x, lambda: -x)  # no operands: the branches close over x
assert close(c6, host_x)


def split(p: Params) -> tuple[Array, Params]:
    return p["w"].sum(), {"w": p["w"] * 2.0}


def split_other(p: Params) -> tuple[Array, Params]:
    return -p["w"].sum(), {"w": p["w"] - 1.0}


total, halves = jt.lax.cond(1, split, split_other, {"w": x})  # an integer predicate, a dict operand
assert close(total, host_x.sum()) and close(halves["w"], 2 * host_x)

s1: Array = jt.lax.switch(2, [double, negate, jnp.sin], x)
assert close(s1, np.sin(host_x))
s2: Array = jt.lax.switch(jnp.asarray(0), (double, negate), 4.0)
assert close(s2, 8.0)
s3: Array = jt.lax.switch(1, [scaled, shifted], x, jnp.asarray(1.0))
assert close(s3, host_x + 1)


# --- while_loop and fori_loop ---


def below_ten(c: Array) -> Array:
    return c < 10.0


def times_two(c: Array) -> Array:
    return c * 2.0


w1: Array = jt.lax.while_loop(below_ten, times_two, 1.0)  # a float init, an Array result
assert close(w1, 16.0)
w2: Array = jt.lax.while_loop(lambda c: c < 10, lambda c: c * 2, 1)
assert int(w2) == 16
w3: Array = jt.lax.while_loop(lambda c: c.sum() < 10.0, lambda c: c + 1.0, x)
assert close(w3, host_x + 3)


def count_cond(state: tuple[Array, Array]) -> Array:
    return state[0] < 5


def count_body(state: tuple[Array, Array]) -> tuple[Array, Array]:
    i, acc = state
    return i + 1, acc + i


counter, accumulated = jt.lax.while_loop(count_cond, count_body, (jnp.asarray(0), jnp.asarray(0)))
assert int(counter) == 5 and int(accumulated) == 10


def newton_cond(state: Params) -> Array:
    return jnp.abs(state["x"] * state["x"] - state["a"]) > 1e-4


def newton_body(state: Params) -> Params:
    return {"x": 0.5 * (state["x"] + state["a"] / state["x"]), "a": state["a"]}


root: Params = jt.lax.while_loop(newton_cond, newton_body, {"x": jnp.asarray(1.0), "a": jnp.asarray(2.0)})
assert close(root["x"], np.sqrt(2.0))


def add_index(i: Array, total: Array) -> Array:
    return total + i


f1: Array = jt.lax.fori_loop(0, 5, add_index, 0.0)
assert close(f1, 10.0)
f2: Array = jt.lax.fori_loop(0, 4, lambda i, v: v * 2.0, x)
assert close(f2, 16 * host_x)


def fib_step(i: Array, ab: tuple[Array, Array]) -> tuple[Array, Array]:
    a, b = ab
    return b, a + b


fib, _ = jt.lax.fori_loop(0, 10, fib_step, (jnp.asarray(0), jnp.asarray(1)))
assert int(fib) == 55


# --- scan and map ---


def cumsum_step(carry: Array, v: Array) -> tuple[Array, Array]:
    return carry + v, carry + v


final, sums = jt.lax.scan(cumsum_step, 0.0, x)  # a float init, Array carry and outputs
assert close(final, host_x.sum()) and close(sums, np.cumsum(host_x))
last, prods = jt.lax.scan(lambda c, v: (c * v, c), jnp.asarray(1.0), x, reverse=True, unroll=2)
assert close(last, np.prod(host_x)) and prods.shape == (3,)


def tick(t: Array, _: None) -> tuple[Array, Array]:
    return t + 1.0, t * t


t_end, squares = jt.lax.scan(tick, 0.0, length=4)  # no xs: the length gives the trip count
assert close(t_end, 4.0) and close(squares, [0.0, 1.0, 4.0, 9.0])
t_none, nothing = jt.lax.scan(lambda t, _: (t + 1.0, None), 0.0, None, length=3)
assert close(t_none, 3.0) and nothing is None

W = jnp.asarray(np.full((3, 3), 0.1, np.float32))
U = jnp.asarray(np.eye(3, dtype=np.float32))


def rnn_cell(h: Array, inp: Array) -> tuple[Array, Array]:
    h_new = jnp.tanh(h @ W + inp @ U)
    return h_new, h_new


inputs = jnp.asarray(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3))
h_last, hs = jt.lax.scan(rnn_cell, jnp.zeros(3), inputs)
h_ref = np.zeros(3, np.float32)
for row in np.asarray(inputs):
    h_ref = np.tanh(h_ref @ np.asarray(W) + row @ np.asarray(U))
assert close(h_last, h_ref) and hs.shape == (4, 3)


def lstm_like(carry: tuple[Array, Params], xy: tuple[Array, Array]) -> tuple[tuple[Array, Params], Params]:
    count, stats = carry
    a, b = xy
    new = {"sum": stats["sum"] + a * b, "max": jnp.maximum(stats["max"], a)}
    return (count + 1, new), {"prod": a * b}


zero = jnp.asarray(0.0)
(steps, stats), per_step = jt.lax.scan(lstm_like, (jnp.asarray(0), {"sum": zero, "max": zero}), (x, x))
assert int(steps) == 3 and close(stats["sum"], (host_x**2).sum()) and close(per_step["prod"], host_x**2)

m1: Array = jt.lax.map(jnp.sin, x)
assert close(m1, np.sin(host_x))
m2: Array = jt.lax.map(lambda row: row.sum(), inputs)
assert close(m2, np.asarray(inputs).sum(axis=1))


def pair_sum(xy: tuple[Array, Array]) -> Params:
    return {"s": xy[0] + xy[1]}


m3: Params = jt.lax.map(pair_sum, (x, x))
assert close(m3["s"], 2 * host_x)


# --- inside jt.jit, under jt.grad and jt.vmap ---


@jt.jit
def clipped_power(v: Array, n: Array) -> Array:
    # Traced bounds: fori_loop becomes a while_loop inside jit.
    powered = jt.lax.fori_loop(0, n, lambda i, acc: acc * v, jnp.ones_like(v))
    return jt.lax.cond(powered.sum() > 100.0, lambda p: jnp.minimum(p, 100.0), lambda p: p, powered)


assert close(clipped_power(x, jnp.asarray(3)), host_x**3)


def rnn_loss(h0: Array, xs: Array) -> Array:
    h, _ = jt.lax.scan(rnn_cell, h0, xs)
    return jnp.sum(h**2)


g_h0: Array = jt.grad(rnn_loss)(jnp.zeros(3), inputs)
loss_value, g_xs = jt.value_and_grad(rnn_loss, argnums=1)(jnp.zeros(3), inputs)
assert g_h0.shape == (3,) and g_xs.shape == (4, 3) and close(loss_value, (h_ref**2).sum())


def poly(a: Array) -> Array:
    return jt.lax.fori_loop(0, 3, lambda i, acc: acc * a + 1.0, 0.0)  # a*a + a + 1


assert close(jt.grad(poly)(jnp.asarray(2.0)), 5.0)  # 2a + 1
assert close(jt.jit(jt.grad(poly))(jnp.asarray(2.0)), 5.0)


def piecewise(v: Array) -> Array:
    return jt.lax.cond(v > 0, jnp.sin, jnp.cos, v)


batched: Array = jt.vmap(piecewise)(x)
assert close(batched, np.where(host_x > 0, np.sin(host_x), np.cos(host_x)))
grads: Array = jt.vmap(jt.grad(piecewise))(x)
assert close(grads, np.where(host_x > 0, np.cos(host_x), -np.sin(host_x)))


def count_up(v: Array) -> Array:
    # A batched predicate: each lane stops on its own.
    return jt.lax.while_loop(lambda c: c < 4.0, lambda c: c + 1.0, v)


def row_cumsum(row: Array) -> Array:
    return jt.lax.scan(cumsum_step, 0.0, row)[1]


steps_taken: Array = jt.vmap(count_up)(x)
assert close(steps_taken, [4.5, 4.0, 4.0])
per_row: Array = jt.vmap(row_cumsum)(inputs)
assert close(per_row, np.cumsum(np.asarray(inputs), axis=1))

# JAX's older operand= keyword: one operand, an array-like or a pytree.
kw_cond: Array = jt.lax.cond(True, double, negate, operand=x)
kw_scalar: Array = jt.lax.cond(False, lambda v: v + 1, lambda v: v - 1, operand=2.0)
kw_switch: Array = jt.lax.switch(1, [double, negate], operand=x)
kw_tree: tuple[Array, Params] = jt.lax.cond(True, split, split_other, operand={"w": x})
assert close(kw_cond, 2 * host_x) and close(kw_scalar, 1.0) and close(kw_switch, -host_x) and close(kw_tree[0], host_x.sum())
