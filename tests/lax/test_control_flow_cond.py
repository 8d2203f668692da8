"""``jt.lax.cond`` and ``jt.lax.switch`` against real JAX.

Each program is written once against a triple of namespaces (``T`` is
``jaxtyped`` or ``jax``, ``L`` its ``lax``, ``N`` its numpy) and run on
both under every transformation (eager, jit, jvp, grad, vjp, linearize,
vmap, compositions); results must agree in pytree structure, shape,
dtype, weak type and value. Then: batched predicates and indices (JAX
runs every branch and selects), weak-typed outputs, index clamping,
predicate conversions, branches that ignore their operands or return
zero tangents, second order, printed jaxprs (compared with JAX's up to
variable names), lowered StableHLO, and the error messages.
"""

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import JaxtypedTypeError
from jaxtyped.test_util import check_grads
from lambdas import fn0, fn1, fn2
from oracle import assert_same as oracle_assert_same

jax: Any = pytest.importorskip("jax")
jaxnp: Any = pytest.importorskip("jax.numpy")

# (T, L, N) per library: the programs are untyped, written once for both.
Libs = tuple[Any, Any, Any]
OURS: Libs = (jt, jt.lax, jnp)
THEIRS: Libs = (jax, jax.lax, jaxnp)

Fn = Callable[..., Any]

# jaxtyped's lax, untyped: for calls that pass ill-typed arguments on purpose
# (under JAXTYPED_DEBUG=1 beartype rejects those calls first).
untyped_lax: Any = jt.lax
DEBUG_MODE = "|violates type hint" if jt.DEBUG else ""
# vmap examples: example k is the input times LANES[k] (signs differ, so do branches).
LANES = np.array([1.0, -1.0, 0.5], np.float32)


assert_same = functools.partial(oracle_assert_same, tree=True, rtol=2e-5, atol=2e-5)


def jax_jitted(run: Callable[[Libs], Any]) -> Any:
    """``run(THEIRS)`` under one ``jax.jit`` (its inputs are constants):
    eager JAX compiles every ``cond`` and transformation piece apart."""
    return jax.jit(fn0(lambda: run(THEIRS)))()


def _like(x: Any, seed: int) -> Any:
    """A fixed pseudo-random array shaped like ``x`` (tangents, cotangents)."""
    shape, dtype = np.shape(x), np.dtype(x.dtype)  # x: an array or a jax.ShapeDtypeStruct
    return (np.cos(np.arange(np.prod(shape)) * 1.7 + seed) * 1.5).reshape(shape).astype(dtype)


def _tree_like(tree: Any, seed: int) -> Any:
    return jax.tree_util.tree_map(fn1(lambda x: _like(x, seed)), tree)


def _batched(tree: Any, libs: Libs = THEIRS) -> Any:
    """``tree`` with every leaf stacked ``B`` times, scaled by ``LANES``
    (with ``libs``' numpy: the leaves may be tracers)."""
    N = libs[2]
    return jax.tree_util.tree_map(fn1(lambda x: N.stack([x * s for s in LANES])), tree)


def _loss(libs: Libs, f: Fn) -> Fn:
    """A scalar of ``f``'s output: a weighted, non-linear sum of its
    floating leaves (so that permuted or wrong cotangents show)."""
    T, _, N = libs

    def loss(*xs: Any) -> Any:
        leaves: list[Any] = T.tree_util.tree_leaves(f(*xs))
        floats = [leaf for leaf in leaves if np.issubdtype(leaf.dtype, np.floating)]
        return sum(N.sum(N.sin(leaf) * (k + 1.0)) for k, leaf in enumerate(floats))

    return loss


# === programs, written once for both libraries ===


@dataclass(frozen=True)
class Program:
    """``make(T, L, N)`` returns a function of ``args`` (floating pytrees)
    whose body uses ``cond`` or ``switch``."""

    id: str
    make: Callable[[Any, Any, Any], Fn]
    args: tuple[Any, ...]


X = np.array([0.3, -1.2, 2.0], np.float32)
Y = np.array([1.1, 0.4, -0.7], np.float32)


def constant_preds(T: Any, L: Any, N: Any) -> Fn:
    # Predicates known at trace time, of each kind (non-zero is true).
    def f(x: Any, y: Any) -> Any:
        preds = (True, False, np.int32(-2), np.float32(0.0), np.uint8(1))
        return tuple(L.cond(p, fn2(lambda a, b: N.sin(a) * b), fn2(lambda a, b: a - b * b), x, y) for p in preds)

    return f


def data_pred(T: Any, L: Any, N: Any) -> Fn:
    # The predicate depends on the operands: traced under jit, batched under vmap.
    def f(x: Any, y: Any) -> Any:
        return L.cond(N.sum(x) > 0, fn2(lambda a, b: N.sin(a) * b), fn2(lambda a, b: N.cos(b) * a), x, y)

    return f


def float_data_pred(T: Any, L: Any, N: Any) -> Fn:
    # A traced float predicate (non-zero is true): floor(x[0]) is 0 for x[0] in [0, 1).
    def f(x: Any, y: Any) -> Any:
        return L.cond(N.floor(x[0]), fn2(lambda a, b: a * b), fn2(lambda a, b: a + b), x, y)

    return f


def constant_indices(T: Any, L: Any, N: Any) -> Fn:
    # Indices known at trace time, out-of-range ones clamped.
    def f(x: Any) -> Any:
        return tuple(L.switch(i, [N.sin, fn1(lambda a: a * a), fn1(lambda a: N.exp(a) - a)], x) for i in (-3, 1, 9))

    return f


def data_index(T: Any, L: Any, N: Any) -> Fn:
    def f(x: Any) -> Any:
        return L.switch(N.argmax(x), [N.sin, fn1(lambda a: a * a), fn1(lambda a: N.exp(a) - a)], x)

    return f


def pytree_program(T: Any, L: Any, N: Any) -> Fn:
    # Dict and tuple operands with a None leaf; a dict output with a tuple.
    def true_fun(d: Any) -> Any:
        return {"s": N.sum(d["x"] * d["pair"][1]), "v": (d["x"] * 2.0, d["pair"][0])}

    def false_fun(d: Any) -> Any:
        return {"s": d["pair"][1], "v": (N.sin(d["x"]), d["pair"][0] * d["pair"][1])}

    def f(x: Any, y: Any) -> Any:
        return L.cond(N.sum(x) > 0, true_fun, false_fun, {"x": x, "pair": (y, x[1]), "none": None})

    return f


def closure_program(T: Any, L: Any, N: Any) -> Fn:
    # The branches close over y, a value being differentiated or batched.
    def f(x: Any, y: Any) -> Any:
        return L.cond(N.sum(x) > 0, fn1(lambda a: a * y), fn1(lambda a: N.sin(a) + N.sum(y)), x)

    return f


def no_operands(T: Any, L: Any, N: Any) -> Fn:
    def f(x: Any) -> Any:
        return L.cond(x[0] > 0, fn0(lambda: N.sin(x)), fn0(lambda: x * 2.0))

    return f


def constant_branch(T: Any, L: Any, N: Any) -> Fn:
    # One branch ignores its operand: its tangent is zero, the other's not.
    def f(x: Any) -> Any:
        return L.cond(N.sum(x) > 0, fn1(lambda a: np.full(3, 2.5, np.float32)), fn1(lambda a: a * a), x)

    return f


def stop_gradient_branch(T: Any, L: Any, N: Any) -> Fn:
    def f(x: Any) -> Any:
        return L.cond(N.sum(x) < 0, fn1(lambda a: (L.stop_gradient(a) * 3.0, a)), fn1(lambda a: (a * a, a * 0.0)), x)

    return f


def one_branch_uses(T: Any, L: Any, N: Any) -> Fn:
    # y only matters in the true branch: its gradient is zero in the other.
    def f(x: Any, y: Any) -> Any:
        return L.cond(N.sum(x) > 0, fn2(lambda a, b: a * b), fn2(lambda a, b: N.sin(a)), x, y)

    return f


def weak_operand(T: Any, L: Any, N: Any) -> Fn:
    # A Python scalar operand is weakly typed inside the branches.
    def f(x: Any) -> Any:
        return L.cond(N.sum(x) > 0, fn2(lambda a, s: a * s), fn2(lambda a, s: a + s), x, 2.0)

    return f


def nested(T: Any, L: Any, N: Any) -> Fn:
    # A switch inside a cond inside a cond, and a vmap inside a branch.
    def inner(a: Any) -> Any:
        def switched(b: Any) -> Any:
            return L.switch(N.argmax(b), [N.sin, N.cos, N.tanh], b)

        return L.cond(a[1] > 0, switched, fn1(lambda b: b * 3.0), a)

    def f(x: Any) -> Any:
        return L.cond(x[0] < 1.0, inner, fn1(lambda a: T.vmap(fn1(lambda e: e * N.sin(e)))(a)), x)

    return f


PROGRAMS: list[Program] = [
    Program("constant_preds", constant_preds, (X, Y)),
    Program("cond_data_pred", data_pred, (X, Y)),
    Program("cond_float_data_pred", float_data_pred, (np.abs(X), Y)),
    Program("constant_indices", constant_indices, (X,)),
    Program("switch_data_index", data_index, (X,)),
    Program("pytree", pytree_program, (X, np.float32(0.8))),
    Program("closure", closure_program, (X, Y)),
    Program("no_operands", no_operands, (X,)),
    Program("constant_branch", constant_branch, (X,)),
    Program("stop_gradient_branch", stop_gradient_branch, (-X,)),
    Program("one_branch_uses", one_branch_uses, (-X, Y)),
    Program("weak_operand", weak_operand, (X,)),
    Program("nested", nested, (X,)),
]
BY_ID = {p.id: p for p in PROGRAMS}


def _argnums(p: Program) -> tuple[int, ...]:
    return tuple(range(len(p.args)))


def _out_cotangent(p: Program) -> Any:
    # From JAX's output type: the cotangent is built outside any trace.
    return _tree_like(jax.eval_shape(p.make(*THEIRS), *p.args), 2)


# A transformation of a program, run on ``args`` (``p.args``, or tracers of
# them when JAX's results are computed in one jitted program).
Transform = Callable[[Libs, Program, tuple[Any, ...]], Any]


def _eager(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    return p.make(*libs)(*args)


def _jit(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    return libs[0].jit(p.make(*libs))(*args)


def _jvp(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    return libs[0].jvp(p.make(*libs), args, _tree_like(p.args, 1))


def _grad(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    return libs[0].grad(_loss(libs, p.make(*libs)), argnums=_argnums(p))(*args)


def _vjp(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    out, pullback = libs[0].vjp(p.make(*libs), *args)
    return out, pullback(_out_cotangent(p))


def _linearize(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    out, f_jvp = libs[0].linearize(p.make(*libs), *args)
    return out, f_jvp(*_tree_like(p.args, 1))  # jvp's tangents: the same JAX oracle


def _vmap(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    return libs[0].vmap(p.make(*libs))(*_batched(args, libs))


def _jit_vmap_grad(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    T = libs[0]
    return T.jit(T.vmap(T.grad(_loss(libs, p.make(*libs)), argnums=_argnums(p))))(*_batched(args, libs))


def _grad_jit(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    T = libs[0]
    return T.grad(_loss(libs, T.jit(p.make(*libs))), argnums=_argnums(p))(*args)


def _vmap_jvp(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    T = libs[0]
    f = p.make(*libs)

    def pushforward(xs: Any, ts: Any) -> Any:
        return T.jvp(f, xs, ts)

    return T.vmap(pushforward)(_batched(args, libs), _batched(_tree_like(p.args, 4), libs))


def _hvp(libs: Libs, p: Program, args: tuple[Any, ...]) -> Any:
    # Forward over reverse: second order.
    T = libs[0]
    g = T.grad(_loss(libs, p.make(*libs)), argnums=_argnums(p))
    return T.jvp(g, args, _tree_like(p.args, 5))


TRANSFORMS: dict[str, Transform] = {
    "eager": _eager,
    "jit": _jit,
    "jvp": _jvp,
    "grad": _grad,
    "vjp": _vjp,
    "linearize": _linearize,
    "vmap": _vmap,
    "jit_vmap_grad": _jit_vmap_grad,
    "grad_jit": _grad_jit,
    "vmap_jvp": _vmap_jvp,
    "hvp": _hvp,
}


# Transformations whose results equal another's (the same JAX oracle).
SAME_AS = {"jit": "eager", "linearize": "jvp", "grad_jit": "grad"}


@functools.cache
def jax_results(program_id: str) -> dict[str, Any]:
    """JAX's results of every transformation of one program, computed in
    one jitted program (JAX compiles each eager ``cond`` and each eager
    transformation's pieces separately, which would cost seconds)."""
    p = BY_ID[program_id]

    def everything(args: tuple[Any, ...]) -> dict[str, Any]:
        return {name: run(THEIRS, p, args) for name, run in TRANSFORMS.items() if name not in SAME_AS}

    results: dict[str, Any] = jax.jit(everything)(p.args)
    return results


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.id for p in PROGRAMS])
def test_program_matches_jax(program: Program, transform: str) -> None:
    ours = TRANSFORMS[transform](OURS, program, program.args)
    theirs = jax_results(program.id)[SAME_AS.get(transform, transform)]
    tolerance = 1e-4 if transform == "hvp" else 2e-5
    assert_same(ours, theirs, rtol=tolerance, atol=tolerance)


def test_eager_jax_agrees_with_jitted_jax() -> None:
    # The oracle runs JAX's transformations under one jit: spot-check it
    # against eager JAX.
    p = BY_ID["cond_data_pred"]
    for name in ("eager", "grad"):
        assert_same(jax_results(p.id)[name], TRANSFORMS[name](THEIRS, p, p.args), rtol=1e-6, atol=1e-6, kind=jax.Array)


def test_programs_take_both_branches_under_vmap() -> None:
    # The batch must mix branches for the vmap rows to test selection.
    x = np.asarray(_batched((X,))[0])
    assert len({bool(np.sum(row) > 0) for row in x}) == 2


# === batched predicates and indices ===


@pytest.mark.parametrize(
    "preds",
    [
        pytest.param(np.array([True, False, True]), id="bool"),
        pytest.param(np.array([0, -4, 7], np.int32), id="int32"),
        pytest.param(np.array([0.0, np.nan, -0.0], np.float32), id="float"),
        pytest.param(np.array([1, 0, 255], np.uint8), id="uint8"),
    ],
)
def test_vmap_batched_predicate(preds: Any) -> None:
    def run(libs: Libs) -> Any:
        T, L, N = libs

        def f(p: Any, x: Any, s: Any) -> Any:
            return L.cond(p, fn2(lambda a, b: (N.sin(a) * b, a[0])), fn2(lambda a, b: (a - b, b * 2.0)), x, s)

        batched = T.vmap(f)(preds, np.stack([X, Y, -X]), np.float32(1.5) * LANES)
        only_pred = T.vmap(f, in_axes=(0, None, None))(preds, X, np.float32(0.5))
        return batched, only_pred

    assert_same(run(OURS), jax_jitted(run))


def test_vmap_batched_switch_index_is_clamped() -> None:
    index = np.array([-5, 0, 1, 2, 40], np.int32)

    def run(libs: Libs) -> Any:
        T, L, N = libs

        def f(i: Any, x: Any) -> Any:
            return L.switch(i, [N.sin, N.cos, fn1(lambda a: a * 3.0)], x)

        ones = np.ones((3, 5), np.float32)
        return T.vmap(f, in_axes=(0, None))(index, X), T.jit(T.vmap(f, in_axes=(0, 1)))(index, ones)

    assert_same(run(OURS), jax_jitted(run))


def test_vmap_axes_not_zero() -> None:
    xs = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.0

    def run(libs: Libs) -> Any:
        T, L, N = libs

        def f(p: Any, x: Any) -> Any:
            return L.cond(p, fn1(lambda a: (a, N.sum(a))), fn1(lambda a: (a * 2.0, a[0])), x)

        unbatched_pred = T.vmap(f, in_axes=(None, 1), out_axes=(1, 0))(True, xs)
        batched_pred = T.vmap(f, in_axes=(0, 1), out_axes=(1, 0))(np.array([True, False, False, True]), xs)
        return unbatched_pred, batched_pred

    assert_same(run(OURS), jax_jitted(run))


def test_vmap_predicate_and_outputs_of_mixed_types() -> None:
    # Integer, weak and unbatched outputs under a batched predicate.
    preds = np.array([True, False, True])

    def run(libs: Libs) -> Any:
        T, L, _ = libs

        def f(p: Any) -> Any:
            return L.cond(p, fn0(lambda: (np.int32(1), 1.0, X)), fn0(lambda: (np.int32(7), 2.0, Y)))

        return T.vmap(f)(preds), T.jit(T.vmap(f))(preds)

    assert_same(run(OURS), jax_jitted(run))


def test_vmap_of_vmap_and_closure_over_batched_value() -> None:
    preds = np.array([[True, False], [False, True], [True, True]])
    scales = np.array([0.5, -2.0, 3.0], np.float32)

    def run(libs: Libs) -> Any:
        T, L, N = libs

        def outer(s: Any, ps: Any) -> Any:
            return T.vmap(fn1(lambda p: L.cond(p, fn1(lambda a: N.sin(a) * s), fn1(lambda a: a + s), X)))(ps)

        return T.vmap(outer)(scales, preds)

    assert_same(run(OURS), jax_jitted(run))


def test_grad_and_jvp_through_batched_predicate() -> None:
    xs = np.array([0.5, -1.5, 2.0, -0.1], np.float32)

    def run(libs: Libs) -> Any:
        T, L, N = libs

        def f(x: Any) -> Any:
            return L.cond(x > 0, fn1(lambda a: N.sin(a) * a), fn1(lambda a: a**3), x)

        def total(v: Any) -> Any:
            return N.sum(T.vmap(f)(v))

        return T.grad(total)(xs), T.jvp(T.vmap(f), (xs,), (np.ones(4, np.float32),)), T.vmap(T.grad(f))(xs)

    assert_same(run(OURS), jax_jitted(run))


def test_grad_of_batched_predicate_ignores_untaken_branch() -> None:
    # JAX stops the gradient of the operands of the lanes that do not take
    # a branch, so sqrt's infinite derivative at 0 does not give NaN.
    xs = np.array([0.0, 4.0, -1.0], np.float32)

    def run(libs: Libs) -> Any:
        T, L, N = libs

        def total(v: Any) -> Any:
            return N.sum(T.vmap(fn1(lambda x: L.cond(x > 0, N.sqrt, fn1(lambda a: -a), x)))(v))

        return T.grad(total)(xs)

    theirs = jax_jitted(run)
    np.testing.assert_array_equal(np.asarray(theirs), [-1.0, 0.25, -1.0])  # no NaN in JAX
    assert_same(run(OURS), theirs)


# === weak types ===


# JAX types a cond's output as its first branch's (false_fun's, branches[0]'s):
# a weak first branch beside a strong one gives a weak output. Each branch
# keeps its own weak types, so under vmap with a batched predicate, where JAX
# selects between the branches' results, the output is weak only if every
# branch's is (select_n's join): strong_true_weak_false and tuple_strong_true.


def _weak_cases() -> list[Any]:
    return [
        pytest.param(fn0(lambda: 1.0), fn0(lambda: 2.0), (), id="both_weak_floats"),
        pytest.param(fn0(lambda: 1.0), fn0(lambda: np.float32(2.0)), (), id="weak_true_strong_false"),
        pytest.param(fn0(lambda: np.float32(1.0)), fn0(lambda: 2.0), (), id="strong_true_weak_false"),
        pytest.param(fn0(lambda: 1), fn0(lambda: 2), (), id="both_weak_ints"),
        pytest.param(fn0(lambda: 3), fn0(lambda: np.int32(4)), (), id="weak_int_strong_int"),
        pytest.param(fn1(lambda s: s), fn1(lambda s: s * 2.0), (1.5,), id="weak_operand_passed_through"),
        pytest.param(fn1(lambda s: s), fn1(lambda s: s * np.float32(2.0)), (1.5,), id="weak_operand_made_strong"),
        pytest.param(
            fn1(lambda s: (s, s + 1.0, 1)),
            fn1(lambda s: (s * np.float32(1.0), s, np.int32(0))),
            (0.5,),
            id="tuple_mixed",
        ),
        pytest.param(
            fn1(lambda s: (s * np.float32(1.0), 1)), fn1(lambda s: (s, 0)), (0.5,), id="tuple_strong_true"
        ),
    ]


@pytest.mark.parametrize(("true_fun", "false_fun", "operands"), _weak_cases())
def test_output_weak_types_match_jax(true_fun: Fn, false_fun: Fn, operands: tuple[Any, ...]) -> None:
    def run(libs: Libs) -> Any:
        T, L, _ = libs
        eager = (L.cond(True, true_fun, false_fun, *operands), L.cond(False, true_fun, false_fun, *operands))
        staged = T.jit(fn1(lambda p: L.cond(p, true_fun, false_fun, *operands)))(False)
        switched = L.switch(1, [false_fun, true_fun, false_fun], *operands)
        return eager, staged, switched

    assert_same(run(OURS), jax_jitted(run))


@pytest.mark.parametrize(("true_fun", "false_fun", "operands"), _weak_cases())
def test_output_weak_types_with_batched_predicate_match_jax(
    true_fun: Fn, false_fun: Fn, operands: tuple[Any, ...]
) -> None:
    def run(libs: Libs) -> Any:
        T, L, _ = libs
        return T.vmap(fn1(lambda p: L.cond(p, true_fun, false_fun, *operands)))(np.array([True, False]))

    assert_same(run(OURS), jax_jitted(run))


# Branches that differ only in weak type: on a weak operand, ``WEAK`` keeps
# it weak and ``STRONG`` makes it strong.
WEAK = fn1(lambda s: s * 2.0)
STRONG = fn1(lambda s: s * np.float32(2.0))
PREDS = np.array([True, False, True])


def test_branch_weak_types_under_transformations_match_jax() -> None:
    def run(libs: Libs) -> Any:
        T, L, _ = libs

        def c(p: Any, s: Any) -> Any:  # branch 0 (false_fun) weak, true_fun strong
            return L.cond(p, STRONG, WEAK, s)

        def pair(p: Any, s: Any, x: Any) -> Any:  # a weak-typed output beside a batched one
            return L.cond(p, fn2(lambda a, b: (STRONG(a), b + 1.0)), fn2(lambda a, b: (WEAK(a), b - 1.0)), s, x)

        weak_lanes = L.broadcast(1.5, (3,))  # a batched weak operand
        indices = np.array([0, 1, 2, 7, -1], np.int32)
        return {
            "unbatched_pred": T.vmap(fn1(lambda s: c(True, s)))(weak_lanes),
            "batched_pred": T.vmap(c, in_axes=(0, None))(PREDS, 1.5),
            "batched_pred_and_operand": T.vmap(c)(PREDS, weak_lanes),
            "switch_strong_middle": T.vmap(fn1(lambda i: L.switch(i, [WEAK, STRONG, WEAK], 1.5)))(indices),
            "switch_strong_first": T.vmap(fn1(lambda i: L.switch(i, [STRONG, WEAK, WEAK], 1.5)))(indices),
            "switch_all_weak": T.vmap(fn1(lambda i: L.switch(i, [WEAK, WEAK, WEAK], 1.5)))(indices),
            "nested": T.vmap(T.vmap(fn1(lambda p: c(p, 1.5))))(np.array([[True, False], [False, False]])),
            "outer_pred": T.vmap(fn1(lambda p: T.vmap(fn1(lambda x: pair(p, 1.5, x)))(X)))(PREDS),
            "inner_pred": T.vmap(fn1(lambda x: T.vmap(fn1(lambda p: pair(p, 1.5, x)))(PREDS)))(X),
            "jit_of_vmap": T.jit(T.vmap(c, in_axes=(0, None)))(PREDS, 1.5),
            "jvp_of_vmap": T.jvp(fn1(lambda s: T.vmap(c, in_axes=(0, None))(PREDS, s)), (1.5,), (1.0,)),
            "vmap_of_grad": T.vmap(T.grad(c, argnums=1), in_axes=(0, None))(PREDS, 1.5),
            "vmap_of_jvp": T.vmap(fn1(lambda p: T.jvp(fn1(lambda s: c(p, s)), (1.5,), (1.0,))))(PREDS),
            "linearize": T.linearize(fn1(lambda s: c(PREDS[1], s)), 1.5)[1](0.5),
        }

    theirs = jax_jitted(run)
    assert_same(run(OURS), theirs)
    assert_same(jt.jit(fn0(lambda: run(OURS)))(), theirs)


def test_branch_weak_types_under_grad_of_vmap_match_eager_jax() -> None:
    # The selected lanes' cotangents, one weak and one strong, are summed:
    # jaxtyped with add (weak only if both are), as eager JAX does; jitted
    # JAX with add_any, typed as its first operand (weak here).
    def run(libs: Libs) -> Any:
        T, L, _ = libs
        return T.grad(fn1(lambda s: T.vmap(fn1(lambda p: L.cond(p, STRONG, WEAK, s)))(PREDS).sum()))(1.5)

    assert_same(run(OURS), run(THEIRS))
    assert_same(jt.jit(fn0(lambda: run(OURS)))(), run(THEIRS))


@pytest.mark.parametrize("pred", [True, False])
def test_eager_cond_has_first_branch_weak_types(pred: bool) -> None:
    # Eagerly only the taken branch runs; its result takes branch 0's weak type.
    def run(libs: Libs) -> Any:
        T, L, _ = libs
        return (
            L.cond(pred, STRONG, WEAK, 1.5),
            L.cond(pred, WEAK, STRONG, 1.5),
            L.switch(int(pred), [WEAK, STRONG], 1.5),
            T.jvp(fn1(lambda s: L.cond(pred, STRONG, WEAK, s)), (1.5,), (1.0,)),
            T.grad(fn1(lambda s: L.cond(pred, STRONG, WEAK, s)))(1.5),
        )

    assert_same(run(OURS), run(THEIRS))


def test_branches_keep_their_own_weak_types() -> None:
    closed = jt.make_jaxpr(fn2(lambda p, s: jt.lax.cond(p, STRONG, WEAK, s)))(True, 1.5)
    (eqn,) = [e for e in closed.jaxpr.eqns if e.primitive.name == "cond"]
    branches = cast(tuple[jt.core.Jaxpr, ...], eqn.params["branches"])
    assert [b.out_avals[0].weak_type for b in branches] == [True, False]
    assert eqn.outvars[0].aval.weak_type  # branches[0]'s
    jt.core.check_closed_jaxpr(closed)
    transformed = jt.make_jaxpr(jt.grad(fn2(lambda p, s: jt.lax.cond(p, STRONG, WEAK, s)), argnums=1))(True, 1.5)
    jt.core.check_closed_jaxpr(transformed)


def test_operand_keyword_as_jax() -> None:
    # JAX's older single-operand keyword, still accepted by JAX 0.10.
    inc, dec = fn1(lambda v: v + 1), fn1(lambda v: v - 1)
    oracle_assert_same(jt.lax.cond(True, inc, dec, operand=1.0), jax.lax.cond(True, inc, dec, operand=1.0))
    first, double = fn1(lambda p: p["a"]), fn1(lambda p: p["a"] * 2)
    host = np.arange(3.0, dtype=np.float32)
    oracle_assert_same(
        jt.lax.cond(False, first, double, operand={"a": jnp.asarray(host)}), jax.lax.cond(False, first, double, operand={"a": host})
    )
    tenfold = fn1(lambda v: v * 10)
    oracle_assert_same(jt.lax.switch(1, [inc, tenfold], operand=2.0), jax.lax.switch(1, [inc, tenfold], operand=2.0))
    staged = fn2(lambda p, v: jt.lax.cond(p, tenfold, inc, operand=v))
    jax_staged = fn2(lambda p, v: jax.lax.cond(p, tenfold, inc, operand=v))
    oracle_assert_same(jt.jit(staged)(True, 3.0), jax.jit(jax_staged)(True, 3.0))
    # Both at once: a static error too (no overload), so called through Any.
    cond: Any = jt.lax.cond
    switch: Any = jt.lax.switch
    with pytest.raises(JaxtypedTypeError, match=r"cond: if the 'operand' keyword is passed, no positional operands"):
        cond(True, inc, dec, 2.0, operand=1.0)
    with pytest.raises(JaxtypedTypeError, match=r"switch: if the 'operand' keyword is passed, no positional operands"):
        switch(0, [inc], 2.0, operand=1.0)
    with pytest.raises(TypeError, match="no positional operands can be passed"):
        jax.lax.cond(True, inc, dec, 2.0, operand=1.0)


def test_cond_rejects_branches_of_different_types() -> None:
    from jaxtyped._src.lax.control_flow.cond import Cond

    f32 = jt.make_jaxpr(fn1(lambda s: s * 2.0))(np.float32(1.0)).jaxpr
    i32 = jt.make_jaxpr(fn1(lambda s: s.astype(np.int32)))(np.float32(1.0)).jaxpr
    index = jt.core.ShapedArray((), np.dtype(np.int32))
    with pytest.raises(JaxtypedTypeError, match=r"cond: branches\[1\] has type \(f32\[\]\) -> \(i32\[\]\)"):
        Cond((f32, i32)).abstract_eval((index, f32.in_avals[0]))


# === predicates, indices, degenerate branches ===


@pytest.mark.parametrize(
    ("pred", "taken"),
    [
        (True, "true"), (False, "false"), (np.bool_(True), "true"),
        (1, "true"), (0, "false"), (-3, "true"), (np.int32(0), "false"), (np.uint8(200), "true"),
        (0.0, "false"), (-0.0, "false"), (0.25, "true"), (np.float32(-1e-30), "true"), (np.nan, "true"),
        (np.array(2, np.int8), "true"), (jnp.asarray(0.0), "false"),
    ],
)  # fmt: skip
def test_predicate_nonzero_is_true(pred: Any, taken: str) -> None:
    def run(libs: Libs) -> Any:
        T, L, _ = libs

        def f(p: Any, x: Any) -> Any:
            return L.cond(p, fn1(lambda a: a + 1.0), fn1(lambda a: a - 1.0), x)

        p = np.asarray(pred) if isinstance(pred, jt.Array) and libs is THEIRS else pred
        return f(p, X), T.jit(f)(p, X)  # a constant predicate, then a traced one

    want = X + 1.0 if taken == "true" else X - 1.0
    for got in (*run(OURS), *run(THEIRS)):
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("index", [-(2**31), -7, -1, 0, 1, 2, 3, 100, 2**31 - 1])
def test_switch_index_is_clamped(index: int) -> None:
    branches = [fn1(lambda a: a * 1.0), fn1(lambda a: a * 2.0), fn1(lambda a: a * 3.0)]
    want = X * (min(max(index, 0), 2) + 1.0)
    np.testing.assert_array_equal(np.asarray(jt.lax.switch(index, branches, X)), want)
    staged = jt.jit(fn1(lambda i: jt.lax.switch(i, branches, X)))(np.int32(index))
    np.testing.assert_array_equal(np.asarray(staged), want)


@pytest.mark.parametrize("index", [np.uint8(250), np.int8(-3), np.uint32(1)])
def test_switch_index_of_other_integer_types(index: Any) -> None:
    branches = [fn1(lambda a: a - 1.0), fn1(lambda a: a * 2.0)]
    assert_same(jt.lax.switch(index, branches, X), jax.lax.switch(index, branches, X))


def test_switch_with_one_branch_calls_it_directly() -> None:
    def f(i: Any, x: Any) -> Any:
        return jt.lax.switch(i, [fn1(lambda a: a * 2.0)], x)

    closed = jt.make_jaxpr(f)(5, X)
    assert "cond" not in str(closed)
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["mul"]
    np.testing.assert_array_equal(np.asarray(f(-1, X)), X * 2.0)
    assert_same(jt.grad(fn1(lambda x: jnp.sum(f(0, x))))(X), jax.grad(fn1(lambda x: jaxnp.sum(x * 2.0)))(X))


def test_branches_without_operands_returning_constants() -> None:
    def run(libs: Libs) -> Any:
        T, L, _ = libs

        def f(p: Any) -> Any:
            first = fn0(lambda: (np.float32(1.0), np.arange(3, dtype=np.int32)))
            return L.cond(p, first, fn0(lambda: (np.float32(-1.0), np.zeros(3, np.int32))))

        return f(True), f(False), T.jit(f)(False), T.vmap(f)(np.array([False, True]))

    assert_same(run(OURS), jax_jitted(run))


def test_cond_under_disable_jit() -> None:
    def run(libs: Libs) -> Any:
        T, L, N = libs
        with T.disable_jit():
            value = L.cond(np.float32(2.0), fn1(lambda a: a * 2.0), N.sin, X)
            grad = T.grad(fn1(lambda s: L.cond(s > 0, N.sin, N.cos, s)))(np.float32(0.3))
            batched = T.vmap(fn1(lambda p: L.switch(p, [N.sin, N.cos], X)))(np.array([0, 1, 1], np.int32))
        return value, grad, batched

    assert_same(run(OURS), run(THEIRS))


# === derivatives: zero tangents, one-sided operands, second order ===


def test_zero_tangent_in_one_branch_only() -> None:
    def run(libs: Libs) -> Any:
        T, L, _ = libs

        def f(s: Any) -> Any:
            zero_second = fn1(lambda a: (a * 2.0, L.stop_gradient(a)))
            return L.cond(s > 0, zero_second, fn1(lambda a: (np.float32(1.0), a * a)), s)

        return [T.jvp(f, (np.float32(v),), (np.float32(1.0),)) for v in (1.5, -1.5)]

    assert_same(run(OURS), jax_jitted(run))


def test_grad_of_operand_only_one_branch_uses() -> None:
    def run(libs: Libs) -> Any:
        T, L, N = libs

        def f(p: Any, x: Any, y: Any) -> Any:
            return N.sum(L.cond(p, fn2(lambda a, b: a * b), fn2(lambda a, b: N.sin(a)), x, y))

        return T.grad(f, argnums=(1, 2))(True, X, Y), T.grad(f, argnums=(1, 2))(False, X, Y)

    ours, theirs = run(OURS), jax_jitted(run)
    assert_same(ours, theirs)
    np.testing.assert_array_equal(np.asarray(ours[1][1]), np.zeros(3, np.float32))


@pytest.mark.parametrize("s", [0.7, -0.7])
def test_second_order_grad(s: float) -> None:
    def run(libs: Libs) -> Any:
        T, L, N = libs

        def f(x: Any) -> Any:
            return L.cond(x > 0, fn1(lambda a: N.sin(a) * a), fn1(lambda a: a**3), x)

        def g(x: Any, y: Any) -> Any:
            return N.sum(L.switch(N.argmax(x), [N.tanh, fn1(lambda a: N.sin(a) * y), N.exp], x * y))

        x = np.float32(s)
        return T.grad(T.grad(f))(x), T.hessian(g)(x * X, Y), T.jit(T.grad(T.grad(f)))(x)

    assert_same(run(OURS), jax_jitted(run), rtol=1e-4, atol=1e-4)


@pytest.mark.usefixtures("x64")
def test_second_order_matches_finite_differences() -> None:
    def f(x: Any) -> Any:
        return jt.lax.cond(jnp.sum(x) > 0, fn1(lambda a: jnp.sin(a) * a[::-1]), fn1(lambda a: a**3), x)

    for point in (X.astype(np.float64), -X.astype(np.float64)):
        check_grads(f, (point,), order=2, modes=("fwd", "rev"))


def test_linearize_is_linear_and_reusable() -> None:
    def f(x: Any) -> Any:
        return jt.lax.cond(jnp.sum(x) > 0, jnp.sin, fn1(lambda a: a * a), x)

    out, f_jvp = jt.linearize(f, X)
    t1, t2 = _like(X, 1), _like(X, 2)
    combined = np.asarray(f_jvp(t1)) + 2.0 * np.asarray(f_jvp(t2))
    np.testing.assert_allclose(np.asarray(f_jvp(t1 + 2.0 * t2)), combined, rtol=1e-5)
    theirs = jax.linearize(fn1(lambda x: jax.lax.cond(jaxnp.sum(x) > 0, jaxnp.sin, fn1(lambda a: a * a), x)), X)
    assert_same(out, theirs[0])
    assert "cond" in str(jt.make_jaxpr(f_jvp)(t1))  # the linear function still branches


# === printed jaxprs ===


_TOKEN = re.compile(r"[{}]|\b_\b|(?<![\w.=])[a-z]+(?![\w=\[])")


def canonical(text: str) -> str:
    """A jaxpr's text with each binder renamed v0, v1, ... in order of
    definition (a ``{`` opens a scope, so a name may be reused inside a
    branch), whitespace collapsed: two jaxprs that differ only in their
    variable names print the same."""
    scopes: list[dict[str, str]] = [{}]
    out: list[str] = []
    last = 0
    fresh = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        out.append(text[last : match.start()])
        last = match.end()
        if token == "{":
            scopes.append({})
        elif token == "}":
            scopes.pop()
        elif text.startswith(":", match.end()):  # a binder: ``a:f32[]``
            scopes[-1][token] = f"v{fresh}"
            token, fresh = f"v{fresh}", fresh + 1
        else:
            token = next((s[token] for s in reversed(scopes) if token in s), token)
        out.append(token)
    out.append(text[last:])
    return " ".join("".join(out).split())


def test_canonical_renames_by_scope() -> None:
    assert canonical("{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }") == canonical(
        "{ lambda ; x:f32[]. let y:f32[] = sin x in (y,) }"
    )
    assert canonical("{ a:f32[] { a:f32[] a } a }") == "{ v0:f32[] { v1:f32[] v1 } v0 }"
    assert canonical("b = cos a") != canonical("b = sin a")


def _jaxpr_bool_pred(T: Any, L: Any, N: Any) -> Fn:
    def f(p: Any, x: Any) -> Any:
        return L.cond(p, fn2(lambda a, b: (N.sin(a) * b, a)), fn2(lambda a, b: (a - b, b)), x, x * 3.0)

    return f


def _jaxpr_number_pred(T: Any, L: Any, N: Any) -> Fn:
    return fn2(lambda p, x: L.cond(p, N.sin, N.cos, x))


def _jaxpr_no_operands(T: Any, L: Any, N: Any) -> Fn:
    return fn1(lambda p: L.cond(p, fn0(lambda: np.float32(1.0)), fn0(lambda: np.float32(2.0))))


def _jaxpr_vmap_operand(T: Any, L: Any, N: Any) -> Fn:
    batched: Fn = T.vmap(fn2(lambda x, p: L.cond(p, N.sin, N.cos, x)), in_axes=(0, None))
    return batched


def _jaxpr_vmap_predicate(T: Any, L: Any, N: Any) -> Fn:
    batched: Fn = T.vmap(fn1(lambda x: L.cond(x > 0, N.sin, N.cos, x)))
    return batched


JAXPR_PROGRAMS: dict[str, tuple[Callable[[Any, Any, Any], Fn], tuple[Any, ...]]] = {
    "bool_pred": (_jaxpr_bool_pred, (True, X)),
    "float_pred": (_jaxpr_number_pred, (np.float32(1.0), X)),
    "int_pred": (_jaxpr_number_pred, (np.int32(1), X)),
    "no_operands": (_jaxpr_no_operands, (True,)),
    "vmap_operand": (_jaxpr_vmap_operand, (X, True)),
    "vmap_predicate": (_jaxpr_vmap_predicate, (X,)),
    # Each branch keeps its weak types: no conversion is added to either.
    "weak_and_strong_branches": (lambda T, L, N: fn2(lambda p, s: L.cond(p, STRONG, WEAK, s)), (True, 1.5)),
    "weak_and_strong_constants": (lambda T, L, N: fn1(lambda p: L.cond(p, fn0(lambda: np.float32(1.0)), fn0(lambda: 2.0))), (True,)),
}


@pytest.mark.parametrize("name", list(JAXPR_PROGRAMS))
def test_make_jaxpr_prints_like_jax(name: str) -> None:
    make, args = JAXPR_PROGRAMS[name]
    ours = str(jt.make_jaxpr(make(*OURS))(*args))
    theirs = str(jax.make_jaxpr(make(*THEIRS))(*args))
    assert canonical(ours) == canonical(theirs), f"ours:\n{ours}\nJAX's:\n{theirs}"


def test_make_jaxpr_of_switch() -> None:
    def f(i: Any, x: Any) -> Any:
        return jt.lax.switch(i, [jnp.sin, jnp.cos, fn1(lambda a: a * 2.0)], x)

    text = str(jt.make_jaxpr(f)(1, X))
    assert "= cond[\n      branches=(\n        { lambda ; " in text
    assert text.count("{ lambda ; ") == 4  # the outer jaxpr and three branches
    assert re.search(r"sin .*\n.*cos .*\n.*mul .* 2\.0:f32\[\]", text, re.DOTALL), text


def test_make_jaxpr_of_grad_has_forward_and_backward_conds() -> None:
    closed = jt.make_jaxpr(jt.grad(fn1(lambda x: jt.lax.cond(x > 0, jnp.sin, jnp.cos, x))))(np.float32(1.0))
    conds = [e for e in closed.jaxpr.eqns if e.primitive.name == "cond"]
    # As JAX's: the forward cond saves residuals, the backward one uses them.
    assert len(conds) == 2 and str(closed).count("= cond[") == 2
    for eqn in conds:
        branches = eqn.params["branches"]
        assert isinstance(branches, tuple) and len(cast(tuple[object, ...], branches)) == 2
        assert eqn.invars[0] == conds[0].invars[0]  # both on the same index
    jt.core.check_closed_jaxpr(closed)


def test_make_jaxpr_of_batched_predicate_selects() -> None:
    text = str(jt.make_jaxpr(jt.vmap(fn1(lambda x: jt.lax.cond(x > 0, jnp.sin, jnp.cos, x))))(X))
    assert "cond[" not in text and "select_n" in text and "sin" in text and "cos" in text
    assert text.count("stop_gradient") == 2  # each branch's operands, in the lanes not taking it


# === lowering ===


def test_lowering_uses_stablehlo_case() -> None:
    def f(p: Any, x: Any) -> Any:
        return jt.lax.cond(p, jnp.sin, fn1(lambda a: a * 2.0), x)

    text = jt.jit(f).lower(True, X).as_text()
    assert text.count('"stablehlo.case"') == 1
    assert text.count("stablehlo.return") == 2
    assert "stablehlo.sine" in text and "stablehlo.multiply" in text
    switch_text = jt.jit(fn2(lambda i, x: jt.lax.switch(i, [jnp.sin, jnp.cos, jnp.exp], x))).lower(2, X).as_text()
    assert switch_text.count("stablehlo.return") == 3 and '"stablehlo.case"' in switch_text
    batched_text = jt.jit(jt.vmap(f)).lower(np.array([True, False]), np.ones((2, 3), np.float32)).as_text()
    assert "stablehlo.case" not in batched_text and "stablehlo.select" in batched_text


# === errors ===


def _branch_a(x: Any) -> Any:
    return {"a": x, "b": (x, x)}


def _branch_int(x: Any) -> Any:
    return {"a": x, "b": (x, x.astype(np.int32))}


def _branch_short(x: Any) -> Any:
    return {"a": x, "b": (x, x[:2])}


def _branch_list(x: Any) -> Any:
    return {"a": x, "b": [x, x]}


def _cond_error(true_fun: Fn, false_fun: Fn) -> str:
    with pytest.raises(JaxtypedTypeError) as info:
        jt.lax.cond(True, true_fun, false_fun, X)
    return str(info.value)


def test_error_different_output_structure() -> None:
    message = _cond_error(_branch_a, _branch_list)
    assert "cond" in message and "pytree structure" in message
    assert "true_fun (_branch_a at" in message and "false_fun (_branch_list at" in message
    assert "test_control_flow_cond.py" in message


def test_error_different_dtype() -> None:
    message = _cond_error(_branch_a, _branch_int)
    assert "output['b'][1]" in message and "f32[3]" in message and "i32[3]" in message
    assert "true_fun (_branch_a at" in message and "false_fun (_branch_int at" in message
    assert "dtypes do not match" in message


def test_error_different_shape() -> None:
    message = _cond_error(_branch_short, _branch_a)
    assert "output['b'][1]" in message and "f32[2]" in message and "f32[3]" in message
    assert "true_fun (_branch_short at" in message and "false_fun (_branch_a at" in message
    assert "shapes do not match" in message


def test_error_under_jit_and_vmap_names_the_branches_too() -> None:
    with pytest.raises(JaxtypedTypeError, match=r"output\['b'\]\[1\] has type f32\[3\] in true_fun \(_branch_a"):
        jt.jit(fn1(lambda x: jt.lax.cond(x[0] > 0, _branch_a, _branch_int, x)))(X)
    with pytest.raises(JaxtypedTypeError, match=r"false_fun \(_branch_int"):
        jt.vmap(fn2(lambda p, x: jt.lax.cond(p, _branch_a, _branch_int, x)))(np.array([True, False]), np.ones((2, 3)))


def test_error_switch_names_the_disagreeing_branches() -> None:
    with pytest.raises(JaxtypedTypeError) as info:
        jt.lax.switch(0, [_branch_a, _branch_a, _branch_int], X)
    message = str(info.value)
    assert "switch" in message and "branches[0] (_branch_a at" in message and "branches[2] (_branch_int at" in message
    assert "output['b'][1]" in message and "f32[3]" in message and "i32[3]" in message


@pytest.mark.parametrize(
    ("pred", "pieces"),
    [
        (np.array([True, False]), ("cond", "predicate", "scalar", "bool[2]")),
        (np.ones((1, 1), np.float32), ("cond", "predicate", "scalar", "f32[1,1]")),
        (np.complex64(1.0), ("cond", "predicate", "boolean or number", "c64[]")),
    ],
)
def test_error_bad_predicate(pred: Any, pieces: tuple[str, ...]) -> None:
    with pytest.raises(JaxtypedTypeError) as info:
        jt.lax.cond(pred, jnp.sin, jnp.cos, X)
    for piece in pieces:
        assert piece in str(info.value)


@pytest.mark.parametrize(("pred", "name"), [("yes", "str"), (None, "NoneType"), ([True], "list")])
def test_error_predicate_not_an_array(pred: object, name: str) -> None:
    with pytest.raises(JaxtypedTypeError, match=f"cond predicate has type {name}" + DEBUG_MODE):
        untyped_lax.cond(pred, jnp.sin, jnp.cos, X)


def test_error_bad_predicate_under_vmap() -> None:
    with pytest.raises(JaxtypedTypeError, match=r"cond: the predicate must be a scalar, got bool\[2\]"):
        jt.vmap(fn1(lambda p: jt.lax.cond(p, jnp.sin, jnp.cos, X)))(np.ones((3, 2), bool))


@pytest.mark.parametrize(
    ("index", "shown"), [(1.0, "f32[]"), (np.float16(0.0), "f16[]"), (np.complex64(1), "c64[]")]
)
def test_error_switch_non_integer_index(index: Any, shown: str) -> None:
    message = rf"switch: the index must be an integer scalar, got {re.escape(shown)}"
    with pytest.raises(JaxtypedTypeError, match=message):
        jt.lax.switch(index, [jnp.sin, jnp.cos], X)
    with pytest.raises(TypeError):  # JAX agrees
        jax.lax.switch(index, [jaxnp.sin, jaxnp.cos], X)


def test_error_switch_non_scalar_index() -> None:
    with pytest.raises(JaxtypedTypeError, match=r"switch: the index must be a scalar, got i32\[2\]"):
        jt.lax.switch(np.array([0, 1], np.int32), [jnp.sin, jnp.cos], X)


def test_error_switch_boolean_index() -> None:
    with pytest.raises(TypeError):  # JAX: a boolean is not an integer index
        jax.lax.switch(True, [jaxnp.sin, jaxnp.cos], X)
    with pytest.raises(JaxtypedTypeError, match=r"switch: the index must be an integer scalar, got bool\[\]"):
        jt.lax.switch(True, [jnp.sin, jnp.cos], X)


def test_error_switch_empty_branches() -> None:
    with pytest.raises(JaxtypedTypeError, match="switch: branches must be a non-empty sequence"):
        jt.lax.switch(0, [], X)
    with pytest.raises(ValueError):  # JAX agrees (as a ValueError)
        jax.lax.switch(0, [], X)


def test_error_non_callable_branch() -> None:
    with pytest.raises(JaxtypedTypeError, match=r"switch: branches\[1\] is not callable \(got int\)" + DEBUG_MODE):
        untyped_lax.switch(0, [jnp.sin, 3], X)
    with pytest.raises(JaxtypedTypeError, match=r"cond: true_fun is not callable \(got str\)" + DEBUG_MODE):
        untyped_lax.cond(True, "sin", jnp.cos, X)
    with pytest.raises(JaxtypedTypeError, match=r"cond: false_fun is not callable \(got NoneType\)" + DEBUG_MODE):
        untyped_lax.cond(True, jnp.sin, None, X)


def test_error_bad_operand_names_its_path() -> None:
    with pytest.raises(JaxtypedTypeError, match=r"operands\[0\]\['k'\].*str"):
        jt.lax.cond(True, fn1(lambda d: d), fn1(lambda d: d), {"k": "text"})


def test_error_bad_branch_output_names_the_branch() -> None:
    with pytest.raises(JaxtypedTypeError, match=r"false_fun.*output\[1\].*str"):
        jt.lax.cond(True, fn1(lambda x: (x, x)), fn1(lambda x: (x, "no")), X)
