"""Result types of ``jaxtyped.experimental.ode.odeint``: an array (or scalar)
initial state gives an Array; any other pytree state keeps its type (its
leaves gain a leading time axis, which the types do not show)."""

from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped.experimental.ode import odeint
from jaxtyped.typing import Array


def decay(y: Array, t: Array, k: float) -> Array:
    return -k * y


def system(y: dict[str, Array], t: Array) -> dict[str, Array]:
    return {"x": y["v"], "v": -y["x"]}


def pair(y: tuple[Array, Array], t: Array, params: tuple[Array, float]) -> tuple[Array, Array]:
    return y[1], -params[0] * y[0] * params[1]


def check(y0: Array, state: dict[str, Array], both: tuple[Array, Array], w: Array) -> None:
    t = jnp.linspace(0.0, 1.0, 5)
    assert_type(odeint(decay, y0, t, 0.5), Array)
    assert_type(odeint(decay, 1.0, t, 0.5, rtol=1e-6, atol=1e-6, mxstep=100, hmax=0.1), Array)
    assert_type(odeint(system, state, t), dict[str, Array])
    assert_type(odeint(pair, both, t, (w, 9.8)), tuple[Array, Array])
    assert_type(odeint(lambda y, t: -y, y0, t), Array)
    assert_type(odeint(lambda y, t: {"x": y["v"], "v": -y["x"]}, state, t), dict[str, Array])
