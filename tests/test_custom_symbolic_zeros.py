"""The ``symbolic_zeros=True`` modes of custom_jvp / custom_vjp against JAX.

Each program is written once against a library namespace ``L`` (``jaxtyped``
or ``jax``) and run on both. The custom rules log what they receive (which
tangents and cotangents are ``SymbolicZero``, with their types, and which
primals a fwd rule is told are ``perturbed``): the distinct entries of the
logs must be equal, in order (how often a rule is traced, e.g. while a loop
looks for its carries' fixed point, is not compared), and so must results, under jvp, grad, vjp, jit, vmap, scan and checkpoint. Also:
``SymbolicZero``'s attributes, ``zero_from_primal``,
``custom_vjp_primal_tree_values``, errors for bad rule outputs, gradients
against finite differences in float64, and refs passed through a fwd rule.
"""

import functools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.custom_derivatives import CustomVJPPrimal, SymbolicZero, custom_vjp_primal_tree_values, zero_from_primal
from jaxtyped.errors import JaxtypedTypeError
from jaxtyped.test_util import check_grads
from lambdas import fn1, fn2, fn3
from oracle import assert_same as oracle_assert_same
from oracle import printed_by, raises_as_jax

jx: Any = pytest.importorskip("jax")

Log = list[tuple[object, ...]]


def distinct(log: Log) -> list[tuple[object, ...]]:
    """A log's distinct entries, in order of first appearance."""
    return list(dict.fromkeys(log))

X = np.linspace(-1.5, 2.0, 5).astype(np.float32)
Y = np.linspace(0.5, 3.0, 5).astype(np.float32)
V = np.linspace(0.5, -0.5, 5).astype(np.float32)
X0 = np.float32(0.7)

assert_same = functools.partial(oracle_assert_same, tree=True, rtol=2e-5, atol=2e-6)
Program = Callable[[Any, Any], Any]  # (library, custom function) -> result


def run_both(make: Callable[[Any, Log], Any], program: Program) -> tuple[list[Any], list[Log]]:
    """``program`` on jaxtyped and on JAX, each with the custom function
    ``make`` builds for it: the results and the rules' logs."""
    results: list[Any] = []
    logs: list[Log] = []
    for L in (jt, jx):
        log: Log = []
        results.append(program(L, make(L, log)))
        logs.append(log)
    return results, logs


def describe(L: Any, t: Any) -> object:
    """How a rule's tangent or cotangent is logged: a symbolic zero by its
    type, anything else as a value."""
    if isinstance(t, L.custom_derivatives.SymbolicZero):
        return ("zero", tuple(t.shape), str(np.dtype(t.dtype)))
    return "value"


def total(*terms: tuple[bool, Callable[[], Any]]) -> Any:
    """The sum of the terms whose flag is set (None if none is): each term
    is computed only when needed, as a rule must not touch a SymbolicZero."""
    live = [term() for needed, term in terms if needed]
    return functools.reduce(operator.add, live) if live else None


# === custom_jvp ===


def make_mul(L: Any, log: Log) -> Any:
    """``x * y`` whose symbolic_zeros rule skips the zero tangents' terms
    and returns a SymbolicZero when both are zero."""
    zero = L.custom_derivatives.SymbolicZero

    def mul_impl(x: Any, y: Any) -> Any:
        return x * y

    mul: Any = L.custom_jvp(mul_impl)

    def mul_jvp(primals: Any, tangents: Any) -> Any:
        (x, y), (tx, ty) = primals, tangents
        log.append(("jvp", describe(L, tx), describe(L, ty)))
        out = x * y
        t = total((not isinstance(tx, zero), lambda: tx * y), (not isinstance(ty, zero), lambda: x * ty))
        return out, zero.from_primal_value(out) if t is None else t

    mul.defjvp(mul_jvp, symbolic_zeros=True)
    return mul


def make_split(L: Any, log: Log) -> Any:
    """``(2x, 3y)``: the rule returns a SymbolicZero output tangent for
    each zero input tangent."""
    zero = L.custom_derivatives.SymbolicZero

    def split_impl(x: Any, y: Any) -> Any:
        return x * 2.0, y * 3.0

    split: Any = L.custom_jvp(split_impl)

    def split_jvp(primals: Any, tangents: Any) -> Any:
        (x, y), (tx, ty) = primals, tangents
        log.append(("jvp", describe(L, tx), describe(L, ty)))
        out = split(x, y)
        t0 = zero.from_primal_value(out[0]) if isinstance(tx, zero) else tx * 2.0
        t1 = zero.from_primal_value(out[1]) if isinstance(ty, zero) else ty * 3.0
        return out, (t0, t1)

    split.defjvp(split_jvp, symbolic_zeros=True)
    return split


def make_scale(L: Any, log: Log) -> Any:
    """``x * n`` for an integer ``n``: its tangent is a float0 zero."""
    zero = L.custom_derivatives.SymbolicZero

    def scale_impl(x: Any, n: Any) -> Any:
        return x * n

    scale: Any = L.custom_jvp(scale_impl)

    def scale_jvp(primals: Any, tangents: Any) -> Any:
        (x, n), (tx, tn) = primals, tangents
        log.append(("jvp", describe(L, tx), describe(L, tn)))
        return x * n, L.numpy.zeros_like(x) if isinstance(tx, zero) else tx * n

    scale.defjvp(scale_jvp, symbolic_zeros=True)
    return scale


def make_apply(L: Any, log: Log) -> Any:
    """``fn(x) * y`` with ``fn`` in nondiff_argnums."""
    zero = L.custom_derivatives.SymbolicZero

    def apply(fn: Any, x: Any, y: Any) -> Any:
        return fn(x) * y

    custom = L.custom_jvp(apply, nondiff_argnums=(0,))

    def apply_jvp(fn: Any, primals: Any, tangents: Any) -> Any:
        (x, y), (tx, ty) = primals, tangents
        log.append(("jvp", describe(L, tx), describe(L, ty)))
        out = fn(x) * y
        _, dfx = L.jvp(fn, (x,), (L.numpy.zeros_like(x) if isinstance(tx, zero) else tx,))
        return out, dfx * y + (0.0 if isinstance(ty, zero) else fn(x) * ty)

    custom.defjvp(apply_jvp, symbolic_zeros=True)
    return custom


def scan_mul(L: Any, mul: Any, c0: Any, xs: Any) -> Any:
    return L.lax.scan(fn2(lambda c, x: (mul(c, x), c)), c0, xs)


def _jvp_vmap_y(L: Any, mul: Any) -> Any:
    return L.jvp(fn1(lambda y: L.vmap(mul, (0, None))(X, y)), (X0,), (np.float32(1.0),))


def _vmap_jvp(L: Any, mul: Any) -> Any:
    return L.vmap(fn2(lambda x, v: L.jvp(fn1(lambda x: mul(x, X0)), (x,), (v,))))(X, V)


def _scan_grad_c0(L: Any, mul: Any) -> Any:
    return L.grad(fn1(lambda c: scan_mul(L, mul, c, X)[0]))(X0)


def _scan_grad_xs(L: Any, mul: Any) -> Any:
    return L.grad(fn1(lambda xs: scan_mul(L, mul, X0, xs)[1].sum()))(X)


MUL_PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "jvp x": lambda L, mul: L.jvp(fn1(lambda x: mul(x, Y)), (X,), (V,)),
    "jvp both": lambda L, mul: L.jvp(mul, (X, Y), (V, V)),
    "grad y": lambda L, mul: L.grad(fn2(lambda x, y: mul(x, y).sum()), argnums=1)(X, Y),
    "grad both": lambda L, mul: L.grad(fn2(lambda x, y: mul(x, y).sum()), argnums=(0, 1))(X, Y),
    "value_and_grad x": lambda L, mul: L.value_and_grad(fn2(lambda x, y: mul(x, y).sum()))(X, Y),
    "jit grad x": lambda L, mul: L.jit(L.grad(fn2(lambda x, y: mul(x, y).sum())))(X, Y),
    "jit jvp x": lambda L, mul: L.jit(fn2(lambda x, v: L.jvp(fn1(lambda x: mul(x, Y)), (x,), (v,))))(X, V),
    "vmap grad y": lambda L, mul: L.vmap(L.grad(mul, argnums=1))(X, Y),
    "grad of vmap y": lambda L, mul: L.grad(fn1(lambda y: L.vmap(mul, (0, None))(X, y).sum()))(X0),
    "jvp of vmap y": _jvp_vmap_y,
    "vmap of jvp x": _vmap_jvp,
    "scan grad c0": _scan_grad_c0,
    "scan grad xs": _scan_grad_xs,
    "grad grad": lambda L, mul: L.grad(L.grad(fn1(lambda x: mul(x, x * Y[0]))))(X0),
    "all zero": lambda L, mul: L.jvp(fn1(lambda x: mul(X, Y) + x), (X,), (V,)),
}


@pytest.mark.parametrize("name", list(MUL_PROGRAMS))
def test_which_tangents_are_symbolic_zeros(name: str) -> None:
    program = MUL_PROGRAMS[name]
    results, logs = run_both(make_mul, program)
    assert distinct(logs[0]) == distinct(logs[1]), f"{name}: ours {logs[0]} != JAX's {logs[1]}"
    assert_same(results[0], results[1], where=name)


SPLIT_PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "jvp x": lambda L, split: L.jvp(fn1(lambda x: split(x, Y)), (X,), (V,)),
    "grad x": lambda L, split: L.grad(fn1(lambda x: sum(o.sum() for o in split(x, Y))))(X),
    "grad y of the x output": lambda L, split: L.grad(fn1(lambda y: split(X, y)[0].sum() + y.sum()))(Y),
    "jacfwd x": lambda L, split: L.jacfwd(fn1(lambda x: split(x, Y)))(X0),
    "jit vmap grad": lambda L, split: L.jit(L.vmap(L.grad(fn2(lambda x, y: split(x, y)[0] + split(x, y)[1]))))(X, Y),
}


@pytest.mark.parametrize("name", list(SPLIT_PROGRAMS))
def test_rule_returns_symbolic_zeros(name: str) -> None:
    program = SPLIT_PROGRAMS[name]
    results, logs = run_both(make_split, program)
    assert distinct(logs[0]) == distinct(logs[1]), f"{name}: ours {logs[0]} != JAX's {logs[1]}"
    assert_same(results[0], results[1], where=name)


def test_integer_inputs_and_nondiff_arguments() -> None:
    n = np.int32(3)
    float0_zero = np.zeros((), dtype=jnp.float0)
    for program in (
        fn2(lambda L, f: L.grad(f)(X0, n)),
        fn2(lambda L, f: L.jvp(f, (X0, n), (np.float32(1.0), float0_zero))),
        fn2(lambda L, f: L.vmap(L.grad(f), (0, None))(X, n)),
    ):
        results, logs = run_both(make_scale, program)
        assert logs[0] == logs[1] and logs[0][0][2] == ("zero", (), str(np.dtype(jnp.float0))), logs
        assert_same(results[0], results[1])
    for program in (
        fn2(lambda L, f: L.grad(fn2(lambda x, y: f(L.numpy.sin, x, y)), argnums=1)(X0, np.float32(2.0))),
        fn2(lambda L, f: L.jvp(fn1(lambda x: f(L.numpy.sin, x, Y)), (X,), (V,))),
    ):
        results, logs = run_both(make_apply, program)
        assert logs[0] == logs[1], logs
        assert_same(results[0], results[1])


def test_traced_nondiff_array_has_no_tangent() -> None:
    # A traced array in nondiff_argnums (custom_jvp) is passed as it is;
    # the tangents are those of the differentiable arguments only.
    def run(L: Any, log: Log) -> Any:
        zero = L.custom_derivatives.SymbolicZero
        f = L.custom_jvp(fn2(lambda k, x: k * x), nondiff_argnums=(0,))

        def rule(k: Any, primals: Any, tangents: Any) -> Any:
            log.append(("jvp", len(tangents), describe(L, tangents[0])))
            (x,), (t,) = primals, tangents
            return k * x, zero.from_primal_value(x) if isinstance(t, zero) else k * t

        f.defjvp(rule, symbolic_zeros=True)
        return L.grad(fn2(lambda k, x: f(k * 2.0, x) * k), argnums=(0, 1))(X0, np.float32(1.5))

    logs: list[Log] = [[], []]
    results = [run(L, log) for L, log in zip((jt, jx), logs)]
    assert logs[0] == logs[1] == [("jvp", 1, "value")]
    assert_same(results[0], results[1])


# === custom_vjp ===


def make_pair(L: Any, log: Log) -> Any:
    """``(x * y, x + y)`` whose rules log the perturbed flags and which
    output cotangents are zero, and return None for zero cotangents."""
    cd = L.custom_derivatives

    def pair_impl(x: Any, y: Any) -> Any:
        return x * y, x + y

    pair: Any = L.custom_vjp(pair_impl)

    def fwd(x: Any, y: Any) -> Any:
        log.append(("fwd", type(x).__name__, x.perturbed, y.perturbed))
        xv, yv = cd.custom_vjp_primal_tree_values((x, y))
        return pair(xv, yv), (xv, yv)

    def bwd(res: Any, cts: Any) -> Any:
        (x, y), (a, b) = res, cts
        log.append(("bwd", describe(L, a), describe(L, b)))
        live_a, live_b = not isinstance(a, cd.SymbolicZero), not isinstance(b, cd.SymbolicZero)
        gx = total((live_a, lambda: a * y), (live_b, lambda: b))
        gy = total((live_a, lambda: a * x), (live_b, lambda: b))
        return gx, gy

    pair.defvjp(fwd, bwd, symbolic_zeros=True)
    return pair


def _pair_vmap_x(L: Any, pair: Any) -> Any:
    return L.grad(fn1(lambda x: L.vmap(pair, (0, None))(x, X0)[1].sum()))(X)


def _pair_scan(L: Any, pair: Any) -> Any:
    def body(c: Any, x: Any) -> Any:
        p, s = pair(c, x)
        return p * 0.5, s

    return L.grad(fn1(lambda c: L.lax.scan(body, c, X)[0]))(X0)


def _pair_vjp(L: Any, pair: Any) -> Any:
    out, vjp_fn = L.vjp(pair, X, Y)
    return out, vjp_fn((V, np.zeros_like(V)))


PAIR_PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "grad out0 x": lambda L, pair: L.grad(fn2(lambda x, y: pair(x, y)[0].sum()))(X, Y),
    "grad out1 y": lambda L, pair: L.grad(fn2(lambda x, y: pair(x, y)[1].sum()), argnums=1)(X, Y),
    "grad both": lambda L, pair: L.grad(fn2(lambda x, y: sum(o.sum() for o in pair(x, y))), argnums=(0, 1))(X, Y),
    "jit grad": lambda L, pair: L.jit(L.grad(fn2(lambda x, y: pair(x, y)[0].sum())))(X, Y),
    "vmap grad": lambda L, pair: L.vmap(L.grad(fn2(lambda x, y: pair(x, y)[0])))(X, Y),
    "grad of vmap y": lambda L, pair: L.grad(fn1(lambda y: L.vmap(pair, (0, None))(X, y)[0].sum()))(X0),
    "grad of vmap x": _pair_vmap_x,
    "vjp": _pair_vjp,
    "scan": _pair_scan,
    "checkpoint": lambda L, pair: L.grad(L.checkpoint(fn1(lambda x: L.numpy.sin(pair(x, Y)[0]).sum())))(X),
    "no derivative": lambda L, pair: (pair(X, Y), L.jit(pair)(X, Y), L.vmap(pair)(X, Y)),
}


@pytest.mark.parametrize("name", list(PAIR_PROGRAMS))
def test_perturbed_flags_and_zero_cotangents(name: str) -> None:
    program = PAIR_PROGRAMS[name]
    results, logs = run_both(make_pair, program)
    assert distinct(logs[0]) == distinct(logs[1]), f"{name}: ours {logs[0]} != JAX's {logs[1]}"
    assert_same(results[0], results[1], where=name)


def test_pytree_integer_and_function_arguments() -> None:
    def run(L: Any, log: Log) -> Any:
        cd = L.custom_derivatives

        def prod_impl(d: Any, n: Any) -> Any:
            return d["a"] * d["b"] * n

        prod: Any = L.custom_vjp(prod_impl)

        def prod_fwd(d: Any, n: Any) -> Any:
            log.append(("fwd", tuple(sorted((k, v.perturbed) for k, v in d.items())), n.perturbed))
            d, n = cd.custom_vjp_primal_tree_values((d, n))
            return prod(d, n), (d, n)

        def prod_bwd(res: Any, g: Any) -> Any:
            d, n = res
            zero_b = cd.zero_from_primal(d["b"], symbolic_zeros=True)
            return {"a": g * d["b"] * n, "b": zero_b}, None

        prod.defvjp(prod_fwd, prod_bwd, symbolic_zeros=True)

        def app(fn: Any, x: Any) -> Any:
            return fn(x)

        apply = L.custom_vjp(app, nondiff_argnums=(0,))

        def app_fwd(fn: Any, x: Any) -> Any:
            log.append(("fwd", type(fn).__name__ == "function" or callable(fn), x.perturbed))
            return fn(x.value), x.value

        apply.defvjp(app_fwd, fn3(lambda fn, x, g: (g * 2.0,)), symbolic_zeros=True)
        grads = L.grad(fn2(lambda a, b: prod({"a": a, "b": b}, np.int32(3))))(X0, np.float32(2.0))
        both = L.grad(fn3(lambda a, b, n: prod({"a": a, "b": b}, n)), argnums=(0, 1, 2), allow_int=True)
        return grads, both(X0, np.float32(2.0), np.int32(3)), L.grad(fn1(lambda x: apply(L.numpy.sin, x)))(X0)

    logs: list[Log] = [[], []]
    results = [run(L, log) for L, log in zip((jt, jx), logs)]
    assert logs[0] == logs[1], logs
    assert_same(results[0], results[1])


# === the public objects ===


def test_symbolic_zero_attributes() -> None:
    for value in (1.0, np.arange(6, dtype=np.int32).reshape(2, 3), np.ones((2,), np.float16)):
        ours, theirs = SymbolicZero.from_primal_value(value), jx.custom_derivatives.SymbolicZero.from_primal_value(value)
        assert repr(ours) == repr(theirs) == "SymbolicZero"
        assert (ours.shape, ours.ndim, ours.size) == (theirs.shape, theirs.ndim, theirs.size)
        assert np.dtype(ours.dtype) == np.dtype(theirs.dtype)
        assert ours.aval.shape == ours.shape and ours.aval.dtype == ours.dtype
        assert getattr(ours, "str_short")() == ours.aval.str_short()  # forwarded to the aval, as in JAX
    assert SymbolicZero.from_primal_value(1.0).weak_type and not SymbolicZero.from_primal_value(X).weak_type
    with pytest.raises(AttributeError):
        getattr(SymbolicZero.from_primal_value(X), "no_such_attribute")
    leaf = jt.tree_util.tree_leaves([SymbolicZero.from_primal_value(X)])[0]  # a leaf
    assert isinstance(leaf, SymbolicZero) and leaf.shape == X.shape


def test_zero_from_primal_and_tree_values() -> None:
    tree = {"a": X0, "b": (np.arange(3, dtype=np.int32), 2.0)}
    assert_same(zero_from_primal(tree), jx.custom_derivatives.zero_from_primal(tree))
    zeros = [z for z in jt.tree_util.tree_leaves(zero_from_primal(tree, symbolic_zeros=True)) if isinstance(z, SymbolicZero)]
    assert [z.aval.str_short() for z in zeros] == ["f32[]", "float0[3]", "f32[]"]
    wrapped = jt.tree_util.tree_map(fn1(lambda x: CustomVJPPrimal(x, True)), tree)
    assert custom_vjp_primal_tree_values(wrapped) == tree
    assert CustomVJPPrimal(X0, False) == CustomVJPPrimal(X0, False)
    raises_as_jax(fn1(lambda L: L.custom_derivatives.custom_vjp_primal_tree_values((1.0,))))


def test_printed_jaxprs_show_symbolic_zeros() -> None:
    for L in (jt, jx):
        mul, pair = make_mul(L, []), make_pair(L, [])
        assert "symbolic_zeros=True" in str(L.make_jaxpr(mul)(X, Y))
        assert "symbolic_zeros=True" in str(L.make_jaxpr(pair)(X, Y))


# === errors ===


def test_bad_rule_outputs() -> None:
    def bad_jvp(L: Any, tangent: Callable[[Any], Any], primal: Callable[[Any], Any] | None = None) -> None:
        f = L.custom_jvp(fn1(lambda x: x * 2.0))
        f.defjvp(fn2(lambda p, t: ((primal or (fn1(lambda x: x * 2.0)))(p[0]), tangent(p[0]))), symbolic_zeros=True)
        L.jvp(f, (X,), (V,))

    # A SymbolicZero of the wrong type, as the tangent: TypeError, naming it.
    raises_as_jax(fn1(lambda L: bad_jvp(L, fn1(lambda x: L.custom_derivatives.SymbolicZero.from_primal_value(x[:2])))))
    with pytest.raises(JaxtypedTypeError, match=r"tangent output at output has type SymbolicZero f32\[2\], but .*f32\[5\]"):
        bad_jvp(jt, fn1(lambda x: SymbolicZero.from_primal_value(x[:2])))
    # A SymbolicZero as the primal output.
    raises_as_jax(fn1(lambda L: bad_jvp(L, fn1(lambda x: x), fn1(lambda x: L.custom_derivatives.SymbolicZero.from_primal_value(x)))))
    with pytest.raises(JaxtypedTypeError, match=r"primal output at output has type SymbolicZero, which is not a valid"):
        bad_jvp(jt, fn1(lambda x: x), fn1(lambda x: SymbolicZero.from_primal_value(x)))

    # A rule that computes with a SymbolicZero: the user's TypeError, as in JAX.
    def careless(L: Any) -> None:
        f = L.custom_jvp(fn2(lambda x, y: x * y))
        f.defjvp(fn2(lambda p, t: (p[0] * p[1], t[0] * p[1] + p[0] * t[1])), symbolic_zeros=True)
        L.grad(f, argnums=1)(X0, X0)

    raises_as_jax(careless)

    # bwd's SymbolicZero of the wrong type: JAX raises ValueError, jaxtyped
    # a TypeError, as for every cotangent of the wrong type (documented).
    def wrong_zero(L: Any) -> None:
        f = L.custom_vjp(fn2(lambda x, y: x * y))
        zero = L.custom_derivatives.SymbolicZero
        f.defvjp(fn2(lambda x, y: (x.value * y.value, None)), fn2(lambda r, g: (zero.from_primal_value(X[:2]), None)), symbolic_zeros=True)
        L.grad(fn1(lambda x: f(x, Y).sum()))(X)

    with pytest.raises(ValueError, match="SymbolicZero with a shape/dtype that does not match"):
        wrong_zero(jx)
    with pytest.raises(JaxtypedTypeError, match=r"the cotangent for x is a SymbolicZero of type f32\[2\], but x has type f32\[5\]"):
        wrong_zero(jt)

    def both_options(L: Any) -> None:
        h = L.custom_vjp(fn1(lambda x: x))
        h.defvjp(fn1(lambda x: (x.value, None)), fn2(lambda r, g: (g,)), symbolic_zeros=True, optimize_remat=True)

    raises_as_jax(both_options)


# === numerics and refs ===


def central_difference(f: Callable[[float], Any], x: float, eps: float = 1e-6) -> float:
    return float((np.asarray(f(x + eps)) - np.asarray(f(x - eps))) / (2 * eps))


def test_gradients_match_finite_differences(x64: None) -> None:
    mul, pair = make_mul(jt, []), make_pair(jt, [])
    for x, y in ((0.7, -1.3), (0.0, -1.3), (0.7, 0.0), (0.0, 0.0)):
        check_grads(mul, (np.float64(x), np.float64(y)), order=2, modes=("fwd", "rev"))
        for f in (
            fn2(lambda a, b: pair(a, b)[0] * pair(a, b)[1]),
            fn2(lambda a, b: jnp.sin(pair(a, b)[1])),
            fn2(lambda a, b: pair(a, b)[0] ** 2),
        ):
            ours = jt.grad(f, argnums=(0, 1))(np.float64(x), np.float64(y))
            numerical = (central_difference(fn1(lambda a: f(a, y)), x), central_difference(fn1(lambda b: f(x, b)), y))
            np.testing.assert_allclose([float(g) for g in ours], numerical, rtol=1e-7, atol=1e-8)
            assert all(g.dtype == np.float64 for g in ours)


def test_refs_reach_fwd_unperturbed(capsys: pytest.CaptureFixture[str]) -> None:
    def run(L: Any) -> None:
        stash = L.custom_vjp(fn2(lambda grads_ref, x: x))

        def fwd(grads_ref: Any, x: Any) -> Any:
            print("fwd", type(grads_ref).__name__, grads_ref.perturbed, x.perturbed)
            return x.value, grads_ref.value

        def bwd(grads_ref: Any, g: Any) -> Any:
            grads_ref[...] = g
            return None, g

        stash.defvjp(fwd, bwd, symbolic_zeros=True)
        grads_ref = L.new_ref(0.0)
        print(L.grad(fn2(lambda x, r: stash(r, L.numpy.sin(x))))(1.0, grads_ref), grads_ref[...])

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs
    assert ours.startswith("fwd CustomVJPPrimal False True\n")
