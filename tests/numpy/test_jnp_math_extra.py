"""The math and logic functions of the math/statistics family against
``jax.numpy``: isclose/allclose, array_equal/array_equiv, the ``is*``
predicates, signbit, can_cast, isdtype, heaviside, copysign, ldexp/frexp,
modf, gcd/lcm, fmax/fmin, fabs, float_power, spacing, nextafter, i0,
angle, nan_to_num, bitwise_count, the Array API aliases, and the
difference/integration/interpolation functions (diff, ediff1d, gradient,
trapezoid, unwrap, interp).

Cases are written once as ``fn(L)`` and compared through the oracle:
values, dtype, weak type, shape, and the kind of error where JAX raises.
Derivatives are compared with JAX's at the special points (ties, zeros,
knots), and a few functions under the libraries' own jit and vmap.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped.numpy as jnp

from oracle import Case, CaseTable, Group, call, grad_of_sum, host, jitted, library

NAN, INF = float("nan"), float("inf")
RNG = np.random.default_rng(3)

F = host("float32", [1.0, -0.0, 0.0, INF, -INF, NAN, 2.5, -2.5])
G = host("float32", [1.00001, 0.0, -0.0, INF, INF, NAN, 2.6, -2.5])
F23 = host("float32", RNG.standard_normal((2, 3)))
I = host("int32", [12, -18, 0, 7, 9, -4])
J = host("int32", [8, 6, 0, -21, 0, 10])
I8 = host("int8", [-1, 3, -128, 127, 0])
U16 = host("uint16", [0, 1, 65535, 256])
H = host("float16", [0.5, -1.0, 3.0, 0.0])
C = host("complex64", [1 + 1j, -2 + 0j, 0 - 3j, 0j])
BOOL = host("bool", [True, False, True])
KNOTS = host("float32", [0.0, 1.0, 2.0, 4.0])
VALUES = host("float32", [0.0, 10.0, 5.0, 1.0])
POINTS = host("float32", [-1.0, 0.0, 0.5, 1.0, 2.0, 3.5, 4.0, 9.0])
PHASE = host("float32", [0.0, 3.0, 6.5, 1.0, -3.0, 9.0])
SMOOTH = host("float32", [[1.0, 3.0, 6.0, 10.0], [0.0, 1.0, 1.0, 0.0]])


def logic_cases() -> list[Case]:
    return [
        Case("isclose-special", call("isclose", F, G)),
        Case("isclose-equal_nan", call("isclose", F, G, equal_nan=True)),
        Case("isclose-tolerances", call("isclose", F, G, rtol=0.1, atol=0.5)),
        Case("isclose-int", call("isclose", I, J)),
        Case("isclose-scalars", call("isclose", 1, 1.0)),
        Case("isclose-float16", call("isclose", H, 0.5)),
        Case("isclose-complex", call("isclose", C, host("complex64", [1 + 1.000001j, -2, 3j, 0]))),
        Case("isclose-bool", call("isclose", BOOL, True)),
        Case("isclose-broadcast", call("isclose", F23, F23[:1])),
        Case("isclose-list", call("isclose", [1.0], 1.0)),
        Case("allclose-true", call("allclose", F23, F23 + 1e-7)),
        Case("allclose-nan", call("allclose", F, F, equal_nan=True)),
        Case("allclose-false", call("allclose", F, G)),
        Case("array_equal-same", call("array_equal", I, I)),
        Case("array_equal-shapes", call("array_equal", I, I[:3])),
        Case("array_equal-nan", call("array_equal", F, F, equal_nan=True)),
        Case("array_equal-nan_unequal", call("array_equal", F, F)),
        Case("array_equiv-broadcast", call("array_equiv", F23[:1], host("float32", np.repeat(F23[:1], 3, 0)))),
        Case("array_equiv-incompatible", call("array_equiv", I, I[:2])),
        Case("isneginf-float", call("isneginf", F)),
        Case("isneginf-int", call("isneginf", I)),
        Case("isneginf-complex", call("isneginf", C)),
        Case("isposinf-float", call("isposinf", F)),
        Case("isposinf-scalar", call("isposinf", INF)),
        Case("isreal-complex", call("isreal", C)),
        Case("isreal-real", call("isreal", F)),
        Case("isreal-scalar", call("isreal", 1.0)),
        Case("iscomplex-complex", call("iscomplex", C)),
        Case("iscomplex-int", call("iscomplex", I)),
        Case("signbit-float", call("signbit", F[np.isfinite(F) | np.isinf(F)])),
        Case("signbit-int", call("signbit", I8)),
        Case("signbit-uint", call("signbit", U16)),
        Case("signbit-bool", call("signbit", BOOL)),
        Case("signbit-scalar", call("signbit", -0.0)),
        Case("signbit-nan_sign", call("signbit", np.negative(host("float32", [NAN, 0.0, 1.0])))),
        Case("signbit-bfloat16", call("signbit", host("bfloat16", [-0.0, 0.0, -2.0]))),
        Case("copysign-nan_sign", call("copysign", 2.0, np.negative(host("float32", [NAN, -NAN])))),
    ]


def math_cases() -> list[Case]:
    return [
        Case("heaviside-values", call("heaviside", F, 0.5)),
        Case("heaviside-int", call("heaviside", I, J)),
        Case("heaviside-scalars", call("heaviside", 1, 0)),
        Case("copysign-values", call("copysign", G, F[np.isfinite(F) | np.isinf(F)].tolist() + [1.0])),
        Case("copysign-zero", call("copysign", 1, -0.0)),
        Case("copysign-int", call("copysign", I, -1)),
        Case("copysign-complex", call("copysign", C, 1.0)),
        Case("ldexp-values", call("ldexp", host("float32", [1.5, -3.0, 0.0, 0.75]), host("int32", [3, -4, 5, 10]))),
        Case("ldexp-float16", call("ldexp", H, host("int8", [1, 2, 3, 4]))),
        Case("ldexp-scalar", call("ldexp", 1.5, 3)),
        Case("ldexp-float_exponent", call("ldexp", 1.5, 2.0)),
        Case("frexp-values", call("frexp", host("float32", [0.0, 3.0, -0.1, INF, NAN, 1e-30, 1e38, 0.5, 1.0, 2.0, -0.0, 1.17549435e-38]))),
        Case("frexp-bfloat16", call("frexp", host("bfloat16", [0.0, 3.0, -0.1, INF, 1e-30, 1e38]))),
        Case("frexp-int", call("frexp", I)),
        Case("frexp-float16", call("frexp", H)),
        Case("frexp-complex", call("frexp", C)),
        Case("modf-values", call("modf", F)),
        Case("modf-int", call("modf", 3)),
        Case("gcd-values", call("gcd", I, J)),
        Case("gcd-broadcast", call("gcd", 12, I)),
        Case("gcd-int8", call("gcd", I8, host("int8", [4, 6, 8, 2, 0]))),
        Case("gcd-float", call("gcd", 1.5, 2)),
        Case("lcm-values", call("lcm", I, J)),
        Case("lcm-scalar", call("lcm", host("int8", 4), 6)),
        Case("fmax-nan", call("fmax", F, G)),
        Case("fmax-int", call("fmax", I, 2)),
        Case("fmax-scalars", call("fmax", 1, 2)),
        Case("fmin-nan", call("fmin", F, G)),
        Case("fmin-mixed", call("fmin", I, 2.5)),
        Case("fabs-values", call("fabs", F)),
        Case("fabs-int", call("fabs", I)),
        Case("fabs-complex", call("fabs", C)),
        Case("float_power-values", call("float_power", host("float32", [2.0, 3.0, -1.0]), host("float32", [3.0, 0.5, 2.0]))),
        Case("float_power-int", call("float_power", I, -1)),
        Case("float_power-float16", call("float_power", H, 2)),
        Case("spacing-values", call("spacing", host("float32", [1.0, 0.0, -1.0, INF, 1e38, -2.5]))),
        Case("spacing-float16", call("spacing", H)),
        Case("spacing-int", call("spacing", 2)),
        Case("spacing-complex", call("spacing", C)),
        Case("nextafter-values", call("nextafter", F[:3], host("float32", [2.0, 1.0, -1.0]))),
        Case("nextafter-scalars", call("nextafter", 1.0, 2.0)),
        Case("i0-values", call("i0", host("float32", [0.0, 1.0, -2.0, 5.0]))),
        Case("i0-scalar", call("i0", 1)),
        Case("i0-complex", call("i0", C)),
        Case("angle-complex", call("angle", C)),
        Case("angle-deg", call("angle", C, deg=True)),
        Case("angle-real", call("angle", host("float32", [1.0, -1.0]))),
        Case("angle-scalar", call("angle", 1.0)),
        Case("angle-int", call("angle", 3)),
        Case("angle-imaginary_scalar", call("angle", 1j, deg=True)),
        Case("nan_to_num-default", call("nan_to_num", F)),
        Case("nan_to_num-given", call("nan_to_num", F, nan=-1.0, posinf=9.0, neginf=-9.0)),
        Case("nan_to_num-complex", call("nan_to_num", host("complex64", [complex(NAN, INF), 1 + 1j]))),
        Case("nan_to_num-int", call("nan_to_num", I)),
        Case("nan_to_num-scalar", call("nan_to_num", 3)),
        Case("nan_to_num-float16", call("nan_to_num", host("float16", [NAN, INF, -INF]))),
        Case("bitwise_count-int8", call("bitwise_count", I8)),
        Case("bitwise_count-uint16", call("bitwise_count", U16)),
        Case("bitwise_count-bool", call("bitwise_count", True)),
        Case("bitwise_count-scalar", call("bitwise_count", 7)),
        Case("bitwise_count-float", call("bitwise_count", 1.0)),
        Case("acos-values", call("acos", host("float32", [0.5, -0.2]))),
        Case("acosh-values", call("acosh", host("float32", [1.5, 3.0]))),
        Case("asin-values", call("asin", 0.5)),
        Case("asinh-values", call("asinh", F23)),
        Case("atan-values", call("atan", F23)),
        Case("atanh-values", call("atanh", host("float32", [0.5, -0.2]))),
        Case("atan2-values", call("atan2", F23, 1.0)),
        Case("bitwise_invert-values", call("bitwise_invert", I8)),
        Case("bitwise_left_shift-values", call("bitwise_left_shift", I, 2)),
        Case("bitwise_right_shift-values", call("bitwise_right_shift", I, 1)),
    ]


def calculus_cases() -> list[Case]:
    return [
        Case("diff-default", call("diff", SMOOTH)),
        Case("diff-order2_axis0", call("diff", SMOOTH, n=2, axis=0, prepend=0.0)),
        Case("diff-append_array", call("diff", SMOOTH, append=SMOOTH[:, :1])),
        Case("diff-bool", call("diff", BOOL)),
        Case("diff-int", call("diff", I, n=3)),
        Case("diff-zero", call("diff", I, n=0)),
        Case("diff-negative", call("diff", I, n=-1)),
        Case("diff-scalar", call("diff", 3.0)),
        Case("ediff1d-default", call("ediff1d", SMOOTH)),
        Case("ediff1d-ends", call("ediff1d", I, to_begin=host("int32", [9]), to_end=host("float32", [1.5, 2.0]))),
        Case("gradient-axes", call("gradient", SMOOTH)),
        Case("gradient-coordinates", call("gradient", SMOOTH, host("float32", [0.0, 1.0, 3.0, 4.0]), axis=1)),
        Case("gradient-spacing", call("gradient", SMOOTH, 2.0, axis=-1)),
        Case("gradient-int", call("gradient", I)),
        Case("gradient-too_small", call("gradient", host("float32", [1.0]))),
        Case("gradient-edge_order", call("gradient", SMOOTH, edge_order=1)),
        Case("trapezoid-default", call("trapezoid", SMOOTH)),
        Case("trapezoid-x", call("trapezoid", SMOOTH, host("float32", [0.0, 1.0, 3.0, 4.0]))),
        Case("trapezoid-dx_axis0", call("trapezoid", SMOOTH, dx=0.5, axis=0)),
        Case("trapezoid-int", call("trapezoid", I)),
        Case("unwrap-default", call("unwrap", PHASE)),
        Case("unwrap-discont", call("unwrap", PHASE, discont=4.0)),
        Case("unwrap-period", call("unwrap", host("float32", [[0.0, 5.0, 11.0, 2.0]]), period=6.0, axis=1)),
        Case("unwrap-int", call("unwrap", host("int32", [0, 9, 1, 12]), period=10)),
        Case("unwrap-complex", call("unwrap", C)),
        Case("interp-default", call("interp", POINTS, KNOTS, VALUES)),
        Case("interp-left_right", call("interp", POINTS, KNOTS, VALUES, left=-1.0, right=7.0)),
        Case("interp-extrapolate", call("interp", POINTS, KNOTS, VALUES, left="extrapolate", right="extrapolate")),
        Case("interp-period", call("interp", POINTS, KNOTS, VALUES, period=5.0)),
        Case("interp-int", call("interp", host("int32", [0, 1, 3]), host("int32", [0, 2, 4]), host("int32", [1, 5, 3]))),
        Case("interp-bad_string", call("interp", POINTS, KNOTS, VALUES, left="clamp")),
        Case("interp-shapes", call("interp", POINTS, KNOTS, VALUES[:3])),
    ]


def grad_cases() -> list[Case]:
    zeros_and_ties = host("float32", [0.0, -0.0, 1.0, 2.0, -3.0])
    return [
        Case("copysign-grad_zero", grad_of_sum(lambda L, a, b: L.copysign(a, b), zeros_and_ties, host("float32", [1, -1, -0.0, 0.0, 2]))),
        Case("fmax-grad_ties", grad_of_sum(lambda L, a, b: L.fmax(a, b), zeros_and_ties, host("float32", [0.0, 0.0, 1.0, NAN, -3.0]))),
        Case("fmin-grad_ties", grad_of_sum(lambda L, a, b: L.fmin(a, b), zeros_and_ties, host("float32", [0.0, 0.0, 1.0, NAN, -3.0]))),
        Case("heaviside-grad", grad_of_sum(lambda L, a, b: L.heaviside(a, b), zeros_and_ties, host("float32", [0.5] * 5))),
        Case("nan_to_num-grad", grad_of_sum(lambda L, a: L.nan_to_num(a), host("float32", [NAN, INF, -INF, 1.0, 0.0]))),
        Case("interp-grad_knots", grad_of_sum(lambda L, x: L.interp(x, KNOTS, VALUES), host("float32", [0.0, 1.0, 2.0, 4.0, 1.5, -1.0, 5.0]))),
        Case("interp-grad_values", grad_of_sum(lambda L, f: L.interp(POINTS, KNOTS, f), VALUES)),
        Case("i0-grad", grad_of_sum(lambda L, x: L.i0(x), host("float32", [0.0, 1.5, -1.5]))),
        Case("float_power-grad", grad_of_sum(lambda L, x: L.float_power(x, 2.0), host("float32", [0.0, 1.5, -1.5]))),
        Case("modf-grad", grad_of_sum(lambda L, x: L.modf(x)[0], host("float32", [0.0, 1.5, -1.5]))),
        Case("ldexp-grad", grad_of_sum(lambda L, x: L.ldexp(x, 3), host("float32", [0.0, 1.5, -1.5]))),
        Case("frexp-grad", grad_of_sum(lambda L, x: L.frexp(x)[0], host("float32", [3.0, 0.0, -0.0, 1.0, -0.75, 1e30, INF, NAN, 1e-30]))),
        Case("fabs-grad", grad_of_sum(lambda L, x: L.fabs(x), host("float32", [0.0, 1.5, -1.5]))),
        Case("diff-grad", grad_of_sum(lambda L, x: L.diff(x, n=2) ** 2, host("float32", [0.0, 1.5, -1.5, 4.0]))),
        Case("gradient-grad", grad_of_sum(lambda L, x: L.gradient(x) ** 2, host("float32", [0.0, 1.5, -1.5, 4.0]))),
        Case("trapezoid-grad", grad_of_sum(lambda L, y: L.trapezoid(y, KNOTS), VALUES)),
        Case("unwrap-grad", grad_of_sum(lambda L, p: L.unwrap(p), PHASE)),
        Case("isclose-jit", jitted(lambda L, a, b: L.isclose(a, b), F, G)),
        Case("interp-jit", jitted(lambda L, x, knots: L.interp(x, knots, VALUES), POINTS, KNOTS)),
        Case("gcd-jit", jitted(lambda L, a, b: L.gcd(a, b), I, J)),
        Case("frexp-jit", jitted(lambda L, x, y: L.frexp(x * y), host("float32", [0.0, 3.0, -0.1, INF, 1e38]), 1.0)),
        Case("gcd-vmap", lambda L: library(L).api.vmap(L.gcd)(L.asarray(I), L.asarray(J))),
        Case("interp-vmap", lambda L: library(L).api.vmap(L.interp, in_axes=(0, None, None))(L.asarray(POINTS), L.asarray(KNOTS), L.asarray(VALUES))),
        Case("nan_to_num-vmap", lambda L: library(L).api.vmap(L.nan_to_num)(L.asarray(F))),
    ]


LOGIC = CaseTable("logic", logic_cases)
MATH = CaseTable("math", math_cases)
CALCULUS = CaseTable("calculus", calculus_cases)
GRADS = CaseTable("grads", grad_cases)


@pytest.mark.parametrize("group", LOGIC.params())
def test_logic(group: Group) -> None:
    LOGIC.check(group)


@pytest.mark.parametrize("group", MATH.params())
def test_math(group: Group) -> None:
    MATH.check(group)


@pytest.mark.parametrize("group", CALCULUS.params())
def test_calculus(group: Group) -> None:
    CALCULUS.check(group)


@pytest.mark.parametrize("group", GRADS.params())
def test_derivatives_and_transformations(group: Group) -> None:
    GRADS.check(group)


# === static (Python-valued) predicates: compared directly ===

STATIC_INPUTS: list[Any] = [1, 1.5, 1j, True, "a", [1], [1j], None, np.float32(1), np.complex64(1), np.ones(()), np.ones(3), (1, 2)]


@pytest.mark.parametrize("name", ["iscomplexobj", "isrealobj", "isscalar", "iterable"])
def test_static_predicates_match_jax(name: str) -> None:
    from oracle import jax_numpy

    for value in STATIC_INPUTS:
        assert getattr(jnp, name)(value) == getattr(jax_numpy, name)(value), (name, value)
        try:
            ours_array: object = jnp.asarray(value)
        except Exception:  # noqa: BLE001 - only convertible inputs are compared as arrays
            continue
        assert getattr(jnp, name)(ours_array) == getattr(jax_numpy, name)(jax_numpy.asarray(value)), (name, value)


@pytest.mark.parametrize(
    ("from_", "to", "casting"),
    [("int32", "float32", "safe"), ("int8", "int16", "safe"), ("float32", "int32", "same_kind"), ("float32", "int32", "unsafe"),
     ("bool", "uint8", "safe"), ("float64", "float32", "same_kind"), ("uint8", "int8", "equiv")],
)  # fmt: skip
def test_can_cast_matches_jax(from_: str, to: str, casting: str) -> None:
    from oracle import jax_numpy

    expected = jax_numpy.can_cast(jax_numpy.dtype(from_), jax_numpy.dtype(to), casting)
    assert jnp.can_cast(jnp.dtype(from_), jnp.dtype(to), casting) == expected
    # An array stands for its dtype (NumPy deprecates that for its arrays).
    assert jnp.can_cast(jnp.zeros(2, jnp.dtype(from_)), jnp.dtype(to), casting) == expected


def test_can_cast_rejects_python_scalars_as_jax_does() -> None:
    from oracle import expect_same_error, jax_numpy

    try:
        jax_numpy.can_cast(1, jax_numpy.float32)
    except TypeError as theirs:
        expect_same_error(theirs, lambda: jnp.can_cast(1, jnp.float32))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse under test
    else:
        pytest.fail("JAX accepted a Python int")


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float16", "bfloat16", "float32", "complex64"])
@pytest.mark.parametrize(
    "kind",
    ["bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric",
     ("integral", "real floating"), "float32"],
)  # fmt: skip
def test_isdtype_matches_jax(dtype: str, kind: Any) -> None:
    from oracle import jax_numpy

    ours_kind = jnp.dtype(kind) if kind == "float32" else kind
    theirs_kind = jax_numpy.dtype(kind) if kind == "float32" else kind
    assert jnp.isdtype(jnp.dtype(dtype), ours_kind) == jax_numpy.isdtype(jax_numpy.dtype(dtype), theirs_kind)


def test_isdtype_unknown_kind_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="kind"):
        jnp.isdtype(jnp.float32, "foo")


# === eager and jitted results are equal ===

EAGER_VS_JIT: dict[str, Callable[[Any], Any]] = {
    "heaviside": lambda x: jnp.heaviside(x, 0.5),
    "copysign": lambda x: jnp.copysign(2.0, x),
    "frexp": jnp.frexp,
    "modf": jnp.modf,
    "ldexp": lambda x: jnp.ldexp(x, 3),
    "fmax": lambda x: jnp.fmax(x, 0.0),
    "spacing": jnp.spacing,
    "i0": jnp.i0,
    "nan_to_num": jnp.nan_to_num,
    "isclose": lambda x: jnp.isclose(x, 1.0),
    "signbit": jnp.signbit,
    "diff": lambda x: jnp.diff(x, n=2),
    "gradient": jnp.gradient,
    "trapezoid": jnp.trapezoid,
    "unwrap": jnp.unwrap,
    "interp": lambda x: jnp.interp(x, jnp.asarray(KNOTS), jnp.asarray(VALUES)),
    "var": jnp.var,
    "nanstd": jnp.nanstd,
    "median": jnp.median,
    "nanpercentile": lambda x: jnp.nanpercentile(x, 30.0),
    "quantile": lambda x: jnp.quantile(x, 0.25, method="nearest"),
    "histogram": lambda x: jnp.histogram(x, bins=3, range=(-3.0, 3.0)),
    "polyval": lambda x: jnp.polyval(jnp.array([1.0, -2.0, 0.5]), x),
    "polymul": lambda x: jnp.polymul(x, x),
    "union1d": lambda x: jnp.union1d(x, x, size=8),
}


@pytest.mark.parametrize("name", sorted(EAGER_VS_JIT))
def test_eager_and_jit_agree(name: str) -> None:
    from oracle import assert_same_value, as_tuple

    x = jnp.asarray(host("float32", [0.5, -1.5, 2.0, 0.0, 3.25, -0.0, 1.0, NAN if name.startswith("nan") else 2.5]))
    fn = EAGER_VS_JIT[name]
    eager, jitted_ = as_tuple(fn(x)), as_tuple(library(jnp).api.jit(fn)(x))
    for a, b in zip(eager, jitted_, strict=True):
        assert (a.shape, a.dtype, a.weak_type) == (b.shape, b.dtype, b.weak_type)
        assert_same_value(a, b, rtol=1e-6, atol=0.0, where=name)
