"""``jaxtyped.nn`` against ``jax.nn``: values, dtypes (float32, float16,
bfloat16, integers where JAX accepts them), weak types, shapes, errors;
``jit``, ``vmap``; ``grad`` and ``jvp`` at the special points of each
function (0, kinks, ties, large ``|x|``, infinities) and second derivatives.

Cases are written once as ``fn(L)`` with ``L`` the numpy namespace
(``jaxtyped.numpy`` or ``jax.numpy``); ``nn(L)`` and ``library(L).api`` give the
matching ``nn`` module and transformation namespace, so JAX runs the same
code, every table in one ``jax.jit``.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.nn as jnn
import jaxtyped.numpy as jnp

from oracle import Case, CaseTable, Group, Namespace, call_in, debug_violations, host, jax, jax_numpy, library, tol

jax_nn: Any = pytest.importorskip("jax.nn")
RNG = np.random.default_rng(3)


def nn(L: Namespace) -> Any:
    """The nn module that goes with numpy namespace ``L``."""
    return jnn if L is jnp else jax_nn


# Elementwise functions of one array argument (differentiable ones first).
SMOOTH = (
    "sigmoid", "log_sigmoid", "softplus", "silu", "swish", "mish", "gelu", "tanh",
    "squareplus", "soft_sign", "selu", "celu", "elu",
)  # fmt: skip
KINKED = (
    "relu", "relu6", "leaky_relu", "hard_tanh", "hard_sigmoid", "hard_silu", "hard_swish",
    "sparse_plus", "sparse_sigmoid", "identity",
)  # fmt: skip
UNARY = SMOOTH + KINKED
POINTS = [-np.inf, -1e4, -100.0, -30.0, -6.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, 30.0, 100.0, 1e4, np.inf]
# Where the derivative is defined by convention (kinks) or by a custom
# rule, plus the saturated tails.
GRAD_POINTS = [-1e4, -100.0, -30.0, -6.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, 30.0, 100.0, 1e4]


def nn_call(name: str, *args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """A case calling ``nn(L).name`` on ``args`` (NumPy arrays converted)."""
    return call_in(nn, name, *args, **kwargs)


def derivative(
    name: str, x: np.ndarray[Any, Any], *params: float, order: int = 1, mode: str = "grad", **kwargs: Any
) -> Callable[[Namespace], Any]:
    """A case differentiating ``nn(L).name(., *params, **kwargs)`` at every
    point of ``x``: ``vmap`` of ``grad`` applied ``order`` times, or one
    ``jvp``."""

    def fn(L: Namespace) -> Any:
        T = library(L).api

        def f(v: Any) -> Any:
            return getattr(nn(L), name)(v, *params, **kwargs)

        xs = L.asarray(x)
        if mode == "jvp":
            return T.jvp(f, (xs,), (L.ones_like(xs),))
        for _ in range(order):
            f = T.grad(f)
        return T.vmap(f)(xs)

    return fn


def gradient(
    name: str, x: np.ndarray[Any, Any], weights: np.ndarray[Any, Any] | None = None, **kwargs: Any
) -> Callable[[Namespace], Any]:
    """A case taking the gradient of ``sum(weights * nn(L).name(x,
    **kwargs))`` (of the scalar ``nn(L).name(x, **kwargs)`` when
    ``weights`` is None); NumPy keyword values are converted."""

    def fn(L: Namespace) -> Any:
        options = {k: L.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}

        def f(v: Any) -> Any:
            out = getattr(nn(L), name)(v, **options)
            return out if weights is None else L.sum(out * L.asarray(weights))

        return library(L).api.grad(f)(L.asarray(x))

    return fn


def one_hot_vmapped(L: Namespace) -> Any:
    def encode(i: Any) -> Any:
        return nn(L).one_hot(i, 4)

    return library(L).api.vmap(encode)(L.asarray(np.array([3, 0, 1], np.int32)))


def _unary_cases() -> list[Case]:
    cases: list[Case] = []
    for name in UNARY:
        for dtype in ("float32", "float16", "bfloat16"):
            x = host(dtype, POINTS + [np.nan])
            cases.append(Case(f"{name}-{dtype}", nn_call(name, x), rtol=tol(dtype), atol=tol(dtype)))
        cases.append(Case(f"{name}-weak", nn_call(name, 0.5)))
        cases.append(Case(f"{name}-2d", nn_call(name, np.linspace(-4, 4, 12, dtype=np.float32).reshape(3, 4))))
        # Integers: kept by some functions, promoted by others, rejected by
        # lax.logistic-based ones, as in JAX.
        cases.append(Case(f"{name}-int32", nn_call(name, np.arange(-3, 4, dtype=np.int32))))
    return cases


UNARY_TABLE = CaseTable("nn-unary", _unary_cases)


@pytest.mark.parametrize("group", UNARY_TABLE.params())
def test_unary_values_dtypes_weak_types(group: Group) -> None:
    UNARY_TABLE.check(group)


X = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
WEIGHTS = np.array([1.0, -2.0, 0.5, 3.0, 0.0, 1.0], np.float32)
MASK = (np.arange(24).reshape(4, 6) % 5 != 1)


def _parametrized_cases() -> list[Case]:
    x = host("float32", POINTS)
    return [
        Case("leaky_relu-slope", lambda L: nn(L).leaky_relu(L.asarray(x), 0.2)),
        Case("leaky_relu-array_slope", lambda L: nn(L).leaky_relu(L.asarray(x), L.asarray(np.float32(0.3)))),
        Case("elu-alpha", lambda L: nn(L).elu(L.asarray(x), 2.0)),
        Case("celu-alpha", lambda L: nn(L).celu(L.asarray(x), 0.5)),
        Case("squareplus-b", lambda L: nn(L).squareplus(L.asarray(x), 1.0)),
        Case("gelu-exact", lambda L: nn(L).gelu(L.asarray(x), approximate=False)),
        Case("gelu-exact_f16", lambda L: nn(L).gelu(L.asarray(host("float16", [-3, -1, 0, 1, 3])), approximate=False), rtol=2e-2, atol=2e-2),
        Case("gelu-exact_bf16", lambda L: nn(L).gelu(L.asarray(host("bfloat16", [-3, -1, 0, 1, 3])), approximate=False), rtol=2e-2, atol=2e-2),
        Case("gelu-exact_tail", nn_call("gelu", host("float32", [-30.0, -12.0, -8.0, -5.0]), approximate=False), rtol=1e-4, atol=0),
        Case("gelu-exact_tail_grad", derivative("gelu", host("float32", [-12.0, -8.0, -5.0]), approximate=False), rtol=1e-3, atol=0),
        Case("gelu-exact_weak", lambda L: nn(L).gelu(1.5, approximate=False)),
        Case("gelu-approx_weak", lambda L: nn(L).gelu(1.5)),
        Case("glu-last", lambda L: nn(L).glu(L.asarray(X))),
        Case("glu-axis0", lambda L: nn(L).glu(L.asarray(X), axis=0)),
        Case("glu-negaxis", lambda L: nn(L).glu(L.asarray(X), axis=-2)),
        Case("log1mexp-values", lambda L: nn(L).log1mexp(L.asarray(host("float32", [1e-6, 0.1, 0.5, np.log(2), 1.0, 5.0, 50.0, np.inf])))),
        Case("log1mexp-weak", lambda L: nn(L).log1mexp(2.0)),
        Case("softmax-last", lambda L: nn(L).softmax(L.asarray(X))),
        Case("softmax-axis0", lambda L: nn(L).softmax(L.asarray(X), axis=0)),
        Case("softmax-where", lambda L: nn(L).softmax(L.asarray(X), where=L.asarray(MASK))),
        Case("softmax-inf", lambda L: nn(L).softmax(L.asarray(host("float32", [-np.inf, 0.0, 1.0])))),
        Case("log_softmax-last", lambda L: nn(L).log_softmax(L.asarray(X))),
        Case("log_softmax-where", lambda L: nn(L).log_softmax(L.asarray(X), axis=0, where=L.asarray(MASK))),
        Case("logsumexp-all", lambda L: nn(L).logsumexp(L.asarray(X))),
        Case("logsumexp-axis", lambda L: nn(L).logsumexp(L.asarray(X), axis=1, keepdims=True)),
        Case("one_hot-basic", lambda L: nn(L).one_hot(L.asarray(np.array([0, 2, 1, 5, -1], np.int32)), 4)),
        Case("one_hot-axis0", lambda L: nn(L).one_hot(L.asarray(np.array([[0, 2], [1, 3]], np.int32)), 4, axis=0)),
        Case("one_hot-dtype", lambda L: nn(L).one_hot(L.asarray(np.array([0, 2], np.int32)), 3, dtype=L.int32)),
        Case("one_hot-bf16", lambda L: nn(L).one_hot(L.asarray(np.array([0, 2], np.uint8)), 3, dtype=L.bfloat16)),
        Case("one_hot-scalar", lambda L: nn(L).one_hot(2, 3)),
        Case("standardize-last", lambda L: nn(L).standardize(L.asarray(X))),
        Case("standardize-axis0", lambda L: nn(L).standardize(L.asarray(X), axis=0)),
        Case("standardize-axes", lambda L: nn(L).standardize(L.asarray(X), axis=(0, 1))),
        Case("standardize-given", lambda L: nn(L).standardize(L.asarray(X), mean=0.5, variance=L.asarray(np.float32(2.0)), epsilon=0.1)),
        Case("standardize-stable", nn_call("standardize", X * 100 + 1e4, algorithm="stable"), rtol=1e-4),
        Case("standardize-stable_where", nn_call("standardize", X, axis=0, where=MASK, algorithm="stable")),
        Case("standardize-where", lambda L: nn(L).standardize(L.asarray(X), where=L.asarray(MASK))),
        Case("logmeanexp-all", nn_call("logmeanexp", X)),
        Case("logmeanexp-axis", nn_call("logmeanexp", X, axis=1, keepdims=True)),
        Case("logmeanexp-where", nn_call("logmeanexp", X, axis=0, where=MASK)),
        Case("logmeanexp-weak", nn_call("logmeanexp", 2.0)),
        Case("standardize-int", lambda L: nn(L).standardize(L.asarray(np.arange(12, dtype=np.int32).reshape(3, 4)))),
    ]


PARAM_TABLE = CaseTable("nn-parametrized", _parametrized_cases)


@pytest.mark.parametrize("group", PARAM_TABLE.params())
def test_parametrized_functions(group: Group) -> None:
    PARAM_TABLE.check(group)


# === dot_product_attention ===

B, T, S, N, K, H = 2, 5, 6, 4, 2, 8
Q, KEY, VALUE = (
    host("float32", RNG.normal(size=(B, T, N, H))),
    host("float32", RNG.normal(size=(B, S, K, H))),
    host("float32", RNG.normal(size=(B, S, K, H))),
)
ATTENTION_BIAS = host("float32", RNG.normal(size=(1, N, T, S)))
ATTENTION_MASK = RNG.random((B, 1, T, S)) > 0.3
HEAD_MASK = RNG.random((B, N, T, S)) > 0.3
LENGTHS_Q, LENGTHS_KV = np.array([3, 5], np.int32), np.array([6, 2], np.int32)


def attention_loss(L: Namespace, **kwargs: Any) -> Any:
    """The gradient of a scalar of the attention output in q, k and v."""

    def loss(q: Any, k: Any, v: Any) -> Any:
        return L.sum(L.sin(nn(L).dot_product_attention(q, k, v, **kwargs)))

    return library(L).api.grad(loss, argnums=(0, 1, 2))(L.asarray(Q), L.asarray(KEY), L.asarray(VALUE))


def _attention_cases() -> list[Case]:
    def attend(*args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
        return nn_call("dot_product_attention", *args, **kwargs)

    return [
        Case("plain-gqa", attend(Q, KEY, VALUE)),
        Case("plain-mha", attend(Q[:, :, :2], KEY, VALUE)),
        Case("plain-unbatched", attend(Q[0], KEY[0], VALUE[0])),
        Case("plain-scale", attend(Q, KEY, VALUE, scale=0.3)),
        Case("bias-broadcast_heads", attend(Q, KEY, VALUE, ATTENTION_BIAS)),
        Case("mask-broadcast_heads", attend(Q, KEY, VALUE, mask=ATTENTION_MASK)),
        Case("mask-per_head", attend(Q, KEY, VALUE, ATTENTION_BIAS, HEAD_MASK)),
        Case("causal-plain", attend(Q, KEY, VALUE, is_causal=True)),
        Case("causal-window", attend(Q, KEY, VALUE, is_causal=True, local_window_size=1)),
        Case("window-pair", attend(Q, KEY, VALUE, local_window_size=(1, 2))),
        Case("lengths-both", attend(Q, KEY, VALUE, query_seq_lengths=LENGTHS_Q, key_value_seq_lengths=LENGTHS_KV)),
        Case("lengths-kv", attend(Q, KEY, VALUE, key_value_seq_lengths=LENGTHS_KV)),
        Case("residual-masked", attend(Q, KEY, VALUE, mask=ATTENTION_MASK, return_residual=True)),
        Case("residual-unbatched", attend(Q[0], KEY[0], VALUE[0], return_residual=True)),
        Case("dtype-bf16", attend(Q.astype(jnp.bfloat16), KEY.astype(jnp.bfloat16), VALUE.astype(jnp.bfloat16)), rtol=3e-2, atol=3e-2),
        Case("grad-plain", lambda L: attention_loss(L), rtol=1e-4, atol=1e-5),
        Case("grad-masked", lambda L: attention_loss(L, bias=L.asarray(ATTENTION_BIAS), is_causal=True, key_value_seq_lengths=L.asarray(LENGTHS_KV)), rtol=1e-4, atol=1e-5),
        Case("error-heads", attend(Q[:, :, :3], KEY, VALUE)),
        Case("error-value_shape", attend(Q, KEY, VALUE[:, :4])),
        Case("error-dtype", attend(Q, KEY, VALUE.astype(np.float16))),
        Case("error-mask_dtype", attend(Q, KEY, VALUE, mask=ATTENTION_MASK.astype(np.int32))),
        Case("error-lengths_dtype", attend(Q, KEY, VALUE, query_seq_lengths=LENGTHS_Q.astype(np.float32))),
    ]


ATTENTION_TABLE = CaseTable("nn-attention", _attention_cases)


@pytest.mark.parametrize("group", ATTENTION_TABLE.params())
def test_dot_product_attention(group: Group) -> None:
    ATTENTION_TABLE.check(group)


def test_dot_product_attention_under_jit_and_vmap() -> None:
    q, k, v = jnp.asarray(Q), jnp.asarray(KEY), jnp.asarray(VALUE)

    def attend(q: jt.Array, k: jt.Array, v: jt.Array) -> jt.Array:
        return jnn.dot_product_attention(q, k, v, is_causal=True)

    eager = attend(q, k, v)
    np.testing.assert_allclose(np.asarray(jt.jit(attend)(q, k, v)), np.asarray(eager), rtol=1e-5, atol=1e-6)
    # vmap over the batch axis of unbatched calls gives the batched result.
    np.testing.assert_allclose(np.asarray(jt.vmap(attend)(q, k, v)), np.asarray(eager), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="implementation"):
        jnn.dot_product_attention(q, k, v, implementation="cudnn")


def test_standardize_rejects_unknown_algorithms() -> None:
    with pytest.raises(ValueError):
        jax_nn.standardize(X, algorithm="exact")
    # Under JAXTYPED_DEBUG=1 beartype rejects the Literal first.
    with pytest.raises((ValueError, *debug_violations())):
        jnn.standardize(jnp.asarray(X), algorithm="exact")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse under test


def test_glu_odd_axis_raises() -> None:
    with pytest.raises(ValueError, match="odd size"):
        jnn.glu(jnp.ones((2, 3)))


def test_one_hot_rejects_traced_num_classes() -> None:
    with pytest.raises(TypeError, match="num_classes"):
        jnn.one_hot(jnp.asarray([0, 1]), 2.5)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse under test


# === derivatives at special points ===


def _grad_cases() -> list[Case]:
    x = host("float32", GRAD_POINTS)
    cases: list[Case] = []
    for name in UNARY:
        cases.append(Case(f"{name}-grad", derivative(name, x), rtol=1e-4))
        cases.append(Case(f"{name}-jvp", derivative(name, x, mode="jvp"), rtol=1e-4))
    for name in SMOOTH + ("sparse_plus",):
        cases.append(Case(f"{name}-grad2", derivative(name, x, order=2), rtol=1e-3, atol=1e-5))
    for name, param in (("leaky_relu", 0.1), ("elu", 2.0), ("celu", 0.5), ("squareplus", 1.0)):
        cases.append(Case(f"{name}-grad_param", derivative(name, x, param)))
    cases += [
        Case("relu-grad_at_zero", derivative("relu", host("float32", [0.0, -0.0]))),
        Case("hard_tanh-grad_at_edges", derivative("hard_tanh", host("float32", [-1.0, 1.0]))),
        Case("relu6-grad_at_edges", derivative("relu6", host("float32", [0.0, 6.0]))),
        Case("gelu-grad_exact", derivative("gelu", x, approximate=False), rtol=1e-4),
        Case("gelu-grad2_exact", derivative("gelu", x, order=2, approximate=False), rtol=1e-3, atol=1e-5),
        Case("log1mexp-grad", derivative("log1mexp", host("float32", [1e-3, 0.5, np.log(2), 2.0, 30.0]))),
        Case("log1mexp-grad2", derivative("log1mexp", host("float32", [0.5, 2.0, 30.0]), order=2), rtol=1e-4),
        Case("softmax-grad", gradient("softmax", X[0], WEIGHTS)),
        Case("softmax-grad_inf", gradient("softmax", host("float32", [-np.inf, 0.0, 1.0]), WEIGHTS[:3])),
        Case("log_softmax-grad", gradient("log_softmax", X[1], WEIGHTS)),
        Case("logsumexp-grad", gradient("logsumexp", X[2])),
        Case("softmax-grad_where", gradient("softmax", X[0], WEIGHTS, where=MASK[0])),
        Case("log_softmax-grad_where", gradient("log_softmax", X[0], WEIGHTS, where=MASK[0])),
        Case("logsumexp-grad_where", gradient("logsumexp", X[0], where=MASK[0])),
        Case("logmeanexp-grad_where", gradient("logmeanexp", X[0], where=MASK[0])),
        Case("logsumexp-grad_ties", gradient("logsumexp", host("float32", [1.0, 1.0, -np.inf]))),
        Case("standardize-grad", gradient("standardize", X[0] ** 2, WEIGHTS), rtol=1e-4, atol=1e-5),
        Case("one_hot-vmap", one_hot_vmapped),
        Case("relu-grad_f16", derivative("relu", host("float16", [-1.0, 0.0, 1.0]))),
        Case("softplus-grad_bf16", derivative("softplus", host("bfloat16", [-50.0, 0.0, 50.0]))),
    ]
    return cases


GRAD_TABLE = CaseTable("nn-grad", _grad_cases)


@pytest.mark.parametrize("group", GRAD_TABLE.params())
def test_derivatives_at_special_points(group: Group) -> None:
    GRAD_TABLE.check(group)


def test_relu_gradient_at_zero_is_zero() -> None:
    """JAX's convention (not maximum's tie rule, which would give 1/2)."""
    assert float(np.asarray(jt.grad(jnn.relu)(0.0))) == 0.0
    assert float(np.asarray(jt.grad(jnn.relu)(1e-30))) == 1.0


# === jit and vmap agree with eager evaluation ===


@pytest.mark.parametrize("name", UNARY + ("log1mexp",))
def test_jit_and_vmap_match_eager(name: str) -> None:
    fn = getattr(jnn, name)
    x = jnp.asarray(np.linspace(0.25, 4.0, 12, dtype=np.float32).reshape(3, 4))
    eager = fn(x)
    np.testing.assert_allclose(np.asarray(jt.jit(fn)(x)), np.asarray(eager), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(jt.vmap(fn)(x)), np.asarray(eager), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(jt.vmap(fn, in_axes=1, out_axes=1)(x)), np.asarray(eager), rtol=1e-6, atol=1e-6)


TAILS = np.array([-1e4, -100, -80, -30, -17, -6, -1e-3, 1e-3, 6, 17, 30, 80, 100, 1e4], np.float32)


@pytest.mark.parametrize("name", UNARY + ("log1mexp",))
def test_compiled_tails_match_jax_exactly(name: str) -> None:
    """Compiled, values and gradients in the saturated tails agree with
    JAX's to float32 rounding, with no absolute slack (eager NumPy keeps
    denormals XLA flushes, so this compares jit with jit)."""
    x = np.abs(TAILS) if name == "log1mexp" else TAILS
    ours_fn, theirs_fn = getattr(jnn, name), getattr(jax_nn, name)
    for ours, theirs in (
        (jt.jit(ours_fn)(jnp.asarray(x)), jax.jit(theirs_fn)(x)),
        (jt.jit(jt.vmap(jt.grad(ours_fn)))(jnp.asarray(x)), jax.jit(jax.vmap(jax.grad(theirs_fn)))(x)),
    ):
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5, atol=0)


def softmax_axis0(L: Namespace) -> Callable[[Any], Any]:
    return lambda v: nn(L).softmax(v, axis=0)


def one_hot_of_argmax(L: Namespace) -> Callable[[Any], Any]:
    return lambda v: nn(L).one_hot(L.argmax(v, axis=-1), 6)


def standardize_rows(L: Namespace) -> Callable[[Any], Any]:
    return lambda v: nn(L).standardize(v)


@pytest.mark.parametrize("make", [softmax_axis0, one_hot_of_argmax, standardize_rows])
def test_jit_matches_jax_jit(make: Callable[[Namespace], Callable[[Any], Any]]) -> None:
    ours = jt.jit(make(jnp))(jnp.asarray(X))
    theirs = jax.jit(make(jax_numpy))(X)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5, atol=1e-6)
    assert ours.dtype == theirs.dtype


def test_every_jax_nn_function_is_covered() -> None:
    """The names of jax.nn that jaxtyped.nn implements, and the reasons for
    the others."""
    out_of_scope = {
        "initializers": "the PRNG issue",
        "scaled_matmul": "block-scaled GPU matmul",
        "scaled_dot_general": "block-scaled GPU matmul",
        "get_scaled_dot_general_config": "block-scaled GPU matmul",
    }
    theirs = {n for n in dir(jax_nn) if not n.startswith("_")}
    assert sorted(theirs - set(jnn.__all__) - set(out_of_scope)) == []
    assert sorted(set(jnn.__all__) - theirs) == []


# === softmax's derivative: the composition by default, its own rule on request ===

_SOFTMAX_ARITHMETIC = frozenset({"div", "integer_pow", "mul", "neg", "sub", "add", "add_any", "exp", "reduce_sum"})


def _softmax_grad_arithmetic(jaxpr_text: str) -> set[str]:
    """The arithmetic primitives a printed gradient jaxpr of softmax uses."""
    found: set[str] = set()
    for line in jaxpr_text.splitlines():
        _, eq, rhs = line.partition(" = ")
        if eq:
            name = rhs.split()[0].split("[")[0]
            found.add("add" if name == "add_any" else name)
    return found & _SOFTMAX_ARITHMETIC


@pytest.mark.parametrize("custom_rule", [False, True], ids=["composition", "custom_jvp"])
def test_softmax_derivative_follows_the_softmax_custom_jvp_option(custom_rule: bool) -> None:
    # JAX 0.10 differentiates softmax as its composition unless
    # jax_softmax_custom_jvp is on; the two rules use different operations
    # (the composition divides by the squared sum, the rule projects).
    x = np.array([[0.3, -1.2, 2.0, 0.5], [1.0, 1.0, -3.0, 0.0]], np.float32)
    w = np.array([[0.2, -0.7, 1.1, 0.4], [-1.0, 0.5, 0.3, 2.0]], np.float32)

    def loss(L: Any, nn_: Any) -> Callable[[Any], Any]:
        return lambda v: L.sum(nn_.softmax(v) * w)

    with jt.softmax_custom_jvp(custom_rule), jax.softmax_custom_jvp(custom_rule):
        assert jt.config.jax_softmax_custom_jvp is custom_rule
        ours = jt.grad(loss(jnp, jnn))(x)
        theirs = jax.grad(loss(jax_numpy, jax.nn))(x)
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-6, atol=1e-7)
        our_ops = _softmax_grad_arithmetic(str(jt.make_jaxpr(jt.grad(loss(jnp, jnn)))(x)))
        their_ops = _softmax_grad_arithmetic(str(jax.make_jaxpr(jax.grad(loss(jax_numpy, jax.nn)))(x)))
    assert our_ops == their_ops
    assert ("integer_pow" in our_ops) is not custom_rule
    assert jt.config.jax_softmax_custom_jvp is False
