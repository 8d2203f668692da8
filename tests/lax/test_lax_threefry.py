"""The ``threefry2x32`` primitive: its impl against an independent
pure-Python Threefry-2x32 (the published algorithm with JAX's constants),
``jaxtyped.extend.random.threefry_2x32`` against ``jax.extend.random``'s,
and the impl, lowering (jit) and batching rules against each other, bit
for bit; errors of the shape/dtype checks; float0 tangents under jvp/grad."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.lax.threefry import Threefry2x32, threefry2x32
from jaxtyped.errors import JaxtypedTypeError, ShapeMismatchError
from jaxtyped.typing import Array

from oracle import assert_same, expect_same_error, jax, jax_numpy

jax_extend_random: Any = pytest.importorskip("jax.extend.random")

MASK = 0xFFFFFFFF


def _python_threefry(k0: int, k1: int, x0: int, x1: int) -> tuple[int, int]:
    """Threefry-2x32 on Python ints, written from the algorithm's statement."""
    rotations = [13, 15, 26, 6, 17, 29, 16, 24]
    keys = [k0, k1, k0 ^ k1 ^ 0x1BD11BDA]
    a, b = (x0 + keys[0]) & MASK, (x1 + keys[1]) & MASK
    for i in range(20):
        r = rotations[(i // 4 % 2) * 4 + i % 4]
        a = (a + b) & MASK
        b = (((b << r) | (b >> (32 - r))) & MASK) ^ a
        if i % 4 == 3:
            injection = i // 4 + 1
            a = (a + keys[injection % 3]) & MASK
            b = (b + keys[(injection + 1) % 3] + injection) & MASK
    return a, b


def _words(rng: np.random.Generator, *shape: int) -> np.ndarray[Any, Any]:
    return rng.integers(0, 2**32, size=shape, dtype=np.uint64).astype(np.uint32)


def test_impl_matches_the_python_reference() -> None:
    rng = np.random.default_rng(0)
    k0, k1, x0, x1 = (_words(rng, 64) for _ in range(4))
    # Edge words too: zeros, all ones, the parity constant.
    k0[:3], k1[:3], x0[:3], x1[:3] = [0, MASK, 0x1BD11BDA], [0, MASK, 0], [0, MASK, 1], [0, MASK, MASK]
    y0, y1 = threefry2x32(jnp.asarray(k0), jnp.asarray(k1), jnp.asarray(x0), jnp.asarray(x1))
    expected = [_python_threefry(int(a), int(b), int(c), int(d)) for a, b, c, d in zip(k0, k1, x0, x1)]
    np.testing.assert_array_equal(np.asarray(y0), [e[0] for e in expected])
    np.testing.assert_array_equal(np.asarray(y1), [e[1] for e in expected])
    # The lowering computes the same words.
    j0, j1 = jt.jit(threefry2x32)(k0, k1, x0, x1)
    np.testing.assert_array_equal(np.asarray(j0), np.asarray(y0))
    np.testing.assert_array_equal(np.asarray(j1), np.asarray(y1))


@pytest.mark.parametrize("shape", [(0,), (1,), (2,), (5,), (2, 3), (1001,), (3, 0, 2)], ids=str)
def test_threefry_2x32_matches_jax_extend(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(sum(shape) + len(shape))
    count = _words(rng, *shape)
    pair = _words(rng, 2)
    theirs = jax_extend_random.threefry_2x32(jax_numpy.asarray(pair), jax_numpy.asarray(count))
    ours = jt.extend.random.threefry_2x32(jnp.asarray(pair), jnp.asarray(count))
    assert_same(ours, theirs, rtol=0.0, atol=0.0)
    as_tuple = jt.extend.random.threefry_2x32((jnp.uint32(pair[0]), jnp.uint32(pair[1])), count)
    assert_same(as_tuple, theirs, rtol=0.0, atol=0.0)
    jitted = jt.jit(jt.extend.random.threefry_2x32)(jnp.asarray(pair), jnp.asarray(count))
    assert_same(jitted, theirs, rtol=0.0, atol=0.0)


def test_wrapper_broadcasts_operands() -> None:
    rng = np.random.default_rng(1)
    x0, x1 = _words(rng, 2, 3), _words(rng, 3)
    y0, y1 = threefry2x32(np.uint32(7), np.uint32(9), x0, x1)
    assert y0.shape == y1.shape == (2, 3)
    ref = [_python_threefry(7, 9, int(a), int(b)) for a, b in zip(x0.reshape(-1), np.broadcast_to(x1, (2, 3)).reshape(-1))]
    np.testing.assert_array_equal(np.asarray(y0).reshape(-1), [r[0] for r in ref])
    np.testing.assert_array_equal(np.asarray(y1).reshape(-1), [r[1] for r in ref])


def test_batching_rule() -> None:
    rng = np.random.default_rng(2)
    k0, x1 = _words(rng, 4), _words(rng, 3, 4)
    k1, x0 = np.uint32(5), _words(rng, 3)
    prim = Threefry2x32()

    def per_example(a: jt.Array, c: jt.Array) -> tuple[jt.Array, ...]:
        shape = c.shape
        return bind(prim, jnp.broadcast_to(a, shape), jnp.full(shape, k1), c, jnp.full(shape, x0[0]))

    batched = jt.vmap(per_example, in_axes=(0, 1))(jnp.asarray(k0), jnp.asarray(x1))
    for i in range(4):
        expected = per_example(jnp.asarray(k0[i]), jnp.asarray(x1[:, i]))
        for got, want in zip(batched, expected, strict=True):
            np.testing.assert_array_equal(np.asarray(got)[i], np.asarray(want))
    # Every operand batched, on different axes, under jit.
    args = [_words(rng, 2, 3) for _ in range(4)]
    def hashed(k0: jt.Array, k1: jt.Array, x0: jt.Array, x1: jt.Array) -> tuple[jt.Array, jt.Array]:
        return threefry2x32(k0, k1, x0, x1)

    out = jt.jit(jt.vmap(hashed, in_axes=(0, 1, 0, 1)))(
        jnp.asarray(args[0]), jnp.asarray(args[1].T.copy()), jnp.asarray(args[2]), jnp.asarray(args[3].T.copy())
    )
    direct = threefry2x32(*args)
    for got, want in zip(out, direct, strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_scalar_keys_hash_every_counter() -> None:
    """Scalar keys (one key for all counters) give what keys broadcast to
    the counters' shape give: eagerly, compiled and under vmap."""
    rng = np.random.default_rng(0)
    k0, k1 = (jnp.asarray(np.uint32(v)) for v in rng.integers(0, 2**32, 2))
    x0, x1 = (jnp.asarray(rng.integers(0, 2**32, (3, 4)).astype(np.uint32)) for _ in range(2))
    full = [jnp.broadcast_to(k, (3, 4)) for k in (k0, k1)]
    expected = [np.asarray(y) for y in bind(Threefry2x32(), *full, x0, x1)]
    def hash_all(a: Array, b: Array, c: Array, d: Array) -> tuple[Array, ...]:
        return bind(Threefry2x32(), a, b, c, d)

    def hash_counters(a: Array, b: Array) -> tuple[Array, ...]:
        return bind(Threefry2x32(), k0, k1, a, b)

    for got in (hash_all(k0, k1, x0, x1), jt.jit(hash_all)(k0, k1, x0, x1)):
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(np.asarray(g), e)
    rows = jt.vmap(hash_counters)(x0, x1)
    for g, e in zip(rows, expected):
        np.testing.assert_array_equal(np.asarray(g), e)


def test_abstract_eval_errors() -> None:
    prim = Threefry2x32()
    u = jnp.zeros(3, jnp.uint32)
    with pytest.raises(JaxtypedTypeError, match=r"threefry2x32 requires uint32 arguments.*i32\[3\]"):
        bind(prim, u, u, u, jnp.zeros(3, jnp.int32))
    with pytest.raises(ShapeMismatchError, match=r"counters of one shape.*u32\[2\]"):
        bind(prim, u, u, u, jnp.zeros(2, jnp.uint32))
    with pytest.raises(ShapeMismatchError, match=r"keys of that shape or scalars"):
        bind(prim, jnp.zeros(2, jnp.uint32), jnp.zeros(2, jnp.uint32), u, u)
    with pytest.raises(JaxtypedTypeError, match="4"):
        bind(prim, u, u, u)


@pytest.mark.parametrize("count_dtype", ["int32", "float32"])
def test_extend_errors_as_jax(count_dtype: str) -> None:
    def run(L: Any) -> Any:
        module = jt.extend.random if L is jnp else jax_extend_random
        return module.threefry_2x32(L.array([1, 2], L.uint32), L.arange(5).astype(count_dtype))

    with pytest.raises(Exception) as theirs:  # noqa: PT011 - the kind is compared below
        run(jax_numpy)
    expect_same_error(theirs.value, lambda: run(jnp))


def test_tangents_are_float0_as_jax() -> None:
    pair = np.array([1, 2], np.uint32)
    count = np.arange(4, dtype=np.uint32)
    tangent = np.zeros(4, dtype=jax.dtypes.float0)
    def hashed(ext: Any) -> Callable[[Any], Any]:
        def fn(c: Any) -> Any:
            return ext.threefry_2x32(pair, c)

        return fn

    theirs = jax.jvp(hashed(jax_extend_random), (count,), (tangent,))
    ours = jt.jvp(hashed(jt.extend.random), (jnp.asarray(count),), (tangent,))
    assert_same(ours[0], theirs[0], rtol=0.0, atol=0.0)
    assert ours[1].dtype == theirs[1].dtype and ours[1].shape == theirs[1].shape

    def loss(L: Any, ext: Any, x: Any) -> Any:
        bits = ext.threefry_2x32(pair, count)
        return (x * bits.astype(L.float32)).sum()

    def our_loss(x: jt.Array) -> jt.Array:
        result: jt.Array = loss(jnp, jt.extend.random, x)
        return result

    g_ours = jt.grad(our_loss)(jnp.ones(4))
    def their_loss(x: Any) -> Any:
        return loss(jax_numpy, jax_extend_random, x)

    g_theirs = jax.grad(their_loss)(jax_numpy.ones(4))
    assert_same(g_ours, g_theirs)


def test_not_exported_from_lax() -> None:
    assert "threefry2x32" not in jt.lax.__all__ and not hasattr(jt.lax, "threefry2x32")
    assert "threefry_2x32" in jt.extend.random.__all__
