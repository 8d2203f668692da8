"""Keys of ``jaxtyped.random`` against ``jax.random``: ``key``/``PRNGKey``
seeds (negative, 64-bit, x64 on and off), ``split`` (int and shape ``num``),
``fold_in``, ``bits`` (uint8..uint64, empty and large shapes), both counter
schemes (``jax_threefry_partitionable``), eager == jit == vmap == JAX bit
for bit; typed key arrays through jit/vmap/scan/cond/while_loop/tree_map,
indexing and reshaping; errors of the same kind as JAX's."""

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom
from jaxtyped.errors import JaxtypedTypeError

from oracle import assert_same, expect_same_error, jax, jax_numpy

jax_random: Any = pytest.importorskip("jax.random")

Lib = Any  # jaxtyped or jax: the same API by contract
LIBS = (jt, jax)


def random_of(L: Lib) -> Any:
    return jrandom if L is jt else jax_random


def data_of(L: Lib, k: Any) -> np.ndarray[Any, Any]:
    """The uint32 words of a typed or legacy key, on the host."""
    random = random_of(L)
    typed = str(k.dtype).startswith("key<")
    return np.asarray(random.key_data(k) if typed else k)


def assert_same_keys(ours: Any, theirs: Any) -> None:
    """Same kind (typed or legacy), key shape, dtype and words."""
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    assert ours.shape == theirs.shape
    a, b = data_of(jt, ours), data_of(jax, theirs)
    assert a.dtype == b.dtype == np.uint32
    np.testing.assert_array_equal(a, b)


def compare(fn: Callable[[Lib], Any]) -> None:
    """``fn(jt)`` equals ``fn(jax)`` bit for bit (keys or uint arrays)."""
    ours, theirs = fn(jt), fn(jax)
    if str(theirs.dtype).startswith("key<"):
        assert isinstance(ours, jrandom.KeyArray)
        assert_same_keys(ours, theirs)
    else:
        assert_same(ours, theirs, rtol=0.0, atol=0.0)


@pytest.fixture(params=[True, False], ids=["partitionable", "classic"])
def partitionable(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Both counter schemes, in both libraries."""
    value: bool = request.param
    ours, theirs = jt.config.jax_threefry_partitionable, bool(jax.config.jax_threefry_partitionable)
    jt.config.update("jax_threefry_partitionable", value)
    jax.config.update("jax_threefry_partitionable", value)
    try:
        yield value
    finally:
        jt.config.update("jax_threefry_partitionable", ours)
        jax.config.update("jax_threefry_partitionable", theirs)


# === seeds ===

SEEDS_32: list[object] = [
    0, 42, -1, 2**31 - 1, -(2**31), 2**32 - 1, 2**32 + 5, 2**40 + 3, -(2**40), 2**63 - 1, -(2**63),
    np.int32(-3), np.uint32(2**32 - 1), np.int8(-7), np.int64(2**40 + 9), np.uint64(2**64 - 1), True,
]
# Seeds whose keys change with x64 (they need more than 32 bits, or are negative).
SEEDS_64: list[object] = [
    -1, 2**32 + 5, 2**40 + 3, -(2**40), 2**63 - 1, -(2**63), np.int32(-3), np.int64(2**40 + 9), np.uint64(2**64 - 1),
]


def _seed_id(seed: object) -> str:
    return f"{type(seed).__name__}({seed})"


@pytest.mark.parametrize("seed", SEEDS_32, ids=_seed_id)
def test_key_and_prngkey_from_seeds(seed: object) -> None:
    compare(lambda L: random_of(L).key(seed))
    compare(lambda L: random_of(L).PRNGKey(seed))


@pytest.mark.parametrize("seed", SEEDS_64, ids=_seed_id)
def test_seeds_under_x64(seed: object, x64: None) -> None:
    compare(lambda L: random_of(L).key(seed))
    compare(lambda L: random_of(L).PRNGKey(seed))


def test_seed_facts() -> None:
    # With x64 off the seed is narrowed to int32 first (jaxlib facts, section 14).
    np.testing.assert_array_equal(np.asarray(jrandom.PRNGKey(2**32 + 5)), [0, 5])
    np.testing.assert_array_equal(np.asarray(jrandom.PRNGKey(-1)), [0, 2**32 - 1])


def test_seed_facts_x64(x64: None) -> None:
    np.testing.assert_array_equal(np.asarray(jrandom.PRNGKey(2**32 + 5)), [1, 5])
    np.testing.assert_array_equal(np.asarray(jrandom.PRNGKey(-1)), [2**32 - 1, 2**32 - 1])


def test_traced_seeds() -> None:
    seeds = np.array([0, 5, -3, 2**31 - 1], np.int32)
    compare(lambda L: L.jit(random_of(L).key)(seeds[1]))
    compare(lambda L: L.vmap(random_of(L).key)(L.numpy.asarray(seeds)))
    compare(lambda L: L.jit(L.vmap(random_of(L).PRNGKey))(L.numpy.asarray(seeds)))


# === split, fold_in, bits ===

NUMS: list[int | tuple[int, ...] | list[int]] = [2, 0, 1000, (2, 3), (), (4, 0), [3, 1]]


@pytest.mark.parametrize("num", NUMS, ids=str)
@pytest.mark.parametrize("legacy", [False, True], ids=["typed", "legacy"])
def test_split(num: int | tuple[int, ...] | list[int], legacy: bool, partitionable: bool) -> None:
    def fn(L: Lib, seed: int) -> Any:
        random = random_of(L)
        k = random.PRNGKey(seed) if legacy else random.key(seed)
        return random.split(k, num)

    compare(lambda L: fn(L, -5))
    compare(lambda L: L.jit(fn, static_argnums=(0, 1))(L, 7))


def test_split_default_and_chains(partitionable: bool) -> None:
    def chain(L: Lib) -> Any:
        random = random_of(L)
        k = sub = random.key(3)
        for i in range(4):
            k, sub = random.split(k)
            k = random.fold_in(k, i)
        return random.split(sub, (2, 2))

    compare(chain)


FOLD_DATA: list[object] = [0, 1, 2**32 - 1, 12345, np.int32(-1), np.uint32(7), 1.5, np.float32(2.9), True]


@pytest.mark.parametrize("data", FOLD_DATA, ids=_seed_id)
@pytest.mark.parametrize("legacy", [False, True], ids=["typed", "legacy"])
def test_fold_in(data: object, legacy: bool) -> None:
    # One hash of (0, data) in both counter schemes (jaxlib facts, section 14).
    def fn(L: Lib) -> Any:
        random = random_of(L)
        k = random.PRNGKey(11) if legacy else random.key(11)
        return random.fold_in(k, data)

    compare(fn)


def test_fold_in_traced_data() -> None:
    compare(lambda L: L.jit(random_of(L).fold_in)(random_of(L).key(1), 9))
    compare(lambda L: L.vmap(random_of(L).fold_in, in_axes=(None, 0))(random_of(L).key(1), L.numpy.arange(4)))


SHAPES: list[tuple[int, ...]] = [(), (5,), (3, 4), (2, 0, 3), (70_001,)]
BIT_DTYPES = ["uint8", "uint16", "uint32", "uint64"]


@pytest.mark.filterwarnings("ignore:Explicitly requested dtype uint64")  # JAX's x64-off warning
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", BIT_DTYPES)
def test_bits(shape: tuple[int, ...], dtype: str, partitionable: bool) -> None:
    compare(lambda L: random_of(L).bits(random_of(L).key(9), shape, dtype))
    compare(lambda L: random_of(L).bits(random_of(L).PRNGKey(4), shape, dtype))


@pytest.mark.parametrize("shape", [(), (3, 3), (9,)], ids=str)
@pytest.mark.parametrize("dtype", BIT_DTYPES)
def test_bits_x64(shape: tuple[int, ...], dtype: str, partitionable: bool, x64: None) -> None:
    compare(lambda L: random_of(L).bits(random_of(L).key(2**40 + 1), shape, dtype))


def test_bits_defaults_and_int_shape() -> None:
    compare(lambda L: random_of(L).bits(random_of(L).key(0)))
    compare(lambda L: random_of(L).bits(random_of(L).key(0), 3))
    compare(lambda L: random_of(L).bits(random_of(L).key(0), [2, 2], L.numpy.uint16))


def test_eager_jit_vmap_agree(partitionable: bool) -> None:
    def keys(L: Lib) -> Any:
        return random_of(L).split(random_of(L).key(5), 4)

    def bits3(L: Lib) -> Callable[[Any], Any]:
        def fn(k: Any) -> Any:
            return random_of(L).bits(k, (3,), "uint8")

        return fn

    def split3(L: Lib) -> Callable[[Any], Any]:
        def fn(k: Any) -> Any:
            return random_of(L).split(k, 3)

        return fn

    def fold3(L: Lib) -> Callable[[Any], Any]:
        def fn(k: Any) -> Any:
            return random_of(L).fold_in(k, 3)

        return fn

    compare(lambda L: L.jit(bits3(L))(random_of(L).key(5)))
    compare(lambda L: L.jit(random_of(L).split, static_argnums=1)(random_of(L).key(5), (2, 2)))
    compare(lambda L: L.vmap(bits3(L))(keys(L)))
    compare(lambda L: L.vmap(random_of(L).split)(keys(L)))
    compare(lambda L: L.vmap(fold3(L))(keys(L)))
    compare(lambda L: L.jit(L.vmap(split3(L)))(keys(L)))
    # vmap over legacy keys: over the leading axis of uint32[4, 2].
    compare(lambda L: L.vmap(bits3(L))(random_of(L).split(random_of(L).PRNGKey(5), 4)))
    # The same numbers eagerly and under jit, within one library.
    k = jrandom.key(5)
    np.testing.assert_array_equal(np.asarray(bits3(jt)(k)), np.asarray(jt.jit(bits3(jt))(k)))


def test_threefry_partitionable_is_on_by_default() -> None:
    assert jt.config.jax_threefry_partitionable is True
    assert bool(jax.config.jax_threefry_partitionable) is True


# === key arrays ===


def test_key_array_metadata_and_repr() -> None:
    k = jrandom.key(0)
    assert isinstance(k, jt.Array)
    assert (k.shape, k.ndim, k.size, k.weak_type) == ((), 0, 1, False)
    assert str(k.dtype) == repr(k.dtype) == k.dtype.name == "key<fry>"
    assert repr(k) == repr(jax_random.key(0)) == "Array((), dtype=key<fry>) overlaying:\n[0 0]"
    ks = jrandom.split(k, (2, 3))
    assert repr(ks) == repr(jax_random.split(jax_random.key(0), (2, 3)))
    assert (ks.shape, ks.ndim, ks.size, ks.itemsize, ks.nbytes) == ((2, 3), 2, 6, 8, 48)
    assert jrandom.key_impl(k) == str(jax_random.key_impl(jax_random.key(0))) == "threefry2x32"
    assert jrandom.key_impl(jrandom.PRNGKey(0)) == "threefry2x32"
    assert k.block_until_ready() is k
    assert_same_keys(jt.device_put(k), jax.device_put(jax_random.key(0)))
    assert_same_keys(jrandom.clone(k), jax_random.clone(jax_random.key(0)))


def test_key_data_and_wrap() -> None:
    compare(lambda L: random_of(L).key_data(random_of(L).key(3)))
    compare(lambda L: random_of(L).key_data(random_of(L).PRNGKey(3)))
    compare(lambda L: random_of(L).wrap_key_data(L.numpy.array([[1, 2], [3, 4]], L.numpy.uint32)))
    compare(lambda L: random_of(L).wrap_key_data(np.array([5, 6], np.uint32), impl="threefry2x32"))
    compare(lambda L: random_of(L).key_data(random_of(L).split(random_of(L).key(3), (2, 2))))
    compare(lambda L: L.jit(random_of(L).key_data)(random_of(L).key(3)))
    compare(lambda L: L.jit(random_of(L).wrap_key_data)(L.numpy.array([7, 8], L.numpy.uint32)))


def test_indexing_and_shape_methods() -> None:
    def keys(L: Lib) -> Any:
        return random_of(L).split(random_of(L).key(1), 6)

    compare(lambda L: keys(L)[0])
    compare(lambda L: keys(L)[-1])
    compare(lambda L: keys(L)[1:4])
    compare(lambda L: keys(L)[::2])
    compare(lambda L: keys(L)[None])
    compare(lambda L: keys(L)[...])
    compare(lambda L: keys(L).reshape(2, 3))
    compare(lambda L: keys(L).reshape((3, -1))[:, 1])
    compare(lambda L: keys(L).reshape(2, 3)[..., 0])
    compare(lambda L: keys(L).reshape(2, 3).T)
    compare(lambda L: keys(L).reshape(2, 3).transpose())
    compare(lambda L: keys(L).reshape(2, 1, 3).squeeze())
    compare(lambda L: keys(L).reshape(2, 3).ravel())
    compare(lambda L: keys(L).reshape(2, 3).flatten())
    compare(lambda L: keys(L).reshape(2, 3).swapaxes(0, 1))
    compare(lambda L: keys(L).copy())
    compare(lambda L: keys(L)[L.numpy.array([0, 3])])
    compare(lambda L: keys(L) == keys(L))
    compare(lambda L: keys(L)[:2] != random_of(L).split(random_of(L).key(1), 6)[1:3])
    ks = jrandom.split(jrandom.key(1), 3)
    theirs = jax_random.split(jax_random.key(1), 3)
    assert len(ks) == len(theirs) == 3
    for a, b in zip(ks, theirs, strict=True):
        assert_same_keys(a, b)


def test_jnp_shape_functions_on_keys() -> None:
    def keys(L: Lib, seed: int = 1) -> Any:
        return random_of(L).split(random_of(L).key(seed), 6)

    def mask(L: Lib) -> Any:
        return L.numpy.array([True, False, True, True, False, False])

    compare(lambda L: L.numpy.stack([keys(L), keys(L, 2)]))
    compare(lambda L: L.numpy.stack([keys(L), keys(L, 2)], axis=1))
    compare(lambda L: L.numpy.concatenate([keys(L), keys(L, 2)[:2]]))
    compare(lambda L: L.numpy.where(mask(L), keys(L), keys(L, 2)))
    compare(lambda L: L.numpy.reshape(keys(L), (3, 2)))
    compare(lambda L: L.numpy.transpose(L.numpy.reshape(keys(L), (3, 2))))
    compare(lambda L: L.numpy.swapaxes(L.numpy.reshape(keys(L), (3, 2)), 0, 1))
    compare(lambda L: L.numpy.moveaxis(L.numpy.reshape(keys(L), (3, 2, 1)), 0, 2))
    compare(lambda L: L.numpy.expand_dims(keys(L), 0))
    compare(lambda L: L.numpy.squeeze(L.numpy.reshape(keys(L), (1, 6))))
    compare(lambda L: L.numpy.ravel(L.numpy.reshape(keys(L), (2, 3))))
    compare(lambda L: L.numpy.broadcast_to(random_of(L).key(4), (2, 3)))
    compare(lambda L: L.numpy.take(keys(L), L.numpy.array([5, 0, 2])))
    compare(lambda L: L.numpy.asarray(keys(L)))
    compare(lambda L: L.numpy.flip(keys(L)))
    compare(lambda L: L.numpy.roll(keys(L), 2))
    compare(lambda L: L.numpy.tile(keys(L), (2, 1)))
    compare(lambda L: L.numpy.repeat(keys(L), 2))
    compare(lambda L: L.numpy.take_along_axis(keys(L), L.numpy.array([4, 1]), axis=0))
    compare(lambda L: L.numpy.vstack([keys(L), keys(L, 2)]))
    compare(lambda L: L.numpy.hstack([keys(L), keys(L, 2)]))
    compare(lambda L: L.numpy.atleast_2d(keys(L)))
    compare(lambda L: L.numpy.atleast_1d(random_of(L).key(3)))
    compare(lambda L: L.numpy.split(keys(L), 3)[1])
    compare(lambda L: L.lax.select(mask(L), keys(L), keys(L, 2)))
    compare(lambda L: L.lax.slice(keys(L), (1,), (5,), (2,)))
    compare(lambda L: L.lax.slice_in_dim(keys(L), 1, 4))
    compare(lambda L: L.lax.index_in_dim(keys(L), 2, keepdims=False))
    compare(lambda L: L.lax.dynamic_slice(keys(L), (L.numpy.int32(2),), (3,)))
    compare(lambda L: L.lax.dynamic_slice_in_dim(keys(L), 4, 2))
    compare(lambda L: L.lax.dynamic_index_in_dim(keys(L), L.numpy.int32(5), keepdims=False))
    compare(lambda L: L.lax.dynamic_update_slice(keys(L), keys(L, 2)[:2], (L.numpy.int32(3),)))
    compare(lambda L: keys(L).at[1].set(random_of(L).key(9)))
    compare(lambda L: keys(L).at[::2].set(keys(L, 3)[:3]))
    compare(lambda L: keys(L).at[2:4].get())
    def twice(L: Lib) -> Callable[[Any], Any]:
        def fn(k: Any) -> Any:
            return L.numpy.stack([k, k])

        return fn

    compare(lambda L: L.jit(twice(L))(keys(L)))
    with pytest.raises(TypeError, match="key<fry>"):
        jnp.stack([keys(jt), jnp.zeros(6)])


def test_key_arrays_in_transformations(partitionable: bool) -> None:
    def scanned(L: Lib) -> Any:
        random = random_of(L)

        def step(k: Any, _: Any) -> tuple[Any, Any]:
            k, sub = random.split(k)
            return k, sub

        return L.lax.scan(step, random.key(2), None, length=4)[1]

    compare(scanned)

    def same(k: Any) -> Any:
        return k

    def second_of_split(L: Lib) -> Callable[[Any], Any]:
        def fn(k: Any) -> Any:
            return random_of(L).split(k)[1]

        return fn

    def fold_step(L: Lib) -> Callable[[Any, Any], Any]:
        def fn(i: Any, k: Any) -> Any:
            return random_of(L).fold_in(k, i)

        return fn

    def second_in_dict(t: dict[str, Any]) -> Any:
        return t["k"][1]

    def keys(L: Lib, num: Any) -> Any:
        return random_of(L).split(random_of(L).key(2), num)

    compare(lambda L: L.lax.cond(False, same, second_of_split(L), random_of(L).key(2)))
    compare(lambda L: L.lax.fori_loop(0, 3, fold_step(L), random_of(L).key(2)))
    compare(lambda L: L.tree_util.tree_map(same, keys(L, 3)))
    compare(lambda L: L.jit(second_in_dict)({"k": keys(L, 3)}))
    compare(lambda L: L.vmap(same, out_axes=1)(keys(L, (2, 3))))
    compare(lambda L: L.vmap(same, in_axes=1)(keys(L, (2, 3))))
    # Negative axes would count from the word axis of the key data: refused.
    for in_axes, out_axes in ((-1, 0), (0, -1)):
        with pytest.raises(ValueError, match="non-negative axis"):
            jt.vmap(same, in_axes=in_axes, out_axes=out_axes)(keys(jt, 4))
    leaves = jt.tree_util.tree_leaves(jrandom.key(0))
    assert len(leaves) == 1 and leaves[0].dtype == np.uint32 and leaves[0].shape == (2,)


def test_grad_through_random_bits_is_zero() -> None:
    def f(L: Lib) -> Any:
        def loss(x: Any) -> Any:
            b = random_of(L).bits(random_of(L).key(0), (3,))
            return (x * b.astype(L.numpy.float32)).sum()

        return L.grad(loss)(1.0)

    compare(f)


# === errors ===

ERROR_CASES: list[tuple[str, Callable[[Lib], Any]]] = [
    ("key-float-seed", lambda L: random_of(L).key(1.5)),
    ("key-float-array-seed", lambda L: random_of(L).key(L.numpy.float32(1))),
    ("key-array-seed", lambda L: random_of(L).key(L.numpy.array([1, 2]))),
    ("key-of-key", lambda L: random_of(L).PRNGKey(random_of(L).key(0))),
    ("key-seed-2**63", lambda L: random_of(L).key(2**63)),
    ("key-unknown-impl", lambda L: random_of(L).key(0, impl="nope")),
    ("split-float-key", lambda L: random_of(L).split(L.numpy.zeros(2))),
    ("split-int32-key", lambda L: random_of(L).split(L.numpy.zeros(2, L.numpy.int32))),
    ("split-3-words", lambda L: random_of(L).split(L.numpy.zeros(3, L.numpy.uint32))),
    ("split-key-array", lambda L: random_of(L).split(random_of(L).split(random_of(L).key(0), 4))),
    ("split-legacy-batch", lambda L: random_of(L).split(L.numpy.zeros((2, 2), L.numpy.uint32))),
    ("split-float-num", lambda L: random_of(L).split(random_of(L).key(0), 2.0)),
    ("fold_in-negative", lambda L: random_of(L).fold_in(random_of(L).key(0), -1)),
    ("fold_in-too-big", lambda L: random_of(L).fold_in(random_of(L).key(0), 2**32 + 3)),
    ("fold_in-array", lambda L: random_of(L).fold_in(random_of(L).key(0), L.numpy.arange(3))),
    ("fold_in-key-array", lambda L: random_of(L).fold_in(random_of(L).split(random_of(L).key(0)), 1)),
    ("bits-int-dtype", lambda L: random_of(L).bits(random_of(L).key(0), dtype=L.numpy.int32)),
    ("bits-float-dtype", lambda L: random_of(L).bits(random_of(L).key(0), dtype=L.numpy.float32)),
    ("bits-key-array", lambda L: random_of(L).bits(random_of(L).split(random_of(L).key(0)))),
    ("key_data-float", lambda L: random_of(L).key_data(L.numpy.zeros(2))),
    ("wrap-typed", lambda L: random_of(L).wrap_key_data(random_of(L).key(0))),
    ("wrap-int32", lambda L: random_of(L).wrap_key_data(L.numpy.array([0, 1], L.numpy.int32))),
    ("wrap-float", lambda L: random_of(L).wrap_key_data(L.numpy.array([0.0, 1.0]))),
    ("wrap-list", lambda L: random_of(L).wrap_key_data([1, 2])),
    ("key-numpy-float-seed", lambda L: random_of(L).key(np.float64(5))),
    ("eq-legacy", lambda L: random_of(L).key(0) == random_of(L).PRNGKey(0)),
    ("wrap-3-words", lambda L: random_of(L).wrap_key_data(L.numpy.array([0, 1, 2], L.numpy.uint32))),
    ("add", lambda L: random_of(L).key(0) + 1),
    ("radd", lambda L: 1 + random_of(L).key(0)),
    ("neg", lambda L: -random_of(L).key(0)),
    ("sin", lambda L: L.numpy.sin(random_of(L).key(0))),
    ("array-plus-key", lambda L: L.numpy.ones(3) + random_of(L).key(0)),
    ("jnp-add-scalar-key", lambda L: L.numpy.add(1.0, random_of(L).key(0))),
    ("jnp-multiply-keys", lambda L: L.numpy.multiply(random_of(L).key(0), random_of(L).key(1))),
    ("asarray-numpy", lambda L: np.asarray(random_of(L).key(0))),
    ("bool", lambda L: bool(random_of(L).key(0))),
    ("int", lambda L: int(random_of(L).key(0))),
    ("len-scalar", lambda L: len(random_of(L).key(0))),
    ("hash", lambda L: hash(random_of(L).key(0))),
]


@pytest.mark.parametrize("fn", [pytest.param(fn, id=name) for name, fn in ERROR_CASES])
def test_errors_as_jax(fn: Callable[[Lib], Any]) -> None:
    with pytest.raises(Exception) as theirs:  # noqa: PT011 - any error; its kind is compared below
        fn(jax)
    expect_same_error(theirs.value, lambda: fn(jt))


def test_unsupported_impls_are_named() -> None:
    for impl in ("rbg", "unsafe_rbg"):
        with pytest.raises(NotImplementedError, match=impl):
            jrandom.key(0, impl=impl)


def test_key_errors_name_the_dtype_and_operation() -> None:
    k = jrandom.key(0)
    with pytest.raises(JaxtypedTypeError, match=r"add.*key<fry>"):
        _ = k + 1
    with pytest.raises(JaxtypedTypeError, match=r"jnp\.sin does not accept dtypes key<fry>"):
        jnp.sin(k)
    with pytest.raises(JaxtypedTypeError, match=r"jnp\.add does not accept dtypes float32, key<fry>"):
        _ = jnp.ones(3) + k
    with pytest.raises(JaxtypedTypeError, match="key<fry>"):
        _ = k.aval
    with pytest.raises(ValueError, match=r"split accepts a single key.*\(4,\)"):
        jrandom.split(jrandom.split(k, 4))
    with pytest.raises(TypeError, match="dtype = uint32; got dtype=float32"):
        jrandom.split(jnp.zeros(2))
    assert jax_numpy is not None


@pytest.mark.parametrize("impl", [None, "threefry2x32"])
def test_key_dtype_names_the_key_arrays_dtype(impl: str | None) -> None:
    assert str(jt.random.key_dtype(impl)) == str(jax_random.key_dtype(impl)) == "key<fry>"
    assert jt.random.key_dtype(impl) is jt.random.key(0).dtype


@pytest.mark.parametrize("impl", ["rbg", "bogus"])
def test_key_dtype_of_another_impl(impl: str) -> None:
    if impl == "rbg":  # JAX has it; jaxtyped provides threefry only
        with pytest.raises(NotImplementedError, match="rbg"):
            jt.random.key_dtype(impl)
        return
    with pytest.raises(ValueError) as theirs:
        jax_random.key_dtype(impl)
    expect_same_error(theirs.value, lambda: jt.random.key_dtype(impl))
