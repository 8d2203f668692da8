"""``jnp.convolve`` and ``jnp.correlate`` against ``jax.numpy``: values,
dtypes, weak types, shapes and error kinds through the shared oracle, and
under jit, vmap and grad."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

from oracle import Case, CaseTable, Group, Namespace, assert_same, call, host, jax, jax_numpy

RNG = np.random.default_rng(11)
A7 = RNG.normal(size=7).astype(np.float32)
V3 = RNG.normal(size=3).astype(np.float32)
V4 = RNG.normal(size=4).astype(np.float32)
I6 = np.array([3, -1, 4, 1, -5, 9], np.int32)
I3 = np.array([2, 7, -1], np.int32)
C5 = (RNG.normal(size=5) + 1j * RNG.normal(size=5)).astype(np.complex64)
C2 = (RNG.normal(size=2) + 1j * RNG.normal(size=2)).astype(np.complex64)
B4 = np.array([True, False, True, True])


def weak_case(name: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        return getattr(L, name)(L.arange(4.0) * 1.0, L.ones(2))

    return fn


def list_case(name: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        return getattr(L, name)([1.0, 2.0], V3)

    return fn


def _cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("convolve", "correlate"):
        for mode in ("full", "same", "valid"):
            cases += [
                Case(f"{name}-{mode}", call(name, A7, V3, mode)),
                Case(f"{name}-{mode}-even", call(name, A7, V4, mode)),
                Case(f"{name}-{mode}-swapped", call(name, V4, A7, mode)),
                Case(f"{name}-{mode}-int", call(name, I6, I3, mode)),
                Case(f"{name}-{mode}-complex", call(name, C5, C2, mode)),
                Case(f"{name}-{mode}-complex-swapped", call(name, C2, C5, mode)),
            ]
        cases += [
            Case(f"{name}-default-mode", call(name, A7, V3)),
            Case(f"{name}-mixed", call(name, I6, V3)),
            Case(f"{name}-bool", call(name, B4, B4)),
            Case(f"{name}-float16", call(name, host("float16", A7), host("float16", V3)), rtol=2e-2, atol=2e-2),
            Case(f"{name}-bfloat16", call(name, host("bfloat16", A7), host("bfloat16", V3)), rtol=3e-2, atol=3e-2),
            Case(f"{name}-preferred-int", call(name, I6, I3, preferred_element_type=np.int32)),
            Case(f"{name}-preferred-float", call(name, I6, I3, "same", preferred_element_type=np.float32)),
            Case(f"{name}-preferred-bf16-to-f32", call(name, host("bfloat16", A7), host("bfloat16", V3),
                                                      preferred_element_type=np.float32), rtol=1e-2, atol=1e-2),
            Case(f"{name}-single", call(name, A7[:1], V3[:1])),
            Case(f"{name}-weak", weak_case(name)),
            Case(f"{name}-2d", call(name, A7.reshape(7, 1), V3)),
            Case(f"{name}-scalar", call(name, 2.0, V3)),
            Case(f"{name}-empty", call(name, A7[:0], V3)),
            Case(f"{name}-bad-mode", call(name, A7, V3, "middle")),
            Case(f"{name}-list", list_case(name)),
        ]  # fmt: skip
    return cases


TABLE = CaseTable("convolve", _cases)


@pytest.mark.parametrize("group", TABLE.params())
def test_convolve_and_correlate_match_jax(group: Group) -> None:
    TABLE.check(group)


@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_under_jit_vmap_and_grad(name: str) -> None:
    ours: Any = getattr(jnp, name)
    theirs: Any = getattr(jax_numpy, name)
    a, v = jnp.asarray(A7), jnp.asarray(V3)
    eager = ours(a, v, "same")
    assert_same(jt.jit(ours, static_argnums=2)(a, v, "same"), theirs(A7, V3, "same"))
    np.testing.assert_allclose(np.asarray(jt.jit(ours, static_argnums=2)(a, v, "same")), np.asarray(eager), rtol=1e-6)
    batch = RNG.normal(size=(4, 7)).astype(np.float32)

    def ours_full(x: Any) -> Any:
        return ours(x, v, "full")

    def theirs_full(x: Any) -> Any:
        return theirs(x, V3, "full")

    assert_same(jt.vmap(ours_full)(batch), jax.vmap(theirs_full)(batch))
    weights = RNG.normal(size=5).astype(np.float32)

    def loss(lib: Any, fn: Any) -> Callable[[Any, Any], Any]:
        def value(x: Any, y: Any) -> Any:
            return lib.sum(fn(x, y, "valid") * weights)

        return value

    ours_grad = jt.grad(loss(jnp, ours), argnums=(0, 1))(a, v)
    theirs_grad = jax.grad(loss(jax_numpy, theirs), argnums=(0, 1))(A7, V3)
    assert_same(ours_grad, theirs_grad)
