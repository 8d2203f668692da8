"""Every form of ``jit`` JAX 0.10.2 accepts, as users write it (issue 20):
the decorator-factory form on annotated and unannotated functions and
methods, ``jit()``, ``functools.partial(jit, ...)``, and the options
``donate_argnames``, ``keep_unused``, ``inline``, ``compiler_options``. The
annotated assignments would be rejected on a degraded signature; the
asserts check the values, so the file also runs."""

import functools

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.stages import Jitted
from jaxtyped.typing import Array


@jt.jit(static_argnames="k")
def top_k_sum(x: Array, k: int) -> Array:
    return jnp.sum(jnp.sort(x)[-k:])


@jt.jit(static_argnames="k")
def unannotated(x, k):  # type: ignore[no-untyped-def]  # pyright: ignore[reportMissingParameterType, reportUnknownParameterType]  # how users write it
    return x * k  # pyright: ignore[reportUnknownVariableType]


@jt.jit()
def double(x: Array) -> Array:
    return x * 2.0


@jt.jit(keep_unused=True, inline=True, donate_argnames="y")
def add(x: Array, y: Array) -> Array:
    return x + y


class Scaler:
    def __init__(self, factor: float) -> None:
        self.factor = factor

    @functools.partial(jt.jit, static_argnums=0)
    def apply(self, x: Array) -> Array:
        return x * self.factor

    @jt.jit(static_argnames=("self", "n"))
    def repeat(self, x: Array, n: int) -> Array:
        return jnp.tile(x * self.factor, n)

    def __hash__(self) -> int:
        return hash(self.factor)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scaler) and other.factor == self.factor


x = jnp.array([3.0, 1.0, 2.0, 5.0])
best: Array = top_k_sum(x, k=2)
assert float(best) == 8.0
tripled = unannotated(x, 3)  # pyright: ignore[reportUnknownVariableType]
assert tripled.shape == (4,)  # pyright: ignore[reportUnknownMemberType]
doubled: Array = double(x)
assert np.allclose(np.asarray(doubled), 2 * np.asarray(x))
total: Array = add(x, jnp.ones(4))
assert np.allclose(np.asarray(total), np.asarray(x) + 1)
jitted_later: Jitted[[Array], Array] = jt.jit(static_argnums=())(double)
assert np.allclose(np.asarray(jitted_later(x)), 2 * np.asarray(x))
scaler = Scaler(2.0)
applied: Array = scaler.apply(x)
repeated: Array = scaler.repeat(x, 2)
assert repeated.shape == (8,)
assert np.allclose(np.asarray(applied), 2 * np.asarray(x))
