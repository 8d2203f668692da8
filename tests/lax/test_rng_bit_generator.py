"""``lax.rng_bit_generator`` against JAX's: the next key and the bits for
every algorithm and unsigned dtype, eagerly and under ``jit`` (XLA's own
generator, so bit for bit), the staged equation, ``vmap`` over keys (JAX has
no batching rule: compared with JAX key by key), ``grad`` passing through a
function that draws bits, and the errors."""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownVariableType=false
# (jitted and vmapped lambdas, untyped by design)

from typing import Any

import numpy as np
import pytest
from oracle import debug_violations, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, lax

KEY = np.array([17, 4, 2026, 11], np.uint32)
ALGORITHMS = [lax.RandomAlgorithm.RNG_DEFAULT, lax.RandomAlgorithm.RNG_THREE_FRY, lax.RandomAlgorithm.RNG_PHILOX]


def _jax_algorithm(algorithm: lax.RandomAlgorithm) -> object:
    return jax.lax.RandomAlgorithm(int(algorithm))


@pytest.mark.parametrize("algorithm", ALGORITHMS, ids=str)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_bits_and_next_key_equal_jax(algorithm: lax.RandomAlgorithm, dtype: type[np.unsignedinteger]) -> None:
    theirs = jax.lax.rng_bit_generator(jax_numpy.asarray(KEY), (3, 5), dtype, _jax_algorithm(algorithm))
    eager = lax.rng_bit_generator(jnp.asarray(KEY), (3, 5), dtype, algorithm)
    jitted = jt.jit(lambda k: lax.rng_bit_generator(k, (3, 5), dtype, algorithm))(jnp.asarray(KEY))
    for ours in (eager, jitted):
        for a, b in zip(ours, theirs, strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape and not a.weak_type
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_the_staged_equation() -> None:
    """JAX's equation (whose params also hold ``out_sharding=None``)."""
    jaxpr = jt.make_jaxpr(lambda k: lax.rng_bit_generator(k, (4,), np.uint8))(jnp.asarray(KEY))
    assert str(jaxpr) == (
        "{ lambda ; a:u32[4]. let\n"
        "    b:u32[4] c:u8[4] = rng_bit_generator[\n"
        "      algorithm=RNG_DEFAULT\n"
        "      dtype=uint8\n"
        "      shape=(4,)\n"
        "    ] a\n"
        "  in (b, c) }"
    )
    assert any(lax.rng_bit_generator_p.matches(e.primitive) for e in jaxpr.eqns)


def test_vmap_over_keys_gives_each_keys_bits() -> None:
    keys = np.stack([KEY, KEY + 1, KEY * 3])
    new_keys, bits = jt.vmap(lambda k: lax.rng_bit_generator(k, (2, 3)))(jnp.asarray(keys))
    assert new_keys.shape == (3, 4) and bits.shape == (3, 2, 3)
    for i, key in enumerate(keys):
        their_key, their_bits = jax.lax.rng_bit_generator(jax_numpy.asarray(key), (2, 3))
        np.testing.assert_array_equal(np.asarray(new_keys[i]), np.asarray(their_key))
        np.testing.assert_array_equal(np.asarray(bits[i]), np.asarray(their_bits))


def test_grad_of_a_function_drawing_bits() -> None:
    """Bits are integers: a function scaling uniform noise by ``x`` has the
    noise as its derivative, as in JAX."""

    def noisy(namespace: Any, numpy: Any, x: Any) -> Any:
        _, bits = namespace.lax.rng_bit_generator(numpy.asarray(KEY), (3,))
        return numpy.sum(bits.astype(np.float32) / 2.0**32 * x)

    ours = jt.grad(lambda x: noisy(jt, jnp, x))(2.0)
    theirs = jax.grad(lambda x: noisy(jax, jax_numpy, x))(2.0)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-6)


def test_errors() -> None:
    """An unsigned dtype is required (JAX's TypeError); a key of another
    type raises a TypeError naming the key's type (JAX fails an assertion
    when lowering)."""
    with pytest.raises(TypeError, match="rng_bit_generator: unsupported dtype int32"):
        jax.lax.rng_bit_generator(jax_numpy.asarray(KEY), (2,), np.int32)
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="unsupported dtype int32"):
        lax.rng_bit_generator(jnp.asarray(KEY), (2,), np.int32)
    with pytest.raises(errors.JaxtypedTypeError, match=r"key must be uint32\[4\] or uint64\[2\], got u32\[2\]"):
        lax.rng_bit_generator(jnp.asarray(KEY[:2]), (2,))
    with pytest.raises(errors.JaxtypedTypeError, match=r"key must be uint32\[4\] or uint64\[2\], got i32\[4\]"):
        jt.jit(lambda k: lax.rng_bit_generator(k, (2,)))(jnp.arange(4))
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="shape must be a tuple of non-negative ints"):
        lax.rng_bit_generator(jnp.asarray(KEY), (2, -1))
