"""Exact types through the control-flow API: ``cond``/``switch`` return the
branches' result type; ``while_loop``/``fori_loop`` the carry type and
``scan`` the pair (carry, stacked outputs); ``map`` the function's result
type. A single-leaf carry or operand is an ``Array`` inside the function
and in the result even when it starts as a Python scalar (that is what
runs: every leaf is converted); pytree carries (tuples, dicts) keep their
type. ``scan`` without ``xs`` gives ``f`` ``None``. Lambdas get ``Array``
parameters. None of these results is ``Any`` (``assert_type(..., Array)``
fails on ``Any`` in both checkers)."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

Params = dict[str, Array]

x = jnp.ones(3)
i0 = jnp.asarray(0)


def double(v: Array) -> Array:
    return v * 2.0


def scaled(v: Array, s: Array) -> Array:
    return v * s


def to_params(v: Array) -> Params:
    return {"w": v}


def with_aux(v: Array) -> tuple[Array, Params]:
    return v, {"w": v}


# --- cond / switch ---

assert_type(jt.lax.cond(True, double, double, x), Array)
assert_type(jt.lax.cond(True, double, double, 1.0), Array)
assert_type(jt.lax.cond(x.sum() > 0, scaled, scaled, x, x), Array)
assert_type(jt.lax.cond(True, to_params, to_params, x), Params)
assert_type(jt.lax.cond(True, with_aux, with_aux, x), tuple[Array, Params])
assert_type(jt.lax.cond(True, lambda v: v + 1, lambda v: v - 1, x), Array)
assert_type(jt.lax.cond(True, lambda v, s: v * s, lambda v, s: v + s, x, x), Array)
assert_type(jt.lax.cond(True, lambda: x, lambda: -x), Array)
assert_type(jt.lax.cond(True, lambda p: p["w"], lambda p: -p["w"], {"w": x}), Array)
assert_type(jt.lax.switch(1, [double, double, jnp.sin], x), Array)
assert_type(jt.lax.switch(1, [double, double], 2.0), Array)
assert_type(jt.lax.switch(i0, (scaled, scaled), x, x), Array)
assert_type(jt.lax.switch(0, [to_params, to_params], x), Params)


# --- while_loop / fori_loop ---


def below(c: Array) -> Array:
    return c < 10.0


def pair_below(c: tuple[Array, Array]) -> Array:
    return c[0] < 10


def pair_step(c: tuple[Array, Array]) -> tuple[Array, Array]:
    return c[0] + 1, c[1] * 2


def dict_below(c: Params) -> Array:
    return c["w"].sum() < 10


def dict_step(c: Params) -> Params:
    return {"w": c["w"] * 2}


def add_i(i: Array, c: Array) -> Array:
    return c + i


def pair_i(i: Array, c: tuple[Array, Array]) -> tuple[Array, Array]:
    return c[1], c[0] + i


assert_type(jt.lax.while_loop(below, double, x[0]), Array)
assert_type(jt.lax.while_loop(below, double, 1.0), Array)
assert_type(jt.lax.while_loop(below, double, 1), Array)
assert_type(jt.lax.while_loop(lambda c: c < 10, lambda c: c + 1.0, 0), Array)
assert_type(jt.lax.while_loop(lambda c: c.sum() < 10, lambda c: c * 2, x), Array)
assert_type(jt.lax.while_loop(pair_below, pair_step, (i0, i0)), tuple[Array, Array])
assert_type(jt.lax.while_loop(dict_below, dict_step, {"w": x}), Params)
assert_type(jt.lax.fori_loop(0, 3, add_i, 0.0), Array)
assert_type(jt.lax.fori_loop(0, 3, add_i, x), Array)
assert_type(jt.lax.fori_loop(0, i0, lambda i, c: c + i, 0.0), Array)
assert_type(jt.lax.fori_loop(0, 3, pair_i, (i0, i0)), tuple[Array, Array])


# --- scan / map ---


def step(c: Array, v: Array) -> tuple[Array, Array]:
    return c + v, c * v


def step_dict(c: Params, v: tuple[Array, Array]) -> tuple[Params, tuple[Array, None]]:
    return {"w": c["w"] + v[0]}, (v[1], None)


def no_xs(c: Array, _: None) -> tuple[Array, Params]:
    return c + 1, {"c": c}


def pair_carry(c: tuple[Array, Array], v: Array) -> tuple[tuple[Array, Array], None]:
    return (c[0] + v, c[1] * v), None


assert_type(jt.lax.scan(step, x[0], x), tuple[Array, Array])
assert_type(jt.lax.scan(step, 0.0, x), tuple[Array, Array])
assert_type(jt.lax.scan(step, 0.0, x, reverse=True, unroll=2), tuple[Array, Array])
assert_type(jt.lax.scan(step_dict, {"w": x[0]}, (x, x)), tuple[Params, tuple[Array, None]])
assert_type(jt.lax.scan(no_xs, 0.0, length=3), tuple[Array, Params])
assert_type(jt.lax.scan(no_xs, x, None, length=3), tuple[Array, Params])
assert_type(jt.lax.scan(pair_carry, (x[0], x[0]), x), tuple[tuple[Array, Array], None])
assert_type(jt.lax.scan(lambda c, v: (c + v, c), x[0], x), tuple[Array, Array])
assert_type(jt.lax.scan(lambda c, v: (c + v, None), x[0], x), tuple[Array, None])
assert_type(jt.lax.map(double, x), Array)
assert_type(jt.lax.map(to_params, x), Params)
assert_type(jt.lax.map(lambda v: v.sum(), x), Array)


# --- inside jit, under grad and vmap ---


@jt.jit
def jitted(v: Array, n: Array) -> Array:
    looped = jt.lax.fori_loop(0, n, add_i, v)
    assert_type(looped, Array)
    carry, ys = jt.lax.scan(step, 0.0, looped)
    assert_type(ys, Array)
    return jt.lax.cond(carry > 0, double, double, ys)


def scan_loss(h: Array, xs: Array) -> Array:
    last, _ = jt.lax.scan(step, h, xs)
    return last.sum()


def piecewise(v: Array) -> Array:
    return jt.lax.cond(v > 0, jnp.sin, jnp.cos, v)


assert_type(jitted(x, i0), Array)
assert_type(jt.grad(scan_loss)(x[0], x), Array)
assert_type(jt.value_and_grad(scan_loss, argnums=1)(x[0], x), tuple[Array, Array])
assert_type(jt.vmap(piecewise)(x), Array)
assert_type(jt.vmap(jt.grad(piecewise))(x), Array)
