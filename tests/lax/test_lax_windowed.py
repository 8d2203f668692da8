"""``lax.reduce_window`` (sum, max, min: pooling) against ``jax.lax``.

Cases are written once against a pair of namespaces (jaxtyped's ``lax`` and
transformations, or JAX's) and run through the shared oracle (JAX's results
from one ``jax.jit``): values, dtypes, weak types and shapes with padding
names and pairs, strides, base and window dilation, several dtypes,
initial values, and other computations (folded in window order); max-pool
and average-pool gradients, with ties in the windows (integer-valued
inputs), where JAX's rule gives each window's cotangent to its first
extremum; ``jvp``; ``vmap``; the errors JAX raises.
Every case that runs is also compiled with ``jt.jit`` (in one program) and
compared with its eager value.
"""

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax

from oracle import Case, CaseTable, Group, Namespace, Raised, assert_same_value, host, jax, jax_numpy, library, unary_fn

RNG = np.random.default_rng(5)


def normal(*shape: int) -> np.ndarray[Any, Any]:
    return RNG.normal(size=shape).astype(np.float32)


def ties(*shape: int) -> np.ndarray[Any, Any]:
    """Small integers as float32: most windows hold a tied extremum."""
    return RNG.integers(0, 3, size=shape).astype(np.float32)


MONOIDS: dict[str, tuple[str, float]] = {"sum": ("add", 0.0), "max": ("max", -np.inf), "min": ("min", np.inf)}


def reduce(L: Namespace, kind: str, x: Any, *args: Any, init: Any = None, **kwargs: Any) -> Any:
    lax_ = library(L).lax
    name, identity = MONOIDS[kind]
    return lax_.reduce_window(x, identity if init is None else init, getattr(lax_, name), *args, **kwargs)


def reduce_case(kind: str, x: Any, args: tuple[Any, ...], kwargs: dict[str, Any], init: Any = None,
                *, operand_given: bool = True) -> Callable[[Any], Any]:
    """A case reducing ``x`` (called with the namespace), or, without
    ``operand_given``, JAX's reduction as a function of the operand."""

    def fn(L: Namespace) -> Any:
        return reduce(L, kind, x, *args, init=init, **kwargs)

    def of_operand(v: Any) -> Any:
        return reduce(jax_numpy, kind, v, *args, init=init, **kwargs)

    return fn if operand_given else of_operand


def generic_case(
    which: str, init: float, x: Any, args: tuple[Any, ...], kwargs: dict[str, Any], *, batched: bool = False
) -> Callable[[Namespace], Any]:
    """``reduce_window`` with a computation that is not a monoid the
    primitives cover: ``lax.mul``, or one whose result depends on the order
    of combination (``0.5 * acc + element``)."""

    def fn(L: Namespace) -> Any:
        lax_, api = library(L).lax, library(L).api

        def ordered(acc: Any, element: Any) -> Any:
            return lax_.add(lax_.mul(acc, np.float32(0.5)), element)

        computation = lax_.mul if which == "mul" else ordered
        if batched:
            return api.vmap(unary_fn(lambda v: lax_.reduce_window(v, init, computation, *args, **kwargs)))(x)
        return lax_.reduce_window(x, init, computation, *args, **kwargs)

    return fn


# (id, operand shape, args after the computation, kwargs)
CONFIGS: list[tuple[str, tuple[int, ...], tuple[Any, ...], dict[str, Any]]] = [
    ("1d", (9,), ((3,), (1,), "VALID"), {}),
    ("1d_same_strided", (9,), ((2,), (2,), "SAME"), {}),
    ("2d_pool", (6, 8), ((2, 2), (2, 2), "VALID"), {}),
    ("2d_same", (5, 7), ((3, 2), (1, 2), "SAME"), {}),
    ("2d_pairs", (5, 6), ((2, 3), (2, 1), [(1, 0), (2, 1)]), {}),
    ("2d_negative_padding", (6, 6), ((2, 2), (1, 1), [(-1, 0), (0, -2)]), {}),
    ("2d_base_dilation", (4, 5), ((2, 2), (1, 2), [(1, 1), (0, 0)]), {"base_dilation": (2, 1)}),
    ("2d_window_dilation", (7, 6), ((2, 2), (1, 1), "SAME"), {"window_dilation": (2, 3)}),
    ("4d_nhwc_pool", (2, 6, 6, 3), ((1, 2, 2, 1), (1, 2, 2, 1), "SAME"), {}),
    ("4d_nchw_overlapping", (2, 3, 7, 6), ((1, 1, 3, 3), (1, 1, 2, 2), "VALID"), {}),
    ("3d", (4, 5, 6), ((2, 2, 2), (1, 2, 3), "SAME"), {}),
    ("2d_window_too_big", (2, 3), ((3, 3), (1, 1), "VALID"), {}),
]  # fmt: skip


def _value_cases() -> list[Case]:
    cases: list[Case] = []
    for name, shape, args, kwargs in CONFIGS:
        x, xi = normal(*shape), RNG.integers(-50, 50, size=shape).astype(np.int32)
        for kind in MONOIDS:
            cases.append(Case(f"values-{kind}-{name}", reduce_case(kind, x, args, kwargs)))
            cases.append(Case(f"values-{kind}-{name}-int32", reduce_case(kind, xi, args, kwargs, 0 if kind == "sum" else None)))
    x = normal(6, 8)
    pool = ((2, 2), (2, 2), "VALID")
    for dtype in ("float16", "bfloat16"):
        for kind in MONOIDS:
            cases.append(Case(f"dtypes-{kind}-{dtype}", reduce_case(kind, host(dtype, x), pool, {}), rtol=2e-2, atol=5e-2))
    b = x > 0
    u8 = RNG.integers(0, 255, size=(6, 8)).astype(np.uint8)
    i32 = RNG.integers(-9, 9, size=(6, 8)).astype(np.int32)
    cases += [
        Case("dtypes-max-bool", lambda L: library(L).lax.reduce_window(b, False, library(L).lax.max, *pool)),
        Case("dtypes-min-bool", lambda L: library(L).lax.reduce_window(b, True, library(L).lax.min, *pool)),
        Case("dtypes-max-uint8", lambda L: library(L).lax.reduce_window(u8, np.uint8(0), library(L).lax.max, *pool)),
        Case("dtypes-max-int-identity", lambda L: library(L).lax.reduce_window(i32, -(2**31), library(L).lax.max, *pool)),
        Case("dtypes-max-int-inf-identity", lambda L: library(L).lax.reduce_window(i32, -np.inf, library(L).lax.max, *pool)),
        Case("dtypes-weak", lambda L: reduce(L, "sum", L.ones(5) * 2.0, (2,), (1,), "VALID")),
        Case("dtypes-strong", lambda L: reduce(L, "sum", L.ones(5, L.float32) * 2.0, (2,), (1,), "VALID")),
        # Other initial values enter each window once; padding takes no part.
        Case("init-sum-one", lambda L: reduce(L, "sum", x, (3, 2), (1, 2), "SAME", init=1.0)),
        Case("init-max-zero", lambda L: reduce(L, "max", x, (2, 3), (1, 1), [(1, 1), (0, 2)], init=0.0)),
        Case("init-min-int", lambda L: reduce(L, "min", i32, (2, 2), (2, 1), "SAME", init=np.int32(-3))),
        Case("init-max-base-dilated", lambda L: reduce(L, "max", x, (2, 2), (1, 1), "VALID", init=0.5, base_dilation=(2, 2))),
        Case("init-default-strides", lambda L: library(L).lax.reduce_window(x, 0.0, library(L).lax.add, (2, 3))),
    ]  # fmt: skip
    # Other computations fold each window's elements in window order.
    for name, args, kwargs in (("valid", ((2, 2), (1, 1), "VALID"), {}), ("same", ((3, 2), (1, 2), "SAME"), {}),
                               ("dilated", ((2, 3), (2, 1), [(1, 0), (2, 1)]), {"base_dilation": (2, 1), "window_dilation": (1, 2)})):  # fmt: skip
        cases += [
            Case(f"generic-mul-{name}", generic_case("mul", 1.0, x, args, kwargs)),
            Case(f"generic-ordered-{name}", generic_case("ordered", 0.5, x, args, kwargs)),
            Case(f"generic-vmap-{name}", generic_case("ordered", 0.5, np.stack([x, -x]), args, kwargs, batched=True)),
        ]
    return cases


def _derivative_cases() -> list[Case]:
    cases: list[Case] = []
    for name, shape, args, kwargs in CONFIGS:
        if "too_big" in name:
            continue
        for kind in MONOIDS:
            if kind != "sum" and ("window_dilation" in kwargs or "negative" in name):
                continue  # JAX cannot differentiate these max/min poolings (it raises)
            x, t = ties(*shape), normal(*shape)
            out_shape = jax.eval_shape(reduce_case(kind, None, args, kwargs, operand_given=False), x).shape
            weights = normal(*out_shape)

            def grad(L: Namespace, k: str = kind, x: Any = x, a: Any = args, kw: Any = kwargs, w: Any = weights) -> Any:
                return library(L).api.grad(unary_fn(lambda v: (reduce(L, k, v, *a, **kw) * w).sum()))(x)

            def jvp(L: Namespace, k: str = kind, x: Any = x, t: Any = t, a: Any = args, kw: Any = kwargs) -> Any:
                return library(L).api.jvp(unary_fn(lambda v: reduce(L, k, v, *a, **kw)), (x,), (t,))

            cases += [Case(f"grad-{kind}-{name}", grad), Case(f"jvp-{kind}-{name}", jvp)]
    x = ties(2, 8, 8, 3)

    def max_pool_loss(L: Namespace) -> Any:
        lax_, api = library(L).lax, library(L).api

        def loss(v: Any) -> Any:
            pooled = lax_.reduce_window(v, -np.inf, lax_.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
            return (pooled**2).sum()

        return api.grad(loss)(x)

    def avg_pool_loss(L: Namespace) -> Any:
        lax_, api = library(L).lax, library(L).api

        def loss(v: Any) -> Any:
            pooled = lax_.reduce_window(v, 0.0, lax_.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9.0
            return (pooled**2).sum()

        return api.grad(loss)(x)

    def all_equal(L: Namespace) -> Any:
        # Every window is one big tie: its first element gets the cotangent.
        return library(L).api.grad(unary_fn(lambda v: reduce(L, "max", v, (2, 3), (1, 2), "SAME").sum()))(np.ones((4, 6), np.float32))

    y = normal(5, 6)

    def second_order(L: Namespace) -> Any:
        api = library(L).api
        return api.grad(unary_fn(lambda v: api.grad(unary_fn(lambda w: (reduce(L, "max", w, (2, 2), (1, 1), "VALID") ** 3).sum()))(v).sum()))(y)

    cases += [Case("pool-max-grad", max_pool_loss), Case("pool-avg-grad", avg_pool_loss),
              Case("pool-all-equal", all_equal), Case("pool-second-order", second_order, rtol=1e-4, atol=1e-4)]  # fmt: skip
    return cases


def _vmap_cases() -> list[Case]:
    cases: list[Case] = []
    for name, shape, args, kwargs in CONFIGS:
        if "too_big" in name:
            continue
        xb = np.moveaxis(ties(3, *shape), 0, min(1, len(shape))).copy()
        axis = min(1, len(shape))
        for kind in MONOIDS:

            def batched(L: Namespace, k: str = kind, a: Any = args, kw: Any = kwargs, xb: Any = xb, axis: int = axis) -> Any:
                return library(L).api.vmap(unary_fn(lambda v: reduce(L, k, v, *a, **kw)), axis)(xb)

            cases.append(Case(f"vmap-{kind}-{name}", batched))
        if "window_dilation" not in kwargs and "negative" not in name:

            def batched_grad(L: Namespace, a: Any = args, kw: Any = kwargs, xb: Any = xb, axis: int = axis) -> Any:
                api = library(L).api
                return api.vmap(api.grad(unary_fn(lambda v: reduce(L, "max", v, *a, **kw).sum())), axis)(xb)

            cases.append(Case(f"vmap-grad-max-{name}", batched_grad))
    return cases


def _error_cases() -> list[Case]:
    x = normal(4, 5)
    return [
        Case("errors-window-length", lambda L: reduce(L, "sum", x, (2,), (1,), [(0, 0)])),
        Case("errors-strides-length", lambda L: reduce(L, "max", x, (2, 2), (1,), [(0, 0), (0, 0)])),
        Case("errors-padding-length", lambda L: reduce(L, "max", x, (2, 2), (1, 1), [(0, 0)])),
        Case("errors-padding-name", lambda L: reduce(L, "max", x, (2, 2), (1, 1), "FULL")),
        Case("errors-init-dtype", lambda L: reduce(L, "max", x.astype(np.int32), (2, 2), (1, 1), "VALID", init=0.5)),
        Case("errors-zero-stride", lambda L: reduce(L, "sum", x, (2, 2), (0, 1), "VALID")),
    ]


TABLE = CaseTable("lax-windowed", lambda: [*_value_cases(), *_derivative_cases(), *_vmap_cases(), *_error_cases()])


@pytest.mark.parametrize("group", TABLE.params())
def test_reduce_window_matches_jax(group: Group) -> None:
    TABLE.check(group)


def test_jit_matches_eager() -> None:
    """Every case that runs compiles (in one jitted program) to its eager value."""
    runnable = [case for case in TABLE.cases if not isinstance(TABLE.jax_results[case.id], Raised)]
    compiled: list[Any] = jt.jit(lambda: [case.fn(jnp) for case in runnable])()
    for case, value in zip(runnable, compiled, strict=True):
        eager: Any = case.fn(jnp)
        tolerance = 5e-2 if any(t in case.id for t in ("float16", "bfloat16")) else 1e-5
        ours_leaves = jt.tree_util.tree_leaves(cast(object, value))
        expected_leaves = jt.tree_util.tree_leaves(cast(object, eager))
        for ours, expected in zip(ours_leaves, expected_leaves, strict=True):
            assert_same_value(ours, expected, tolerance, tolerance, where=case.id)


def test_other_computations_are_differentiable() -> None:
    # JAX cannot differentiate a generic reduce_window; the product of each
    # window's elements has the gradient of the product.
    x = jnp.asarray(normal(4, 5))

    def product(v: jt.Array) -> jt.Array:
        return jnp.sum(lax.reduce_window(v, 1.0, lax.mul, (2, 2), (1, 1), "VALID"))

    v = np.asarray(x, np.float64)
    expected = np.zeros_like(v)
    for i in range(3):
        for j in range(4):
            window = v[i : i + 2, j : j + 2]
            expected[i : i + 2, j : j + 2] += np.prod(window) / window
    np.testing.assert_allclose(np.asarray(jt.grad(product)(x)), expected, rtol=1e-4, atol=1e-5)


def test_shape_tuple_matches_jax() -> None:
    for args in (((5, 7), (2, 3), (1, 2), [(0, 0), (1, 1)]), ((9,), (3,), (2,), [(2, 1)])):
        for dilations in ((None, None), ((2,) * len(args[0]), None), (None, (2,) * len(args[0]))):
            ours = lax.reduce_window_shape_tuple(*args, *dilations)
            assert ours == tuple(jax.lax.reduce_window_shape_tuple(*args, *dilations))


def test_jaxpr_and_lowering() -> None:

    def pool(v: jt.Array) -> jt.Array:
        return lax.reduce_window(v, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    x = jnp.asarray(normal(2, 6, 6, 3))
    (eqn,) = jt.make_jaxpr(pool)(x).jaxpr.eqns
    assert eqn.primitive.name == "reduce_window_max"
    text = jt.jit(pool).lower(x).as_text()
    assert text.count("stablehlo.reduce_window") == 1 and "stablehlo.maximum" in text
