"""jt.custom_vjp against real JAX on the same programs.

The examples of the JAX docs (``clip_gradient``, a function argument in
``nondiff_argnums``, pytree residuals) and a few more are written once
against a pair of namespaces and run under every transformation on both
libraries; where JAX raises (forward mode of a custom_vjp function), ours
must raise too. Also: the staged ``custom_lin`` of reverse mode, printed
jaxprs, and the messages of errors in the user's rules.
"""

import functools
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.ad import linearize_flat, transpose_jaxpr
from jaxtyped._src.pjit import batch_jaxpr, consts_as_invars
from jaxtyped._src.core.avals import BatchAxis
from jaxtyped.core import eval_jaxpr
from jaxtyped.errors import JaxtypedTypeError, MissingRuleError, UnexpectedTracerError
from lambdas import F1, F2, F3, fn1, fn2, fn3
from oracle import assert_same as oracle_assert_same

jx: Any = pytest.importorskip("jax")
jxnp: Any = pytest.importorskip("jax.numpy")

# The two libraries, by name (``T`` and ``N`` are untyped: the programs
# are written once for both).
LIBS: dict[str, tuple[Any, Any]] = {"jt": (jt, jnp), "jax": (jx, jxnp)}

X = np.linspace(-1.5, 2.0, 5).astype(np.float32)
V = np.linspace(0.5, -0.5, 5).astype(np.float32)
X0 = np.float32(0.7)
FORWARD_MODE = r"can't apply forward-mode autodiff \(jvp\) to a custom_vjp function"


assert_same = functools.partial(oracle_assert_same, tree=True, rtol=2e-5, atol=2e-6, weak=False)


# === the examples, written once for both libraries ===


@functools.cache
def examples(lib: str) -> dict[str, Any]:
    T, N = LIBS[lib]

    def clip_gradient(lo: Any, hi: Any, x: Any) -> Any:
        return x

    custom_clip = T.custom_vjp(clip_gradient)

    def clip_gradient_fwd(lo: Any, hi: Any, x: Any) -> tuple[Any, Any]:
        return x, (lo, hi)

    def clip_gradient_bwd(res: tuple[Any, Any], g: Any) -> tuple[Any, ...]:
        lo, hi = res
        return (None, None, N.clip(g, lo, hi))

    custom_clip.defvjp(clip_gradient_fwd, clip_gradient_bwd)

    # fwd does not call the function, so forward-over-reverse works.
    def sin(x: Any) -> Any:
        return N.sin(x)

    custom_sin = T.custom_vjp(sin)

    def sin_fwd(x: Any) -> tuple[Any, Any]:
        return N.sin(x), N.cos(x)

    def sin_bwd(cos_x: Any, g: Any) -> tuple[Any]:
        return (cos_x * g,)

    custom_sin.defvjp(sin_fwd, sin_bwd)

    def app_impl(fn: F1, x: Any) -> Any:
        return fn(x)

    app = T.custom_vjp(app_impl, nondiff_argnums=(0,))

    def app_fwd(fn: F1, x: Any) -> tuple[Any, Any]:
        return app(fn, x), x

    def app_bwd(fn: F1, x: Any, g: Any) -> tuple[Any]:
        return (5.0 * g * x,)

    app.defvjp(app_fwd, app_bwd)

    # Pytree input, output and residuals; None for a leaf and for a subtree.
    def layer_impl(x: Any, p: dict[str, Any]) -> dict[str, Any]:
        return {"out": N.tanh(p["w"] * x + p["b"]), "lin": p["w"] * x}

    layer = T.custom_vjp(layer_impl)

    def layer_fwd(x: Any, p: dict[str, Any]) -> tuple[Any, Any]:
        out = layer(x, p)
        return out, {"d": 1.0 - out["out"] ** 2, "w": (p["w"], None), "x": x}

    def layer_bwd(res: dict[str, Any], ct: dict[str, Any]) -> tuple[Any, Any]:
        g = res["d"] * ct["out"]
        w = res["w"][0]
        # The weights are scalars: their cotangents sum over x's elements.
        return (g * w + ct["lin"] * w, {"w": ((g + ct["lin"]) * res["x"]).sum(), "b": g.sum()})

    layer.defvjp(layer_fwd, layer_bwd)

    # An integer argument: its cotangent is float0 whatever bwd returns.
    scale = T.custom_vjp(fn2(lambda x, n: x * n))
    scale.defvjp(fn2(lambda x, n: (scale(x, n), n)), fn2(lambda n, g: (g * n, None)))

    return {"clip_gradient": custom_clip, "sin": custom_sin, "app": app, "layer": layer, "scale": scale}


P = {"w": np.float32(1.5), "b": np.float32(-0.25)}


def unary(lib: str, name: str) -> F1:
    ex, N = examples(lib), LIBS[lib][1]
    if name == "clip_gradient":
        return fn1(lambda x: ex["clip_gradient"](-0.75, 0.75, N.sin(3.0 * x)) * x)
    if name == "app":
        return fn1(lambda x: ex["app"](fn1(lambda y: y**3), x) + x)
    if name == "layer":
        return fn1(lambda x: ex["layer"](N.sin(x), P)["out"] + ex["layer"](x, P)["lin"])
    if name == "scale":
        return fn1(lambda x: ex["scale"](N.asarray(x), 3))  # JAX returns NumPy's float64 for a NumPy x
    sin: F1 = ex[name]
    return sin


def total(fun: F1) -> F1:
    return lambda x: fun(x).sum()


TRANSFORMS: dict[str, Callable[[Any, F1], Any]] = {
    "eager": lambda T, f: f(X),
    "jit": lambda T, f: T.jit(f)(X),
    "vmap": lambda T, f: T.vmap(f)(X),
    "vjp": lambda T, f: T.vjp(f, X)[1](T.numpy.asarray(V)),  # JAX's bwd would see a NumPy V
    "grad": lambda T, f: T.grad(f)(X0),
    "grad_grad": lambda T, f: T.grad(T.grad(f))(X0),
    "vmap_grad": lambda T, f: T.vmap(T.grad(f))(X),
    "grad_vmap": lambda T, f: T.grad(total(T.vmap(f)))(X),
    "jit_grad": lambda T, f: T.jit(T.grad(f))(X0),
    "grad_jit": lambda T, f: T.grad(T.jit(f))(X0),
    "jit_vmap_grad": lambda T, f: T.jit(T.vmap(T.grad(f)))(X),
    "jacrev": lambda T, f: T.jacrev(f)(X),
    "hessian": lambda T, f: T.hessian(total(f))(X),
    "jvp": lambda T, f: T.jvp(f, (X,), (V,)),
    "jacfwd": lambda T, f: T.jacfwd(f)(X),
    "linearize": lambda T, f: T.linearize(f, X)[1](V),
    "jvp_of_grad": lambda T, f: T.jvp(T.grad(f), (X0,), (np.float32(1.0),)),
}
NAMES = ["clip_gradient", "sin", "app", "layer", "scale"]


def outcome(run: Callable[[], Any]) -> Any:
    """The result, or the TypeError raised (forward mode)."""
    try:
        return run()
    except TypeError as err:
        return err


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("name", NAMES)
def test_examples_match_jax(name: str, transform: str) -> None:
    run = TRANSFORMS[transform]
    theirs = outcome(lambda: run(jx, unary("jax", name)))
    if isinstance(theirs, TypeError):
        assert "forward-mode autodiff" in str(theirs)
        with pytest.raises(JaxtypedTypeError, match=FORWARD_MODE):
            run(jt, unary("jt", name))
    else:
        assert_same(run(jt, unary("jt", name)), theirs)


def several_arguments(lib: str) -> list[Any]:
    (T, N), ex = LIBS[lib], examples(lib)
    p = {"w": N.asarray(P["w"]), "b": N.asarray(P["b"])}
    layer: F2 = ex["layer"]
    layer_total = fn2(lambda x, p: (layer(x, p)["out"] + layer(x, p)["lin"]).sum())
    return [
        T.grad(ex["clip_gradient"], argnums=(0, 1, 2))(-0.75, 0.75, 2.0),
        T.grad(layer_total, argnums=(0, 1))(X, p),
        # The weights are not batched: their per-example cotangents are summed.
        T.grad(fn1(lambda p: T.vmap(fn1(lambda x: layer_total(x, p)))(X).sum()))(p),
        T.vmap(T.grad(layer_total, argnums=1), in_axes=(0, None))(X, p),
        T.vmap(T.grad(layer_total, argnums=1), in_axes=(None, {"w": 0, "b": None}))(X, {"w": X, "b": p["b"]}),
        T.jacrev(fn1(lambda p: layer(X, p)))(p),
        T.vjp(layer, X, p)[1]({"out": V, "lin": X}),
        T.vjp(T.vmap(layer, in_axes=(1, None), out_axes=1), np.stack([X, V]), p)[1](
            {"out": np.stack([V, X]), "lin": np.stack([X, X])}
        ),
        T.grad(fn1(lambda x: ex["scale"](x, 3)))(2.0),
        T.vjp(ex["scale"], 2.0, 3)[1](N.asarray(1.0))[0],
    ]


def test_examples_with_several_arguments_match_jax() -> None:
    assert_same(several_arguments("jt"), several_arguments("jax"))


def test_integer_argument_gets_a_float0_cotangent() -> None:
    scale: F2 = examples("jt")["scale"]
    _, pullback = jt.vjp(scale, 2.0, 3)
    cts: tuple[Any, ...] = pullback(1.0)
    assert float(cts[0]) == 3.0 and cts[1].aval.str_short() == "float0[]"


# === numerics: the rules are used ===


def test_clip_gradient_clips() -> None:
    clip_gradient: F3 = examples("jt")["clip_gradient"]
    xs = np.linspace(-1.0, 1.0, 9).astype(np.float32)
    grads = jt.vmap(jt.grad(fn1(lambda x: clip_gradient(-0.75, 0.75, 3.0 * x))))(xs)
    np.testing.assert_array_equal(np.asarray(grads), np.full(9, 2.25, np.float32))  # clip(1) * 3
    grads = jt.vmap(jt.grad(fn1(lambda x: clip_gradient(-0.75, 0.75, x) ** 2)))(xs)
    np.testing.assert_allclose(np.asarray(grads), np.clip(2.0 * xs, -0.75, 0.75), rtol=1e-6)


def test_second_order_through_a_differentiable_bwd() -> None:
    sin: F1 = examples("jt")["sin"]
    x64 = X.astype(np.float64)
    np.testing.assert_allclose(np.asarray(jt.vmap(jt.grad(jt.grad(sin)))(X)), -np.sin(x64), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(jt.hessian(total(sin))(X)), np.diag(-np.sin(x64)), rtol=1e-5, atol=1e-6)


# === jaxprs ===


def normalize_names(text: str) -> str:
    """A jaxpr's text with variables renamed v0, v1, ... in order of
    definition, scope by scope (JAX's ``_`` for unused ones included), and
    layout ignored, so that only the structure is compared."""
    scopes: list[dict[str, str]] = [{}]
    count = 0

    def rename(match: re.Match[str]) -> str:
        nonlocal count
        token, binder = match.group(1), match.group(2)
        if token in "{}":
            scopes.append({}) if token == "{" else scopes.pop()
            return token
        if binder:
            scopes[-1][token] = f"v{count}"
            count += 1
            return f"v{count - 1}:"
        return next((scope[token] for scope in reversed(scopes) if token in scope), token)

    return re.sub(r"\s+", " ", re.sub(r"(\{|\}|(?<![\w=.])(?:[a-z]+|_)(?![\w=]))(:?)", rename, text))


def test_make_jaxpr_of_a_custom_vjp_call() -> None:
    sin: F1 = examples("jt")["sin"]
    assert str(jt.make_jaxpr(sin)(1.0)) == """\
{ lambda ; a:f32[]. let
    b:f32[] = custom_vjp_call[
      name=sin
      bwd=sin_bwd
      call_jaxpr={ lambda ; c:f32[]. let d:f32[] = sin c in (d,) }
      fwd=sin_fwd
      symbolic_zeros=False
    ] a
  in (b,) }"""


def jaxpr_case(lib: str, which: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    (T, N), sin = LIBS[lib], examples(lib)["sin"]
    if which == "call":
        return sin, (1.0,)
    if which == "grad":
        return T.grad(sin), (1.0,)
    if which == "vmap":
        return T.vmap(sin), (X,)
    c = N.arange(3.0)
    inner = T.custom_vjp(fn1(lambda x: N.sin(x) * c))
    inner.defvjp(fn1(lambda x: (inner(x), N.cos(x))), fn2(lambda r, g: ((r * g * c).sum(),)))
    return inner, (1.0,)


@pytest.mark.parametrize("which", ["call", "grad", "vmap", "closure"])
def test_make_jaxpr_matches_jax_up_to_variable_names(which: str) -> None:
    fun, args = jaxpr_case("jt", which)
    ours = str(jt.make_jaxpr(fun)(*args))
    jax_fun, args = jaxpr_case("jax", which)
    assert normalize_names(ours) == normalize_names(str(jx.make_jaxpr(jax_fun)(*args))), ours


def test_reverse_mode_stages_custom_lin_and_transposes_it() -> None:
    """linearize stages custom_lin into the linear jaxpr (printed as JAX
    prints it); grad transposes it by calling bwd, so the gradient's jaxpr
    has bwd's operations and no custom_lin."""
    clip_gradient: F3 = examples("jt")["clip_gradient"]

    def flat(xs: list[jt.Array]) -> tuple[list[jt.Array], object]:
        return [clip_gradient(-0.75, 0.75, xs[0])], None

    _, linear, _ = linearize_flat(flat, [jnp.asarray(1.0)], "f", "linearize")
    params = ["custom_lin[", "bwd=clip_gradient_bwd", "in_zeros=[True, True, False]", "num_res=2", "symbolic_zeros=False"]
    text = str(linear.jaxpr)
    assert all(p in text for p in params), text
    jax_clip: F3 = examples("jax")["clip_gradient"]
    jax_linear = fn1(lambda x: jx.linearize(fn1(lambda x: jax_clip(-0.75, 0.75, x)), x)[1](x))
    theirs = str(jx.make_jaxpr(jax_linear)(1.0))
    assert all(p in theirs for p in params), theirs
    grad_text = str(jt.make_jaxpr(jt.grad(fn1(lambda x: clip_gradient(-0.75, 0.75, x))))(1.0))
    assert "custom_lin" not in grad_text and "max" in grad_text and "min" in grad_text, grad_text


def test_lowering_inlines_the_call() -> None:
    sin: F1 = examples("jt")["sin"]
    text = jt.jit(sin).lower(1.0).as_text()
    assert "stablehlo.sine" in text and "custom" not in text


# === errors ===


def with_rules(bwd: F2, fwd: F2 | None = None) -> Any:
    def two(x: jt.Array, p: tuple[jt.Array, jt.Array]) -> jt.Array:
        return x * p[0] + p[1]

    custom = jt.custom_vjp(two)
    custom.defvjp(fwd or fn2(lambda x, p: (custom(x, p), p)), bwd)
    return custom


BAD: dict[str, tuple[F2, F2 | None, str]] = {
    "count": (
        lambda r, c: (c,),
        None,
        r"custom_vjp bwd rule <lambda> at .*test_custom_vjp.py:\d+ of two must return a tuple with one cotangent "
        r"per differentiable argument \(2: x, p\), got a tuple of length 1",
    ),
    "not a tuple": (lambda r, c: c, None, r"of two must return a tuple with one cotangent .*got an array f32\[3\]"),
    "shape": (
        lambda r, c: (c, (jnp.ones(4), None)),
        None,
        r"of two: the cotangent for p\[0\] has type f32\[4\], but p\[0\] has type f32\[3\] \(its cotangent type is f32\[3\]\)",
    ),
    "dtype": (
        lambda r, c: (c.astype(jnp.float16), None),
        None,
        r"of two: the cotangent for x has type f16\[3\], but x has type f32\[3\]",
    ),
    "structure": (
        lambda r, c: (c, [c, c]),
        None,
        r"of two: cotangent is a list of length 2 but p is a tuple of length 2; cotangent must be a tree prefix of p",
    ),
    "array for a subtree": (
        lambda r, c: (c, c),
        None,
        r"the cotangent for p has an array f32\[3\] where p has a subtree of 2 leaves",
    ),
    "fwd not a pair": (
        lambda r, c: (c, None),
        lambda x, p: x,
        r"custom_vjp fwd rule <lambda> at .* of two must return a pair \(primal_out, residuals\)",
    ),
    "fwd output": (
        lambda r, c: (c, None),
        lambda x, p: ((x, x), None),
        r"custom_vjp fwd rule <lambda> .* of two: the primal output has structure PyTreeDef\(\(\*, \*\)\), but two returns PyTreeDef\(\*\)",
    ),
    "fwd dtype": (
        lambda r, c: (c, None),
        lambda x, p: (x.astype(jnp.int32), None),
        r"the primal output at output has type i32\[3\], but two's output there has type f32\[3\]",
    ),
    "residual": (
        lambda r, c: (c, None),
        lambda x, p: (x, {"tag": "x"}),
        r"custom_vjp fwd rule <lambda> .* of two: residuals\['tag'\] has type str, which is not a valid JAX-style type",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_rule_results_are_checked(case: str) -> None:
    bwd, fwd, message = BAD[case]
    x = jnp.ones(3)
    two = with_rules(bwd, fwd)
    with pytest.raises(JaxtypedTypeError, match=message):
        jt.grad(fn1(lambda x: two(x, (x, x)).sum()))(x)


def test_none_and_lists_are_accepted_as_in_jax() -> None:
    x = jnp.ones(3)
    for bwd, expected in ((fn2(lambda r, c: (None, (c, None))), 1.0), (fn2(lambda r, c: [c, (None, c)]), 2.0)):
        two = with_rules(bwd)
        grads = jt.grad(fn1(lambda x: two(x, (x, x)).sum()))(x)
        np.testing.assert_array_equal(np.asarray(grads), np.full(3, expected, np.float32))


def test_forward_mode_is_an_error() -> None:
    sin: F1 = examples("jt")["sin"]
    runs: list[Callable[[], Any]] = [
        lambda: jt.jvp(sin, (X,), (V,)),
        lambda: jt.jacfwd(sin)(X),
        lambda: jt.linearize(sin, X)[1](V),
        lambda: jt.jit(fn1(lambda x: jt.jvp(sin, (x,), (x,))))(X),
    ]
    for run in runs:
        with pytest.raises(JaxtypedTypeError, match=FORWARD_MODE + r" \(sin\)"):
            run()
    with pytest.raises(TypeError, match=FORWARD_MODE):
        jx.jvp(examples("jax")["sin"], (X,), (V,))


def test_missing_rule() -> None:
    def norule(x: jt.Array) -> jt.Array:
        return x

    with pytest.raises(MissingRuleError, match=r"No VJP rule defined for custom_vjp function .*norule at .*: define one with norule.defvjp\(fwd, bwd\)"):
        jt.custom_vjp(norule)(jnp.ones(2))


def test_traced_nondiff_arguments_are_rejected() -> None:
    def hv(c: Any, x: Any) -> Any:
        return c * x

    custom = jt.custom_vjp(hv, nondiff_argnums=(0,))
    custom.defvjp(fn2(lambda c, x: (custom(c, x), None)), fn3(lambda c, r, g: (c * g,)))
    message = (
        r"custom_vjp function .*hv at .*: argument c \(position 0, listed in nondiff_argnums\) contains a traced "
        r"value f32\[\] of jvp of"
    )
    with pytest.raises(UnexpectedTracerError, match=message):
        jt.grad(fn1(lambda c: custom(c, 2.0)))(3.0)
    with pytest.raises(UnexpectedTracerError, match="contains a traced value f32.* of jit of"):
        jt.jit(fn1(lambda c: custom(c, 2.0)))(3.0)
    assert float(jt.grad(fn1(lambda x: custom(3.0, x)))(2.0)) == 3.0  # a concrete value is fine
    jax_hv = jx.custom_vjp(hv, nondiff_argnums=(0,))
    jax_hv.defvjp(fn2(lambda c, x: (c * x, None)), fn3(lambda c, r, g: (c * g,)))
    with pytest.raises(jx.errors.UnexpectedTracerError):  # JAX rejects it too
        jx.grad(fn1(lambda c: jax_hv(c, 2.0)))(3.0)


def test_closing_over_a_differentiated_value_is_an_error() -> None:
    def outer(c: Any) -> Any:
        inner = jt.custom_vjp(fn1(lambda x: jnp.sin(x) * c))
        inner.defvjp(fn1(lambda x: (inner(x), jnp.cos(x))), fn2(lambda r, g: (r * c * g,)))
        return inner(2.0)

    message = r"custom_vjp function <lambda> closes over a value of type f32\[\] that is being differentiated"
    with pytest.raises(UnexpectedTracerError, match=message):
        jt.grad(outer)(3.0)
    assert_same(jt.vmap(outer)(X), jxnp.sin(2.0) * X)


def test_custom_lin_batches_then_transposes() -> None:
    """vmap of a linear jaxpr holding custom_lin (as a higher-order rule
    may do), then its transpose: one pullback per batch element, through
    the batched bwd (tangents batched, residuals not)."""
    layer: F2 = examples("jt")["layer"]
    point = [jnp.asarray(X), jnp.asarray(P["w"]), jnp.asarray(P["b"])]

    def flat(xs: list[jt.Array]) -> tuple[list[jt.Array], object]:
        return [layer(xs[0], {"w": xs[1], "b": xs[2]})["out"]], None

    _, linear, _ = linearize_flat(flat, point, "layer", "linearize")
    closed = linear.jaxpr
    assert any(eqn.primitive.name == "custom_lin" for eqn in closed.eqns)
    size, num_res = 3, len(closed.consts)
    tangent_avals = [a.update(shape=(size, *a.shape)) for a in closed.jaxpr.in_avals]
    res_avals = [c.aval for c in closed.consts]
    batched, out_dims = batch_jaxpr(
        consts_as_invars(closed.jaxpr), BatchAxis(size), (*res_avals, *tangent_avals), (None,) * num_res + (0,) * 3
    )
    assert any(eqn.primitive.name == "custom_lin" for eqn in batched.eqns) and out_dims == (0,)
    body = consts_as_invars(batched.jaxpr)
    linear_in = (False,) * (len(batched.consts) + num_res) + (True,) * 3
    transposed, nonzero = transpose_jaxpr(body, linear_in, (True,))
    cts = np.stack([V, X, V * X])
    outs = iter(eval_jaxpr(transposed.jaxpr, transposed.consts, *batched.consts, *closed.consts, cts))
    got = [next(outs) if nz else None for nz in nonzero]
    _, pullback = jt.vjp(fn3(lambda x, w, b: flat([x, w, b])[0][0]), point[0], point[1], point[2])
    for k in range(size):
        expected: tuple[Any, ...] = pullback(jnp.asarray(cts[k]))
        for g, e in zip(got, expected, strict=True):
            assert g is not None
            np.testing.assert_allclose(np.asarray(g)[k], np.asarray(e), rtol=1e-5, atol=1e-6)


def under_checkpoint(lib: str) -> list[Any]:
    T, N = LIBS[lib]
    sin: F1 = examples(lib)["sin"]
    jvp_sin = T.custom_jvp(fn1(lambda x: N.sin(x)))
    jvp_sin.defjvp(fn2(lambda p, t: (jvp_sin(*p), N.cos(p[0]) * t[0])))
    results: list[Any] = []
    for policy in (T.checkpoint_policies.nothing_saveable, T.checkpoint_policies.everything_saveable):
        for custom in (sin, jvp_sin):
            g = T.checkpoint(fn1(lambda x: (custom(N.sin(x)) * x).sum()), policy=policy)
            results += [T.grad(g)(X), T.vmap(T.grad(g))(X[:, None]), T.grad(T.grad(g))(X0)]
    return results


def test_custom_functions_under_checkpoint() -> None:
    """Partial evaluation with a policy (recomputation) goes through both
    custom calls: their rules are still the ones used."""
    assert_same(under_checkpoint("jt"), under_checkpoint("jax"))
