"""jt.custom_jvp against real JAX on the same programs.

Each example of the JAX docs ("Custom derivative rules for JAX-transformable
Python functions") is written once against a pair of namespaces (``T`` is
``jaxtyped`` or ``jax``, ``N`` the matching numpy) and run under every
transformation on both; results must agree in structure, shape, dtype and
value. Numerics are also checked against closed forms in float64 NumPy,
printed jaxprs against JAX's, and error messages by their text.
"""

import doctest
import functools
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src import custom_derivatives, custom_derivatives_primitives
from jaxtyped.errors import JaxtypedTypeError, MissingRuleError, UnexpectedTracerError
from lambdas import F1, F2, fn1, fn2, fn3
from oracle import assert_same as oracle_assert_same

jx: Any = pytest.importorskip("jax")
jxnp: Any = pytest.importorskip("jax.numpy")

# The two libraries, by name (``T`` and ``N`` are untyped: the programs
# are written once for both).
LIBS: dict[str, tuple[Any, Any]] = {"jt": (jt, jnp), "jax": (jx, jxnp)}

X = np.linspace(-1.5, 2.0, 5).astype(np.float32)  # a batch of points
V = np.linspace(0.5, -0.5, 5).astype(np.float32)  # a tangent direction
X0 = np.float32(0.7)  # one point


assert_same = functools.partial(oracle_assert_same, tree=True, rtol=2e-5, atol=2e-6, weak=False)


def normalize_names(text: str) -> str:
    """A jaxpr's text with variables renamed v0, v1, ... in order of
    definition, scope by scope (JAX's ``_`` for unused ones included), and
    layout ignored, so that only the structure is compared."""
    scopes: list[dict[str, str]] = [{}]
    count = 0

    def rename(match: re.Match[str]) -> str:
        nonlocal count
        token, binder = match.group(1), match.group(2)
        if token == "{":
            scopes.append({})
            return token
        if token == "}":
            scopes.pop()
            return token
        if binder:
            scopes[-1][token] = f"v{count}"
            count += 1
            return f"v{count - 1}:"
        return next((scope[token] for scope in reversed(scopes) if token in scope), token)

    return re.sub(r"\s+", " ", re.sub(r"(\{|\}|(?<![\w=.])(?:[a-z]+|_)(?![\w=]))(:?)", rename, text))


# === the docs' examples, written once for both libraries ===


@functools.cache
def examples(lib: str) -> dict[str, Any]:
    """The custom functions of the JAX docs, built with ``T.custom_jvp``
    (cached, so both libraries reuse their traces across tests)."""
    T, N = LIBS[lib]

    def f(x: Any, y: Any) -> Any:  # printed as name=f, as in the docs
        return N.sin(x) * y

    custom_f = T.custom_jvp(f)

    def f_jvp(primals: tuple[Any, Any], tangents: tuple[Any, Any]) -> tuple[Any, Any]:
        x, y = primals
        x_dot, y_dot = tangents
        return custom_f(x, y), N.cos(x) * x_dot * y + N.sin(x) * y_dot

    custom_f.defjvp(f_jvp)

    def log1pexp_impl(x: Any) -> Any:
        return N.log(1.0 + N.exp(x))

    log1pexp = T.custom_jvp(log1pexp_impl)

    def log1pexp_jvp(primals: tuple[Any], tangents: tuple[Any]) -> tuple[Any, Any]:
        (x,), (x_dot,) = primals, tangents
        return log1pexp(x), x_dot * (1.0 - 1.0 / (1.0 + N.exp(x)))

    log1pexp.defjvp(log1pexp_jvp)

    g = T.custom_jvp(f)

    def g_jvp_x(x_dot: Any, primal_out: Any, x: Any, y: Any) -> Any:
        return N.cos(x) * x_dot * y

    def g_jvp_y(y_dot: Any, primal_out: Any, x: Any, y: Any) -> Any:
        return N.sin(x) * y_dot

    g.defjvps(g_jvp_x, g_jvp_y)

    def app_impl(fn: F1, x: Any) -> Any:
        return fn(x)

    app = T.custom_jvp(app_impl, nondiff_argnums=(0,))

    def app_jvp(fn: F1, primals: tuple[Any], tangents: tuple[Any]) -> tuple[Any, Any]:
        (x,), (x_dot,) = primals, tangents
        return fn(x), 2.0 * x_dot

    app.defjvp(app_jvp)

    def tree_impl(p: dict[str, Any], x: Any) -> dict[str, Any]:
        return {"out": N.tanh(p["w"] * x + p["b"]), "aux": (x * x, p["b"])}

    tree_fn = T.custom_jvp(tree_impl)

    def tree_jvp(primals: tuple[Any, Any], tangents: tuple[Any, Any]) -> tuple[Any, Any]:
        (p, x), (tp, tx) = primals, tangents
        out = tree_fn(p, x)
        d = 1.0 - out["out"] ** 2
        t_out = d * (tp["w"] * x + p["w"] * tx + tp["b"])
        return out, {"out": t_out, "aux": (2.0 * x * tx, tp["b"])}

    tree_fn.defjvp(tree_jvp)
    return {"f": custom_f, "log1pexp": log1pexp, "g": g, "app": app, "tree_fn": tree_fn}


def tree_fn_sum(out: dict[str, Any]) -> Any:
    return out["out"] + out["aux"][0] * out["aux"][1]


def unary(lib: str, name: str) -> F1:
    """Each example as an elementwise function of one array."""
    ex, N = examples(lib), LIBS[lib][1]
    if name == "f":
        return fn1(lambda x: ex["f"](x, 2.0 * x + 1.0))
    if name == "g":
        return fn1(lambda x: ex["g"](x, N.cos(x)))
    if name == "app":
        return fn1(lambda x: ex["app"](fn1(lambda y: y**3), x) + x)
    if name == "tree_fn":
        p = {"w": N.asarray(1.5), "b": N.asarray(-0.25)}
        return fn1(lambda x: tree_fn_sum(ex["tree_fn"](p, x)))
    log1pexp: F1 = ex[name]
    return log1pexp


def total(fun: F1) -> F1:
    return lambda x: fun(x).sum()


# Every transformation, as (T, f) -> result for the batch X and point X0.
TRANSFORMS: dict[str, Callable[[Any, F1], Any]] = {
    "eager": lambda T, f: f(X),
    "jit": lambda T, f: T.jit(f)(X),
    "vmap": lambda T, f: T.vmap(f)(X),
    "jvp": lambda T, f: T.jvp(f, (X,), (V,)),
    "vjp": lambda T, f: T.vjp(f, X)[1](V),
    "grad": lambda T, f: T.grad(f)(X0),
    "grad_grad": lambda T, f: T.grad(T.grad(f))(X0),
    "vmap_grad": lambda T, f: T.vmap(T.grad(f))(X),
    "grad_vmap": lambda T, f: T.grad(total(T.vmap(f)))(X),
    "jit_grad": lambda T, f: T.jit(T.grad(f))(X0),
    "grad_jit": lambda T, f: T.grad(T.jit(f))(X0),
    "jit_vmap_grad": lambda T, f: T.jit(T.vmap(T.grad(f)))(X),
    "jvp_vmap": lambda T, f: T.jvp(T.vmap(f), (X,), (V,)),
    "jacfwd": lambda T, f: T.jacfwd(f)(X),
    "jacrev": lambda T, f: T.jacrev(f)(X),
    "hessian": lambda T, f: T.hessian(total(f))(X),
}
NAMES = ["f", "log1pexp", "g", "app", "tree_fn"]


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("name", NAMES)
def test_examples_match_jax(name: str, transform: str) -> None:
    run = TRANSFORMS[transform]
    assert_same(run(jt, unary("jt", name)), run(jx, unary("jax", name)))


def several_arguments(lib: str) -> list[Any]:
    (T, N), ex = LIBS[lib], examples(lib)
    p = {"w": N.asarray(1.5), "b": N.asarray(-0.25)}
    tree_fn: F2 = ex["tree_fn"]
    return [
        T.grad(ex["f"], argnums=(0, 1))(X0, 3.0),
        T.value_and_grad(ex["g"], argnums=(0, 1))(X0, 3.0),
        T.vmap(T.grad(ex["f"]), in_axes=(0, None))(X, 3.0),
        T.jacrev(fn1(lambda p: tree_fn(p, X)))(p),
        T.jacfwd(fn1(lambda p: tree_fn(p, X)))(p),
        T.grad(fn2(lambda p, x: tree_fn_sum(tree_fn(p, x)).sum()))(p, X),
        T.jvp(tree_fn, (p, X), ({"w": N.asarray(1.0), "b": N.asarray(0.5)}, V)),
        T.vmap(ex["f"], in_axes=(1, None), out_axes=1)(np.stack([X, V]), 2.0),
        T.jvp(T.vmap(ex["f"], in_axes=(1, 0)), (np.stack([X, V]), X), (np.stack([V, X]), V)),
    ]


def test_examples_with_several_arguments_match_jax() -> None:
    assert_same(several_arguments("jt"), several_arguments("jax"))


# === numerics against closed forms (float64 NumPy) ===


def plain_log1pexp(x: jt.Array) -> jt.Array:
    return jnp.log(1.0 + jnp.exp(x))


def test_log1pexp_rule_is_numerically_stable() -> None:
    """The docs' motivating example: the rule gives grad 1.0 at x=100,
    differentiating the formula gives nan (exp overflows)."""
    log1pexp: F1 = examples("jt")["log1pexp"]
    assert float(jt.grad(log1pexp)(100.0)) == 1.0
    assert float(jt.jit(jt.grad(log1pexp))(100.0)) == 1.0
    assert np.isnan(float(jt.grad(plain_log1pexp)(jnp.asarray(100.0))))
    sigmoid = 1.0 / (1.0 + np.exp(-X.astype(np.float64)))
    np.testing.assert_allclose(np.asarray(jt.vmap(jt.grad(log1pexp))(X)), sigmoid, rtol=1e-6)
    second = jt.vmap(jt.grad(jt.grad(log1pexp)))(X)
    np.testing.assert_allclose(np.asarray(second), sigmoid * (1 - sigmoid), rtol=1e-5)


def test_sin_mul_derivatives_match_closed_forms() -> None:
    f: F2 = examples("jt")["f"]
    x64, y = X.astype(np.float64), 3.0
    dx, dy = jt.vmap(jt.grad(f, argnums=(0, 1)), in_axes=(0, None))(X, np.float32(y))
    np.testing.assert_allclose(np.asarray(dx), np.cos(x64) * y, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(np.asarray(dy), np.sin(x64), rtol=1e-6, atol=1e-7)
    hess = jt.hessian(fn1(lambda x: f(x, x).sum()))(X)
    expected = np.diag(2 * np.cos(x64) - x64 * np.sin(x64))
    np.testing.assert_allclose(np.asarray(hess), expected, rtol=1e-5, atol=1e-6)


def test_the_rule_is_used_not_the_function() -> None:
    """A rule that disagrees with the function's derivative wins, in every
    mode (the docs' app example: derivative 2 whatever ``fn`` is)."""
    app: F2 = examples("jt")["app"]
    cube = fn1(lambda x: app(fn1(lambda y: y**3), x))
    assert float(jt.grad(cube)(X0)) == 2.0
    assert float(jt.grad(jt.grad(cube))(X0)) == 0.0
    np.testing.assert_array_equal(np.asarray(jt.jacfwd(cube)(X)), 2.0 * np.eye(5, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(jt.jacrev(cube)(X)), 2.0 * np.eye(5, dtype=np.float32))
    np.testing.assert_allclose(np.asarray(cube(X)), X**3, rtol=1e-6)


# === jaxprs ===


F_JAXPR = """\
{ lambda ; a:f32[] b:f32[]. let
    c:f32[] = custom_jvp_call[
      name=f
      call_jaxpr={ lambda ; d:f32[] e:f32[]. let
          f:f32[] = sin d
          g:f32[] = mul f e
        in (g,) }
      jvp=f_jvp
      symbolic_zeros=False
    ] a b
  in (c,) }"""


def test_make_jaxpr_prints_a_custom_jvp_call() -> None:
    assert str(jt.make_jaxpr(examples("jt")["f"])(1.0, 2.0)) == F_JAXPR


def test_make_jaxpr_text_equals_jax() -> None:
    text = str(jt.make_jaxpr(examples("jt")["f"])(1.0, 2.0))
    assert text == str(jx.make_jaxpr(examples("jax")["f"])(1.0, 2.0))


JAXPR_CASES: dict[str, tuple[Callable[[str], Callable[..., Any]], tuple[Any, ...]]] = {
    "f": (lambda lib: examples(lib)["f"], (1.0, 2.0)),
    "log1pexp": (lambda lib: examples(lib)["log1pexp"], (1.0,)),
    "grad": (lambda lib: LIBS[lib][0].grad(examples(lib)["f"]), (1.0, 2.0)),
    "defjvps grad": (lambda lib: LIBS[lib][0].grad(examples(lib)["g"], argnums=1), (1.0, 2.0)),
    "broadcast": (lambda lib: examples(lib)["f"], (np.ones(3, np.float32), 2.0)),
    "vmap": (lambda lib: LIBS[lib][0].vmap(examples(lib)["log1pexp"]), (np.ones(2, np.float32),)),
    "app": (lambda lib: fn1(lambda x: examples(lib)["app"](LIBS[lib][1].sin, x)), (1.0,)),
}


@pytest.mark.parametrize("case", list(JAXPR_CASES))
def test_make_jaxpr_matches_jax_up_to_variable_names(case: str) -> None:
    build, args = JAXPR_CASES[case]
    ours = str(jt.make_jaxpr(build("jt"))(*args))
    theirs = str(jx.make_jaxpr(build("jax"))(*args))
    assert normalize_names(ours) == normalize_names(theirs), (ours, theirs)


def closes_over(lib: str) -> F1:
    T, N = LIBS[lib]
    c = N.arange(3.0)

    def fun(x: Any) -> Any:
        h = T.custom_jvp(fn1(lambda x: N.sin(x) * c))
        h.defjvp(fn2(lambda p, t: (h(*p), N.cos(p[0]) * c * t[0])))
        return h(x)

    return fun


def test_closed_over_values_are_leading_operands() -> None:
    """Consts are operands, printed num_consts=1, as in JAX."""
    ours = str(jt.make_jaxpr(closes_over("jt"))(1.0))
    assert "num_consts=1" in ours and "] a b\n" in ours
    assert normalize_names(ours) == normalize_names(str(jx.make_jaxpr(closes_over("jax"))(1.0)))
    run = TRANSFORMS["grad_vmap"]
    assert_same(run(jt, closes_over("jt")), run(jx, closes_over("jax")))


def test_lowering_inlines_the_call() -> None:
    f: F2 = examples("jt")["f"]
    text = jt.jit(f).lower(1.0, 2.0).as_text()
    assert "stablehlo.sine" in text and "custom" not in text


# === calls: arguments, caching ===


def test_keyword_arguments_and_defaults_resolve_to_positions() -> None:
    seen: list[int] = []

    def scaled_impl(x: jt.Array, y: float = 2.0) -> jt.Array:
        return x * y

    scaled = jt.custom_jvp(scaled_impl)

    @scaled.defjvp
    def scaled_jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[jt.Array, jt.Array]:
        seen.append(len(primals))
        x, y = primals
        return scaled(x, y), tangents[0] * y + tangents[1] * x

    three = jnp.asarray(3.0)
    assert float(scaled(three)) == 6.0
    assert float(scaled(x=three, y=4.0)) == 12.0
    assert float(jt.grad(fn1(lambda y: scaled(three, y=y)))(5.0)) == 3.0
    assert seen == [2]  # the default is filled in, as in JAX


def test_keyword_only_arguments_are_rejected() -> None:
    def kw_impl(x: jt.Array, *, z: float = 3.0) -> jt.Array:
        return x * z

    kw = jt.custom_jvp(kw_impl)
    kw.defjvp(lambda p, t: (kw(*p), t[0] * 3.0))
    assert float(kw(jnp.asarray(1.0))) == 3.0  # an unpassed keyword-only default is fine
    message = r"custom_jvp function .*kw_impl at .*keyword arguments \['z'\] could not be resolved to positions"
    with pytest.raises(JaxtypedTypeError, match=message):
        kw(jnp.asarray(1.0), z=1.0)


def test_traces_are_cached_per_signature() -> None:
    traces: list[str] = []

    def counted_impl(x: jt.Array) -> jt.Array:
        traces.append(x.aval.str_short())
        return x * 2.0

    counted = jt.custom_jvp(counted_impl)
    counted.defjvp(lambda p, t: (counted(*p), 2.0 * t[0]))
    counted(jnp.ones(3))
    counted(jnp.zeros(3))
    assert traces == ["f32[3]"]
    counted(jnp.ones(4))
    assert traces == ["f32[3]", "f32[4]"]
    summed = fn1(lambda x: counted(x).sum())
    jt.grad(summed)(jnp.ones(3))
    assert traces == ["f32[3]", "f32[4]"]  # the rule's own call hits the cache too
    counted.defjvp(lambda p, t: (counted(*p), 3.0 * t[0]))  # a new rule: traces again
    np.testing.assert_array_equal(np.asarray(jt.grad(summed)(jnp.ones(3))), [3.0] * 3)
    assert traces == ["f32[3]", "f32[4]", "f32[3]"]


def test_functools_wraps_attributes() -> None:
    f = jt.custom_jvp(plain_log1pexp)
    assert f.__name__ == "plain_log1pexp" and f.__wrapped__ is plain_log1pexp and f.fun is plain_log1pexp
    assert "plain_log1pexp at " in repr(f)
    eqn = jt.make_jaxpr(examples("jt")["f"])(1.0, 2.0).eqns[0]
    assert isinstance(eqn.primitive, custom_derivatives_primitives.CustomJVPCall)
    assert eqn.params["fun_name"] == "f" and eqn.params["num_consts"] == 0


def test_integer_inputs_get_float0_tangents() -> None:
    seen: list[str] = []

    def shift_impl(x: Any, n: Any) -> Any:
        return x + n

    shift = jt.custom_jvp(shift_impl)

    def shift_jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
        seen.append(tangents[1].aval.str_short())
        return shift(*primals), tangents[0]

    shift.defjvp(shift_jvp)
    assert float(jt.grad(shift)(1.0, 2)) == 1.0
    assert seen == ["float0[]"]


def test_nondiff_array_arguments_get_no_derivative() -> None:
    """As in JAX, a traced array passed through nondiff_argnums is
    stop_gradient-ed: its gradient is zero, whatever the rule does."""
    for T, _ in LIBS.values():
        gg = T.custom_jvp(fn2(lambda c, x: c * x), nondiff_argnums=(0,))
        gg.defjvp(fn3(lambda c, p, t: (gg(c, p[0]), c * t[0])))
        assert float(T.grad(fn1(lambda c: gg(c, 2.0)))(3.0)) == 0.0
        assert float(T.grad(fn1(lambda c: gg(c, c)))(3.0)) == 3.0


def batched_nondiff(lib: str) -> list[Any]:
    T, N = LIBS[lib]
    scale = T.custom_jvp(fn2(lambda c, x: N.sin(x) * c["a"]), nondiff_argnums=(0,))
    scale.defjvp(fn3(lambda c, p, t: (scale(c, p[0]), N.cos(p[0]) * c["a"] * t[0])))
    batched = T.vmap(fn2(lambda c, x: scale({"a": c}, x)), (0, None))
    return [
        T.jvp(fn1(lambda x: batched(X, x)), (X0,), (np.float32(1.0),)),
        T.grad(fn1(lambda x: batched(X, x).sum()))(X0),
        T.vmap(T.grad(fn2(lambda c, x: scale({"a": c}, x)), 1))(X, V),
    ]


def test_nondiff_arguments_batched_in_every_order() -> None:
    """Traced nondiff arguments are operands, so the rule sees them batched
    even when vmap hands the call on to jvp or grad."""
    assert_same(batched_nondiff("jt"), batched_nondiff("jax"))


# === errors ===


def with_rule(rule: F2) -> Any:
    def two(x: jt.Array, y: jt.Array) -> dict[str, jt.Array]:
        return {"a": jnp.sin(x) * y, "b": x}

    custom = jt.custom_jvp(two)
    custom.defjvp(rule)
    return custom


BAD_RULES: dict[str, tuple[F2, str]] = {
    "tangent structure": (
        lambda p, t: ({"a": p[0], "b": p[0]}, (t[0], t[0])),
        r"custom_jvp rule <lambda> at .*test_custom_jvp.py:\d+ of two: the tangent output has structure "
        r"PyTreeDef\(\(\*, \*\)\), but two returns PyTreeDef\(\{'a': \*, 'b': \*\}\)",
    ),
    "primal structure": (
        lambda p, t: ((p[0],), {"a": t[0], "b": t[0]}),
        r"of two: the primal output has structure PyTreeDef\(\(\*,\)\), but two returns",
    ),
    "tangent shape": (
        lambda p, t: ({"a": p[0], "b": p[0]}, {"a": jnp.ones(4), "b": t[0]}),
        r"of two: the tangent output at output\['a'\] has type f32\[4\], but two's output there has type "
        r"f32\[3\], whose tangent type is f32\[3\]",
    ),
    "tangent dtype": (
        lambda p, t: ({"a": p[0], "b": p[0]}, {"a": t[0], "b": t[1].astype(jnp.float16)}),
        r"the tangent output at output\['b'\] has type f16\[3\], but two's output there has type f32\[3\]",
    ),
    "primal dtype": (
        lambda p, t: ({"a": p[0].astype(jnp.int32), "b": p[0]}, {"a": t[0], "b": t[0]}),
        r"the primal output at output\['a'\] has type i32\[3\], but two's output there has type f32\[3\]",
    ),
    "not a pair": (
        lambda p, t: p[0],
        r"custom_jvp rule <lambda> .* of two must return a pair \(primal_out, tangent_out\) \(a tuple or list "
        r"of length two\), got an array f32\[3\]",
    ),
    "not an array": (
        lambda p, t: ({"a": p[0], "b": "zero"}, {"a": t[0], "b": t[0]}),
        r"the primal output at output\['b'\] has type str, which is not a valid JAX-style type",
    ),
}


@pytest.mark.parametrize("case", list(BAD_RULES))
def test_rule_outputs_are_checked(case: str) -> None:
    rule, message = BAD_RULES[case]
    x = jnp.ones(3)
    with pytest.raises(JaxtypedTypeError, match=message):
        jt.jvp(with_rule(rule), (x, x), (x, x))
    with pytest.raises(JaxtypedTypeError, match=message):  # the same check under reverse mode
        jt.grad(fn1(lambda x: with_rule(rule)(x, x)["a"].sum()))(x)


def test_jax_rejects_the_same_rules() -> None:
    """The oracle agrees that these rules are wrong (TypeError in JAX)."""
    for case in ("tangent structure", "primal structure", "tangent shape", "not a pair"):
        rule, _ = BAD_RULES[case]
        two = jx.custom_jvp(fn2(lambda x, y: {"a": jxnp.sin(x) * y, "b": x}))
        two.defjvp(fn2(lambda p, t: rule(*jx.tree_util.tree_map(jxnp.asarray, (p, t)))))
        x = jxnp.ones(3)
        with pytest.raises(TypeError):
            jx.jvp(two, (x, x), (x, x))


def test_missing_rule() -> None:
    norule = jt.custom_jvp(plain_log1pexp)
    message = r"No JVP rule defined for custom_jvp function plain_log1pexp at .*: define one with plain_log1pexp.defjvp"
    with pytest.raises(MissingRuleError, match=message):
        norule(jnp.ones(2))
    with pytest.raises(AttributeError, match="No JVP defined"):  # JAX raises too, on the call
        jx.custom_jvp(fn1(lambda x: x))(1.0)


def product(x: jt.Array, y: jt.Array) -> jt.Array:
    return x * y


def summed(*xs: jt.Array) -> jt.Array:
    return functools.reduce(jnp.add, xs)


def test_defjvps_errors() -> None:
    def apply(fn: F1, x: jt.Array) -> jt.Array:
        return fn(x)  # type: ignore[no-any-return]  # fn is untyped

    app = jt.custom_jvp(apply, nondiff_argnums=(0,))
    with pytest.raises(JaxtypedTypeError, match="defjvps cannot be used with nondiff_argnums"):
        app.defjvps(None)
    h = jt.custom_jvp(product)
    h.defjvps(lambda t, ans, x, y: t)  # one rule for two arguments
    with pytest.raises(JaxtypedTypeError, match=r"defjvps was given 1 rule\(s\) for 2 argument\(s\); pass None"):
        jt.grad(h)(jnp.asarray(1.0), jnp.asarray(2.0))


def test_closing_over_a_differentiated_value_is_an_error() -> None:
    def outer(c: jt.Array) -> jt.Array:
        h = jt.custom_jvp(fn1(lambda x: jnp.sin(x) * c))
        h.defjvp(lambda p, t: (h(*p), jnp.cos(p[0]) * c * t[0]))
        return h(2.0)  # type: ignore[no-any-return]  # h wraps an untyped lambda

    message = r"custom_jvp function <lambda> closes over a value of type f32\[\] that is being differentiated"
    with pytest.raises(UnexpectedTracerError, match=message):
        jt.grad(outer)(jnp.asarray(3.0))
    assert_same(jt.jit(outer)(jnp.asarray(3.0)), jxnp.sin(2.0) * 3.0)  # jit and vmap tracers are fine


def test_rule_closing_over_a_batched_value_under_jvp_of_vmap() -> None:
    """Known limitation: a rule closing over a value batched by an
    enclosing vmap cannot run when vmap hands the call to jvp (JAX supports
    it); the error says so and suggests nondiff_argnums (tested above)."""

    def outer(c: jt.Array, x: jt.Array) -> jt.Array:
        h = jt.custom_jvp(fn1(lambda x: jnp.sin(x) * c))
        h.defjvp(lambda p, t: (h(*p), jnp.cos(p[0]) * c * t[0]))
        return h(x)  # type: ignore[no-any-return]  # h wraps an untyped lambda

    cs = jnp.arange(3.0)
    assert_same(jt.vmap(jt.grad(outer, 1))(cs, jnp.ones(3)), jxnp.cos(1.0) * jxnp.arange(3.0))  # this order works
    with pytest.raises(UnexpectedTracerError, match="custom rule <lambda> ran under vmap.*through nondiff_argnums"):
        jt.jvp(fn1(lambda x: jt.vmap(outer, (0, None))(cs, x)), (1.0,), (1.0,))


def test_bad_decorator_arguments() -> None:
    expected = "violates type hint" if jt.DEBUG else "custom_jvp: expected a callable"  # beartype checks first
    with pytest.raises(JaxtypedTypeError, match=expected):
        jt.custom_jvp(3.0)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test
    with pytest.raises(ValueError, match="nondiff_argnums must be non-negative ints"):
        jt.custom_jvp(plain_log1pexp, nondiff_argnums=(-1,))
    h = jt.custom_jvp(product, nondiff_argnums=(1,))
    h.defjvp(fn3(lambda y, p, t: (p[0], t[0])))
    with pytest.raises(TypeError, match=r"custom_jvp function product at .*: missing a required argument: 'y'"):
        h(jnp.asarray(1.0))  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # the error under test
    total_of = jt.custom_jvp(summed, nondiff_argnums=(1,))
    total_of.defjvp(fn3(lambda y, p, t: (summed(*p), sum(t))))
    with pytest.raises(ValueError, match=r"nondiff_argnums contains 1, but it was called with 1 positional"):
        total_of(jnp.asarray(1.0))


def test_docstring_examples() -> None:
    failures, tried = doctest.testmod(custom_derivatives, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0
