"""Compiled programs at parity with JAX's (issue 19, item 3).

The training-step workloads of ``benchmarks/core_overheads.py`` (the MLP's
``jit(grad)``, per-example gradients, the scan RNN's forward pass and
``value_and_grad``) are compiled by both libraries and their optimized HLO
compared op by op: ours may not hold an op kind more often than JAX's
(fewer is fine: the scan RNN's has fewer bitcasts); the MLP's and the
per-example gradients' hold exactly JAX's ops and give JAX's results bit
for bit, the derivative rules grouping their operations as JAX's do.
Beside it: the gradient jaxpr's equation count against JAX's, before and
after dead-code elimination; loop-invariant residuals of a scan computed
once, outside the loop, not stacked per iteration; and ``unroll=k``
emitting the body once (a private function called ``k`` times), so the
module is no bigger than JAX's.
"""

import collections
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr
from jaxtyped._src.lax.control_flow.scan import Scan
from oracle import assert_same, jax

jax_pe: Any = pytest.importorskip("jax._src.interpreters.partial_eval")

RNG = np.random.default_rng(19)


def _f32(*shape: int, scale: float = 1.0) -> np.ndarray[Any, Any]:
    return (RNG.normal(size=shape) * scale).astype(np.float32)


def _opcodes(hlo: str) -> collections.Counter[str]:
    """How often each HLO opcode occurs in an optimized module's text."""
    found: collections.Counter[str] = collections.Counter()
    for line in hlo.splitlines():
        match = re.search(r"= \S+ ([a-z][a-z0-9\-]*)\(", line)
        if match:
            found[match.group(1)] += 1
    return found


def _assert_no_more_ops_than_jax(ours: Callable[..., Any], theirs: Callable[..., Any], *args: Any, same: bool = False) -> None:
    """Ours holds no op kind more often than JAX's; with ``same``, exactly
    as often, and the results are JAX's bit for bit (the derivative rules
    group their operations as JAX's do, so they round alike)."""
    tolerance = 0.0 if same else 1e-4
    assert_same(jt.jit(ours)(*args), jax.jit(theirs)(*args), rtol=tolerance, atol=tolerance / 10)
    our_ops = _opcodes(jt.jit(ours).lower(*args).compile().as_text())
    jax_ops = _opcodes(jax.jit(theirs).lower(*args).compile().as_text())
    assert {"dot", "fusion"} & set(our_ops), "the opcode count parsed nothing"
    assert our_ops - jax_ops == collections.Counter(), f"ops beyond JAX's: {our_ops - jax_ops}"
    if same:
        assert our_ops == jax_ops, f"JAX's ops beyond ours: {jax_ops - our_ops}"


# === the benchmark's workloads (smaller) ===


def _mlp_loss(L: Any) -> Callable[[Any, Any], Any]:
    def loss(params: Any, x: Any) -> Any:
        for w, b in params[:-1]:
            x = L.tanh(x @ w + b)
        w, b = params[-1]
        return L.mean((x @ w + b) ** 2)

    return loss


MLP_PARAMS = [(_f32(32, 32, scale=0.2), _f32(32)) for _ in range(4)]
MLP_X = _f32(16, 32)


def _example_loss(L: Any) -> Callable[[Any, Any, Any], Any]:
    def loss(params: Any, x: Any, y: Any) -> Any:
        hidden = L.tanh(x @ params["w1"] + params["b1"])
        return (hidden @ params["w2"] + params["b2"] - y) ** 2

    return loss


SMALL = {"w1": _f32(16, 32, scale=0.25), "b1": _f32(32), "w2": _f32(32, scale=0.2), "b2": np.float32(0.1)}
BATCH_X, BATCH_Y = _f32(8, 16), _f32(8)


def _rnn_loss(L: Any, lax: Any, transposed: bool = False) -> Callable[[Any, Any, Any], Any]:
    """A tanh RNN over ``xs``; with ``transposed`` the cell multiplies by
    ``wh.T``, a loop invariant computed in the body."""

    def loss(params: Any, h0: Any, xs: Any) -> Any:
        def cell(h: Any, x: Any) -> tuple[Any, Any]:
            wh = params["wh"].T if transposed else params["wh"]
            h = L.tanh(x @ params["wx"] + h @ wh + params["b"])
            return h, h

        _, hs = lax.scan(cell, h0, xs)
        return L.mean(hs**2)

    return loss


RNN = {"wx": _f32(8, 16, scale=0.3), "wh": _f32(16, 16, scale=0.25), "b": _f32(16, scale=0.1)}
H0, XS = np.zeros((4, 16), np.float32), _f32(12, 4, 8)


def test_mlp_gradient_compiles_to_no_more_ops_than_jax() -> None:
    _assert_no_more_ops_than_jax(jt.grad(_mlp_loss(jnp)), jax.grad(_mlp_loss(jax.numpy)), MLP_PARAMS, MLP_X, same=True)


def test_per_example_gradients_compile_to_no_more_ops_than_jax() -> None:
    ours = jt.vmap(jt.grad(_example_loss(jnp)), in_axes=(None, 0, 0))
    theirs = jax.vmap(jax.grad(_example_loss(jax.numpy)), in_axes=(None, 0, 0))
    _assert_no_more_ops_than_jax(ours, theirs, SMALL, BATCH_X, BATCH_Y, same=True)


@pytest.mark.parametrize("transposed", [False, True], ids=["wh", "wh.T"])
def test_scan_rnn_compiles_to_no_more_ops_than_jax(transposed: bool) -> None:
    ours, theirs = _rnn_loss(jnp, jt.lax, transposed), _rnn_loss(jax.numpy, jax.lax, transposed)
    _assert_no_more_ops_than_jax(ours, theirs, RNN, H0, XS)
    _assert_no_more_ops_than_jax(jt.value_and_grad(ours), jax.value_and_grad(theirs), RNN, H0, XS)


# === equation counts of the gradient jaxpr ===


def test_gradient_jaxpr_has_no_more_equations_than_jax() -> None:
    ours = jt.make_jaxpr(jt.grad(_mlp_loss(jnp)))(MLP_PARAMS, MLP_X).jaxpr
    theirs = jax.make_jaxpr(jax.grad(_mlp_loss(jax.numpy)))(MLP_PARAMS, MLP_X).jaxpr
    assert len(ours.eqns) <= len(theirs.eqns)
    # The primal loss is dead in a gradient: elimination drops its
    # reduction (and ours has no more live equations than JAX's).
    live, _ = dce_jaxpr(ours, (True,) * len(ours.outvars))
    jax_live, _ = jax_pe.dce_jaxpr(theirs, [True] * len(theirs.outvars))
    assert len(live.eqns) < len(ours.eqns)
    assert len(live.eqns) <= len(jax_live.eqns)
    assert sum(e.primitive.name == "reduce_sum" and e.outvars[0].aval.shape == () for e in live.eqns) == 0
    # The lowered module is the live program, as JAX's is (no loss reduction,
    # no division by the element count, no negated quotient of div's jvp).
    text = jt.jit(jt.grad(_mlp_loss(jnp))).lower(MLP_PARAMS, MLP_X).as_text()
    jax_text = jax.jit(jax.grad(_mlp_loss(jax.numpy))).lower(MLP_PARAMS, MLP_X).as_text()
    for op in ("stablehlo.reduce", "stablehlo.divide", "stablehlo.negate"):
        assert text.count(op) <= jax_text.count(op), op


# === loop-invariant residuals of scan ===


def _stacked_outputs(eqn: Any, length: int, shape: tuple[int, ...]) -> int:
    return sum(v.aval.shape == (length, *shape) for v in eqn.outvars)


def test_loop_invariant_residual_is_computed_once_not_stacked() -> None:
    grad = jt.grad(_rnn_loss(jnp, jt.lax, transposed=True))
    jaxpr = jt.make_jaxpr(grad)(RNN, H0, XS).jaxpr
    scans = [e for e in jaxpr.eqns if e.primitive.name == "scan"]
    assert len(scans) == 2  # the known (forward) loop and the transposed one
    forward = scans[0]
    # Stacked today would be an f32[12,16,16] per-iteration copy of wh.T.
    assert _stacked_outputs(forward, XS.shape[0], RNN["wh"].shape) == 0
    hoisted = [e for e in jaxpr.eqns[: jaxpr.eqns.index(forward)] if e.primitive.name == "transpose"]
    assert len(hoisted) == 1
    # The hoisted value is a const of both loops, and the forward body no
    # longer transposes wh.
    (wh_t,) = hoisted[0].outvars
    loops = [e.primitive for e in scans]
    assert all(isinstance(p, Scan) for p in loops)
    assert all(wh_t in e.invars[: p.num_consts] for e, p in zip(scans, loops) if isinstance(p, Scan))
    body_eqns = loops[0].jaxpr.eqns if isinstance(loops[0], Scan) else ()
    assert [e.primitive.name for e in body_eqns].count("tanh") == 1
    assert "transpose" not in [e.primitive.name for e in body_eqns]


def _jit_grad(api: Any, f: Any) -> Any:
    return api.jit(api.grad(f, argnums=(0, 1, 2)))


def _grad_jit(api: Any, f: Any) -> Any:
    return api.grad(api.jit(f), argnums=(0, 1, 2))


def _grad_checkpoint(api: Any, f: Any) -> Any:
    return api.grad(api.checkpoint(f), argnums=(0, 1, 2))


def _vmap_grad(api: Any, f: Any) -> Any:
    return api.vmap(api.grad(f), in_axes=(None, None, 1))


@pytest.mark.parametrize("transform", [_jit_grad, _grad_jit, _grad_checkpoint, _vmap_grad])
def test_hoisted_residuals_give_jax_gradients(transform: Callable[[Any, Any], Any]) -> None:
    ours = transform(jt, _rnn_loss(jnp, jt.lax, transposed=True))(RNN, H0, XS)
    theirs = transform(jax, _rnn_loss(jax.numpy, jax.lax, transposed=True))(RNN, H0, XS)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)


def test_invariant_residual_of_a_nested_scan_is_hoisted_and_matches_jax() -> None:
    def outer(L: Any, lax: Any) -> Callable[[Any, Any], Any]:
        def f(w: Any, xs: Any) -> Any:
            def row(c: Any, x: Any) -> tuple[Any, Any]:
                inner = _rnn_loss(L, lax, transposed=True)({"wx": w[:8], "wh": w[8:24], "b": w[24]}, c, x)
                return c * 0.5 + inner, inner

            return lax.scan(row, L.zeros((4, 16)), xs)[1].sum()

        return f

    w = np.concatenate([RNN["wx"], RNN["wh"], RNN["b"][None]], 0)
    xs = XS.reshape(3, 4, 4, 8)
    assert_same(jt.grad(outer(jnp, jt.lax))(w, xs), jax.grad(outer(jax.numpy, jax.lax))(w, xs), rtol=1e-4, atol=1e-5)
    # The inner loop's invariant is the outer loop's too: computed once, at the top.
    jaxpr = jt.make_jaxpr(jt.grad(outer(jnp, jt.lax)))(w, xs).jaxpr
    forward = next(e for e in jaxpr.eqns if e.primitive.name == "scan")
    assert [e.primitive.name for e in jaxpr.eqns[: jaxpr.eqns.index(forward)]].count("transpose") == 1
    assert _stacked_outputs(forward, 3, (16, 16)) == 0


# === unroll: the body once ===


def _small_scan(L: Any, lax: Any, unroll: int | bool, reverse: bool = False) -> Callable[[Any], Any]:
    def f(xs: Any) -> Any:
        def body(c: Any, x: Any) -> tuple[Any, Any]:
            c = L.sin(c) * 0.9 + x
            return c, (c * 2.0, c[:2])

        return lax.scan(body, L.zeros_like(xs[0]), xs, unroll=unroll, reverse=reverse)

    return f


def test_unrolled_scan_module_holds_the_body_once() -> None:
    xs = _f32(1000, 8)
    ours = jt.jit(_small_scan(jnp, jt.lax, 10)).lower(xs).as_text()
    theirs = jax.jit(_small_scan(jax.numpy, jax.lax, 10)).lower(xs).as_text()
    rolled = jt.jit(_small_scan(jnp, jt.lax, 1)).lower(xs).as_text()
    assert ours.count("stablehlo.sine") == 1
    assert len(re.findall(r"call @closed_call\b", ours)) == 10
    assert len(ours) <= len(theirs)  # 2.6x JAX's when the body was inlined 10 times
    assert len(ours) < 3 * len(rolled)


@pytest.mark.parametrize("unroll, reverse", [(3, False), (2, True), (True, False)], ids=["3", "2-reverse", "True"])
def test_unrolled_scan_matches_jax(unroll: int | bool, reverse: bool) -> None:
    xs = _f32(7, 8)  # 7 steps: a remainder after the trips for 2, 3 and 5

    def grad_of(L: Any, lax: Any, api: Any) -> Any:
        def loss(x: Any) -> Any:
            return L.sum(_small_scan(L, lax, unroll, reverse)(x)[1][0] ** 2)

        return api.grad(loss)

    assert_same(jt.jit(_small_scan(jnp, jt.lax, unroll, reverse))(xs), jax.jit(_small_scan(jax.numpy, jax.lax, unroll, reverse))(xs))
    assert_same(jt.jit(grad_of(jnp, jt.lax, jt))(xs), jax.jit(grad_of(jax.numpy, jax.lax, jax))(xs), rtol=1e-4, atol=1e-5)
    batched = np.stack([xs, xs * 0.5], 1)
    assert_same(
        jt.jit(jt.vmap(_small_scan(jnp, jt.lax, unroll, reverse), in_axes=1))(batched),
        jax.jit(jax.vmap(_small_scan(jax.numpy, jax.lax, unroll, reverse), in_axes=1))(batched),
    )


def test_nested_unrolled_scans_each_emit_their_body_once() -> None:
    def nested(L: Any, lax: Any) -> Callable[[Any], Any]:
        def f(xs: Any) -> Any:
            def inner(d: Any, x: Any) -> tuple[Any, Any]:
                return L.sin(d) + x, d * 2.0

            def outer(c: Any, row: Any) -> tuple[Any, Any]:
                d, ys = lax.scan(inner, c, row, unroll=2)
                return d, ys.sum()

            return lax.scan(outer, L.zeros(()), xs, unroll=3)

        return f

    xs = _f32(7, 5)
    assert_same(jt.jit(nested(jnp, jt.lax))(xs), jax.jit(nested(jax.numpy, jax.lax))(xs))
    text = jt.jit(nested(jnp, jt.lax)).lower(xs).as_text()
    assert text.count("func.func private") == 2 and text.count("stablehlo.sine") == 1


def test_an_unrolled_body_with_ordered_effects_prints_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    def f(xs: Any) -> Any:
        def body(c: Any, x: Any) -> tuple[Any, Any]:
            jt.debug.print("x={x}", x=x, ordered=True)
            return c + x, c

        return jt.lax.scan(body, jnp.zeros(()), xs, unroll=2)

    total, partial_sums = jt.jit(f)(np.arange(5.0, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(partial_sums), [0, 0, 1, 3, 6])
    assert float(total) == 10.0
    assert capsys.readouterr().out.split() == [f"x={v}" for v in (0.0, 1.0, 2.0, 3.0, 4.0)]


@pytest.mark.parametrize("policy", ["nothing_saveable", "dots_saveable", "everything_saveable"])
def test_hoisted_residuals_under_checkpoint_policies_match_jax(policy: str) -> None:
    def loss(L: Any, lax: Any) -> Callable[[Any, Any, Any], Any]:
        def f(w: Any, h0: Any, xs: Any) -> Any:
            def cell(h: Any, x: Any) -> tuple[Any, Any]:
                h = x + h @ w.T  # linear in h: wh.T is the loop's only residual
                return h, L.tanh(h)

            final, hs = lax.scan(cell, h0, xs)
            return L.sum(L.sin(final)) + L.sum(hs)

        return f

    w, h0, xs = RNN["wh"] * 0.5, H0[0], _f32(6, 16)
    ours = jt.jit(jt.grad(jt.checkpoint(loss(jnp, jt.lax), policy=getattr(jt.checkpoint_policies, policy)), argnums=(0, 1)))
    theirs = jax.grad(jax.checkpoint(loss(jax.numpy, jax.lax), policy=getattr(jax.checkpoint_policies, policy)), argnums=(0, 1))
    assert_same(ours(w, h0, xs), theirs(w, h0, xs), rtol=1e-4, atol=1e-5)


# === dead-code elimination inside loops (lowering) ===


def _dead_outputs_scan(L: Any, lax: Any) -> Callable[[Any], Any]:
    """Only the first carry and the second ``y`` are used: the second carry
    (which the first does not read) and the first ``y`` (a matmul) are dead,
    also in the inner scan."""

    def f(xs: Any) -> Any:
        def inner(d: Any, x: Any) -> tuple[Any, Any]:
            return d + x, (L.exp(x), d)

        def body(carry: Any, x: Any) -> tuple[Any, Any]:
            c, unused = carry
            c2, (_, ds) = lax.scan(inner, c, x[None])
            return (c2 + x, unused * L.cos(x)), (L.tanh(x) @ L.ones((8, 8)), c * 2.0 + ds[0])

        (c, _), (_, ys) = lax.scan(body, (L.zeros(8), L.ones(8)), xs)
        return c, ys

    return f


def test_unused_scan_outputs_are_not_lowered() -> None:
    xs = _f32(10, 8)
    assert_same(jt.jit(_dead_outputs_scan(jnp, jt.lax))(xs), jax.jit(_dead_outputs_scan(jax.numpy, jax.lax))(xs))
    text = jt.jit(_dead_outputs_scan(jnp, jt.lax)).lower(xs).as_text()
    for dead in ("stablehlo.tanh", "stablehlo.dot_general", "stablehlo.cosine", "stablehlo.exponential"):
        assert dead not in text, dead
    # The traced program keeps them (JAX's make_jaxpr does too): only lowering drops them.
    printed = str(jt.make_jaxpr(_dead_outputs_scan(jnp, jt.lax))(xs))
    assert "tanh" in printed and "cos" in printed

    def loss(L: Any, lax: Any) -> Callable[[Any], Any]:
        return lambda x: _dead_outputs_scan(L, lax)(x)[1].sum()

    assert_same(jt.jit(jt.grad(loss(jnp, jt.lax)))(xs), jax.jit(jax.grad(loss(jax.numpy, jax.lax)))(xs))
