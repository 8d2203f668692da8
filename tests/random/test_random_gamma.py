"""The gamma family and the counting distributions of ``jaxtyped.random``
against ``jax.random``: ``gamma``, ``loggamma``, ``beta``, ``dirichlet``,
``chisquare``, ``t``, ``f``, ``poisson``, ``binomial``, ``geometric``.

Samples are compared bit for bit (0 ulp) over several keys, shapes, dtypes
and parameter values (``a < 1``, large ``a``, arrays of mixed values that
take both of Poisson's and binomial's branches, NaN/negative/infinite
parameters), eagerly, under ``jit`` and under ``vmap`` over keys; the
reparameterised gradients of ``gamma``/``loggamma``/``beta``/``dirichlet``
samples against ``jax.grad``; errors against JAX's; and the distributions
themselves (moments, Kolmogorov-Smirnov statistics against scipy.stats).
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom

from oracle import Case, CaseTable, Group, Namespace, assert_same, binary_fn, debug_violations, host, library, unary_fn

jax_random: Any = pytest.importorskip("jax.random")
stats: Any = pytest.importorskip("scipy.stats")

SEEDS = (0, 1, 42)


def rnd(L: Namespace) -> Any:
    """The random module that goes with numpy namespace ``L``."""
    return jrandom if L is jnp else jax_random


def draw(name: str, seed: int, *args: Any, legacy: bool = False, **kwargs: Any) -> Callable[[Namespace], Any]:
    """``L.random.name(key(seed), *args, **kwargs)``, NumPy arrays among the
    arguments converted with ``L.asarray``; ``legacy`` uses ``PRNGKey``."""

    def fn(L: Namespace) -> Any:
        random = rnd(L)
        key = random.PRNGKey(seed) if legacy else random.key(seed)
        converted = [L.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        return getattr(random, name)(key, *converted, **{k: L.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()})

    return fn


def exact(case_id: str, fn: Callable[[Namespace], Any]) -> Case:
    """A case compared bit for bit."""
    return Case(case_id, fn, rtol=0.0, atol=0.0)


A_VALUES = host("float32", [0.01, 0.3, 0.5, 0.999, 1.0, 1.5, 3.0, 10.0, 123.0, 1e4])
LAM_VALUES = host("float32", [0.0, 0.2, 1.0, 4.0, 9.99, 10.0, 25.0, 300.0, 1e4])


def _gamma_family_cases() -> list[Case]:
    # Cases of one function, shape and dtype share one compilation: the
    # seeds vary freely, the shapes sparingly.
    cases: list[Case] = []
    for seed in SEEDS:
        cases += [
            exact(f"gamma-s{seed}-array", draw("gamma", seed, A_VALUES)),
            exact(f"gamma-s{seed}-broadcast", draw("gamma", seed, host("float32", [[0.5], [4.0]]), (2, 3))),
            exact(f"loggamma-s{seed}-array", draw("loggamma", seed, A_VALUES)),
            exact(f"beta-s{seed}", draw("beta", seed, host("float32", [0.1, 1.0, 5.0]), 2.0)),
            exact(f"dirichlet-s{seed}", draw("dirichlet", seed, host("float32", [[0.5, 2.0, 0.05]]), (2, 1))),
            exact(f"chisquare-s{seed}", draw("chisquare", seed, host("float32", [0.5, 1.0, 3.0, 30.0]))),
            exact(f"t-s{seed}", draw("t", seed, host("float32", [0.5, 1.0, 3.0, 30.0]))),
            exact(f"f-s{seed}", draw("f", seed, host("float32", [1.0, 3.0, 30.0]), 5.0)),
        ]
    cases += [
        exact("gamma-legacy-key", draw("gamma", 7, A_VALUES, legacy=True)),
        exact("gamma-scalar", draw("gamma", 3, 2.5)),
        exact("gamma-empty", draw("gamma", 3, 1.0, (0, 2))),
        exact("gamma-special-a", draw("gamma", 3, host("float32", [0.0, -1.0, np.nan, np.inf]))),
        exact("loggamma-special-a", draw("loggamma", 3, host("float32", [0.0, -1.0, np.nan, np.inf]))),
        exact("beta-legacy-key", draw("beta", 5, host("float32", [0.1, 1.0, 5.0]), 2.0, legacy=True)),
        exact("chisquare-int-df", draw("chisquare", 5, 3, (4,))),
        exact("gamma-float16", draw("gamma", 11, host("float16", [0.3, 1.0, 4.0, 60.0]), dtype="float16")),
        exact("gamma-bfloat16-f32-a", draw("gamma", 11, host("float32", [0.3, 1.0, 4.0, 60.0]), dtype="bfloat16")),
        exact("loggamma-bfloat16", draw("loggamma", 11, host("bfloat16", [0.05, 1.0, 4.0]), dtype="bfloat16")),
        exact("dirichlet-float16", draw("dirichlet", 11, host("float16", [0.5, 2.0, 3.0]), dtype="float16")),
        exact("t-float16", draw("t", 11, 3.0, (3,), dtype="float16")),
    ]
    return cases


def _count_cases() -> list[Case]:
    cases: list[Case] = []
    counts = host("float32", [[0.0], [1.0], [5.0], [20.0], [100.0], [1000.0]])
    probs = host("float32", [0.0, 0.01, 0.3, 0.5, 0.7, 0.99, 1.0])
    for seed in SEEDS:
        cases += [
            exact(f"poisson-s{seed}-array", draw("poisson", seed, LAM_VALUES)),
            exact(f"poisson-s{seed}-shape", draw("poisson", seed, 77.5, (2, 5))),
            exact(f"binomial-s{seed}-grid", draw("binomial", seed, counts, probs)),
            exact(f"geometric-s{seed}", draw("geometric", seed, host("float32", [0.01, 0.2, 0.5, 0.9, 1.0]))),
            exact(f"geometric-s{seed}-shape", draw("geometric", seed, 0.3, (2, 6))),
        ]
    cases += [
        exact("poisson-legacy-key", draw("poisson", 9, LAM_VALUES, legacy=True)),
        exact("poisson-special-lam", draw("poisson", 9, host("float32", [np.nan, 1.0, -1.0, 12.0]))),
        exact("poisson-int-lam-uint8", draw("poisson", 9, 40, (2, 5), dtype="uint8")),
        exact("binomial-special", draw("binomial", 9, host("float32", [np.nan, -1.0, np.inf, 5.5, 10.0, 10.0, 30.0]),
                                       host("float32", [0.5, 0.5, 0.5, 0.5, np.nan, -0.1, 0.4]))),  # fmt: skip
        exact("binomial-float16", draw("binomial", 9, 30.0, 0.4, (4,), dtype="float16")),
        exact("binomial-legacy-key", draw("binomial", 9, 30.0, 0.4, (4,), legacy=True)),
        exact("geometric-int8", draw("geometric", 9, 0.5, (4,), dtype="int8")),
        exact("geometric-float16-p", draw("geometric", 9, host("float16", [0.1, 0.6]))),
    ]
    return cases


def _error_cases() -> list[Case]:
    bad_key = host("float32", [1.0, 2.0])
    cases = [
        Case("gamma-int-dtype", draw("gamma", 0, 1.0, (2,), dtype="int32")),
        Case("gamma-shape-mismatch", draw("gamma", 0, host("float32", [1.0, 2.0]), (3,))),
        Case("loggamma-int-dtype", draw("loggamma", 0, 1.0, dtype="int32")),
        Case("beta-shape-mismatch", draw("beta", 0, host("float32", [1.0, 2.0]), 1.0, (3,))),
        Case("beta-unsafe-cast", draw("beta", 0, host("float32", [1.0]), 1.0, dtype="float16")),
        Case("dirichlet-scalar-alpha", draw("dirichlet", 0, 1.0)),
        Case("dirichlet-int-dtype", draw("dirichlet", 0, host("float32", [1.0, 2.0]), dtype="int32")),
        Case("dirichlet-shape-mismatch", draw("dirichlet", 0, host("float32", [[1.0, 2.0]] * 2), (3,))),
        Case("chisquare-unsafe-cast", draw("chisquare", 0, host("float32", [1.0]), dtype="bfloat16")),
        Case("t-shape-mismatch", draw("t", 0, host("float32", [1.0, 2.0]), (4,))),
        Case("f-int-dtype", draw("f", 0, 1.0, 2.0, dtype="int32")),
        Case("poisson-shape-mismatch", draw("poisson", 0, host("float32", [1.0, 2.0]), (3,))),
        Case("binomial-shape-mismatch", draw("binomial", 0, host("float32", [1.0, 2.0]), 0.5, (3,))),
        Case("binomial-int-dtype", draw("binomial", 0, 5.0, 0.5, dtype="int32")),
        Case("binomial-list-n", draw("binomial", 0, [5.0], 0.5)),
        Case("poisson-float-dtype", draw("poisson", 0, 5.0, (3,), dtype="float32")),
        Case("geometric-float-dtype", draw("geometric", 0, 0.5, dtype="float32")),
        Case("geometric-shape-mismatch", draw("geometric", 0, host("float32", [0.5, 0.2]), (3,))),
    ]
    for name, args in (("gamma", (1.0,)), ("poisson", (1.0,)), ("binomial", (5.0, 0.5)), ("geometric", (0.5,))):

        def with_bad_key(L: Namespace, name: str = name, args: tuple[float, ...] = args) -> Any:
            return getattr(rnd(L), name)(L.asarray(bad_key), *args)

        def with_key_batch(L: Namespace, name: str = name, args: tuple[float, ...] = args) -> Any:
            return getattr(rnd(L), name)(rnd(L).split(rnd(L).key(0), 2), *args)

        cases += [Case(f"{name}-float-key", with_bad_key), Case(f"{name}-batched-key", with_key_batch)]
    return cases


GAMMA_FAMILY = CaseTable("random-gamma", _gamma_family_cases, eager=True)
COUNTS = CaseTable("random-counts", _count_cases, eager=True)
ERRORS = CaseTable("random-gamma-errors", _error_cases, eager=True)


def _x64_cases() -> list[Case]:
    return [
        exact("gamma-f64", draw("gamma", 4, host("float64", [0.2, 1.0, 3.0, 200.0]))),
        exact("beta-f64", draw("beta", 4, 0.4, 3.0, (5,))),
        exact("dirichlet-f64", draw("dirichlet", 4, host("float64", [0.3, 1.0, 4.0]))),
        exact("f-f64", draw("f", 4, 3.0, 6.0, (4,))),
        exact("poisson-int64", draw("poisson", 4, host("float64", [0.5, 5.0, 50.0, 5000.0]))),
        exact("binomial-f64", draw("binomial", 4, host("float64", [3.0, 50.0, 2000.0]), 0.3)),
        exact("geometric-int64", draw("geometric", 4, host("float64", [0.05, 0.5]))),
        exact("gamma-f32-under-x64", draw("gamma", 4, host("float32", [0.2, 3.0]), dtype="float32")),
    ]


X64 = CaseTable("random-gamma-x64", _x64_cases, x64=True, eager=True)


@pytest.mark.parametrize("group", GAMMA_FAMILY.params())
def test_gamma_family_bit_exact(group: Group) -> None:
    GAMMA_FAMILY.check(group)


@pytest.mark.parametrize("group", COUNTS.params())
def test_counts_bit_exact(group: Group) -> None:
    COUNTS.check(group)


@pytest.mark.parametrize("group", X64.params())
def test_x64_bit_exact(group: Group) -> None:
    X64.check(group)


@pytest.mark.parametrize("group", ERRORS.params())
def test_errors_as_jax(group: Group) -> None:
    ERRORS.check(group)


def test_error_messages_name_function_and_argument() -> None:
    with pytest.raises(ValueError, match="dtype argument to `gamma` must be a float dtype"):
        jrandom.gamma(jrandom.key(0), 1.0, dtype=jnp.int32)
    with pytest.raises(ValueError, match="dirichlet requires alpha.ndim >= 1"):
        jrandom.dirichlet(jrandom.key(0), 1.0)
    with pytest.raises(ValueError, match="beta parameter shapes must be broadcast-compatible"):
        jrandom.beta(jrandom.key(0), jnp.ones((2, 1)), 1.0, (3,))
    with pytest.raises(ValueError, match="t: incompatible shapes for broadcasting"):
        jrandom.t(jrandom.key(0), jnp.ones(2), (3,))
    with pytest.raises(ValueError, match="geometric` must be an int dtype"):
        jrandom.geometric(jrandom.key(0), 0.5, dtype=jnp.float32)
    with pytest.raises((TypeError, *debug_violations()), match="binomial"):
        jrandom.binomial(jrandom.key(0), [5.0], 0.5)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse tested


# Each sampler as a function of a key and its parameters (arrays, traced
# by the library's own jit and vmap, which map over the keys only).
# Parameters closed over as constants are left out on purpose: XLA folds
# constant subexpressions (log of a constant, say) with host arithmetic, so
# JAX's own jit differs from its eager results in the last bit there.
SAMPLERS: dict[str, tuple[Callable[[Any, Any, Any], Any], tuple[np.ndarray[Any, Any], ...]]] = {
    "gamma": (lambda r, k, p: r.gamma(k, p[0]), (A_VALUES,)),
    "loggamma": (lambda r, k, p: r.loggamma(k, p[0], (2, 6)), (A_VALUES[:6],)),
    "beta": (lambda r, k, p: r.beta(k, p[0], p[1]), (host("float32", 0.5), host("float32", [0.2, 2.0, 9.0]))),
    "dirichlet": (lambda r, k, p: r.dirichlet(k, p[0], (2,)), (host("float32", [0.1, 1.0, 4.0]),)),
    "poisson": (lambda r, k, p: r.poisson(k, p[0]), (LAM_VALUES,)),
    "binomial": (lambda r, k, p: r.binomial(k, p[0], p[1]), (host("float32", [2.0, 30.0, 500.0]), host("float32", 0.35))),
}


def _under(transform: str, name: str) -> Callable[[Namespace], Any]:
    sampler, params = SAMPLERS[name]

    def fn(L: Namespace) -> Any:
        random, api = rnd(L), library(L).api
        args = tuple(L.asarray(p) for p in params)
        if transform == "jit":
            return api.jit(binary_fn(lambda k, p: sampler(random, k, p)))(random.key(5), args)
        keys = random.split(random.key(5), 3)
        return api.vmap(binary_fn(lambda k, p: sampler(random, k, p)), in_axes=(0, None))(keys, args)

    return fn


def _vmap_over_parameters(L: Namespace) -> Any:
    """One key for every row of ``a``, and keys and ``a`` mapped together
    along different axes: JAX's rule broadcasts the unbatched key."""
    random, api = rnd(L), library(L).api
    a = L.asarray(host("float32", [[0.3, 2.0, 9.0], [1.0, 0.05, 40.0]]))
    same_key = api.vmap(unary_fn(lambda x: random.gamma(random.key(4), x)))(a)
    keys = random.split(random.key(4), 3)
    both = api.vmap(binary_fn(lambda k, x: random.loggamma(k, x, (3, 2))), in_axes=(0, 1))(keys, a)
    return same_key, both


def _transform_cases() -> list[Case]:
    cases = [exact(f"{name}-{how}", _under(how, name)) for name in SAMPLERS for how in ("jit", "vmap")]
    return [*cases, exact("gamma-vmap-over-a", _vmap_over_parameters)]


TRANSFORMS = CaseTable("random-gamma-transforms", _transform_cases, eager=True)


@pytest.mark.parametrize("group", TRANSFORMS.params())
def test_jit_and_vmap_over_keys_bit_exact(group: Group) -> None:
    TRANSFORMS.check(group)


def test_disable_jit_gives_the_same_samples() -> None:
    """Without jit the random_gamma primitive is evaluated on its own (a
    one-equation program): the same bits as the jitted sampler."""
    a = jnp.asarray(A_VALUES)
    jitted = np.asarray(jrandom.gamma(jrandom.key(3), a))
    with jt.disable_jit():
        eager = np.asarray(jrandom.gamma(jrandom.key(3), a))
    np.testing.assert_array_equal(eager, jitted)


# === gradients (reparameterisation) ===


def _grad_of(name: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        random, api = rnd(L), library(L).api
        key = random.key(2)
        a = L.asarray(host("float32", [0.05, 0.5, 1.0, 2.5, 40.0]))
        if name == "gamma":
            return api.grad(unary_fn(lambda x: L.sum(random.gamma(key, x))))(a)
        if name == "gamma_scaled":
            return api.grad(unary_fn(lambda x: L.sum(random.gamma(key, x, (3, 5)) * L.arange(5.0))))(a)
        if name == "loggamma":
            return api.grad(unary_fn(lambda x: L.sum(random.loggamma(key, x))))(a)
        if name == "beta":
            return api.grad(binary_fn(lambda x, y: L.sum(random.beta(key, x, y))), argnums=(0, 1))(a, a[::-1])
        if name == "dirichlet":
            return api.grad(unary_fn(lambda x: random.dirichlet(key, x)[0]))(a)
        if name == "chisquare":
            return api.grad(unary_fn(lambda x: L.sum(random.chisquare(key, x))))(a)
        if name == "t":
            return api.grad(unary_fn(lambda x: L.sum(random.t(key, x))))(a + 1.0)
        if name == "f":
            return api.grad(unary_fn(lambda x: L.sum(random.f(key, x, 4.0))))(a + 1.0)
        if name == "jvp":
            return api.jvp(unary_fn(lambda x: random.gamma(key, x)), (a,), (L.ones_like(a),))
        return api.jit(api.grad(unary_fn(lambda x: L.sum(random.gamma(key, x)))))(a)

    return fn


def _grad_cases() -> list[Case]:
    names = ("gamma", "gamma_scaled", "loggamma", "beta", "dirichlet", "chisquare", "t", "f", "jvp", "jitgrad")
    return [Case(f"{name}-grad", _grad_of(name), rtol=2e-4, atol=1e-6) for name in names]


GRADS = CaseTable("random-gamma-grads", _grad_cases, eager=True)


@pytest.mark.parametrize("group", GRADS.params())
def test_reparameterised_gradients_match_jax(group: Group) -> None:
    GRADS.check(group)


def test_gamma_gradient_is_the_implicit_derivative() -> None:
    """d sample / d a = -(dF/da) / f at the sample (a finite-difference
    check of the CDF's own identity, independent of JAX)."""
    key = jrandom.key(13)
    a = jnp.asarray([0.7, 3.0, 12.0])
    sample = np.asarray(jrandom.gamma(key, a), np.float64)

    def total(x: jt.Array) -> jt.Array:
        return jnp.sum(jrandom.gamma(key, x))

    slope = np.asarray(jt.grad(total)(a), np.float64)
    av, eps = np.asarray(a, np.float64), 1e-5
    dcdf_da = (stats.gamma.cdf(sample, av + eps) - stats.gamma.cdf(sample, av - eps)) / (2 * eps)
    np.testing.assert_allclose(slope, -dcdf_da / stats.gamma.pdf(sample, av), rtol=1e-3)


# === the distributions (fixed seeds, so deterministic) ===


N = 4000


def _ks(sample: Any, cdf: Callable[..., Any], *args: float) -> float:
    return float(stats.kstest(np.asarray(sample, np.float64).ravel(), cdf, args=args).statistic)


@pytest.mark.parametrize("a", [0.3, 1.0, 4.5])
def test_gamma_distribution(a: float) -> None:
    x = np.asarray(jrandom.gamma(jrandom.key(21), a, (N,)), np.float64)
    assert _ks(x, stats.gamma.cdf, a) < 0.03
    assert abs(x.mean() - a) < 4 * np.sqrt(a / N)
    logs = np.asarray(jrandom.loggamma(jrandom.key(22), a, (N,)), np.float64)
    assert _ks(np.exp(logs), stats.gamma.cdf, a) < 0.03


def test_tiny_a_loggamma_stays_finite() -> None:
    """Where gamma underflows to 0, loggamma keeps the magnitude."""
    logs = np.asarray(jrandom.loggamma(jrandom.key(3), 1e-3, (200,)))
    assert np.isfinite(logs).all() and logs.min() < -200


def test_beta_dirichlet_chisquare_t_f_distributions() -> None:
    key = jrandom.key(31)
    assert _ks(jrandom.beta(key, 0.5, 2.0, (N,)), stats.beta.cdf, 0.5, 2.0) < 0.03
    d = np.asarray(jrandom.dirichlet(key, jnp.asarray([0.5, 1.0, 3.0]), (N,)), np.float64)
    np.testing.assert_allclose(d.sum(-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(d.mean(0), [1 / 9, 2 / 9, 6 / 9], atol=0.02)
    assert _ks(d[:, 2], stats.beta.cdf, 3.0, 1.5) < 0.03
    assert _ks(jrandom.chisquare(key, 3.0, (N,)), stats.chi2.cdf, 3.0) < 0.03
    assert _ks(jrandom.t(key, 4.0, (N,)), stats.t.cdf, 4.0) < 0.03
    assert _ks(jrandom.f(key, 5.0, 8.0, (N,)), stats.f.cdf, 5.0, 8.0) < 0.03


@pytest.mark.parametrize("lam", [0.5, 4.0, 30.0, 1000.0])
def test_poisson_moments(lam: float) -> None:
    x = np.asarray(jrandom.poisson(jrandom.key(41), lam, (N,)), np.float64)
    assert abs(x.mean() - lam) < 4 * np.sqrt(lam / N)
    assert abs(x.var() / lam - 1) < 0.1
    # The CDF at the median rounds a discrete KS: compare probabilities of a few counts.
    for k in (int(lam), int(lam) + 1):
        assert abs((x == k).mean() - stats.poisson.pmf(k, lam)) < 4 * np.sqrt(stats.poisson.pmf(k, lam) / N) + 1e-3


@pytest.mark.parametrize(("n", "p"), [(10.0, 0.3), (200.0, 0.6), (5000.0, 0.02), (50.0, 0.97)])
def test_binomial_moments(n: float, p: float) -> None:
    x = np.asarray(jrandom.binomial(jrandom.key(51), n, p, (N,)), np.float64)
    assert ((x >= 0) & (x <= n) & (x == np.floor(x))).all()
    sd = np.sqrt(n * p * (1 - p))
    assert abs(x.mean() - n * p) < 4 * sd / np.sqrt(N)
    assert abs(x.std() / sd - 1) < 0.1


@pytest.mark.parametrize("p", [0.05, 0.5, 0.9])
def test_geometric_moments(p: float) -> None:
    x = np.asarray(jrandom.geometric(jrandom.key(61), p, (N,)), np.float64)
    assert x.min() >= 1
    assert abs(x.mean() - 1 / p) < 4 * np.sqrt((1 - p) / p**2 / N) + 1e-9
    assert abs((x == 1).mean() - p) < 4 * np.sqrt(p * (1 - p) / N) + 1e-9


def test_results_are_jaxtyped_arrays_with_jax_dtypes() -> None:
    key = jrandom.key(0)
    g = jrandom.gamma(key, 1.0, (2,))
    assert g.dtype == jnp.float32 and not g.weak_type
    assert jrandom.poisson(key, 1.0).dtype == jnp.int32
    assert jrandom.binomial(key, 3, 0.5).dtype == jnp.float32
    assert jrandom.geometric(key, 0.5).dtype == jnp.int32
    theirs = jax_random.gamma(jax_random.key(0), 1.0, (2,))
    assert_same(g, theirs, rtol=0.0, atol=0.0)
