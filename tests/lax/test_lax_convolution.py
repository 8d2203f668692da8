"""``lax.conv_general_dilated`` and the convolution helpers against
``jax.lax``.

Cases are written once against a pair of namespaces (jaxtyped's ``lax`` and
transformations, or JAX's) and run through the shared oracle, so all of
JAX's results come from one ``jax.jit``: values, dtypes, weak types and
shapes for 1-D/2-D/3-D convolutions in several layouts, with padding names
and pairs, strides, input and kernel dilation, feature and batch groups,
``preferred_element_type`` and several dtypes; ``jvp``, ``grad`` (both
operands) and ``vmap`` (over lhs, rhs or both, for grouped convolutions
too); ``conv``, ``conv_with_general_padding``, ``conv_transpose``,
``conv_general_dilated_patches``, ``conv_dimension_numbers`` and
``padtype_to_pads``; and the kind of error JAX raises on bad input. Every
case that does not raise is also compiled with ``jt.jit`` (in one program)
and compared with its eager value.
"""

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax

from oracle import Case, CaseTable, Group, Namespace, Raised, assert_same_value, binary_fn, expect_same_error, host, jax, jax_numpy, library, unary_fn

RNG = np.random.default_rng(3)


def normal(*shape: int) -> np.ndarray[Any, Any]:
    return RNG.normal(size=shape).astype(np.float32)


def ints(*shape: int) -> np.ndarray[Any, Any]:
    return RNG.integers(-3, 4, size=shape).astype(np.int32)


def conv_case(case_id: str, x: Any, k: Any, *args: Any, rtol: float = 1e-4, atol: float = 1e-4, **kwargs: Any) -> Case:
    def fn(L: Namespace) -> Any:
        return library(L).lax.conv_general_dilated(x, k, *args, **kwargs)

    return Case(case_id, fn, rtol=rtol, atol=atol)


NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")

# (id, lhs shape, rhs shape, args, kwargs): lhs and rhs given in the layout
# that dimension_numbers (default NCHW/OIHW) names.
CONFIGS: list[tuple[str, tuple[int, ...], tuple[int, ...], tuple[Any, ...], dict[str, Any]]] = [
    ("1d_valid", (2, 3, 9), (4, 3, 3), ((1,), "VALID"), {}),
    ("1d_same_strided", (2, 3, 9), (4, 3, 2), ((2,), "SAME"), {}),
    ("1d_nwc", (2, 9, 3), (3, 3, 4), ((1,), [(2, 1)]), {"dimension_numbers": ("NWC", "WIO", "NWC")}),
    ("2d_nchw_same", (2, 3, 6, 7), (4, 3, 3, 3), ((1, 1), "SAME"), {}),
    ("2d_nhwc_same", (2, 6, 7, 3), (3, 3, 3, 4), ((1, 1), "SAME"), {"dimension_numbers": NHWC}),
    ("2d_same_lower", (2, 6, 7, 3), (2, 2, 3, 4), ((2, 2), "SAME_LOWER"), {"dimension_numbers": NHWC}),
    ("2d_explicit_strided", (2, 3, 8, 7), (4, 3, 3, 2), ((2, 3), [(1, 2), (0, -1)]), {}),
    ("2d_lhs_dilation", (2, 3, 5, 4), (4, 3, 3, 2), ((1, 2), [(1, 1), (2, 0)]), {"lhs_dilation": (2, 3)}),
    ("2d_rhs_dilation", (2, 3, 9, 8), (4, 3, 3, 2), ((1, 1), "SAME"), {"rhs_dilation": (2, 3)}),
    ("2d_both_dilations", (1, 2, 6, 6), (3, 2, 2, 3), ((2, 1), [(0, 1), (1, 1)]),
     {"lhs_dilation": (2, 1), "rhs_dilation": (1, 2)}),
    ("2d_feature_groups", (2, 6, 5, 5), (4, 3, 2, 2), ((1, 1), "VALID"), {"feature_group_count": 2}),
    ("2d_depthwise", (2, 5, 6, 4), (3, 3, 1, 4), ((1, 1), "SAME"), {"dimension_numbers": NHWC, "feature_group_count": 4}),
    ("2d_batch_groups", (4, 3, 5, 5), (6, 3, 2, 2), ((1, 1), "VALID"), {"batch_group_count": 2}),
    ("2d_batch_groups_nhwc", (6, 5, 5, 2), (2, 2, 2, 6), ((2, 1), [(1, 0), (0, 1)]),
     {"dimension_numbers": NHWC, "batch_group_count": 3}),
    ("2d_mixed_layout", (5, 2, 3, 6), (3, 2, 4, 3), ((1, 1), "SAME"), {"dimension_numbers": ("HNCW", "WHOI", "CWNH")}),
    ("2d_empty_output", (2, 3, 2, 2), (4, 3, 3, 3), ((1, 1), "VALID"), {}),
    ("3d_ndhwc", (1, 4, 5, 3, 2), (2, 3, 2, 2, 3), ((1, 2, 1), "SAME"), {"dimension_numbers": ("NDHWC", "DHWIO", "NDHWC")}),
    ("3d_ncdhw_dilated", (1, 2, 5, 4, 4), (3, 2, 2, 2, 2), ((1, 1, 2), "VALID"), {"rhs_dilation": (2, 1, 1)}),
]  # fmt: skip


def _value_cases() -> list[Case]:
    cases: list[Case] = []
    for name, xs, ks, args, kwargs in CONFIGS:
        x, k = normal(*xs), normal(*ks)
        cases.append(conv_case(f"values-{name}", x, k, *args, **kwargs))
        cases.append(conv_case(f"values-{name}-int32", ints(*xs), ints(*ks), *args, **kwargs))
    x, k = normal(2, 3, 6, 7), normal(4, 3, 3, 3)
    for dtype, tolerance in (("float16", 2e-2), ("bfloat16", 5e-2)):
        cases.append(conv_case(f"dtypes-{dtype}", host(dtype, x), host(dtype, k), (1, 1), "SAME", rtol=tolerance, atol=tolerance))
        cases.append(conv_case(f"dtypes-{dtype}-preferred", host(dtype, x), host(dtype, k), (1, 1), "SAME",
                               preferred_element_type=np.float32, rtol=tolerance, atol=tolerance))  # fmt: skip
    cases += [
        conv_case("dtypes-int8-preferred", ints(2, 3, 6, 7).astype(np.int8), ints(4, 3, 3, 3).astype(np.int8),
                  (1, 1), "VALID", preferred_element_type=np.int32),
        conv_case("dtypes-int32-to-float", ints(2, 3, 6, 7), ints(4, 3, 3, 3), (1, 1), "VALID",
                  preferred_element_type=np.float32),
        conv_case("dtypes-bool", ints(1, 2, 4, 4) > 0, ints(2, 2, 2, 2) > 0, (1, 1), "VALID"),
        conv_case("dtypes-complex", (normal(1, 2, 4, 4) + 1j * normal(1, 2, 4, 4)).astype(np.complex64),
                  (normal(2, 2, 2, 2) - 1j * normal(2, 2, 2, 2)).astype(np.complex64), (1, 1), "SAME"),
        Case("dtypes-weak", lambda L: library(L).lax.conv(L.ones((1, 1, 3, 3)) * 2.0, L.ones((1, 1, 2, 2)), (1, 1), "VALID")),
    ]  # fmt: skip
    return cases


def _derivative_cases() -> list[Case]:
    cases: list[Case] = []
    for name, xs, ks, args, kwargs in CONFIGS:
        if "empty" in name:
            continue
        x, k, tx, tk = normal(*xs), normal(*ks), normal(*xs), normal(*ks)

        def conv(L: Namespace, a: Any, b: Any, args: Any = args, kwargs: Any = kwargs) -> Any:
            return library(L).lax.conv_general_dilated(a, b, *args, **kwargs)

        out_shape = jax.eval_shape(binary_fn(lambda a, b: conv(jax_numpy, a, b)), x, k).shape
        weights = normal(*out_shape)

        def grad(L: Namespace, conv: Any = conv, x: Any = x, k: Any = k, weights: Any = weights) -> Any:
            return library(L).api.grad(binary_fn(lambda a, b: (conv(L, a, b) * weights).sum()), argnums=(0, 1))(x, k)

        def jvp(L: Namespace, conv: Any = conv, x: Any = x, k: Any = k, tx: Any = tx, tk: Any = tk) -> Any:
            return library(L).api.jvp(binary_fn(lambda a, b: conv(L, a, b)), (x, k), (tx, tk))

        def jvp_lhs(L: Namespace, conv: Any = conv, x: Any = x, k: Any = k, tx: Any = tx) -> Any:
            return library(L).api.jvp(unary_fn(lambda a: conv(L, a, k)), (x,), (tx,))[1]

        cases += [Case(f"grad-{name}", grad, rtol=1e-4, atol=1e-4), Case(f"jvp-{name}", jvp, rtol=1e-4, atol=1e-4),
                  Case(f"jvp-{name}-lhs-only", jvp_lhs, rtol=1e-4, atol=1e-4)]  # fmt: skip
    x, k, t = normal(2, 3, 6, 7), normal(4, 3, 3, 3), normal(2, 3, 6, 7)

    def grad_bf16(L: Namespace) -> Any:
        def loss(a: Any, b: Any) -> Any:
            out = library(L).lax.conv(a, b, (1, 1), "SAME", preferred_element_type=np.float32)
            return out.sum()

        return library(L).api.grad(loss, argnums=(0, 1))(host("bfloat16", x), host("bfloat16", k))

    def second_order(L: Namespace) -> Any:
        lax_, api = library(L).lax, library(L).api

        def inner(a: Any) -> Any:
            return (lax_.conv(a, k, (1, 1), "SAME") ** 2).sum()

        return api.jvp(api.grad(inner), (x,), (t,))[1]

    cases += [Case("grad-bfloat16-preferred", grad_bf16, rtol=5e-2, atol=5e-2),
              Case("grad-second-order", second_order, rtol=1e-3, atol=1e-3)]  # fmt: skip
    return cases


def _vmap_cases() -> list[Case]:
    cases: list[Case] = []
    for name, xs, ks, args, kwargs in CONFIGS:
        if name.startswith("3d") or "empty" in name:
            continue

        def conv(L: Namespace, a: Any, b: Any, args: Any = args, kwargs: Any = kwargs) -> Any:
            return library(L).lax.conv_general_dilated(a, b, *args, **kwargs)

        xb, kb = normal(3, *xs), normal(3, *ks)
        x, k = xb[0], kb[0]
        # Batch axes in the middle, so that moving them is exercised.
        x_mid, k_mid = np.moveaxis(xb, 0, 2).copy(), np.moveaxis(kb, 0, 1).copy()
        for which, in_axes, operands in (("both", (2, 1), (x_mid, k_mid)), ("lhs", (2, None), (x_mid, k)),
                                         ("rhs", (None, 1), (x, k_mid)), ("both_front", (0, 0), (xb, kb))):  # fmt: skip

            def batched(L: Namespace, conv: Any = conv, in_axes: Any = in_axes, operands: Any = operands) -> Any:
                return library(L).api.vmap(binary_fn(lambda a, b: conv(L, a, b)), in_axes)(*operands)

            cases.append(Case(f"vmap-{name}-{which}", batched, rtol=1e-4, atol=1e-4))
    return cases


def _helper_cases() -> list[Case]:
    x, k = normal(2, 3, 6, 7), normal(4, 3, 3, 2)
    xt, xt4, kt = normal(2, 5, 6, 3), normal(2, 5, 6, 4), normal(3, 2, 3, 4)
    x1, k1 = normal(2, 7, 3), normal(3, 3, 2)
    cases = [
        Case("conv-same", lambda L: library(L).lax.conv(x, k, (1, 2), "SAME"), rtol=1e-4, atol=1e-4),
        Case("conv-valid", lambda L: library(L).lax.conv(x, k, (2, 1), "VALID"), rtol=1e-4, atol=1e-4),
        Case("conv_with_general_padding-dilated",
             lambda L: library(L).lax.conv_with_general_padding(x, k, (1, 2), [(1, 1), (0, 2)], (2, 1), (1, 2)), rtol=1e-4, atol=1e-4),
        Case("conv_with_general_padding-defaults",
             lambda L: library(L).lax.conv_with_general_padding(x, k, (1, 1), "SAME", None, None), rtol=1e-4, atol=1e-4),
        Case("conv_general_dilated_patches-nchw",
             lambda L: library(L).lax.conv_general_dilated_patches(x, (2, 3), (1, 2), "SAME"), rtol=1e-5, atol=1e-5),
        Case("conv_general_dilated_patches-nhwc",
             lambda L: library(L).lax.conv_general_dilated_patches(xt, (3, 2), (2, 1), "VALID", rhs_dilation=(1, 2),
                                                              dimension_numbers=NHWC), rtol=1e-5, atol=1e-5),
    ]  # fmt: skip
    for padding in ("SAME", "VALID", [(1, 2), (0, 1)]):
        for strides in ((1, 1), (2, 3)):
            for flip in (False, True):
                tag = f"{padding if isinstance(padding, str) else 'pairs'}-{strides[0]}{strides[1]}-{'flip' if flip else 'keep'}"
                # transpose_kernel swaps the kernel's I and O: the input has O features.
                lhs = xt4 if flip else xt

                def transposed(L: Namespace, padding: Any = padding, strides: Any = strides, flip: Any = flip, lhs: Any = lhs) -> Any:
                    return library(L).lax.conv_transpose(lhs, kt, strides, padding, transpose_kernel=flip)

                cases.append(Case(f"conv_transpose-{tag}", transposed, rtol=1e-4, atol=1e-4))
    cases += [
        Case("conv_transpose-dilated", lambda L: library(L).lax.conv_transpose(xt, kt, (2, 1), "SAME", rhs_dilation=(2, 1)),
             rtol=1e-4, atol=1e-4),
        Case("conv_transpose-consistent", lambda L: library(L).lax.conv_transpose(xt, kt, (2, 2), [(1, 0), (0, 1)],
                                                                             use_consistent_padding=True), rtol=1e-4, atol=1e-4),
        Case("conv_transpose-1d", lambda L: library(L).lax.conv_transpose(x1, k1, (2,), "VALID"), rtol=1e-4, atol=1e-4),
        Case("conv_transpose-nchw", lambda L: library(L).lax.conv_transpose(x, k.transpose(1, 0, 2, 3), (2, 2), "SAME",
                                                                       dimension_numbers=NCHW), rtol=1e-4, atol=1e-4),
        Case("conv_transpose-grad", lambda L: library(L).api.grad(
            binary_fn(lambda a, b: (library(L).lax.conv_transpose(a, b, (2, 2), "SAME") ** 2).sum()), argnums=(0, 1))(xt, kt),
             rtol=1e-4, atol=1e-4),
    ]  # fmt: skip
    return cases


def _error_cases() -> list[Case]:
    x, k = normal(2, 3, 6, 7), normal(4, 3, 3, 3)
    f16 = host("float16", k)

    def conv(*args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            return library(L).lax.conv_general_dilated(*args, **kwargs)

        return fn

    return [
        Case("errors-feature-mismatch", conv(x, normal(4, 2, 3, 3), (1, 1), "SAME")),
        Case("errors-feature-groups-not-dividing", conv(x, k, (1, 1), "SAME", feature_group_count=2)),
        Case("errors-out-features-not-multiple", conv(normal(2, 4, 6, 7), normal(3, 2, 3, 3), (1, 1), "SAME", feature_group_count=2)),
        Case("errors-batch-groups-not-dividing", conv(normal(3, 3, 6, 7), normal(4, 3, 3, 3), (1, 1), "SAME", batch_group_count=2)),
        Case("errors-both-groups", conv(normal(4, 6, 6, 7), normal(4, 3, 3, 3), (1, 1), "SAME", feature_group_count=2, batch_group_count=2)),
        Case("errors-dtype-mismatch", conv(x, f16, (1, 1), "SAME")),
        Case("errors-rank-mismatch", conv(x, normal(4, 3, 3), (1, 1), "SAME")),
        Case("errors-strides-length", conv(x, k, (1,), [(0, 0), (0, 0)])),
        Case("errors-padding-name", conv(x, k, (1, 1), "FULL")),
        Case("errors-dimension-letters", conv(x, k, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHX"))),
        Case("errors-dimension-duplicates", conv(x, k, (1, 1), "SAME", dimension_numbers=("NCHH", "OIHW", "NCHW"))),
        Case("errors-dimension-missing-batch", conv(x, k, (1, 1), "SAME", dimension_numbers=("XCHW", "OIHW", "NCHW"))),
        Case("errors-preferred-narrower", conv(x, k, (1, 1), "SAME", preferred_element_type=np.float16)),
        Case("errors-preferred-float-to-int", conv(x, k, (1, 1), "SAME", preferred_element_type=np.int32)),
        Case("errors-string-padding-lhs-dilation", conv(x, k, (1, 1), "SAME", lhs_dilation=(2, 1))),
        Case("errors-zero-feature-groups", conv(x, k, (1, 1), "SAME", feature_group_count=0)),
    ]  # fmt: skip


TABLE = CaseTable("lax-convolution", lambda: [*_value_cases(), *_derivative_cases(), *_vmap_cases(), *_helper_cases(), *_error_cases()])


@pytest.mark.parametrize("group", TABLE.params())
def test_convolution_matches_jax(group: Group) -> None:
    TABLE.check(group)


def test_jit_matches_eager() -> None:
    """Every case that runs compiles (in one jitted program) to its eager
    value: the lowering of every configuration, derivative and batching."""
    runnable = [case for case in TABLE.cases if not isinstance(TABLE.jax_results[case.id], Raised)]
    compiled: list[Any] = jt.jit(lambda: [case.fn(jnp) for case in runnable])()
    for case, value in zip(runnable, compiled, strict=True):
        eager: Any = case.fn(jnp)
        tolerance = 5e-2 if any(t in case.id for t in ("float16", "bfloat16")) else 1e-4
        ours_leaves = jt.tree_util.tree_leaves(cast(object, value))
        expected_leaves = jt.tree_util.tree_leaves(cast(object, eager))
        for ours, expected in zip(ours_leaves, expected_leaves, strict=True):
            assert_same_value(ours, expected, tolerance, tolerance, where=case.id)


def test_dimension_numbers_and_padding_helpers_match_jax() -> None:
    for spec in (NHWC, NCHW, ("NWC", "WIO", "NWC"), ("HNCW", "WHOI", "CWNH"), ("NDHWC", "DHWIO", "NDHWC")):
        shape = tuple(range(2, 2 + len(spec[0])))
        assert tuple(lax.conv_dimension_numbers(shape, shape, spec)) == tuple(jax.lax.conv_dimension_numbers(shape, shape, spec))
    assert tuple(lax.conv_dimension_numbers((1, 2, 3), (1, 2, 3), None)) == ((0, 1, 2),) * 3
    numbers = lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    assert lax.conv_dimension_numbers((1, 2, 3, 4), (1, 2, 3, 4), numbers) == numbers
    for args in (((5, 7), (3, 2), (2, 2)), ((6, 1), (4, 4), (1, 3)), ((0, 9), (2, 3), (1, 4))):
        for padding in ("SAME", "VALID", "SAME_LOWER", "same"):
            ours = lax.padtype_to_pads(*args, padding)
            assert ours == [tuple(p) for p in jax.lax.padtype_to_pads(*args, padding)], (args, padding)


def test_shape_helpers_match_jax() -> None:
    for layout, lhs, rhs in ((NCHW, (4, 3, 8, 9), (4, 3, 3, 2)), (NHWC, (2, 8, 9, 3), (3, 2, 3, 4))):
        assert lax.conv_general_permutations(layout) == jax.lax.conv_general_permutations(layout)
        for padding in ("SAME", "VALID", [(1, 2), (0, 1)], [(-1, 0), (2, 2)]):
            for strides in ((1, 1), (2, 3)):
                expected = tuple(int(d) for d in jax.lax.conv_general_shape_tuple(lhs, rhs, strides, padding, layout))
                assert lax.conv_general_shape_tuple(lhs, rhs, strides, padding, layout) == expected
                expected = tuple(int(d) for d in jax.lax.conv_transpose_shape_tuple(lhs, rhs, strides, padding, layout))
                assert lax.conv_transpose_shape_tuple(lhs, rhs, strides, padding, layout) == expected
    for groups in (1, 2):
        expected = tuple(int(d) for d in jax.lax.conv_shape_tuple((4, 3, 8, 9), (4, 3, 3, 2), (2, 1), [(1, 0), (0, 2)], groups))
        assert lax.conv_shape_tuple((4, 3, 8, 9), (4, 3, 3, 2), (2, 1), [(1, 0), (0, 2)], groups) == expected
    for bad in ([(1, 1)], [(-9, 0), (0, 0)]):
        with pytest.raises(Exception) as theirs:
            jax.lax.conv_shape_tuple((4, 3, 8, 9), (4, 3, 3, 2), (1, 1), bad)

        def ours(pads: list[tuple[int, int]] = bad) -> object:
            return lax.conv_shape_tuple((4, 3, 8, 9), (4, 3, 3, 2), (1, 1), pads)

        expect_same_error(theirs.value, ours)


def test_lowering_is_one_convolution() -> None:
    x, k = normal(2, 6, 7, 3), normal(3, 3, 3, 4)

    def conv(a: jt.Array, b: jt.Array) -> jt.Array:
        return lax.conv_general_dilated(a, b, (1, 2), "SAME", dimension_numbers=NHWC)

    text = jt.jit(conv).lower(jnp.asarray(x), jnp.asarray(k)).as_text()
    assert text.count("stablehlo.convolution") == 1
    assert "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]" in text


def test_jaxpr_shows_one_equation_with_jax_parameters() -> None:
    x, k = normal(2, 3, 6, 7), normal(4, 3, 3, 3)

    def conv(a: jt.Array, b: jt.Array) -> jt.Array:
        return lax.conv(a, b, (1, 1), "SAME")

    jaxpr = jt.make_jaxpr(conv)(jnp.asarray(x), jnp.asarray(k))
    (eqn,) = jaxpr.jaxpr.eqns
    assert eqn.primitive.name == "conv_general_dilated"
    params = dict(eqn.primitive.params())
    assert params["padding"] == ((1, 1), (1, 1)) and params["feature_group_count"] == 1
