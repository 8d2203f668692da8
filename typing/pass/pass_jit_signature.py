"""jit at JAX 0.10.2's signature (issue 20): ``donate_argnames``,
``keep_unused``, ``inline`` and an empty ``compiler_options`` keep the
wrapped signature, and so do ``functools.partial(jit, ...)`` and the
factory form ``@jit(static_argnames=...)`` (pass_jit_forms.py).
Every annotated assignment would be rejected on a degraded signature; the
asserts check the values, so the file also runs."""

import functools

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.stages import Jitted
from jaxtyped.typing import Array


def scaled(x: Array, k: int) -> Array:
    return x * k


def add(x: Array, y: Array) -> Array:
    return x + y


x = jnp.arange(3.0)

donating: Jitted[[Array, Array], Array] = jt.jit(add, donate_argnames="y")
y = jnp.ones(3)
total: Array = donating(x, y)
assert np.allclose(np.asarray(total), np.arange(3.0) + 1)  # y is deleted (tests/test_jit_signature.py)

by_name: Jitted[[Array, Array], Array] = jt.jit(add, donate_argnums=0, donate_argnames=("y",))
options: Jitted[[Array, Array], Array] = jt.jit(add, keep_unused=True, inline=True, compiler_options={})
assert np.allclose(np.asarray(options(x, x)), 2 * np.arange(3.0))
assert by_name.cache_info().size == 0


@functools.partial(jt.jit, static_argnames="k")
def times(x: Array, k: int) -> Array:
    return x * k


tripled: Array = times(x, 3)
assert np.allclose(np.asarray(tripled), 3 * np.arange(3.0))
lowered_text: str = times.lower(x, 2).as_text()
assert "stablehlo.multiply" in lowered_text


class Scaler:
    @functools.partial(jt.jit, static_argnums=0, donate_argnames="x")
    def apply(self, x: Array) -> Array:
        return x * 2.0


doubled: Array = Scaler().apply(jnp.ones(2))
assert np.allclose(np.asarray(doubled), 2.0)
