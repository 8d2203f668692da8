"""Transformations nest in any order: jaxtyped against real JAX on the same
programs.

Each program is written once against a pair of namespaces (``T`` is
``jaxtyped`` or ``jax``, ``N`` is ``jaxtyped.numpy`` or ``jax.numpy``) and
run on both; results must agree in tree structure, shape, dtype, values
(float32 tolerance) and, where JAX returns an array, weak type.
"""

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ClosedJaxpr, check_closed_jaxpr, eval_jaxpr, jaxpr_as_fun
from lambdas import F1, fn0, fn1, fn2, fn3
from oracle import assert_same as oracle_assert_same

# The oracle, untyped and imported by name: JAX's annotations are partly
# unknown to pyright strict, and type checkers need not resolve JAX at all.
jx: Any = importlib.import_module("jax")
jxnp: Any = importlib.import_module("jax.numpy")
jax_jaxpr_as_fun: Any = importlib.import_module("jax.extend.core").jaxpr_as_fun

Program = Callable[[ModuleType, ModuleType], Any]


RNG = np.random.RandomState(0)
X = RNG.randn(5, 3).astype(np.float32)  # a batch of 5 examples
XT = np.ascontiguousarray(X.T)  # the same batch, batch axis last
V = RNG.randn(3).astype(np.float32)  # one example
PARAMS = {
    "w1": RNG.randn(3, 4).astype(np.float32),
    "b1": RNG.randn(4).astype(np.float32),
    "w2": RNG.randn(4, 2).astype(np.float32),
}


# === comparison helpers ===


assert_same = functools.partial(oracle_assert_same, tree=True, atol=1e-5)


def run_jax(thunk: Callable[[], Any]) -> Any:
    """Run the JAX side of a comparison under one ``jx.jit``: one compile
    instead of one per primitive keeps the oracle cheap."""
    return jx.jit(thunk)()


def both(program: Program, **kwargs: Any) -> None:
    """Run ``program`` with jaxtyped and with JAX and compare."""
    assert_same(program(jt, jnp), run_jax(lambda: program(jx, jxnp)), **kwargs)


def mlp(N: ModuleType, params: dict[str, Any], x: Any) -> Any:
    h = N.tanh(x @ params["w1"] + params["b1"])
    return N.sum(N.sin(h @ params["w2"]))


# === nesting ===


def test_jvp_of_vmap_of_jvp() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        inner = fn1(lambda x: T.jvp(fn1(lambda y: N.sin(y) * y), (x,), (N.cos(x),)))
        return T.jvp(T.vmap(inner), (X,), (N.ones_like(X),))

    both(program)


def test_vmap_of_jvp() -> None:
    both(lambda T, N: T.vmap(fn2(lambda x, t: T.jvp(N.tanh, (x,), (t,))))(X, 2.0 * X))


def test_vmap_of_jacfwd_per_example_jacobians() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        return T.vmap(T.jacfwd(fn1(lambda x: N.sin(x) * N.sum(x * x))))(X)

    both(program)
    out = program(jt, jnp)
    assert out.shape == (5, 3, 3)


def test_jacfwd_of_vmap() -> None:
    both(lambda T, N: T.jacfwd(T.vmap(fn1(lambda x: N.sin(x) * N.sum(x))))(X))


def test_hessian_of_mlp_wrt_input() -> None:
    both(lambda T, N: T.jacfwd(T.jacfwd(fn1(lambda x: mlp(N, PARAMS, x))))(V), rtol=1e-4, atol=1e-5)


def test_hessian_of_mlp_wrt_params_pytree() -> None:
    out = jt.jacfwd(fn1(jt.jacfwd(fn1(lambda p: mlp(jnp, p, V)))))(PARAMS)
    assert out["w1"]["w2"].shape == (3, 4, 4, 2)
    both(lambda T, N: T.jacfwd(T.jacfwd(fn1(lambda p: mlp(N, p, V))))(PARAMS), rtol=1e-4, atol=1e-5)


def test_vmap_of_hessian_of_mlp() -> None:
    both(lambda T, N: T.vmap(T.jacfwd(T.jacfwd(fn1(lambda x: mlp(N, PARAMS, x)))))(X[:2]), rtol=1e-4, atol=1e-5)


def test_jvp_of_jacfwd_of_vmap() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        jac = T.jacfwd(T.vmap(fn1(lambda v: N.sin(v) * v)))
        return T.jvp(jac, (V,), (N.ones_like(V),))

    both(program)


# === make_jaxpr of transformations ===


def test_make_jaxpr_of_jvp_matches_jax_text() -> None:
    def program(T: ModuleType, N: ModuleType) -> str:
        return str(T.make_jaxpr(fn2(lambda x, t: T.jvp(N.sin, (x,), (t,))))(1.0, 1.0))

    ours, theirs = program(jt, jnp), program(jx, jxnp)
    assert ours == theirs == (
        "{ lambda ; a:f32[] b:f32[]. let\n"
        "    c:f32[] = sin a\n"
        "    d:f32[] = cos a\n"
        "    e:f32[] = mul b d\n"
        "  in (c, e) }"
    )


def test_make_jaxpr_of_vmap_matches_jax_text() -> None:
    def program(T: ModuleType, N: ModuleType) -> str:
        return str(T.make_jaxpr(fn2(lambda xs, y: T.vmap(fn1(lambda a: N.sin(a) * y))(xs)))(XT, np.float32(2.0)))

    assert program(jt, jnp) == program(jx, jxnp)


TRANSFORMED: list[F1] = [
    lambda x: jt.jvp(fn1(lambda y: jnp.sin(y) * y), (x,), (jnp.ones_like(x),)),
    lambda x: jt.vmap(fn1(lambda y: jnp.sum(jnp.sin(y))))(x),
    lambda x: jt.jacfwd(fn1(lambda y: jnp.tanh(y) * jnp.sum(y)))(x[0]),
    lambda x: jt.jacfwd(jt.jacfwd(fn1(lambda y: mlp(jnp, PARAMS, y))))(x[0]),
    lambda x: jt.vmap(jt.jacfwd(fn1(lambda y: jnp.sin(y) * y[0])))(x),
]


@pytest.mark.parametrize(
    "transformed",
    TRANSFORMED,
    ids=["jvp", "vmap", "jacfwd", "hessian", "vmap-jacfwd"],
)
def test_make_jaxpr_of_transformation_checks_and_evaluates(transformed: Callable[[Any], Any]) -> None:
    closed = jt.make_jaxpr(transformed)(X)
    assert isinstance(closed, ClosedJaxpr)
    check_closed_jaxpr(closed)
    staged = jaxpr_as_fun(closed)(jnp.asarray(X))
    direct = jx.tree_util.tree_leaves(transformed(X))
    assert len(staged) == len(direct)
    for s, d in zip(staged, direct):
        assert s.shape == d.shape and s.dtype == d.dtype
        np.testing.assert_allclose(np.asarray(s), np.asarray(d), rtol=1e-6, atol=1e-6)


def test_staged_jaxpr_under_vmap_and_jvp() -> None:
    # A jaxpr made once, then evaluated (jaxpr_as_fun) under vmap and jvp.
    def program(T: ModuleType, N: ModuleType) -> Any:
        c = np.array([1.0, -2.0, 0.5], np.float32)
        closed = T.make_jaxpr(fn1(lambda x: N.sin(x) * c + x))(V)
        assert len(closed.consts) == 1

        def fun(x: Any) -> Any:
            if T is jt:
                return jaxpr_as_fun(closed)(x)[0]
            return jax_jaxpr_as_fun(closed)(x)[0]

        return T.vmap(fun)(X), T.jvp(fun, (V,), (V,)), T.jacfwd(fun)(V)

    both(program)


def test_eval_jaxpr_inside_make_jaxpr_restages() -> None:
    closed = jt.make_jaxpr(fn1(lambda x: jnp.sin(x) * 2.0 + x))(1.0)
    restaged = jt.make_jaxpr(fn1(lambda x: eval_jaxpr(closed.jaxpr, closed.consts, x)))(1.0)
    assert restaged.jaxpr == closed.jaxpr
    assert hash(restaged.jaxpr) == hash(closed.jaxpr)


def test_make_jaxpr_closing_over_outer_jvp_tracer() -> None:
    # The staged function closes over y, a jvp tracer: it becomes a constvar
    # whose value carries the tangent.
    def program(T: ModuleType, N: ModuleType) -> Any:
        def fun(y: Any) -> Any:
            closed = T.make_jaxpr(fn1(lambda x: x * y))(1.0)
            if T is jt:
                return jaxpr_as_fun(closed)(jnp.asarray(2.0))[0]
            return jax_jaxpr_as_fun(closed)(2.0)[0]

        return T.jvp(fun, (3.0,), (1.0,)), T.vmap(fun)(N.arange(3.0))

    both(program)


# === vmap axes ===


AXES = [0, 1, -1, None]
# All axes have size 3, so every combination is consistent; the values differ
# along each axis, so a wrongly placed axis changes the result.
A3 = RNG.randn(3, 3, 3).astype(np.float32)
B3 = RNG.randn(3, 3, 3).astype(np.float32)


def nested_vmap(T: ModuleType, N: ModuleType, outer: int | None, inner: int | None) -> Any:
    fun = fn2(lambda x, y: N.sum(x * N.sin(y), axis=0) + x[0])
    # The inner vmap needs one mapped input: y is mapped over axis 0.
    inner_mapped = T.vmap(fun, in_axes=(inner, 0))
    return T.vmap(inner_mapped, in_axes=(outer, 1))(A3, B3)


@functools.cache
def nested_vmap_oracle() -> dict[tuple[int | None, int | None], Any]:
    # Every combination in one jx.jit: one compile for the whole table.
    combos = [(o, i) for o in AXES for i in AXES]
    results = run_jax(lambda: [nested_vmap(jx, jxnp, o, i) for o, i in combos])
    return dict(zip(combos, results))


@pytest.mark.parametrize("outer", AXES)
@pytest.mark.parametrize("inner", AXES)
def test_nested_vmap_in_axes(outer: int | None, inner: int | None) -> None:
    assert_same(nested_vmap(jt, jnp, outer, inner), nested_vmap_oracle()[outer, inner])


@pytest.mark.parametrize("out_axes", [0, 1, -1, 2])
def test_out_axes(out_axes: int) -> None:
    both(lambda T, N: T.vmap(fn1(lambda x: N.outer(x, x)), out_axes=out_axes)(X))


def test_pytree_in_axes_and_out_axes() -> None:
    d = {"a": X, "b": (XT, np.float32(3.0))}

    def fun(d: Any) -> Any:
        return {"s": d["a"] * d["b"][1], "t": (d["b"][0].sum(), d["b"][1]), "u": [d["a"][0]]}

    in_axes = ({"a": 0, "b": (1, None)},)
    out_axes = {"s": 1, "t": (0, None), "u": -1}
    both(lambda T, N: T.vmap(fun, in_axes=in_axes, out_axes=out_axes)(d))


def test_in_axes_tuple_prefix_and_none_leaves() -> None:
    def fun(pair: Any, scale: Any) -> Any:
        x, y = pair
        return x * scale + y

    both(lambda T, N: T.vmap(fun, in_axes=((0, None), None))((X, V), 2.0))
    both(lambda T, N: T.vmap(fun, in_axes=(0, None))((X, X), np.float32(2.0)))


@pytest.mark.parametrize("value", [200, 2.5, np.float32(3.0), "label", None], ids=["int", "float", "np.float32", "str", "None"])
def test_unmapped_arguments_reach_fun_as_given(value: object) -> None:
    """A None in_axes passes the argument through unchanged, as JAX's vmap
    does: a Python int stays an int (random.split(key, n) under vmap needs
    one in the debug mode)."""

    def run(lib: Any) -> tuple[str, list[float]]:
        seen: list[str] = []

        def fun(x: Any, extra: Any) -> Any:
            seen.append(type(extra).__name__)
            return x * 2.0

        out = lib.vmap(fun, in_axes=(0, None))(X[:, 0], value)
        return seen[0], np.asarray(out).tolist()

    assert run(jt) == run(jx)


def test_axis_size_with_all_none_in_axes() -> None:
    both(lambda T, N: T.vmap(fn1(lambda a: a * 2.0), in_axes=None, axis_size=4)(np.float32(1.0)))
    both(lambda T, N: T.vmap(fn0(lambda: N.ones(2)), axis_size=3)())
    both(lambda T, N: T.vmap(fn1(lambda a: 1.0), in_axes=None, axis_size=2)(V))


def test_keyword_arguments_are_mapped_over_axis_0() -> None:
    both(lambda T, N: T.vmap(fn2(lambda a, b: a * b))(X, b=X))
    both(lambda T, N: T.vmap(fn2(lambda a, b: a * b), in_axes=(1,))(XT, b=X))


def test_vmap_over_a_size_zero_axis() -> None:
    both(lambda T, N: T.vmap(fn1(lambda x: N.sin(x) * 2.0))(N.ones((0, 3))))
    both(lambda T, N: T.jacfwd(fn1(lambda x: N.sum(x * x)))(N.ones(0)))


def test_none_and_empty_outputs_under_vmap() -> None:
    assert jt.vmap(fn1(lambda x: None))(X) is None
    assert jt.vmap(fn1(lambda x: ()))(X) == ()
    both(lambda T, N: T.vmap(fn1(lambda x: {"a": x, "b": None, "c": ()}))(X))


# === has_aux and argnums ===


def test_jvp_has_aux() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        fun = fn1(lambda x: (N.sin(x), {"c": N.cos(x), "n": [x * 2.0]}))
        return T.jvp(fun, (V,), (V,), has_aux=True)

    both(program)


def test_jacfwd_has_aux() -> None:
    both(lambda T, N: T.jacfwd(fn1(lambda x: (N.sin(x), (N.sum(x), x * 2.0))), has_aux=True)(V))


def test_jacfwd_argnums_tuple() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        fun = fn3(lambda a, b, c: a * N.sum(b) + c["k"] * 2.0)
        return T.jacfwd(fun, argnums=(0, 2))(V, X, {"k": V})

    both(program)
    both(lambda T, N: T.jacfwd(fn2(lambda a, b: a * N.sum(b)), argnums=1)(V, X))
    both(lambda T, N: T.jacfwd(fn2(lambda a, b: a * N.sum(b)), argnums=(-1,))(V, X))


def test_jacfwd_pytree_output() -> None:
    both(lambda T, N: T.jacfwd(fn1(lambda x: {"s": N.sin(x), "t": [N.sum(x), x[0]]}))(V))


# === closures over outer tracers ===


def test_closure_over_jvp_tracer_inside_vmap() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        def outer(y: Any) -> Any:
            return T.vmap(fn1(lambda a: a * y + N.sin(y)))(X[:, 0])

        return T.jvp(outer, (np.float32(2.0),), (np.float32(1.0),))

    both(program)


def test_closure_over_vmap_tracer_inside_jvp() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        def per_example(xx: Any) -> Any:
            return T.jvp(fn1(lambda y: N.sin(y * xx)), (np.float32(3.0),), (np.float32(1.0),))

        return T.vmap(per_example)(V)

    both(program)


def test_closure_over_vmap_tracer_inside_jacfwd_inside_jvp() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        def fun(s: Any) -> Any:
            per = fn1(lambda row: T.jacfwd(fn1(lambda v: N.sin(v * row) * s))(row))
            return T.vmap(per)(X[:2])

        return T.jvp(fun, (np.float32(1.5),), (np.float32(1.0),))

    both(program)


def test_perturbation_confusion_in_mixed_nest() -> None:
    # g ignores its argument: its derivative must be zero even though it
    # closes over the outer jvp's x, through an intervening vmap.
    def program(T: ModuleType, N: ModuleType) -> Any:
        def f(x: Any) -> Any:
            g = fn1(lambda y: x * 1.0)
            inner = T.vmap(fn1(lambda yy: T.jvp(g, (yy,), (1.0,))[1]))(N.ones(3))
            return x * N.sum(inner) + x

        return T.jvp(f, (2.0,), (1.0,))

    both(program)
    _, tangent = program(jt, jnp)
    assert float(tangent) == 1.0


def test_nested_jvp_distinguishes_perturbations() -> None:
    # d/dx [x * d/dy (x * y)] = 2x, through vmap over x.
    def program(T: ModuleType, N: ModuleType) -> Any:
        def d(f: Callable[[Any], Any], x: Any) -> Any:
            return T.jvp(f, (x,), (N.ones_like(x),))[1]

        return T.vmap(fn1(lambda x: d(fn1(lambda x2: x2 * d(fn1(lambda y: x2 * y), 1.0)), x)))(V)

    both(program)
    np.testing.assert_allclose(np.asarray(program(jt, jnp)), 2 * V, rtol=1e-6)


# === constant outputs ===


CONSTANT_FUNCTIONS: list[tuple[str, Callable[[ModuleType], Callable[[Any], Any]]]] = [
    ("array", lambda N: lambda x: N.ones(2)),
    ("np-scalar", lambda N: lambda x: np.float32(3.0)),
    ("np-array", lambda N: lambda x: np.arange(3, dtype=np.float32)),
    ("computed", lambda N: lambda x: N.sin(N.ones(2)) * 2.0),
]


@pytest.mark.parametrize(("name", "make"), CONSTANT_FUNCTIONS, ids=[n for n, _ in CONSTANT_FUNCTIONS])
def test_constant_output_under_jvp(name: str, make: Callable[[ModuleType], Callable[[Any], Any]]) -> None:
    both(lambda T, N: T.jvp(make(N), (V,), (V,)))


@pytest.mark.parametrize(("name", "make"), CONSTANT_FUNCTIONS, ids=[n for n, _ in CONSTANT_FUNCTIONS])
def test_constant_output_under_vmap(name: str, make: Callable[[ModuleType], Callable[[Any], Any]]) -> None:
    both(lambda T, N: T.vmap(make(N))(X))


@pytest.mark.parametrize(("name", "make"), CONSTANT_FUNCTIONS, ids=[n for n, _ in CONSTANT_FUNCTIONS])
def test_constant_output_under_jacfwd(name: str, make: Callable[[ModuleType], Callable[[Any], Any]]) -> None:
    both(lambda T, N: (T.jacfwd(make(N))(V), T.jacfwd(T.jacfwd(make(N)))(V)))


@pytest.mark.parametrize(("name", "make"), CONSTANT_FUNCTIONS, ids=[n for n, _ in CONSTANT_FUNCTIONS])
def test_constant_output_under_nests(name: str, make: Callable[[ModuleType], Callable[[Any], Any]]) -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        f = make(N)
        return (
            T.vmap(fn1(lambda x: T.jvp(f, (x,), (x,))))(X),
            T.jvp(T.vmap(f), (X,), (X,)),
            T.vmap(T.jacfwd(f))(X),
        )

    both(program)


def test_constant_output_under_make_jaxpr() -> None:
    c = np.arange(3, dtype=np.float32)
    funs: list[F1] = [lambda x: c, lambda x: jnp.ones(2), lambda x: 1.0]
    for fun in funs:
        closed = jt.make_jaxpr(fun)(V)
        check_closed_jaxpr(closed)
        out = jaxpr_as_fun(closed)(jnp.asarray(V))
        np.testing.assert_array_equal(np.asarray(out[0]), np.asarray(fun(V)))


def test_python_scalar_constant_output() -> None:
    # JAX returns a Python constant output of jvp unconverted; jaxtyped gives
    # an Array (its one array type). Values and tangent dtype agree.
    p, t = jt.jvp(fn1(lambda x: 3.0), (1.0,), (1.0,))
    assert float(p) == 3.0 and float(t) == 0.0
    assert t.dtype == np.float32
    both(lambda T, N: T.vmap(fn1(lambda x: 3.0))(V))


# === integer inputs (float0 tangents) ===


I = np.arange(3, dtype=np.int32)


def test_integer_input_with_float0_tangent() -> None:
    fun = fn2(lambda i, x: i * x)
    ours = jt.jvp(fun, (I, V), (np.zeros(3, jnp.float0), V))
    theirs = run_jax(lambda: jx.jvp(fun, (I, V), (np.zeros(3, jx.dtypes.float0), V)))
    assert_same(ours, theirs)


def test_integer_input_under_vmap_of_jvp() -> None:
    def program(T: ModuleType, N: ModuleType, float0: Any) -> Any:
        per = fn2(lambda i, x: T.jvp(fn2(lambda i, x: N.sin(x) * i), (i, x), (np.zeros((), float0), N.ones_like(x))))
        return T.vmap(per)(I, V)

    assert_same(program(jt, jnp, jnp.float0), run_jax(lambda: program(jx, jxnp, jx.dtypes.float0)))


def test_integer_output_has_float0_tangent() -> None:
    fun = fn1(lambda i: i * 2)
    ours = jt.jvp(fun, (I,), (np.zeros(3, jnp.float0),))
    theirs = jx.jvp(fun, (I,), (np.zeros(3, jx.dtypes.float0),))
    assert_same(ours, theirs)


def test_integer_output_of_float_input_has_float0_tangent() -> None:
    ours = jt.jvp(fn1(lambda x: (x * 2.0, jnp.argmax(x))), (V,), (V,))
    theirs = jx.jvp(fn1(lambda x: (x * 2.0, jxnp.argmax(x))), (V,), (V,))
    assert_same(ours, theirs)


def test_boolean_output_has_float0_tangent() -> None:
    fun = fn1(lambda x: x > 0.0)
    assert_same(jt.jvp(fun, (V,), (V,)), jx.jvp(fun, (V,), (V,)))


# === weak types ===


WEAK_PROGRAMS: list[tuple[str, Callable[[ModuleType], Callable[[Any], Any]]]] = [
    ("scale", lambda N: lambda x: x * 2.0),
    ("sin", lambda N: lambda x: N.sin(x)),
    ("add-self", lambda N: lambda x: x + x),
    ("mixed", lambda N: lambda x: N.sin(x) * x + 1.0),
    ("strong-const", lambda N: lambda x: x * np.float32(2.0)),
]


@pytest.mark.parametrize(("name", "make"), WEAK_PROGRAMS, ids=[n for n, _ in WEAK_PROGRAMS])
@pytest.mark.parametrize("primal", [2.0, np.float32(2.0)], ids=["python-float", "np-float32"])
def test_weak_type_through_jvp(name: str, make: Callable[[ModuleType], Callable[[Any], Any]], primal: Any) -> None:
    both(lambda T, N: T.jvp(make(N), (primal,), (primal,)))


@pytest.mark.parametrize(("name", "make"), WEAK_PROGRAMS, ids=[n for n, _ in WEAK_PROGRAMS])
def test_weak_type_through_vmap(name: str, make: Callable[[ModuleType], Callable[[Any], Any]]) -> None:
    both(lambda T, N: T.vmap(make(N))(np.ones(3)))


def test_weak_type_of_weak_array_through_jvp() -> None:
    x = jnp.asarray(2.0)
    assert x.weak_type
    p, t = jt.jvp(fn1(lambda y: y * 3.0), (x,), (x,))
    xj = jxnp.asarray(2.0)
    pj, tj = jx.jvp(fn1(lambda y: y * 3.0), (xj,), (xj,))
    assert (p.weak_type, t.weak_type) == (pj.weak_type, tj.weak_type) == (True, True)


def test_weak_type_of_zero_tangent() -> None:
    t = jt.jvp(fn1(lambda x: 3.0), (1.0,), (1.0,))[1]
    _, tj = jx.jvp(fn1(lambda x: 3.0), (1.0,), (1.0,))
    assert t.weak_type == tj.weak_type


def test_weak_type_of_jacfwd_at_python_scalar() -> None:
    fun = fn1(lambda x: x * 2.0)
    assert_same(jt.jacfwd(fun)(2.0), jx.jacfwd(fun)(2.0))
