"""``jaxtyped.nn.initializers`` against ``jax.nn.initializers``: for the same
key, shape and dtype the weights are JAX's bit for bit (0 ulp), with JAX's
dtype, weak type and shape — eager, under ``jit`` (key as an argument),
under ``vmap`` over keys, with typed and legacy keys, under x64 — and bad
arguments raise errors of JAX's kinds.

A case is written once as ``build(I)``, ``I`` the library's
``nn.initializers`` module, and called as ``init(key, shape[, dtype])``
with a key made by that library from the same seed.
"""

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped.nn.initializers import Initializer

from oracle import assert_same, debug_violations, expect_same_error, jax

Lib = Any  # the jaxtyped or jax package: same API by contract
Build = Callable[[Any], Any]  # the library's nn.initializers -> an initializer

SEEDS = (0, 1, 42)


@dataclass(frozen=True)
class Init:
    """``build(I)(key, shape, dtype)`` (``dtype`` left out when None)."""

    id: str
    build: Build
    shape: tuple[int, ...]
    dtype: str | None = None

    def sample(self, lib: Lib) -> Callable[[Any], Any]:
        init = self.build(lib.nn.initializers)
        if self.dtype is None:
            return lambda key: init(key, self.shape)
        dtype = lib.numpy.dtype(self.dtype)
        return lambda key: init(key, self.shape, dtype)


def compare(case: Init, make_key: Callable[[Lib, int], Any], transform: Callable[[Lib, Callable[[Any], Any]], Any]) -> None:
    """Ours and JAX's, through ``transform`` (identity, jit, vmap...), for every seed: bit for bit."""
    ours, theirs = transform(jt, case.sample(jt)), transform(jax, case.sample(jax))
    for seed in SEEDS:
        expected = theirs(make_key(jax, seed))
        assert_same(ours(make_key(jt, seed)), expected, 0, 0, f"{case.id} seed {seed}")


def typed_key(lib: Lib, seed: int) -> Any:
    return lib.random.key(seed)


def legacy_key(lib: Lib, seed: int) -> Any:
    return lib.random.PRNGKey(seed)


def eager(lib: Lib, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return f


def jitted(lib: Lib, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    compiled: Callable[[Any], Any] = lib.jit(f)
    return compiled


def over_keys(lib: Lib, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda key: lib.vmap(f)(lib.random.split(key, 3))


def numpy_of(initializers: Any) -> Any:
    """The numpy namespace of the library whose initializers module this is."""
    return jt.numpy if initializers is jt.nn.initializers else jax.numpy


def builder(name: str, *args: Any, **kwargs: Any) -> Build:
    """``I.name(*args, **kwargs)`` for the library's initializers module ``I``."""
    return lambda I: getattr(I, name)(*args, **kwargs)


# Few distinct shapes: each (shape, dtype) costs a compilation in both libraries.
DENSE, CONV = (4, 6), (3, 2, 5, 4)


def _variance_cases() -> list[Init]:
    cases: list[Init] = []
    for mode in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
        for dist in ("truncated_normal", "normal", "uniform"):
            cases.append(Init(f"variance_scaling-{mode}-{dist}", builder("variance_scaling", 0.7, mode, dist), DENSE))
    for mode, dist in (("fan_in", "truncated_normal"), ("fan_out", "normal"), ("fan_avg", "uniform"), ("fan_geo_avg", "normal")):
        cases.append(
            Init(
                f"variance_scaling-{mode}-{dist}-conv-axes",
                builder("variance_scaling", 2.0, mode, dist, in_axis=(0, 1), out_axis=-1, batch_axis=2),
                CONV,
            )
        )
    for dist in ("truncated_normal", "normal", "uniform"):
        for dtype in ("bfloat16", "float16", "complex64"):
            cases.append(Init(f"variance_scaling-fan_avg-{dist}-{dtype}", builder("variance_scaling", 1.5, "fan_avg", dist), DENSE, dtype))
    cases.append(Init("variance_scaling-out-axes", builder("variance_scaling", 1.0, "fan_avg", "truncated_normal", out_axis=(0, -1)), CONV))
    cases.append(Init("variance_scaling-int-scale", builder("variance_scaling", 2, "fan_in", "normal"), DENSE))
    cases.append(Init("variance_scaling-array-scale", lambda I: I.variance_scaling(numpy_of(I).asarray(3.0), "fan_in", "normal"), DENSE))
    cases.append(Init("variance_scaling-numpy-scale", lambda I: I.variance_scaling(np.float32(0.3), "fan_out", "uniform"), DENSE))
    cases.append(Init("variance_scaling-dtype-default", lambda I: I.variance_scaling(1.0, "fan_in", "uniform", dtype="float16"), DENSE))
    return cases


NAMED = (
    "glorot_uniform", "glorot_normal", "xavier_uniform", "xavier_normal", "he_uniform", "he_normal",
    "kaiming_uniform", "kaiming_normal", "lecun_uniform", "lecun_normal",
)  # fmt: skip


def _cases() -> list[Init]:
    cases: list[Init] = []
    shapes: tuple[tuple[int, ...], ...] = ((), (3, 5))
    for shape in shapes:
        for dtype in (None, "bfloat16", "float16"):
            tag = f"{shape}-{dtype}"
            cases += [
                Init(f"uniform-{tag}", lambda I: I.uniform(), shape, dtype),
                Init(f"normal-{tag}", lambda I: I.normal(), shape, dtype),
                Init(f"truncated_normal-{tag}", lambda I: I.truncated_normal(), shape, dtype),
            ]
    cases += [
        Init("uniform-scale", lambda I: I.uniform(3.5), DENSE, "float32"),
        Init("uniform-dtype-default", lambda I: I.uniform(2.0, dtype="bfloat16"), DENSE),
        Init("normal-stddev", lambda I: I.normal(0.3), CONV),
        Init("normal-complex64", lambda I: I.normal(0.3), DENSE, "complex64"),
        Init("truncated_normal-bounds", lambda I: I.truncated_normal(2.0, lower=-1.0, upper=0.5), DENSE),
        Init("zeros", lambda I: I.zeros, (2, 3)),
        Init("zeros-int32", lambda I: I.zeros, (2, 3), "int32"),
        Init("ones", lambda I: I.ones, (3,)),
        Init("ones-bfloat16", lambda I: I.ones, (3, 1), "bfloat16"),
        Init("constant", lambda I: I.constant(-7), (2, 3)),
        Init("constant-int32", lambda I: I.constant(3), (2,), "int32"),
        Init("constant-dtype-default", lambda I: I.constant(0.1, dtype="float16"), (2, 2)),
        Init("constant-row", lambda I: I.constant(np.array([1.0, 2.0], np.float32)), (3, 2)),
    ]
    cases += _variance_cases()
    for name in NAMED:
        cases += [
            Init(f"{name}-dense", builder(name), DENSE),
            Init(f"{name}-conv", builder(name), CONV),
        ]
    for name in ("glorot_uniform", "he_normal", "lecun_normal"):
        cases += [
            Init(f"{name}-axes", builder(name, in_axis=0, out_axis=1, batch_axis=(2,)), CONV),
            Init(f"{name}-bfloat16", builder(name, dtype="bfloat16"), DENSE),
        ]
    orthogonal_shapes: tuple[tuple[tuple[int, ...], int], ...] = (((4, 4), -1), ((3, 5), -1), ((6, 2), -1), ((2, 3, 4), -1), ((2, 3, 4), 0), ((5, 3), 0))
    for shape, column_axis in orthogonal_shapes:
        cases.append(Init(f"orthogonal-{shape}-{column_axis}", builder("orthogonal", column_axis=column_axis), shape))
    cases += [
        Init("orthogonal-scale", lambda I: I.orthogonal(2.5), (4, 4)),
        Init("orthogonal-empty", lambda I: I.orthogonal(), (3, 0)),
        Init("orthogonal-empty-any-column-axis", builder("orthogonal", column_axis=5), (2, 3, 0)),
        Init("delta_orthogonal-3d", lambda I: I.delta_orthogonal(), (3, 4, 4)),
        Init("delta_orthogonal-4d", lambda I: I.delta_orthogonal(1.5), (3, 3, 3, 5)),
        Init("delta_orthogonal-5d", lambda I: I.delta_orthogonal(), (3, 2, 3, 4, 4)),
    ]
    return cases


CASES = {case.id: case for case in _cases()}
# The cases that also run under jit (one per family of code paths).
TRANSFORMED = (
    "uniform-(3, 5)-None", "normal-(3, 5)-bfloat16", "truncated_normal-(3, 5)-float16", "constant",
    "variance_scaling-fan_avg-uniform-complex64", "variance_scaling-fan_avg-truncated_normal-complex64",
    "variance_scaling-fan_geo_avg-normal-conv-axes", "glorot_normal-conv", "he_uniform-dense",
    "orthogonal-(2, 3, 4)-0", "delta_orthogonal-4d",
)  # fmt: skip
# Fewer under vmap and with legacy keys: those reuse the same code paths.
VMAPPED = (
    "constant", "normal-(3, 5)-bfloat16", "variance_scaling-fan_avg-uniform-complex64", "glorot_normal-conv",
    "delta_orthogonal-4d",
)  # fmt: skip
LEGACY = ("uniform-(3, 5)-None", "variance_scaling-fan_avg-truncated_normal-complex64", "orthogonal-(2, 3, 4)-0")


@pytest.mark.parametrize("case_id", list(CASES))
def test_bit_exact_with_jax_eager(case_id: str) -> None:
    compare(CASES[case_id], typed_key, eager)


@pytest.mark.parametrize("case_id", TRANSFORMED)
def test_bit_exact_with_jax_under_jit(case_id: str) -> None:
    compare(CASES[case_id], typed_key, jitted)


@pytest.mark.parametrize("case_id", VMAPPED)
def test_bit_exact_with_jax_under_vmap_over_keys(case_id: str) -> None:
    compare(CASES[case_id], typed_key, over_keys)


@pytest.mark.parametrize("case_id", LEGACY)
def test_bit_exact_with_jax_with_legacy_keys(case_id: str) -> None:
    compare(CASES[case_id], legacy_key, eager)


X64_CASES = (
    Init("normal-x64", lambda I: I.normal(), (3, 4)),
    Init("uniform-x64-float32", lambda I: I.uniform(), (3, 4), "float32"),
    Init("truncated_normal-x64", lambda I: I.truncated_normal(), (5,)),
    Init("glorot_uniform-x64", lambda I: I.glorot_uniform(), (4, 6)),
    Init("he_normal-x64", lambda I: I.he_normal(), (4, 6)),
    Init("variance_scaling-x64-complex128", lambda I: I.variance_scaling(1.0, "fan_in", "uniform"), DENSE, "complex128"),
    Init("variance_scaling-x64-truncated-complex128", lambda I: I.variance_scaling(1.0, "fan_out", "truncated_normal"), DENSE, "complex128"),
    Init("orthogonal-x64", lambda I: I.orthogonal(), (4, 3)),
    Init("zeros-x64", lambda I: I.zeros, (2,)),
)


@pytest.mark.parametrize("case", X64_CASES, ids=lambda c: c.id)
@pytest.mark.usefixtures("x64")
def test_bit_exact_with_jax_under_x64(case: Init) -> None:
    compare(case, typed_key, eager)


def test_every_initializer_is_an_initializer() -> None:
    I = jt.nn.initializers
    built = [
        I.zeros, I.ones, I.constant(1.0), I.uniform(), I.normal(), I.truncated_normal(),
        I.variance_scaling(1.0, "fan_in", "normal"), I.orthogonal(), I.delta_orthogonal(),
        *(getattr(I, name)() for name in NAMED),
    ]  # fmt: skip
    assert all(isinstance(init, Initializer) for init in built)
    assert I.xavier_normal is I.glorot_normal and I.kaiming_uniform is I.he_uniform


def test_namespace_matches_jax() -> None:
    theirs = {name for name in dir(jax.nn.initializers) if not name.startswith("_")}
    assert set(jt.nn.initializers.__all__) == theirs


@pytest.mark.parametrize("name", [n for n in jt.nn.initializers.__all__ if n != "Initializer"])
def test_signatures_match_jax(name: str) -> None:
    """Parameter names, kinds and defaults of each builder, and of the
    initializers they build, are JAX's."""

    def described(fn: Callable[..., object]) -> list[tuple[str, object, object]]:
        params = inspect.signature(fn).parameters.values()
        return [(p.name, p.kind, None if p.default is inspect.Parameter.empty else repr(p.default)) for p in params]

    ours, theirs = getattr(jt.nn.initializers, name), getattr(jax.nn.initializers, name)
    assert described(ours) == described(theirs)
    if name not in ("zeros", "ones"):
        args = {"variance_scaling": (1.0, "fan_in", "normal"), "constant": (1.0,)}.get(name, ())
        assert [p[:2] for p in described(ours(*args))] == [p[:2] for p in described(theirs(*args))]


# Bad arguments, each ``fn(lib)``: ours must raise the kind of error JAX raises.
ERRORS: dict[str, Callable[[Lib], object]] = {
    "fans-of-1d": lambda L: L.nn.initializers.glorot_normal()(L.random.key(0), (5,)),
    "fans-of-0d": lambda L: L.nn.initializers.he_uniform()(L.random.key(0), ()),
    "fans-zero-in": lambda L: L.nn.initializers.glorot_normal()(L.random.key(0), (0, 3)),
    "fans-zero-out": lambda L: L.nn.initializers.lecun_normal()(L.random.key(0), (3, 0)),
    "in_axis-out-of-range": lambda L: L.nn.initializers.glorot_normal(in_axis=5)(L.random.key(0), (3, 4)),
    "batch_axis-out-of-range": lambda L: L.nn.initializers.glorot_normal(batch_axis=(-4,))(L.random.key(0), (3, 4)),
    "bad-mode": lambda L: L.nn.initializers.variance_scaling(1.0, "fan", "normal")(L.random.key(0), (3, 4)),
    "bad-distribution": lambda L: L.nn.initializers.variance_scaling(1.0, "fan_in", "cauchy")(L.random.key(0), (3, 4)),
    "variance-int-dtype-normal": lambda L: L.nn.initializers.variance_scaling(1.0, "fan_in", "normal")(
        L.random.key(0), (3, 4), L.numpy.int32
    ),
    "variance-int-dtype-uniform": lambda L: L.nn.initializers.variance_scaling(1.0, "fan_in", "uniform")(
        L.random.key(0), (3, 4), L.numpy.int32
    ),
    "normal-int-dtype": lambda L: L.nn.initializers.normal()(L.random.key(0), (2,), L.numpy.int32),
    "uniform-int-dtype": lambda L: L.nn.initializers.uniform()(L.random.key(0), (2,), L.numpy.int32),
    "uniform-complex-dtype": lambda L: L.nn.initializers.uniform()(L.random.key(0), (2,), L.numpy.complex64),
    "truncated_normal-complex-dtype": lambda L: L.nn.initializers.truncated_normal()(L.random.key(0), (2,), L.numpy.complex64),
    "orthogonal-1d": lambda L: L.nn.initializers.orthogonal()(L.random.key(0), (3,)),
    "orthogonal-int-shape": lambda L: L.nn.initializers.orthogonal()(L.random.key(0), 5),
    "orthogonal-column_axis-out-of-range": lambda L: L.nn.initializers.orthogonal(column_axis=2)(L.random.key(0), (2, 3)),
    "orthogonal-bfloat16": lambda L: L.nn.initializers.orthogonal()(L.random.key(0), (3, 3), L.numpy.bfloat16),
    "delta_orthogonal-int-shape": lambda L: L.nn.initializers.delta_orthogonal()(L.random.key(0), 3),
    "delta_orthogonal-2d": lambda L: L.nn.initializers.delta_orthogonal()(L.random.key(0), (3, 3)),
    "delta_orthogonal-fan_in-above-fan_out": lambda L: L.nn.initializers.delta_orthogonal()(L.random.key(0), (3, 4, 3)),
    "constant-does-not-broadcast": lambda L: L.nn.initializers.constant(L.numpy.ones(3))(L.random.key(0), (2, 2)),
    "float-array-as-key": lambda L: L.nn.initializers.normal()(L.numpy.zeros(2), (3, 2)),
    "key-array-of-keys": lambda L: L.nn.initializers.normal()(L.random.split(L.random.key(0)), (3, 2)),
}


# Ill-typed on purpose (a mode or distribution outside its Literal): the
# debug mode's beartype rejects these when the initializer is built.
ILL_TYPED = ("bad-mode", "bad-distribution")


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_of_jax_kinds(name: str) -> None:
    try:
        ERRORS[name](jax)
    except Exception as theirs:  # noqa: BLE001 - the kind is compared with ours
        if name in ILL_TYPED and jt.DEBUG:
            with pytest.raises(debug_violations()):
                ERRORS[name](jt)
            return
        expect_same_error(theirs, lambda: ERRORS[name](jt))
    else:
        pytest.fail(f"{name}: JAX raised nothing")


def test_errors_name_the_initializer_and_the_shape() -> None:
    key = jt.random.key(0)
    with pytest.raises(jt.errors.JaxtypedZeroDivisionError, match=r"\(0, 3\)"):
        jt.nn.initializers.glorot_normal()(key, (0, 3))
    with pytest.raises(jt.errors.JaxtypedIndexError, match="in_axis=5 .* shape \\(3, 4\\)"):
        jt.nn.initializers.glorot_normal(in_axis=5)(key, (3, 4))
    if not jt.DEBUG:  # there beartype rejects the ill-typed arguments first
        with pytest.raises(jt.errors.JaxtypedValueError, match="variance_scaling: invalid mode 'fan'"):
            jt.nn.initializers.variance_scaling(1.0, "fan", "normal")(key, (3, 4))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # a bad mode on purpose
        with pytest.raises(jt.errors.JaxtypedValueError, match="out_sharding"):
            jt.nn.initializers.zeros(key, (3,), out_sharding=object())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # not None on purpose


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
@pytest.mark.parametrize("distribution", ["truncated_normal", "normal", "uniform"])
def test_variance_scaling_has_the_requested_variance(distribution: str, dtype: str) -> None:
    """Independently of JAX: mean 0 and E|w|^2 = scale / fan (fan_avg of a
    conv kernel: receptive field 3*3, 40 in, 60 out), within sampling error."""
    shape, scale = (3, 3, 40, 60), 2.0
    init = jt.nn.initializers.variance_scaling(scale, "fan_avg", distribution)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # a str from parametrize
    weights = np.asarray(init(jt.random.key(5), shape, jt.numpy.dtype(dtype)))
    expected = scale / (9 * (40 + 60) / 2)
    assert abs(np.mean(weights)) < 4 * np.sqrt(expected / weights.size)
    assert np.mean(np.abs(weights) ** 2) == pytest.approx(expected, rel=0.05)
    if distribution == "uniform" and dtype == "float32":
        assert np.max(np.abs(weights)) <= np.sqrt(3 * expected)
    if distribution == "truncated_normal":
        bound = 2 * np.sqrt(expected) / (0.87962566103423978 if dtype == "float32" else 0.95311164380491208)
        assert np.max(np.abs(weights)) <= bound * (1 + 1e-6)


GRAD_CASES: dict[str, Callable[[Any, Any], Any]] = {
    "normal": lambda I, s: I.normal(s),
    "uniform": lambda I, s: I.uniform(s),
    "truncated_normal": lambda I, s: I.truncated_normal(s),
    "constant": lambda I, s: I.constant(s),
    "variance_scaling": lambda I, s: I.variance_scaling(s, "fan_avg", "uniform"),
    "orthogonal": lambda I, s: I.orthogonal(s),
}


@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_gradient_with_respect_to_the_scale_matches_jax(name: str) -> None:
    """A traced scale (the initializer built inside ``grad``) takes the array
    path of each builder; the weights' sum is differentiated, as JAX's."""

    def value_and_grad(lib: Lib) -> Any:
        def total(scale: Any) -> Any:
            weights = GRAD_CASES[name](lib.nn.initializers, scale)(lib.random.key(2), (4, 3))
            return lib.numpy.sum(weights**2)

        return lib.value_and_grad(total)(0.7)

    ours, theirs = value_and_grad(jt), value_and_grad(jax)
    assert_same(ours[0], theirs[0], 1e-6, 0, f"{name} value")
    assert_same(ours[1], theirs[1], 1e-6, 0, f"{name} gradient")
