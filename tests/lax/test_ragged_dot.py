"""``lax.ragged_dot`` and ``lax.ragged_dot_general`` against JAX's: the three
modes (ragged non-contracting, contracting and batch axis), group splits
with empty groups and totals below and above the ragged size, dtypes and
``preferred_element_type``, eagerly and under ``jit``, weak types, ``vmap``
over any operand, ``jvp`` and ``grad`` (against JAX and against finite
differences in float64), the staged equation and the errors."""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownVariableType=false, reportUnknownMemberType=false
# (jitted and vmapped lambdas over both libraries, untyped by design)

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, debug_violations, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, lax
from jaxtyped.test_util import check_grads

RNG = np.random.default_rng(7)
M, K, N, G = 6, 3, 4, 3
LHS = RNG.standard_normal((M, K)).astype(np.float32)
RHS = RNG.standard_normal((G, K, N)).astype(np.float32)
SPLITS = {
    "even": [2, 2, 2],
    "empty_middle": [2, 0, 4],
    "empty_first": [0, 3, 3],
    "short": [1, 2, 1],  # rows 4 and 5 in no group
    "none": [0, 0, 0],
    "over": [2, 3, 5],  # the last group runs past m
}


def _dims(ns: Any, dot: Any, ragged: list[int], group: list[int]) -> Any:
    return ns.lax.RaggedDotDimensionNumbers(dot, ragged, group)


# mode, lhs shape, rhs shape, group sizes, (dot numbers, lhs ragged, rhs group)
GENERAL_CASES: dict[str, tuple[tuple[int, ...], tuple[int, ...], list[Any], Any]] = {
    # 1: [b, m, k] x [b, g, k, n] with rows ragged per batch entry ([b, g] sizes)
    "noncontracting_batched": ((2, 5, 3), (2, 2, 3, 4), [[2, 3], [4, 0]], ((((2,), (2,)), ((0,), (0,))), [1], [1])),
    # 1: the rhs group axis last, lhs contracting axis first
    "noncontracting_group_last": ((3, 5), (3, 4, 2), [1, 3], ((((0,), (0,)), ((), ())), [1], [2])),
    # 2: [m, k] x [k, n] -> [g, m, n]
    "contracting": ((3, 6), (6, 4), [2, 0, 3], ((((1,), (0,)), ((), ())), [1], [])),
    # 2: batched, sizes per batch entry
    "contracting_batched": ((2, 3, 5), (2, 5, 4), [[1, 4], [3, 1]], ((((2,), (1,)), ((0,), (0,))), [2], [])),
    # 2: two contracting axes listed out of order, sizes per element of the first listed one
    "contracting_two_axes": ((3, 4, 2), (2, 4, 5), [[1, 3], [4, 0]], ((((2, 1), (0, 1)), ((), ())), [1], [])),
    # 3: a ragged batch axis: a plain batched product
    "batch": ((4, 2, 3), (4, 3, 5), [1, 3], ((((2,), (1,)), ((0,), (0,))), [0], [])),
}


def _general(ns: Any, case: str, lhs: Any, rhs: Any, gs: Any, **kw: Any) -> Any:
    dot, ragged, group = GENERAL_CASES[case][3]
    return ns.lax.ragged_dot_general(lhs, rhs, gs, _dims(ns, dot, ragged, group), **kw)


def _operands(case: str, dtype: Any = np.float32) -> tuple[Any, Any, Any]:
    lshape, rshape, gs, _ = GENERAL_CASES[case]
    rng = np.random.default_rng(len(case))
    return (
        rng.standard_normal(lshape).astype(dtype),
        rng.standard_normal(rshape).astype(dtype),
        np.asarray(gs, np.int32),
    )


@pytest.mark.parametrize("split", SPLITS)
def test_ragged_dot_group_splits(split: str) -> None:
    """Rows past the groups' total are zero, as in JAX; a group past the
    end is cut there."""
    gs = np.asarray(SPLITS[split], np.int32)
    theirs = jax.lax.ragged_dot(LHS, RHS, gs)
    assert_same(lax.ragged_dot(LHS, RHS, gs), theirs)
    assert_same(jt.jit(lax.ragged_dot)(LHS, RHS, gs), theirs)
    total = sum(SPLITS[split])
    if total < M:
        np.testing.assert_array_equal(np.asarray(lax.ragged_dot(LHS, RHS, gs))[total:], 0)


@pytest.mark.parametrize("case", GENERAL_CASES)
def test_ragged_dot_general_modes(case: str) -> None:
    lhs, rhs, gs = _operands(case)
    theirs = _general(jax, case, lhs, rhs, gs)
    assert_same(_general(jt, case, lhs, rhs, gs), theirs)
    assert_same(jt.jit(lambda a, b, g: _general(jt, case, a, b, g))(lhs, rhs, gs), theirs)


def test_one_dimensional_group_sizes_broadcast_over_the_prefix() -> None:
    """``[g]`` sizes stand for the same split in every batch entry."""
    lhs, rhs, _ = _operands("noncontracting_batched")
    gs = np.asarray([1, 4], np.int32)
    assert_same(_general(jt, "noncontracting_batched", lhs, rhs, gs), _general(jax, "noncontracting_batched", lhs, rhs, gs))
    lhs, rhs, _ = _operands("contracting_batched")
    assert_same(_general(jt, "contracting_batched", lhs, rhs, gs), _general(jax, "contracting_batched", lhs, rhs, gs))


@pytest.mark.parametrize(
    ("dtype", "preferred", "gs_dtype"),
    [("bfloat16", None, "int32"), ("int32", None, "int32"), ("int8", "int32", "uint8"), ("bfloat16", "float32", "int32"),
     ("float32", None, "int16")],
)  # fmt: skip
def test_dtypes_and_preferred_element_type(dtype: str, preferred: str | None, gs_dtype: str) -> None:
    """Integers exactly; narrow floats as JAX rounds them."""
    scale = 4 if "int" in dtype else 1
    lhs = (LHS * scale).astype(jnp.dtype(dtype))
    rhs = (RHS * scale).astype(jnp.dtype(dtype))
    gs = np.asarray([2, 0, 3]).astype(gs_dtype)
    theirs = jax.lax.ragged_dot(lhs, rhs, gs, preferred_element_type=preferred)
    tol = 1e-2 if dtype == "bfloat16" else 1e-5
    assert_same(lax.ragged_dot(lhs, rhs, gs, preferred_element_type=preferred), theirs, rtol=tol, atol=tol)
    jitted = jt.jit(lambda a, b, g: lax.ragged_dot(a, b, g, preferred_element_type=preferred))(lhs, rhs, gs)
    assert_same(jitted, theirs, rtol=tol, atol=tol)


def test_weak_types() -> None:
    """Weak only when all three operands are weak, as in JAX."""
    for ns in (jax, jt):
        lhs = ns.lax.broadcast(2.0, (4, 3))
        rhs = ns.lax.broadcast(1.0, (2, 3, 5))
        weak_gs = ns.lax.broadcast(2, (2,))
        strong_gs = ns.numpy.asarray(np.array([2, 2], np.int32))
        assert ns.lax.ragged_dot(lhs, rhs, weak_gs).weak_type
        assert not ns.lax.ragged_dot(lhs, rhs, strong_gs).weak_type


@pytest.mark.parametrize(
    "in_axes",
    [(0, 0, 0), (1, None, None), (None, 0, None), (None, None, 0), (0, None, 0), (None, 2, 1), (2, 0, None)],
    ids=str,
)  # fmt: skip
@pytest.mark.parametrize("case", ["ragged_dot", "noncontracting_batched", "contracting_batched", "batch"])
def test_vmap_matches_a_loop(case: str, in_axes: tuple[int | None, ...]) -> None:
    """Any operand batched at any axis (JAX batches only all operands at
    axis 0, and fails on batched group sizes of a batched product): each
    example equals JAX's product of it."""
    batch = 3
    if case == "ragged_dot":
        lhs, rhs, gs = LHS, RHS, np.asarray([2, 0, 3], np.int32)

        def f(ns: Any, a: Any, b: Any, g: Any) -> Any:
            return ns.lax.ragged_dot(a, b, g)
    else:
        lhs, rhs, gs = _operands(case)

        def f(ns: Any, a: Any, b: Any, g: Any) -> Any:
            return _general(ns, case, a, b, g)

    examples = []
    for i in range(batch):
        sizes = np.roll(gs, i, axis=-1) if in_axes[2] is not None else gs
        examples.append((lhs + i if in_axes[0] is not None else lhs, rhs * (i + 1) if in_axes[1] is not None else rhs, sizes))
    stacked = [
        np.stack([ex[j] for ex in examples], axis) if axis is not None else examples[0][j]
        for j, axis in enumerate(in_axes)
    ]
    got = jt.vmap(lambda a, b, g: f(jt, a, b, g), in_axes=in_axes)(*stacked)
    for i, ex in enumerate(examples):
        np.testing.assert_allclose(np.asarray(got[i]), np.asarray(f(jax, *ex)), rtol=1e-5, atol=1e-5)
    if in_axes == (0, 0, 0) and case == "ragged_dot":  # JAX's vmap of its other cases fails inside JAX
        assert_same(got, jax.vmap(lambda a, b, g: f(jax, a, b, g))(*stacked))


def test_jvp_matches_jax_in_every_mode() -> None:
    for case in GENERAL_CASES:
        lhs, rhs, gs = _operands(case)
        t_lhs, t_rhs = np.ones_like(lhs), np.full_like(rhs, 0.5)
        ours = jt.jvp(lambda a, b: _general(jt, case, a, b, gs), (lhs, rhs), (t_lhs, t_rhs))
        theirs = jax.jvp(lambda a, b: _general(jax, case, a, b, gs), (lhs, rhs), (t_lhs, t_rhs))
        assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", ["ragged_dot", "noncontracting_batched", "noncontracting_group_last"])
def test_grad_matches_jax(case: str) -> None:
    """Reverse mode of a ragged non-contracting product (the cotangent of
    the rhs is a ragged contracting product), under jit too."""
    if case == "ragged_dot":
        lhs, rhs, gs = LHS, RHS, np.asarray([1, 0, 3], np.int32)

        def f(ns: Any, a: Any, b: Any) -> Any:
            return ns.lax.ragged_dot(a, b, gs)
    else:
        lhs, rhs, gs = _operands(case)

        def f(ns: Any, a: Any, b: Any) -> Any:
            return _general(ns, case, a, b, gs)

    weights = np.random.default_rng(3).standard_normal(np.shape(f(jax, lhs, rhs))).astype(np.float32)

    def loss(ns: Any) -> Callable[[Any, Any], Any]:
        return lambda a, b: (f(ns, a, b) * weights).sum()

    theirs = jax.grad(loss(jax), (0, 1))(lhs, rhs)
    assert_same(jt.grad(loss(jt), (0, 1))(lhs, rhs), theirs, rtol=1e-5, atol=1e-5)
    assert_same(jt.jit(jt.grad(loss(jt), (0, 1)))(lhs, rhs), theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.usefixtures("x64")
@pytest.mark.parametrize("split", ["empty_middle", "short", "none", "over"])
def test_derivatives_match_finite_differences_in_float64(split: str) -> None:
    """Second order, both modes, at splits with empty groups, uncovered
    rows and a group past the end (whose rows past m have no effect)."""
    gs = np.asarray(SPLITS[split], np.int32)
    check_grads(lambda a, b: lax.ragged_dot(a, b, gs), (LHS.astype(np.float64), RHS.astype(np.float64)), order=2)
    lhs, rhs, sizes = _operands("noncontracting_batched", np.float64)
    check_grads(lambda a, b: _general(jt, "noncontracting_batched", a, b, sizes), (lhs, rhs), order=1, modes=("rev",))


@pytest.mark.usefixtures("x64")
@pytest.mark.parametrize("case", ["contracting", "contracting_batched", "contracting_two_axes", "batch"])
def test_reverse_mode_of_the_other_modes(case: str) -> None:
    """JAX has no transpose for a ragged contracting or batch axis
    (NotImplementedError); here both have one: checked against finite
    differences to second order (forward mode is compared with JAX's in
    test_jvp_matches_jax_in_every_mode)."""
    lhs, rhs, gs = _operands(case, np.float64)
    check_grads(lambda a, b: _general(jt, case, a, b, gs), (lhs, rhs), order=2)
    with pytest.raises(NotImplementedError, match="Unimplemented grad_._dims for ragged dot general in mode RAGGED_"):
        jax.grad(lambda a, b: _general(jax, case, a, b, gs).sum(), (0, 1))(lhs, rhs)


def test_the_staged_equation() -> None:
    """JAX's equation, parameters and all."""
    gs = np.asarray([2, 0, 4], np.int32)
    ours = str(jt.make_jaxpr(lax.ragged_dot)(LHS, RHS, gs))
    assert ours == str(jax.make_jaxpr(jax.lax.ragged_dot)(LHS, RHS, gs))
    lhs, rhs, sizes = _operands("contracting")
    staged = jt.make_jaxpr(lambda a, b: _general(jt, "contracting", a, b, sizes))(lhs, rhs)
    assert "f32[3,3,4] = ragged_dot_general[" in str(staged)
    assert "lhs_ragged_dimensions=(1,), rhs_group_dimensions=()" in str(staged)


def test_dimension_numbers() -> None:
    """Any int sequences, kept as tuples; equal and hashable as JAX's."""
    numbers = lax.RaggedDotDimensionNumbers([[[1], [0]], [[], []]], [1], ())
    assert numbers == lax.RaggedDotDimensionNumbers((((1,), (0,)), ((), ())), (1,), [])
    assert hash(numbers) == hash(lax.RaggedDotDimensionNumbers((((1,), (0,)), ((), ())), (1,), []))
    assert repr(numbers) == repr(jax.lax.RaggedDotDimensionNumbers([[[1], [0]], [[], []]], [1], ()))
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="sequence of ints|violates type hint"):
        lax.RaggedDotDimensionNumbers((((1.5,), (0,)), ((), ())), (1,), ())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test


BAD_CALLS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "float_group_sizes": (lambda ns: ns.lax.ragged_dot(LHS, RHS, np.ones(3, np.float32)), "integer dtype, got float32"),
    "short_group_sizes": (lambda ns: ns.lax.ragged_dot(LHS, RHS, np.ones(2, np.int32)), r"rhs group dimension size to be 2, got 3"),
    "matrix_group_sizes": (lambda ns: ns.lax.ragged_dot(LHS, RHS, np.ones((1, 3), np.int32)), r"group_sizes to have shape \(3,\), got \(1, 3\)"),
    "scalar_group_sizes": (lambda ns: ns.lax.ragged_dot(LHS, RHS, np.int32(3)), "rank >= 1"),
    "mismatched_k": (lambda ns: ns.lax.ragged_dot(LHS, RHS[:, :2], np.ones(3, np.int32)), r"f32\[6,3\], f32\[3,2,4\]"),
    "lhs_rank_1": (lambda ns: ns.lax.ragged_dot(LHS[0], RHS, np.ones(3, np.int32)), r"lhs must be \[m, k\] and rhs \[g, k, n\], got f32\[3\]"),
    "rhs_rank_2": (lambda ns: ns.lax.ragged_dot(LHS, RHS[0], np.ones(3, np.int32)), r"f32\[6,3\] and f32\[3,4\]"),
    "two_ragged": (lambda ns: _general_bad(ns, [0, 1], []), "exactly one lhs ragged dimension"),
    "ragged_out_of_range": (lambda ns: _general_bad(ns, [5], []), "ragged dimension 5 is out of range"),
    "group_dim_in_mode_2": (lambda ns: _general_bad(ns, [1], [0]), "no rhs group dimensions"),
}


def _general_bad(ns: Any, ragged: list[int], group: list[int]) -> Any:
    lhs, rhs, gs = _operands("contracting")
    return ns.lax.ragged_dot_general(lhs, rhs, gs, ns.lax.RaggedDotDimensionNumbers((((1,), (0,)), ((), ())), ragged, group))


@pytest.mark.parametrize("bad", BAD_CALLS)
def test_errors_are_type_errors_naming_ragged_dot_and_the_shapes(bad: str) -> None:
    """JAX raises a TypeError for each; ours is a JaxtypedTypeError whose
    message names ragged_dot and the operands' types."""
    program, message = BAD_CALLS[bad]
    with pytest.raises(TypeError):
        program(jax)
    with pytest.raises(errors.JaxtypedTypeError, match="ragged_dot") as info:
        program(jt)
    assert info.match(message)


def test_group_offset_is_unimplemented() -> None:
    """JAX 0.10.2 does not implement it either (its impl raises
    NotImplementedError; its bind fails earlier, on the unhashable array)."""
    gs = np.asarray([2, 0, 4], np.int32)
    with pytest.raises(TypeError):
        jax.lax.ragged_dot(LHS, RHS, gs, group_offset=jax_numpy.zeros((1,), np.int32))
    with pytest.raises(errors.JaxtypedNotImplementedError, match="group_offset"):
        lax.ragged_dot(LHS, RHS, gs, group_offset=jnp.zeros((1,), np.int32))


def test_jit_of_vmap_of_grad() -> None:
    """Per-example gradients with per-example group sizes, staged: each
    equals JAX's gradient of that example."""
    sizes = np.asarray([[2, 0, 4], [1, 1, 1], [0, 6, 0]], np.int32)
    lhs = np.stack([LHS, LHS * 2, LHS - 1])

    def loss(ns: Any) -> Callable[[Any, Any, Any], Any]:
        return lambda a, b, g: (ns.lax.ragged_dot(a, b, g) ** 2).sum()

    ours = jt.jit(jt.vmap(jt.grad(loss(jt), (0, 1)), in_axes=(0, None, 0)))(lhs, RHS, sizes)
    for i in range(3):
        theirs = jax.grad(loss(jax), (0, 1))(lhs[i], RHS, sizes[i])
        for a, b in zip(ours, theirs, strict=True):
            np.testing.assert_allclose(np.asarray(a[i]), np.asarray(b), rtol=1e-5, atol=1e-5)
