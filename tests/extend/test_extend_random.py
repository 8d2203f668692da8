"""``jaxtyped.extend.random``: a custom PRNG implementation (three-word
keys) defined with ``define_prng_impl`` and used through
``jt.random.key(..., impl=...)`` by split, fold_in and the samplers, eagerly,
under jit and under vmap; ``random_wrap``/``random_unwrap``; and
``threefry_2x32`` against JAX's."""

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, lax
from jaxtyped.extend import random as xrandom

U32 = np.uint32


def _seed(seed: jt.Array) -> jt.Array:
    s = lax.convert_element_type(seed, U32)
    return jnp.stack([s, s ^ U32(0x9E3779B9), U32(7) + s * U32(0)])


def _split(key: jt.Array, shape: tuple[int, ...]) -> jt.Array:
    n = int(np.prod(shape))
    counters = jnp.arange(1, n + 1, dtype=U32)
    rows = key[None, :] + counters[:, None] * jnp.asarray([1, 3, 5], dtype=U32)[None, :]
    return rows.reshape((*shape, 3))


def _random_bits(key: jt.Array, bit_width: int, shape: tuple[int, ...]) -> jt.Array:
    n = max(int(np.prod(shape)), 1)
    words = xrandom.threefry_2x32(key[:2] ^ key[2], jnp.arange(2 * n, dtype=U32))[:n].reshape(shape)
    return words if bit_width == 32 else lax.convert_element_type(words, np.dtype(f"uint{bit_width}"))


def _fold_in(key: jt.Array, data: jt.Array) -> jt.Array:
    return key ^ data


TOY = xrandom.define_prng_impl(
    key_shape=(3,), seed=_seed, split=_split, random_bits=_random_bits, fold_in=_fold_in, name="toy3", tag="toy"
)


def test_keys_of_a_custom_implementation() -> None:
    k = jt.random.key(5, impl=TOY)
    assert str(k.dtype) == "key<toy>" and k.shape == () and jt.random.key_impl(k) == "toy3"
    np.testing.assert_array_equal(np.asarray(jt.random.key_data(k)), [5, 5 ^ 0x9E3779B9, 7])
    ks = jt.random.split(k, 4)
    assert ks.shape == (4,) and ks.dtype == k.dtype and jt.random.key_data(ks).shape == (4, 3)
    folded = jt.random.fold_in(k, 3)
    np.testing.assert_array_equal(np.asarray(jt.random.key_data(folded)), np.asarray(jt.random.key_data(k)) ^ 3)
    assert ks[1:3].shape == (2,) and ks.reshape(2, 2).dtype == k.dtype
    assert jt.random.key_dtype(TOY) == k.dtype and jt.random.key_dtype(TOY) != jt.random.key(0).dtype


def test_samplers_use_the_custom_bits_eagerly_under_jit_and_vmap() -> None:
    k = jt.random.key(1, impl=TOY)
    u = jt.random.uniform(k, (1000,))
    assert float(jnp.min(u)) >= 0.0 and float(jnp.max(u)) < 1.0 and abs(float(jnp.mean(u)) - 0.5) < 0.05
    def sample(key: jt.Array) -> jt.Array:
        return jt.random.uniform(key, (1000,))

    np.testing.assert_array_equal(np.asarray(jt.jit(sample)(k)), np.asarray(u))
    bits = jt.random.bits(k, (4,))
    expected = np.asarray(_random_bits(jt.random.key_data(k), 32, (4,)))
    np.testing.assert_array_equal(np.asarray(bits), expected)
    keys = jt.random.split(k, 3)
    def pair(key: jt.Array) -> jt.Array:
        return jt.random.normal(key, (2,))

    batched = jt.vmap(pair)(keys)
    one_by_one = np.stack([np.asarray(jt.random.normal(keys[i], (2,))) for i in range(3)])
    np.testing.assert_allclose(np.asarray(batched), one_by_one, rtol=1e-6)
    assert jt.random.normal(jt.random.key(2, impl=TOY), (3,)).shape == (3,)


def test_random_wrap_and_unwrap() -> None:
    data = np.arange(6, dtype=np.uint32).reshape(2, 3)
    keys = xrandom.random_wrap(data, impl=TOY)
    assert keys.shape == (2,) and str(keys.dtype) == "key<toy>"
    np.testing.assert_array_equal(np.asarray(xrandom.random_unwrap(keys)), data)
    fry = xrandom.random_wrap(np.zeros((2,), np.uint32), impl="threefry2x32")
    assert str(fry.dtype) == "key<fry>"
    with pytest.raises(errors.JaxtypedTypeError, match=r"end with \(3,\); got shape=\(2, 2\) for impl=toy3"):
        xrandom.random_wrap(np.zeros((2, 2), np.uint32), impl=TOY)
    with pytest.raises(errors.JaxtypedTypeError, match="random_unwrap takes typed PRNG keys"):
        xrandom.random_unwrap(jnp.zeros(2))
    with pytest.raises(errors.JaxtypedValueError, match="key_shape must have one positive axis"):
        xrandom.define_prng_impl(key_shape=(2, 2), seed=_seed, split=_split, random_bits=_random_bits, fold_in=_fold_in)


def test_threefry_matches_jax() -> None:
    key = np.array([1, 2], np.uint32)
    count = np.arange(6, dtype=np.uint32)
    ours = np.asarray(xrandom.threefry_2x32(key, count))
    import jax.extend.random as jax_extend_random

    theirs: np.ndarray[Any, np.dtype[np.uint32]] = np.asarray(jax_extend_random.threefry_2x32(key, count))  # pyright: ignore[reportUnknownArgumentType]  # JAX is untyped here
    np.testing.assert_array_equal(ours, theirs)
