"""``lax.linalg.tridiagonal_solve`` against ``jax.lax.linalg``.

Values in float32/complex64 and float64/complex128, batched; ``dl[0]`` and
``du[-1]`` are ignored as in JAX; a singular system gives NaN (and a finite
result with ``perturb_singular``) as JAX's does; the errors are of JAX's
kinds. Under ``jit``, ``vmap`` (every operand batched, only ``b``, only the
diagonals), ``jvp`` and ``grad`` compared with JAX's own transformations;
eager equals jitted, ``vmap`` equals a Python loop, and ``check_grads``
passes at order 2 in both modes.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, assert_same_value, host, unary_fn, library_case as case, random_host

RNG = np.random.default_rng(1415)


def _random(shape: tuple[int, ...], dtype: str) -> Any:
    return random_host(RNG, shape, dtype)


def _system(dtype: str, batch: tuple[int, ...] = (2,), m: int = 5, n: int = 3) -> tuple[Any, Any, Any, Any]:
    """A diagonally dominant (well conditioned) system."""
    dl, du = _random((*batch, m), dtype), _random((*batch, m), dtype)
    d = host(dtype, np.asarray(_random((*batch, m), dtype)) + 5)
    return dl, d, du, _random((*batch, m, n), dtype)


def _weights(shape: tuple[int, ...], dtype: str) -> Any:
    values = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) / 7.0
    return host(dtype, values * (1 + 0.5j) if np.dtype(dtype).kind == "c" else values)


def _solve(m: Any, *args: Any) -> Any:
    return m.lax.linalg.tridiagonal_solve(*args)


def _grad_all(args: tuple[Any, ...], dtype: str) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        weights = _weights(args[3].shape, dtype)

        def loss(*xs: Any) -> Any:
            return m.np.real(m.np.sum(_solve(m, *xs) * weights))

        return m.api.grad(loss, argnums=(0, 1, 2, 3))(*args)

    return run


def _cases(dtype: str) -> list[Case]:
    args = _system(dtype)
    dl, d, du, b = args
    tangents = tuple(_random(np.shape(x), dtype) for x in args)
    singular = (host(dtype, np.zeros(3)), host(dtype, [1.0, 0.0, 1.0]), host(dtype, [1.0, 0.0, 0.0]), host(dtype, np.ones((3, 2))))
    ignored = np.array(dl), np.array(du)
    ignored[0][..., 0] = 100.0
    ignored[1][..., -1] = -100.0
    empty = host(dtype, np.zeros((2, 0)))

    def all4(m: Any) -> Callable[..., Any]:
        def solve(*xs: Any) -> Any:
            return _solve(m, *xs)

        return solve

    def b_only(m: Any) -> Callable[[Any], Any]:
        return unary_fn(lambda y: _solve(m, dl, d, du, y))

    def b_only_unbatched(m: Any) -> Callable[[Any], Any]:
        return unary_fn(lambda y: _solve(m, dl[0], d[0], du[0], y))

    def d_only(m: Any) -> Callable[[Any], Any]:
        return unary_fn(lambda x: _solve(m, dl[0], x, du[0], b[0]))

    return [
        case(f"tridiagonal_solve-{dtype}", lambda m: _solve(m, *args)),
        case(f"tridiagonal_solve-{dtype}_unbatched", lambda m: _solve(m, dl[0], d[0], du[0], b[0])),
        case(f"tridiagonal_solve-{dtype}_ends_ignored", lambda m: _solve(m, ignored[0], d, ignored[1], b)),
        case(f"tridiagonal_solve-{dtype}_singular", lambda m: _solve(m, *singular)),
        case(f"tridiagonal_solve-{dtype}_perturbed", lambda m: m.lax.linalg.tridiagonal_solve(*args, perturb_singular=True)),
        case(f"tridiagonal_solve-{dtype}_empty", lambda m: _solve(m, empty, empty, empty, host(dtype, np.zeros((2, 0, 3))))),
        case(f"tridiagonal_solve_jit-{dtype}", lambda m: m.api.jit(all4(m))(*args)),
        case(f"tridiagonal_solve_vmap-{dtype}_all", lambda m: m.api.vmap(all4(m))(*args)),
        case(f"tridiagonal_solve_vmap-{dtype}_b_only", lambda m: m.api.vmap(b_only_unbatched(m), in_axes=2, out_axes=2)(b)),
        case(f"tridiagonal_solve_vmap-{dtype}_d_only", lambda m: m.api.vmap(d_only(m))(d)),
        case(f"tridiagonal_solve_jvp-{dtype}", lambda m: m.api.jvp(all4(m), args, tangents), rtol=1e-4, atol=1e-4),
        case(f"tridiagonal_solve_jvp-{dtype}_b_only", lambda m: m.api.jvp(b_only(m), (b,), (tangents[3],)), rtol=1e-4, atol=1e-4),
        case(f"tridiagonal_solve_grad-{dtype}", _grad_all(args, dtype), rtol=1e-4, atol=1e-4),
    ]


def _error_cases() -> list[Case]:
    def z(*shape: int) -> Any:
        return host("float32", np.ones(shape))

    i = host("int32", np.ones(3))
    return [
        case("error-b_vector", lambda m: _solve(m, z(3), z(3), z(3), z(3))),
        case("error-diagonal_shapes", lambda m: _solve(m, z(2), z(3), z(3), z(3, 2))),
        case("error-b_rows", lambda m: _solve(m, z(3), z(3), z(3), z(4, 2))),
        case("error-dtypes", lambda m: _solve(m, z(3), z(3), z(3), host("complex64", np.ones((3, 2))))),
        case("error-int", lambda m: _solve(m, i, i, i, host("int32", np.ones((3, 2))))),
        case("error-batch_ndim", lambda m: _solve(m, z(2, 3), z(2, 3), z(2, 3), z(3, 2))),
    ]


TABLE_32 = CaseTable("lax_linalg_tridiagonal_32", lambda: _error_cases() + _cases("float32") + _cases("complex64"))
TABLE_64 = CaseTable("lax_linalg_tridiagonal_64", lambda: _cases("float64") + _cases("complex128"), x64=True)


@pytest.mark.parametrize("group", TABLE_32.params())
def test_32_bit_matches_jax(group: Group) -> None:
    TABLE_32.check(group)


@pytest.mark.parametrize("group", TABLE_64.params())
def test_64_bit_matches_jax(group: Group) -> None:
    TABLE_64.check(group)


def test_eager_equals_jit_and_solves() -> None:
    dl, d, du, b = _system("complex64")
    eager = lax.linalg.tridiagonal_solve(dl, d, du, b)
    np.testing.assert_array_equal(np.asarray(eager), np.asarray(jt.jit(lax.linalg.tridiagonal_solve)(dl, d, du, b)))
    dense = np.zeros((2, 5, 5), np.complex64)
    for k in range(5):
        dense[:, k, k] = d[:, k]
        if k:
            dense[:, k, k - 1] = dl[:, k]
        if k < 4:
            dense[:, k, k + 1] = du[:, k]
    assert np.abs(dense @ np.asarray(eager) - b).max() < 1e-4


def test_vmap_equals_loop() -> None:
    dl, d, du, b = _system("float32", batch=(3,))
    batched = jt.vmap(lax.linalg.tridiagonal_solve, in_axes=(None, 0, None, 0))(dl[0], d, du[0], b)
    loop = np.stack([np.asarray(lax.linalg.tridiagonal_solve(dl[0], d[k], du[0], b[k])) for k in range(3)])
    assert_same_value(batched, loop, rtol=1e-6, atol=1e-6)
    # Only b batched: folded into one solve's columns.
    rhs = np.swapaxes(b, 0, 1)  # (5, 3, 3): the batch in the middle
    folded = jt.vmap(lax.linalg.tridiagonal_solve, in_axes=(None, None, None, 1))(dl[0], d[0], du[0], rhs)
    columns = np.stack([np.asarray(lax.linalg.tridiagonal_solve(dl[0], d[0], du[0], rhs[:, k])) for k in range(3)])
    assert_same_value(folded, columns, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_check_grads(dtype: str, x64: None) -> None:
    args = _system(dtype, batch=(), m=4, n=2)
    check_grads(lax.linalg.tridiagonal_solve, args, order=2, modes=("fwd", "rev"))


def test_jaxpr_names_jax_params() -> None:
    ones = np.ones(3, np.float32)
    text = str(jt.make_jaxpr(lax.linalg.tridiagonal_solve)(ones, ones, ones, np.ones((3, 2), np.float32)))
    assert "tridiagonal_solve[perturb_singular=False] a b c d" in text
