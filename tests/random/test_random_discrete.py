"""The discrete and multivariate distributions of ``jaxtyped.random``
against ``jax.random``: ``randint``, ``permutation``, ``choice``,
``categorical``, ``multinomial``, ``multivariate_normal``, ``ball`` and
``orthogonal``.

Every case is written once as ``fn(L)`` and draws from the library's own
key of the same seed, so both libraries see the same bits; values are
compared BIT FOR BIT (``rtol = atol = 0``), with dtype, weak type and
shape. Each case runs eagerly in both libraries (``EAGER``, several seeds,
typed and legacy keys; where JAX raises, jaxtyped must raise the same kind
of error), one per function under each library's ``jit`` of a ``vmap``
over a batch of keys (``TRANSFORMED_TABLE``), and under x64 (``X64``). Statistical checks with fixed seeds follow
(chi-square frequencies, permutations, orthogonality, sample covariance).
"""

from collections.abc import Callable
from typing import Any, Final

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom

from oracle import Case, CaseTable, Group, exact, jax, jax_numpy, library

stats: Any = pytest.importorskip("scipy.stats")

Namespace = Any  # jaxtyped.numpy or jax.numpy
Sampler = Callable[[Any, Any, Namespace], Any]  # (random module, key, numpy namespace) -> sample

RNG = np.random.default_rng(15)
F10 = RNG.random(10).astype(np.float32)
LOGITS = RNG.standard_normal((3, 5)).astype(np.float32)
X46 = np.arange(24.0, dtype=np.float32).reshape(4, 6)
_A = RNG.standard_normal((4, 4))
COV = (_A @ _A.T + np.eye(4)).astype(np.float32)
SINGULAR = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 2.0]], np.float32)
MEAN = RNG.standard_normal(4).astype(np.float32)
P4 = np.array([0.1, 0.2, 0.3, 0.4], np.float32)


def with_key(seed: int, sampler: Sampler) -> Callable[[Namespace], Any]:
    """``sampler`` given the library's typed key of ``seed``."""
    return lambda L: sampler(library(L).random, library(L).random.key(seed), L)


def jit_vmap_keys(seed: int, sampler: Sampler) -> Callable[[Namespace], Any]:
    """``sampler`` under the library's own ``jit`` of ``vmap`` over three
    keys split from ``seed``'s (the keys traced and batched)."""

    def case(L: Namespace) -> Any:
        lib = library(L)
        batched = lib.api.vmap(lambda k: sampler(lib.random, k, L))  # pyright: ignore[reportUnknownLambdaType]  # vmap is Any here
        return lib.api.jit(batched)(lib.random.split(lib.random.key(seed), 3))

    return case


def legacy_key(seed: int, sampler: Sampler) -> Callable[[Namespace], Any]:
    """``sampler`` given a legacy ``uint32[2]`` key (``PRNGKey``)."""
    return lambda L: sampler(library(L).random, library(L).random.PRNGKey(seed), L)


# One sampler per (function, variant); the case id's prefix names the
# function. Variants share shapes and dtypes where they can: each new
# signature is one more XLA compilation in both libraries.
SAMPLERS: dict[str, Sampler] = {
    "randint-default": lambda R, k, L: R.randint(k, (5,), 0, 10),
    "randint-signed": lambda R, k, L: R.randint(k, (5,), -3, 3),
    "randint-full_int32": lambda R, k, L: R.randint(k, (5,), -(2**31), 2**31 - 1),
    "randint-empty_range": lambda R, k, L: R.randint(k, (5,), 5, 3),
    "randint-uint8_full": lambda R, k, L: R.randint(k, (5,), 0, 256, "uint8"),
    "randint-int8_clipped": lambda R, k, L: R.randint(k, (5,), -200, 300, "int8"),
    "randint-uint32": lambda R, k, L: R.randint(k, (5,), 5, 2**31, "uint32"),
    "randint-float_bounds": lambda R, k, L: R.randint(k, (5,), 0.5, 10.7),
    "randint-uint32_bounds": lambda R, k, L: R.randint(k, (5,), L.array(7, "uint32"), L.array(3_000_000_000, "uint32")),
    "randint-array_bounds": lambda R, k, L: R.randint(k, (2, 3), L.array([[0], [50]]), L.array([10, 20, 100])),
    "randint-int_shape": lambda R, k, L: R.randint(k, 5, 0, 3),
    "randint-float_dtype": lambda R, k, L: R.randint(k, (3,), 0, 10, "float32"),
    "randint-bad_shape": lambda R, k, L: R.randint(k, (5,), L.zeros(3, "int32"), 10),
    "randint-uint32_overflow": lambda R, k, L: R.randint(k, (5,), 0, 2**32, "uint32"),
    "randint-list_bounds": lambda R, k, L: R.randint(k, (3,), [0], 5),
    "randint-key_array": lambda R, k, L: R.randint(R.split(k), (2,), 0, 5),
    "randint-float_key": lambda R, k, L: R.randint(L.zeros(2), (2,), 0, 5),
    "permutation-int": lambda R, k, L: R.permutation(k, 10),
    "permutation-one": lambda R, k, L: R.permutation(k, 1),
    "permutation-two_rounds": lambda R, k, L: R.permutation(k, 2000),
    "permutation-axis1": lambda R, k, L: R.permutation(k, L.asarray(X46), 1),
    "permutation-independent": lambda R, k, L: R.permutation(k, L.asarray(X46), -1, True),
    "permutation-weak": lambda R, k, L: R.permutation(k, L.broadcast_to(2.0, (10,))),
    "permutation-float_scalar": lambda R, k, L: R.permutation(k, 3.0),
    "permutation-bad_axis": lambda R, k, L: R.permutation(k, L.asarray(X46), 2),
    "permutation-bool": lambda R, k, L: R.permutation(k, True),
    "permutation-list": lambda R, k, L: R.permutation(k, [1, 2, 3]),
    "choice-int": lambda R, k, L: R.choice(k, 10, (5,)),
    "choice-array_axis1": lambda R, k, L: R.choice(k, L.asarray(X46), (5,), axis=1),
    "choice-no_replace": lambda R, k, L: R.choice(k, L.asarray(X46), (3,), replace=False),
    "choice-p": lambda R, k, L: R.choice(k, 10, (2, 3), p=L.asarray(F10)),
    "choice-p_array": lambda R, k, L: R.choice(k, L.asarray(X46), (2, 3), p=L.asarray(P4)),
    "choice-p_no_replace": lambda R, k, L: R.choice(k, 10, (4,), replace=False, p=L.asarray(F10)),
    "choice-no_draws": lambda R, k, L: R.choice(k, L.asarray(F10), (0,)),
    "choice-p_wrong_length": lambda R, k, L: R.choice(k, 5, (3,), p=L.asarray(P4)),
    "choice-too_many": lambda R, k, L: R.choice(k, 5, (6,), replace=False),
    "choice-int_shape": lambda R, k, L: R.choice(k, 5, 3),
    "choice-empty_population": lambda R, k, L: R.choice(k, 0, (3,)),
    "categorical-default": lambda R, k, L: R.categorical(k, L.asarray(LOGITS)),
    "categorical-axis0_shape": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), axis=0, shape=(3, 5)),
    "categorical-shape": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), shape=(2, 3)),
    "categorical-no_replace": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), 0, (3, 5), False),
    "categorical-high": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), mode="high"),
    "categorical-float16": lambda R, k, L: R.categorical(k, L.asarray(LOGITS.astype(np.float16))),
    "categorical-bad_axis": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), axis=2),
    "categorical-bad_shape": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), shape=(5, 4)),
    "categorical-int_logits": lambda R, k, L: R.categorical(k, L.zeros((3, 4), "int32")),
    "categorical-too_many": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), 0, (4, 5), False),
    "categorical-bad_mode": lambda R, k, L: R.categorical(k, L.asarray(LOGITS), mode="medium"),
    "multinomial-default": lambda R, k, L: R.multinomial(k, 10.0, L.asarray(P4)),
    "multinomial-batch_dtype": lambda R, k, L: R.multinomial(
        k, L.array([10.0, 50.0]), L.asarray(np.stack([P4, P4[::-1]])), shape=(2, 4), dtype="int32"
    ),
    "multivariate_normal-cholesky": lambda R, k, L: R.multivariate_normal(k, L.asarray(MEAN), L.asarray(COV), (3,)),
    "multivariate_normal-eigh": lambda R, k, L: R.multivariate_normal(k, L.asarray(MEAN), L.asarray(COV), (3,), method="eigh"),
    "multivariate_normal-svd": lambda R, k, L: R.multivariate_normal(k, L.zeros(3), L.asarray(SINGULAR), (2,), method="svd"),
    "multivariate_normal-batch": lambda R, k, L: R.multivariate_normal(k, L.asarray(np.stack([MEAN, -MEAN])), L.asarray(COV)),
    "multivariate_normal-bad_method": lambda R, k, L: R.multivariate_normal(k, L.zeros(3), L.eye(3), method="lu"),
    "multivariate_normal-int_dtype": lambda R, k, L: R.multivariate_normal(k, L.zeros(3), L.eye(3), dtype="int32"),
    "multivariate_normal-bad_cov": lambda R, k, L: R.multivariate_normal(k, L.zeros(3), L.eye(2)),
    "multivariate_normal-scalar_mean": lambda R, k, L: R.multivariate_normal(k, L.zeros(()), L.eye(1)),
    "multivariate_normal-bad_shape": lambda R, k, L: R.multivariate_normal(k, L.zeros((4, 3)), L.eye(3), (2,)),
    "ball-default": lambda R, k, L: R.ball(k, 3),
    "ball-batch": lambda R, k, L: R.ball(k, 2, 3.0, (2, 3)),
    "ball-float_d": lambda R, k, L: R.ball(k, 3.0),
    "orthogonal-square": lambda R, k, L: R.orthogonal(k, 4),
    "orthogonal-wide": lambda R, k, L: R.orthogonal(k, 3, (2,), m=5),
    "orthogonal-tall": lambda R, k, L: R.orthogonal(k, 5, m=3),
    "orthogonal-complex": lambda R, k, L: R.orthogonal(k, 3, dtype="complex64"),
    "orthogonal-int_dtype": lambda R, k, L: R.orthogonal(k, 3, dtype="int32"),
    "orthogonal-float16": lambda R, k, L: R.orthogonal(k, 3, dtype="float16"),
}

# Under jit(vmap(...)) over three keys: one case per function (one
# compilation each in jaxtyped; JAX compiles the whole table once).
TRANSFORMED: tuple[str, ...] = (
    "randint-array_bounds", "randint-int8_clipped", "permutation-axis1", "choice-p",
    "choice-no_replace", "categorical-no_replace", "multinomial-default",
    "multivariate_normal-cholesky", "ball-default", "orthogonal-wide",
)  # fmt: skip

# Given a legacy uint32[2] key (PRNGKey) instead of a typed one.
LEGACY = ("randint-default", "permutation-axis1", "choice-p", "categorical-default", "orthogonal-square")

X64_SAMPLERS: dict[str, Sampler] = {
    "randint-int64_default": lambda R, k, L: R.randint(k, (20,), -(2**40), 2**40),
    "randint-uint64": lambda R, k, L: R.randint(k, (20,), 0, 2**63, "uint64"),
    "permutation-int64": lambda R, k, L: R.permutation(k, 12),
    "choice-p64": lambda R, k, L: R.choice(k, 10, (8,), p=L.asarray(F10.astype(np.float64))),
    "categorical-float64": lambda R, k, L: R.categorical(k, L.asarray(LOGITS.astype(np.float64))),
    "multinomial-float64": lambda R, k, L: R.multinomial(k, 10.0, L.asarray(P4.astype(np.float64))),
    "multivariate_normal-float64": lambda R, k, L: R.multivariate_normal(
        k, L.asarray(MEAN.astype(np.float64)), L.asarray(COV.astype(np.float64)), (2,)
    ),
    "ball-float64": lambda R, k, L: R.ball(k, 3, 2.0, (2,), "float64"),
    "orthogonal-float64": lambda R, k, L: R.orthogonal(k, 4, dtype="float64"),
}

SEEDS = (0, 42, 2**31 + 3)
# JAX compiles these anew per call (multinomial's scan closes over a new
# function each time) or slowly (ball's gamma loops): one seed each.
ONE_SEED = ("multinomial", "ball")


def seeds_of(name: str) -> tuple[int, ...]:
    return SEEDS[:1] if name.startswith(ONE_SEED) else SEEDS


def eager_cases() -> list[Case]:
    cases = [exact(f"{name}-seed{seed}", with_key(seed, s)) for name, s in SAMPLERS.items() for seed in seeds_of(name)]
    return cases + [exact(f"{name}-legacy", legacy_key(1, SAMPLERS[name])) for name in LEGACY]


def transformed_cases() -> list[Case]:
    return [exact(f"{name}-jit_vmap", jit_vmap_keys(3, SAMPLERS[name])) for name in TRANSFORMED]


def x64_cases() -> list[Case]:
    return [exact(f"{name}-seed{seed}", with_key(seed, s)) for name, s in X64_SAMPLERS.items() for seed in seeds_of(name)[:2]]


EAGER = CaseTable("random_discrete_eager", eager_cases, eager=True)
# JAX runs these inside one jax.jit as well: a jit of a jit of a vmap.
TRANSFORMED_TABLE = CaseTable("random_discrete_jit_vmap", transformed_cases)
X64 = CaseTable("random_discrete_x64", x64_cases, x64=True, eager=True)


@pytest.mark.parametrize("group", EAGER.params())
def test_eager_bit_exact(group: Group) -> None:
    EAGER.check(group)


@pytest.mark.parametrize("group", TRANSFORMED_TABLE.params())
def test_jit_vmap_over_keys_bit_exact(group: Group) -> None:
    TRANSFORMED_TABLE.check(group)


@pytest.mark.parametrize("group", X64.params())
def test_x64_bit_exact(group: Group) -> None:
    X64.check(group)


def grad_cases() -> list[Case]:
    """Gradients of a sample's sum of squares with respect to the mean and
    the covariance, for each factorisation (``multivariate_normal`` is the
    one sampler here that is differentiable in its parameters)."""

    def grads(method: str) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            lib = library(L)

            def loss(mean: Any, cov: Any) -> Any:
                sample = lib.random.multivariate_normal(lib.random.key(5), mean, cov, (3,), method=method)
                return L.sum(sample**2)

            return lib.api.grad(loss, argnums=(0, 1))(L.asarray(MEAN), L.asarray(COV))

        return fn

    return [
        Case("multivariate_normal-grad_cholesky", grads("cholesky"), rtol=1e-4, atol=1e-5),
        Case("multivariate_normal-grad_eigh", grads("eigh"), rtol=1e-4, atol=1e-5),
        # The SVD's derivative divides by differences of squared singular
        # values: float32 rounding differs by ~1e-3 relative from JAX's order.
        Case("multivariate_normal-grad_svd", grads("svd"), rtol=2e-3, atol=1e-4),
    ]


GRADS = CaseTable("random_discrete_grads", grad_cases)


@pytest.mark.parametrize("group", GRADS.params())
def test_gradients_match_jax(group: Group) -> None:
    GRADS.check(group)


# Samplers whose draws pass through XLA's linear algebra (a matrix product,
# QR): a vmapped lane runs the batched kernel, which on some CPUs rounds the
# last bit differently from the unbatched one. JAX's lanes differ from its
# eager draws the same way (multivariate_normal, lane 1, on an AVX2 machine).
BATCHED_LINEAR_ALGEBRA: Final = frozenset({"multivariate_normal", "orthogonal"})


def test_eager_equals_jit_equals_vmap() -> None:
    """jaxtyped alone: a jitted draw and each lane of a vmapped one equal
    the eager draw of the same key, bit for bit (lanes within 2 ulp for
    the samplers of BATCHED_LINEAR_ALGEBRA), for every sampler here."""
    keys = jrandom.split(jrandom.key(11), 3)
    logits, mean, cov, p = jnp.asarray(LOGITS), jnp.asarray(MEAN), jnp.asarray(COV), jnp.asarray(P4)

    def draw(k: jrandom.KeyArray) -> tuple[jt.Array, ...]:
        return (
            jrandom.randint(k, (4,), 0, 100),
            jrandom.permutation(k, 4),
            jrandom.choice(k, 9, (4,), p=jnp.ones(9)),
            jrandom.categorical(k, logits),
            jrandom.multinomial(k, 5.0, p),
            jrandom.multivariate_normal(k, mean, cov),
            jrandom.ball(k, 2),
            jrandom.orthogonal(k, 2),
        )

    jitted = jt.jit(draw)
    batched = jt.vmap(draw)(keys)
    for i in range(3):
        eager = draw(keys[i])
        for name, a, b, c in zip(("randint", "permutation", "choice", "categorical", "multinomial",
                                  "multivariate_normal", "ball", "orthogonal"), eager, jitted(keys[i]), batched):
            np.testing.assert_array_equal(np.asarray(b), np.asarray(a), err_msg=f"{name}: jit != eager")
            if name in BATCHED_LINEAR_ALGEBRA:
                np.testing.assert_array_max_ulp(np.asarray(c[i]), np.asarray(a), maxulp=2)
            else:
                np.testing.assert_array_equal(np.asarray(c[i]), np.asarray(a), err_msg=f"{name}: vmap lane != eager")


def test_old_counter_scheme_bit_exact() -> None:
    """With ``jax_threefry_partitionable=False`` (JAX's old counters) in
    both libraries the samplers still agree bit for bit."""
    ours, theirs = jt.config.jax_threefry_partitionable, bool(jax.config.jax_threefry_partitionable)
    jt.config.update("jax_threefry_partitionable", False)
    jax.config.update("jax_threefry_partitionable", False)
    try:
        for name in ("randint-int8_clipped", "permutation-two_rounds", "categorical-shape", "orthogonal-square"):
            mine, jax_result = with_key(1, SAMPLERS[name])(jnp), with_key(1, SAMPLERS[name])(jax_numpy)
            np.testing.assert_array_equal(np.asarray(mine), np.asarray(jax_result), err_msg=name)
    finally:
        jt.config.update("jax_threefry_partitionable", ours)
        jax.config.update("jax_threefry_partitionable", theirs)


# === statistics (fixed seeds) ===


def chi_square_ok(counts: np.ndarray[Any, Any], probs: np.ndarray[Any, Any]) -> bool:
    """Observed ``counts`` fit ``probs`` at the 0.1% level."""
    expected = probs * counts.sum()
    statistic = float(((counts - expected) ** 2 / expected).sum())
    return bool(statistic < float(stats.chi2.ppf(0.999, len(probs) - 1)))


def test_randint_frequencies() -> None:
    draws = np.asarray(jrandom.randint(jrandom.key(0), (100_000,), -3, 7))
    assert draws.min() == -3 and draws.max() == 6
    assert chi_square_ok(np.bincount(draws + 3, minlength=10), np.full(10, 0.1))
    full = np.asarray(jrandom.randint(jrandom.key(1), (100_000,), 0, 256, "uint8"))
    assert chi_square_ok(np.bincount(full, minlength=256), np.full(256, 1 / 256))
    # A sample that does not fit must fail the same test (the check can fail).
    assert not chi_square_ok(np.bincount(draws[draws < 6] + 3, minlength=10), np.full(10, 0.1))


def test_categorical_and_choice_frequencies() -> None:
    logits = np.log(np.array([0.1, 0.2, 0.3, 0.4], np.float32))
    probs = np.exp(logits) / np.exp(logits).sum()
    drawn = np.asarray(jrandom.categorical(jrandom.key(2), jnp.asarray(logits), shape=(50_000,)))
    assert chi_square_ok(np.bincount(drawn, minlength=4), probs)
    picked = np.asarray(jrandom.choice(jrandom.key(3), 4, (50_000,), p=jnp.asarray(P4)))
    assert chi_square_ok(np.bincount(picked, minlength=4), P4 / P4.sum())
    # Without replacement every category appears once per draw of all of them.
    rows = np.asarray(jrandom.categorical(jrandom.key(4), jnp.zeros((6, 5)), shape=(5, 6), replace=False))
    assert (np.sort(rows, axis=0) == np.arange(5)[:, None]).all()


def test_permutation_is_a_permutation() -> None:
    for n in (1, 10, 2000):
        perm = np.asarray(jrandom.permutation(jrandom.key(n), n))
        np.testing.assert_array_equal(np.sort(perm), np.arange(n))
    x = np.arange(24.0, dtype=np.float32).reshape(4, 6)
    rows = np.asarray(jrandom.permutation(jrandom.key(5), jnp.asarray(x), axis=0))
    as_rows: list[list[float]] = rows.tolist()
    assert sorted(map(tuple, as_rows)) == sorted(map(tuple, x.tolist()))
    independent = np.asarray(jrandom.permutation(jrandom.key(5), jnp.asarray(x), axis=1, independent=True))
    np.testing.assert_array_equal(np.sort(independent, axis=1), x)
    # Each position takes each value about equally often.
    firsts = np.array([int(jrandom.permutation(k, 5)[0]) for k in jrandom.split(jrandom.key(6), 500)])
    assert chi_square_ok(np.bincount(firsts, minlength=5), np.full(5, 0.2))


def test_choice_without_replacement_is_distinct() -> None:
    picked = np.asarray(jrandom.choice(jrandom.key(7), 50, (20,), replace=False, p=jnp.ones(50)))
    assert len(set(picked.tolist())) == 20


def test_orthogonal_is_orthogonal() -> None:
    q = np.asarray(jrandom.orthogonal(jrandom.key(8), 6, (3,)))
    np.testing.assert_allclose(q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(6), (3, 6, 6)), atol=1e-5)
    wide = np.asarray(jrandom.orthogonal(jrandom.key(8), 3, m=5))
    np.testing.assert_allclose(wide @ wide.T, np.eye(3), atol=1e-5)
    u = np.asarray(jrandom.orthogonal(jrandom.key(9), 4, dtype="complex64"))
    np.testing.assert_allclose(u @ u.conj().T, np.eye(4), atol=1e-5)
    # Haar measure: the trace of a random O(n) has mean 0 and variance 1.
    traces = np.trace(np.asarray(jrandom.orthogonal(jrandom.key(10), 5, (4000,))), axis1=-2, axis2=-1)
    assert abs(traces.mean()) < 0.1 and abs(traces.var() - 1.0) < 0.1


def test_multivariate_normal_sample_covariance() -> None:
    for method in ("cholesky", "eigh", "svd"):
        x = np.asarray(jrandom.multivariate_normal(jrandom.key(11), jnp.asarray(MEAN), jnp.asarray(COV), (40_000,), method=method))
        np.testing.assert_allclose(x.mean(0), MEAN, atol=0.1)
        np.testing.assert_allclose(np.cov(x.T), COV, rtol=0.05, atol=0.1)


def test_ball_and_multinomial_statistics() -> None:
    points = np.asarray(jrandom.ball(jrandom.key(12), 2, shape=(40_000,)))
    radii = np.linalg.norm(points, axis=-1)
    assert radii.max() <= 1.0
    # Uniform in the disc: P(r < 1/2) = 1/4.
    assert abs((radii < 0.5).mean() - 0.25) < 0.01
    counts = np.asarray(jrandom.multinomial(jrandom.key(13), 20.0, jnp.asarray(P4), shape=(20_000, 4)))
    np.testing.assert_array_equal(counts.sum(-1), np.full(20_000, 20.0))
    np.testing.assert_allclose(counts.mean(0), 20 * P4, rtol=0.02)
