# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""``lax.platform_dependent`` against JAX's: the CPU branch or the default
is what runs (eagerly, under jit, grad and vmap, with pytree arguments),
and a program without either raises ``NotImplementedError``."""

from collections.abc import Callable
from typing import Any

import pytest
from oracle import assert_same, library

import jaxtyped.numpy as jnp

jaxnp: Any = pytest.importorskip("jax.numpy")


PLATFORM_PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "cpu-branch": lambda o: o.lax.platform_dependent(2.0, cpu=lambda x: x * 2, tpu=lambda x: x * 3),
    "default": lambda o: o.lax.platform_dependent(2.0, tpu=lambda x: x * 3, default=lambda x: x + 1),
    "pytree-args": lambda o: o.lax.platform_dependent(
        {"a": o.np.ones(2)}, 3.0, cpu=lambda d, s: d["a"] * s, default=lambda d, s: d["a"]
    ),
    "jit": lambda o: o.api.jit(lambda x: o.lax.platform_dependent(x, cpu=o.np.sin, default=o.np.cos))(0.5),
    "grad": lambda o: o.api.grad(lambda x: o.lax.platform_dependent(x, cpu=lambda y: y**3, cuda=o.np.cos))(2.0),
    "vmap": lambda o: o.api.vmap(lambda x: o.lax.platform_dependent(x, cpu=lambda y: y * 2, default=o.np.cos))(
        o.np.arange(3.0)
    ),
}


@pytest.mark.parametrize("name", list(PLATFORM_PROGRAMS))
def test_platform_dependent_as_jax(name: str) -> None:
    assert_same(PLATFORM_PROGRAMS[name](library(jnp)), PLATFORM_PROGRAMS[name](library(jaxnp)))


def test_platform_dependent_without_a_cpu_branch_raises_as_jax() -> None:
    for o in (library(jnp), library(jaxnp)):
        with pytest.raises(NotImplementedError):
            o.lax.platform_dependent(1.0, tpu=lambda x: x * 3)
