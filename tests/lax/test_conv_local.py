"""``lax.conv_general_dilated_local`` (the locally connected, unshared-weight
convolution) against ``jax.lax``.

Cases are written once against a pair of namespaces and run through the
shared oracle (all of JAX's results from one ``jax.jit``): values, dtypes,
weak types and shapes for 1-D and 2-D convolutions with padding names and
pairs, strides, input and kernel dilation and non-default layouts (the
kernel's spatial axes in another order than the input's among them);
``grad`` with respect to both operands, ``jvp``, ``vmap`` (over lhs, rhs or
both) and ``jit``; a float64 table under x64; and the kind of error JAX
raises on bad input. Every case that runs is also compiled with ``jt.jit``
in one program and compared with its eager value, and the float64
gradients are checked against finite differences once.
"""

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, lax
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, Namespace, Raised, assert_same_value, binary_fn, jax, jax_numpy, library

RNG = np.random.default_rng(41)


def normal(*shape: int) -> np.ndarray[Any, Any]:
    return RNG.normal(size=shape).astype(np.float32)


def ints(*shape: int) -> np.ndarray[Any, Any]:
    return RNG.integers(-3, 4, size=shape).astype(np.int32)


NHWC = ("NHWC", "HWIO", "NHWC")
# The kernel lists W before H: filter_shape and window_strides follow it.
MIXED = ("HNCW", "WIOH", "CWNH")

# (id, lhs shape, rhs shape, args after the operands, kwargs): the shapes in
# the layouts dimension_numbers names (default NCHW/OIHW/NCHW); the rhs has
# the output's spatial sizes and C * prod(filter_shape) input features.
CONFIGS: list[tuple[str, tuple[int, ...], tuple[int, ...], tuple[Any, ...], dict[str, Any]]] = [
    ("1d_valid", (2, 3, 7), (4, 9, 5), ((1,), "VALID", (3,)), {}),
    ("1d_same_strided", (2, 2, 7), (3, 4, 4), ((2,), "SAME", (2,)), {}),
    ("2d_same", (2, 3, 5, 4), (4, 18, 5, 4), ((1, 1), "SAME", (2, 3)), {}),
    ("2d_explicit_strided", (1, 2, 6, 5), (3, 12, 3, 5), ((2, 1), [(1, 0), (0, 1)], (3, 2)), {}),
    ("2d_lhs_dilation", (1, 2, 3, 4), (2, 8, 6, 3), ((1, 1), [(1, 1), (0, 0)], (2, 2)), {"lhs_dilation": (2, 1)}),
    ("2d_rhs_dilation", (2, 2, 6, 5), (3, 8, 4, 4), ((1, 1), "VALID", (2, 2)), {"rhs_dilation": (2, 1)}),
    ("2d_nhwc", (2, 5, 4, 3), (3, 4, 18, 2), ((2, 1), "SAME", (3, 2)), {"dimension_numbers": NHWC}),
    ("2d_mixed_layout", (5, 2, 2, 4), (4, 12, 3, 3), ((1, 2), "SAME", (2, 3)), {"dimension_numbers": MIXED}),
]  # fmt: skip


def local(L: Namespace, x: Any, k: Any, args: Any, kwargs: Any) -> Any:
    return library(L).lax.conv_general_dilated_local(x, k, *args, **kwargs)


def local_case(case_id: str, x: Any, k: Any, *args: Any, **kwargs: Any) -> Case:
    return Case(case_id, lambda L: local(L, x, k, args, kwargs), rtol=1e-4, atol=1e-4)


def _value_cases() -> list[Case]:
    cases = [local_case(f"values-{name}", normal(*xs), normal(*ks), *args, **kwargs) for name, xs, ks, args, kwargs in CONFIGS]
    x, k = normal(2, 3, 5, 4), normal(4, 18, 5, 4)
    cases += [
        local_case("dtypes-int32", ints(2, 3, 5, 4), ints(4, 18, 5, 4), (1, 1), "SAME", (2, 3)),
        # JAX's dot_general takes mixed operand dtypes: no error, the promoted result.
        local_case("dtypes-mixed", x.astype(np.float16), k, (1, 1), "SAME", (2, 3)),
        local_case("dtypes-mixed-int", ints(2, 3, 5, 4), k, (1, 1), "SAME", (2, 3)),
        local_case("dtypes-precision", x, k, (1, 1), "SAME", (2, 3), precision="highest"),
        Case("dtypes-weak", lambda L: library(L).lax.conv_general_dilated_local(
            L.ones((1, 1, 3, 3)) * 2.0, L.ones((1, 4, 2, 2)) * 3.0, (1, 1), "VALID", (2, 2))),
    ]  # fmt: skip
    return cases


def _transform_cases() -> list[Case]:
    cases: list[Case] = []
    for name, xs, ks, args, kwargs in CONFIGS:
        x, k = normal(*xs), normal(*ks)

        def theirs(a: Any, b: Any, args: Any = args, kwargs: Any = kwargs) -> Any:
            return local(jax_numpy, a, b, args, kwargs)

        out_shape = jax.eval_shape(theirs, x, k).shape
        weights = normal(*out_shape)

        def grad(L: Namespace, x: Any = x, k: Any = k, args: Any = args, kwargs: Any = kwargs, weights: Any = weights) -> Any:
            loss = binary_fn(lambda a, b: (local(L, a, b, args, kwargs) * weights).sum())
            return library(L).api.grad(loss, argnums=(0, 1))(x, k)

        cases.append(Case(f"grad-{name}", grad, rtol=1e-4, atol=1e-4))
    x, k, tx, tk = normal(2, 5, 4, 3), normal(3, 4, 18, 2), normal(2, 5, 4, 3), normal(3, 4, 18, 2)
    nhwc_args: Any = ((2, 1), "SAME", (3, 2))
    nhwc_kwargs: Any = {"dimension_numbers": NHWC}

    def nhwc(L: Namespace, a: Any, b: Any) -> Any:
        return local(L, a, b, nhwc_args, nhwc_kwargs)

    cases.append(Case("jvp-2d_nhwc", lambda L: library(L).api.jvp(binary_fn(lambda a, b: nhwc(L, a, b)), (x, k), (tx, tk)),
                      rtol=1e-4, atol=1e-4))  # fmt: skip
    cases.append(Case("jit-2d_nhwc", lambda L: library(L).api.jit(binary_fn(lambda a, b: nhwc(L, a, b)))(x, k),
                      rtol=1e-4, atol=1e-4))  # fmt: skip
    for name, xs, ks, args, kwargs in (CONFIGS[2], CONFIGS[7]):
        xb, kb = normal(3, *xs), normal(3, *ks)
        # Batch axes in the middle, so that moving them is exercised.
        x_mid, k_mid = np.moveaxis(xb, 0, 2).copy(), np.moveaxis(kb, 0, 1).copy()
        for which, in_axes, operands in (("both", (2, 1), (x_mid, k_mid)), ("lhs", (2, None), (x_mid, kb[0])),
                                         ("rhs", (None, 1), (xb[0], k_mid))):  # fmt: skip

            def batched(L: Namespace, in_axes: Any = in_axes, operands: Any = operands, args: Any = args, kwargs: Any = kwargs) -> Any:
                return library(L).api.vmap(binary_fn(lambda a, b: local(L, a, b, args, kwargs)), in_axes)(*operands)

            cases.append(Case(f"vmap-{name}-{which}", batched, rtol=1e-4, atol=1e-4))
    return cases


def _error_cases() -> list[Case]:
    x, k = normal(2, 3, 6, 7), normal(4, 27, 6, 7)

    def bad(*args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
        return lambda L: library(L).lax.conv_general_dilated_local(*args, **kwargs)

    return [
        Case("errors-lhs-rank", bad(x[0], k, (1, 1), "SAME", (3, 3))),
        Case("errors-rhs-rank", bad(x, k[0], (1, 1), "SAME", (3, 3))),
        Case("errors-filter-rank", bad(x, k, (1, 1), "SAME", (3,))),
        Case("errors-filter-features", bad(x, k, (1, 1), "SAME", (2, 3))),
        Case("errors-rhs-spatial", bad(x, normal(4, 27, 5, 7), (1, 1), "SAME", (3, 3))),
        Case("errors-rhs-layout", bad(x, normal(27, 4, 6, 7), (1, 1), "SAME", (3, 3))),
        Case("errors-padding-name", bad(x, k, (1, 1), "FULL", (3, 3))),
        Case("errors-padding-pairs", bad(x, k, (1, 1), [(1, 1)], (3, 3))),
        Case("errors-padding-negative", bad(x, k, (1, 1), [(-9, 0), (0, 0)], (3, 3))),
        Case("errors-strides-length", bad(x, k, (1,), "SAME", (3, 3))),
        Case("errors-string-padding-lhs-dilation", bad(x, k, (1, 1), "SAME", (3, 3), lhs_dilation=(2, 1))),
        Case("errors-dimension-letters", bad(x, k, (1, 1), "SAME", (3, 3), dimension_numbers=("NCHW", "OIHW", "NCHX"))),
        Case("errors-precision", bad(x, k, (1, 1), "SAME", (3, 3), precision="bogus")),
    ]  # fmt: skip


TABLE = CaseTable("lax-conv-local", lambda: [*_value_cases(), *_transform_cases(), *_error_cases()])


@pytest.mark.parametrize("group", TABLE.params())
def test_conv_general_dilated_local_matches_jax(group: Group) -> None:
    TABLE.check(group)


def _x64_cases() -> list[Case]:
    x, k = RNG.normal(size=(2, 5, 4, 3)), RNG.normal(size=(3, 3, 18, 2))
    args: Any = ((2, 1), [(1, 1), (0, 1)], (3, 2))
    kwargs: Any = {"dimension_numbers": NHWC, "rhs_dilation": (1, 2)}

    def grad(L: Namespace) -> Any:
        loss = binary_fn(lambda a, b: (local(L, a, b, args, kwargs) ** 2).sum())
        return library(L).api.grad(loss, argnums=(0, 1))(x, k)

    return [
        Case("x64-values", lambda L: local(L, x, k, args, kwargs), rtol=1e-12, atol=1e-12),
        Case("x64-grad", grad, rtol=1e-12, atol=1e-12),
    ]


X64_TABLE = CaseTable("lax-conv-local-x64", _x64_cases, x64=True)


@pytest.mark.parametrize("group", X64_TABLE.params())
def test_float64_matches_jax(group: Group) -> None:
    X64_TABLE.check(group)


def test_only_the_error_cases_raise_in_jax() -> None:
    """The shapes of the other cases are right: both libraries raising
    alike would pass them unnoticed."""
    for table in (TABLE, X64_TABLE):
        raised = {key for key, value in table.jax_results.items() if isinstance(value, Raised)}
        assert raised == {case.id for case in table.cases if case.id.startswith("errors-")}, raised


def test_jit_matches_eager() -> None:
    """Every case that runs compiles (in one jitted program) to its eager
    value: the lowering of every configuration, derivative and batching."""
    runnable = [case for case in TABLE.cases if not isinstance(TABLE.jax_results[case.id], Raised)]
    compiled: list[Any] = jt.jit(lambda: [case.fn(jnp) for case in runnable])()
    for case, value in zip(runnable, compiled, strict=True):
        eager: Any = case.fn(jnp)
        tolerance = 1e-2 if "mixed" in case.id else 1e-4
        ours_leaves = jt.tree_util.tree_leaves(cast(object, value))
        expected_leaves = jt.tree_util.tree_leaves(cast(object, eager))
        for ours, expected in zip(ours_leaves, expected_leaves, strict=True):
            assert_same_value(ours, expected, tolerance, tolerance, where=case.id)


def test_gradients_match_finite_differences(x64: None) -> None:
    x, k = RNG.normal(size=(1, 2, 4, 3)), RNG.normal(size=(2, 8, 2, 3))

    def f(a: jt.Array, b: jt.Array) -> jt.Array:
        return lax.conv_general_dilated_local(a, b, (2, 1), "SAME", (2, 2), rhs_dilation=(1, 2))

    check_grads(f, (x, k), order=1, modes=("fwd", "rev"))


def test_is_a_patches_convolution_and_a_dot_general() -> None:
    """No primitive of its own: the patches' convolution, then one
    dot_general and the transpose to the output layout."""
    x, k = jnp.asarray(normal(2, 5, 4, 3)), jnp.asarray(normal(3, 4, 18, 2))

    def f(a: jt.Array, b: jt.Array) -> jt.Array:
        return lax.conv_general_dilated_local(a, b, (2, 1), "SAME", (3, 2), dimension_numbers=NHWC)

    jaxpr = jt.make_jaxpr(f)(x, k)
    names = [eqn.primitive.name for eqn in jaxpr.jaxpr.eqns]
    assert names.count("conv_general_dilated") == 1 and names.count("dot_general") == 1, names


def test_errors_name_the_function_the_argument_and_the_shapes() -> None:
    x, k = normal(2, 3, 6, 7), normal(4, 27, 6, 7)
    with pytest.raises(errors.JaxtypedTypeError, match=r"conv_general_dilated_local.*rhs f32\[4,27,6,7\].*\(18, 6, 7\).*filter_shape \(2, 3\)"):
        lax.conv_general_dilated_local(x, k, (1, 1), "SAME", (2, 3))
    with pytest.raises(errors.JaxtypedTypeError, match=r"conv_general_dilated_local.*lhs f32\[3,6,7\].*filter_shape \(3, 3\)"):
        lax.conv_general_dilated_local(x[0], k, (1, 1), "SAME", (3, 3))
    with pytest.raises(errors.JaxtypedValueError, match=r"conv_general_dilated_local.*padding.*FULL"):
        lax.conv_general_dilated_local(x, k, (1, 1), "FULL", (3, 3))
