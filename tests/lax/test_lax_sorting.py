"""``lax.sort``, ``sort_key_val``, ``top_k`` and the cumulative reductions
against ``jax.lax``: eager, under ``jit``, ``vmap``, ``jvp`` and ``grad``.

Each case is written once against ``library(L)`` (jaxtyped's or JAX's
``api``, ``lax`` and ``np``) and compared with :func:`oracle.assert_same`
(values, dtypes, weak types). JAX runs every case of a table in one jit.
Orders are JAX's: NaNs last and ``-0.0`` tied with ``0.0`` in ``sort``
(checked through the sign of ``1 / x``), IEEE total order in ``top_k``;
gradients of ``cummax``/``cummin`` at ties split as JAX's prefix scan does.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import errors

from oracle import Case, CaseTable, Group, expect_same_error, host, jax, library

NAN, INF = float("nan"), float("inf")
RNG = np.random.default_rng(13)


def case(id_: str, fn: Callable[[Any], Any], rtol: float = 1e-5, atol: float = 1e-6) -> Case:
    """A case written against ``library(L)``; NumPy inputs are closed over."""
    return Case(id_, lambda L: fn(library(L)), rtol, atol)


SPECIAL = host("float32", [1.0, NAN, -0.0, 0.0, -NAN, INF, -INF, 1.0, -2.5, 0.0])
TIES = host("float32", [3.0, 1.0, 3.0, 2.0, 1.0, 3.0])
X34 = host("float32", RNG.standard_normal((3, 4)))
I34 = host("int32", RNG.integers(-3, 4, (3, 4)))
B6 = host("bool", [True, False, True, True, False, False])
C5 = host("complex64", [1 + 2j, 1 - 1j, -1 + 0j, NAN + 0j, 1 + NAN * 1j])
F16 = host("float16", RNG.standard_normal((2, 5)))
POS34 = host("float32", RNG.uniform(0.5, 1.5, (3, 4)))
WITH_ZERO = host("float32", [1.5, -2.0, 0.0, 3.0, 0.5])
LSE = host("float32", [-INF, 0.5, -INF, 2.0, 1.0])


def _reciprocal_sign(m: Any, x: Any) -> Any:
    # 1/x < 0 exactly for negative numbers and -0.0: shows where -0.0 went.
    return m.lax.lt(m.lax.div(m.np.ones_like(x), x), m.np.zeros_like(x))


# === values (eager ours vs JAX) ===

CUMULATIVE = ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp")


def _cum(name: str, x: Any, axis: int = 0, reverse: bool = False) -> Callable[[Any], Any]:
    return lambda m: getattr(m.lax, name)(x, axis=axis, reverse=reverse)


def value_cases() -> list[Case]:
    cases = [
        case("sort-special", lambda m: m.lax.sort(SPECIAL)),
        case("sort-special_zero_order", lambda m: _reciprocal_sign(m, m.lax.sort(SPECIAL))),
        case("sort-2d_dim0", lambda m: m.lax.sort(X34, dimension=0)),
        case("sort-int", lambda m: m.lax.sort(I34)),
        case("sort-bool", lambda m: m.lax.sort(B6)),
        case("sort-complex", lambda m: m.lax.sort(C5)),
        case("sort-float16", lambda m: m.lax.sort(F16, dimension=1)),
        case("sort-unstable_values", lambda m: m.lax.sort(X34, is_stable=False)),
        case("sort-multi_num_keys1", lambda m: m.lax.sort((TIES, host("int32", [0, 1, 2, 3, 4, 5])))),
        case("sort-multi_num_keys2", lambda m: m.lax.sort(
            (host("int32", [2, 1, 2, 1, 2, 1]), TIES, host("float32", range(6))), num_keys=2)),
        case("sort-multi_2d", lambda m: m.lax.sort((I34, X34), dimension=0, num_keys=1)),
        case("sort-stable_zero_ties", lambda m: m.lax.sort(
            (host("float32", [0.0, -0.0, 0.0, -0.0]), host("int32", [0, 1, 2, 3])))),
        case("sort-nan_ties", lambda m: m.lax.sort((host("float32", [NAN, 1.0, -NAN, NAN]), host("int32", [0, 1, 2, 3])))),
        case("sort_key_val-basic", lambda m: m.lax.sort_key_val(TIES, host("float32", range(6)))),
        case("sort_key_val-dim0", lambda m: m.lax.sort_key_val(I34, X34, dimension=0)),
        case("top_k-special", lambda m: m.lax.top_k(SPECIAL, 10)),
        case("top_k-ties", lambda m: m.lax.top_k(TIES, 4)),
        case("top_k-2d", lambda m: m.lax.top_k(X34, 2)),
        case("top_k-axis0", lambda m: m.lax.top_k(X34, 2, axis=0)),
        case("top_k-int", lambda m: m.lax.top_k(I34, 3)),
        case("top_k-bool", lambda m: m.lax.top_k(B6, 3)),
        case("top_k-zero", lambda m: m.lax.top_k(X34, 0)),
        case("top_k-neg_zero_order", lambda m: _reciprocal_sign(m, m.lax.top_k(SPECIAL, 10)[0])),
        # errors
        case("sort-shape_mismatch", lambda m: m.lax.sort((X34, TIES))),
        case("sort-num_keys_too_many", lambda m: m.lax.sort((TIES, TIES), num_keys=3)),
        case("sort-num_keys_single", lambda m: m.lax.sort(TIES, num_keys=2)),
        case("sort-dimension_out_of_range", lambda m: m.lax.sort(X34, dimension=2)),
        case("top_k-k_too_large", lambda m: m.lax.top_k(TIES, 7)),
        case("top_k-negative_k", lambda m: m.lax.top_k(TIES, -1)),
        case("top_k-complex", lambda m: m.lax.top_k(C5, 1)),
        case("cumsum-bool", lambda m: m.lax.cumsum(B6)),
        case("cumsum-axis_out_of_range", lambda m: m.lax.cumsum(X34, axis=2)),
        case("cumsum-negative_axis", lambda m: m.lax.cumsum(X34, axis=-1)),
    ]
    for name in CUMULATIVE:
        for reverse in (False, True):
            tag = f"{name}-{'rev' if reverse else 'fwd'}"
            cases.append(case(f"{tag}_axis1", _cum(name, X34 if name != "cumprod" else POS34, 1, reverse)))
            cases.append(case(f"{tag}_axis0", _cum(name, X34, 0, reverse)))
            cases.append(case(f"{tag}_special", _cum(name, host("float32", [1.0, NAN, 2.0, -INF]), 0, reverse)))
            cases.append(case(f"{tag}_float16", _cum(name, F16, 1, reverse), rtol=2e-2, atol=2e-2))
            if name != "cumlogsumexp":
                cases.append(case(f"{tag}_int", _cum(name, I34, 1, reverse)))
    cases.append(case("cumsum-empty", _cum("cumsum", host("float32", np.zeros((0, 3))))))
    return cases


VALUES = CaseTable("lax_sorting_values", value_cases)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_match_jax(group: Group) -> None:
    VALUES.check(group)


# === under jit and vmap ===


def _bound(fn: Callable[[Any, Any], Any], m: Any) -> Callable[[Any], Any]:
    """``fn`` with the library ``m`` filled in: a function of an array."""

    def apply(x: Any) -> Any:
        return fn(m, x)

    return apply


def _bound2(fn: Callable[[Any, Any, Any], Any], m: Any) -> Callable[[Any, Any], Any]:
    """``fn`` with the library ``m`` filled in: a function of two arrays."""

    def apply(x: Any, y: Any) -> Any:
        return fn(m, x, y)

    return apply


def _jit(fn: Callable[[Any, Any], Any], x: Any) -> Callable[[Any], Any]:
    return lambda m: m.api.jit(_bound(fn, m))(x)


def _vmap(fn: Callable[[Any, Any], Any], x: Any, in_axes: int) -> Callable[[Any], Any]:
    return lambda m: m.api.vmap(_bound(fn, m), in_axes=in_axes)(x)


def transform_cases() -> list[Case]:
    fns: dict[str, Callable[[Any, Any], Any]] = {
        "sort": lambda m, x: m.lax.sort(x),
        "sort_key_val": lambda m, x: m.lax.sort_key_val(x, m.lax.neg(x)),
        "sort_multi": lambda m, x: m.lax.sort((m.lax.floor(x), x), num_keys=1),
        "top_k": lambda m, x: m.lax.top_k(x, 2),
        **{name: (lambda name: lambda m, x: getattr(m.lax, name)(x, axis=x.ndim - 1))(name) for name in CUMULATIVE},
        **{f"{name}_rev": (lambda name: lambda m, x: getattr(m.lax, name)(x, axis=0, reverse=True))(name)
           for name in CUMULATIVE},
    }  # fmt: skip
    cases: list[Case] = []
    for name, fn in fns.items():
        cases.append(case(f"jit_{name}-x34", _jit(fn, X34)))
        cases.append(case(f"jit_{name}-special", _jit(fn, host("float32", [1.0, NAN, -0.0, 0.0, 2.0, -INF]))))
        cases.append(case(f"vmap_{name}-axis0", _vmap(fn, host("float32", RNG.standard_normal((2, 3, 4))), 0)))
        cases.append(case(f"vmap_{name}-axis1", _vmap(fn, host("float32", RNG.standard_normal((3, 2, 4))), 1)))
    cases.append(case("jit_top_k-axis0", _jit(lambda m, x: m.lax.top_k(x, 2, axis=0), X34)))
    cases.append(case("jit_sort-int_bool", lambda m: m.api.jit(_bound2(lambda m, a, b: m.lax.sort((a, b), num_keys=2), m))(
        host("int32", [1, 0, 1, 0]), host("bool", [True, False, False, True]))))
    cases.append(case("jit_sort-complex", _jit(lambda m, x: m.lax.sort(x), C5)))
    cases.append(case("vmap_sort-unbatched_operand", lambda m: m.api.vmap(
        _bound2(lambda m, k, v: m.lax.sort_key_val(k, v), m), in_axes=(0, None))(X34, host("float32", range(4)))))
    return cases


TRANSFORMS = CaseTable("lax_sorting_transforms", transform_cases)


@pytest.mark.parametrize("group", TRANSFORMS.params())
def test_jit_and_vmap_match_jax(group: Group) -> None:
    TRANSFORMS.check(group)


# === jvp and grad ===


def _weights(shape: tuple[int, ...]) -> Any:
    return host("float32", np.arange(1, 1 + int(np.prod(shape))).reshape(shape) / 7.0)


def _grad(fn: Callable[[Any, Any], Any], x: Any) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        def loss(y: Any) -> Any:
            out = fn(m, y)
            return m.np.sum(out * _weights(out.shape))

        return m.api.grad(loss)(x)

    return run


def _grad_under_jit(fn: Callable[[Any, Any], Any], x: Any) -> Callable[[Any], Any]:
    return lambda m: m.api.jit(_bound(lambda m, y: _grad(fn, y)(m), m))(x)


def _jvp(fn: Callable[[Any, Any], Any], x: Any) -> Callable[[Any], Any]:
    tangent = _weights(x.shape)
    return lambda m: m.api.jvp(_bound(fn, m), (x,), (tangent,))


def derivative_cases() -> list[Case]:
    fns: dict[str, tuple[Callable[[Any, Any], Any], Any]] = {
        "sort": (lambda m, x: m.lax.sort(x), X34),
        "sort_ties": (lambda m, x: m.lax.sort(x), TIES),
        "sort_dim0": (lambda m, x: m.lax.sort(x, dimension=0), X34),
        "sort_values": (lambda m, x: m.lax.sort_key_val(m.lax.floor(x), x)[1], X34),
        "sort_num_keys2": (lambda m, x: m.lax.sort((m.lax.floor(x), m.lax.neg(x), x), num_keys=2)[2], X34),
        "top_k": (lambda m, x: m.lax.top_k(x, 3)[0], X34),
        "top_k_ties": (lambda m, x: m.lax.top_k(x, 4)[0], TIES),
        "top_k_axis0": (lambda m, x: m.lax.top_k(x, 2, axis=0)[0], X34),
        "cumsum": (lambda m, x: m.lax.cumsum(x, axis=1), X34),
        "cumsum_rev": (lambda m, x: m.lax.cumsum(x, axis=0, reverse=True), X34),
        "cumprod": (lambda m, x: m.lax.cumprod(x, axis=1), POS34),
        "cumprod_zero": (lambda m, x: m.lax.cumprod(x), WITH_ZERO),
        "cumprod_rev": (lambda m, x: m.lax.cumprod(x, reverse=True), WITH_ZERO),
        "cummax_ties": (lambda m, x: m.lax.cummax(x), TIES),
        "cummax_rev_ties": (lambda m, x: m.lax.cummax(x, reverse=True), TIES),
        "cummin_ties": (lambda m, x: m.lax.cummin(x), TIES),
        "cummax_all_equal": (lambda m, x: m.lax.cummax(x), host("float32", np.ones(7))),
        "cummin_2d": (lambda m, x: m.lax.cummin(x, axis=1), X34),
        "cumlogsumexp": (lambda m, x: m.lax.cumlogsumexp(x, axis=1), X34),
        "cumlogsumexp_inf": (lambda m, x: m.lax.cumlogsumexp(x), LSE),
        "cumlogsumexp_rev": (lambda m, x: m.lax.cumlogsumexp(x, reverse=True), LSE),
    }
    cases: list[Case] = []
    for name, (fn, x) in fns.items():
        cases.append(case(f"jvp_{name}-x", _jvp(fn, x), rtol=1e-5, atol=1e-5))
        cases.append(case(f"grad_{name}-x", _grad(fn, x), rtol=1e-5, atol=1e-5))
        cases.append(case(f"grad_jit_{name}-x", _grad_under_jit(fn, x), rtol=1e-5, atol=1e-5))
    cases.append(case("grad_vmap_cummax-ties", lambda m: m.api.vmap(m.api.grad(_bound(
        lambda m, y: m.np.sum(m.lax.cummax(y) * _weights((6,))), m)))(host("float32", np.stack([TIES, TIES[::-1]])))))
    return cases


DERIVATIVES = CaseTable("lax_sorting_derivatives", derivative_cases)


@pytest.mark.parametrize("group", DERIVATIVES.params())
def test_jvp_and_grad_match_jax(group: Group) -> None:
    DERIVATIVES.check(group)


# === jaxprs and errors ===


def _sort_two(x: jt.Array) -> tuple[jt.Array, ...]:
    return jt.lax.sort((x, x), num_keys=1)


def _top_two(x: jt.Array) -> tuple[jt.Array, jt.Array]:
    return jt.lax.top_k(x, 2)


def test_sort_jaxpr_and_stablehlo() -> None:
    jaxpr = str(jt.make_jaxpr(_sort_two)(jtnp.asarray(X34)))
    assert "sort[dimension=1 is_stable=True num_keys=1]" in jaxpr
    special = jtnp.asarray(SPECIAL)
    text = jt.jit(jt.lax.sort).lower(special).as_text()
    assert "stablehlo.sort" in text and "TOTALORDER" in text
    assert "stablehlo.reduce_window" in jt.jit(jt.lax.cumsum).lower(special).as_text()
    assert "top_k" in jt.jit(_top_two).lower(special).as_text()


def test_errors_name_the_function_and_types() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"sort.*f32\[3,4\].*f32\[6\]"):
        jt.lax.sort((X34, TIES))
    with pytest.raises(errors.JaxtypedValueError, match=r"top_k.*k=7.*f32\[6\]"):
        jt.lax.top_k(TIES, 7)
    with pytest.raises(errors.JaxtypedTypeError, match=r"cumsum does not accept dtype bool"):
        jt.lax.cumsum(B6)
    # JAX only fails when lowering this (an OverflowError); ours is a type error up front.
    with pytest.raises(errors.JaxtypedTypeError, match=r"cumlogsumexp does not accept dtype int32"):
        jt.lax.cumlogsumexp(I34)
    with pytest.raises(errors.JaxtypedValueError, match=r"cummax: axis -1"):
        jt.lax.cummax(TIES, axis=-1)


def test_sort_moves_nan_of_either_sign_last_keeping_order() -> None:
    keys, order = jt.lax.sort_key_val(host("float32", [NAN, 1.0, -NAN, 0.0]), host("int32", [0, 1, 2, 3]))
    assert np.isnan(np.asarray(keys)[2:]).all()
    assert np.asarray(order).tolist() == [3, 1, 0, 2]


def test_transposed_cumsum_is_reverse_cumsum() -> None:
    x = host("float32", [1.0, 2.0, 3.0])
    _, pullback = jt.vjp(jt.lax.cumsum, jtnp.asarray(x))
    (ct,) = pullback(jtnp.asarray(host("float32", [1.0, 10.0, 100.0])))
    assert np.asarray(ct).tolist() == [111.0, 110.0, 100.0]


def test_same_error_kind_as_jax_for_zero_dim_sort() -> None:
    try:
        jax.lax.sort(np.float32(1.0))
    except Exception as error:  # noqa: BLE001 - compared with ours
        expect_same_error(error, lambda: jt.lax.sort(np.float32(1.0)))
    else:
        assert jt.lax.sort(np.float32(1.0)).shape == ()
