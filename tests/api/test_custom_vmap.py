"""``jaxtyped.custom_batching`` (``custom_vmap``, ``sequential_vmap``)
against ``jax.custom_batching``.

Each program is written once for both libraries. The batching rules add a
marker (``+ 100``) that the plain function does not, so every result shows
whether the rule ran; the rules record the ``in_batched`` they were given,
which must be JAX's. Values, shapes, dtypes and weak types are compared
under eager calls, ``jit``, ``vmap`` (every placement of the batched
arguments, ``out_axes``, nesting, with ``jit`` inside and outside) and
``jvp`` (and ``vmap`` of ``jvp``); errors by kind against JAX's, and the
printed jaxprs by their structure.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.custom_batching import custom_vmap, sequential_vmap
from jaxtyped.errors import JaxtypedAttributeError, JaxtypedTypeError, JaxtypedValueError, UnexpectedTracerError
from oracle import assert_same, binary_fn, expect_same_error, unary_fn

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")
jax_batching: Any = pytest.importorskip("jax.custom_batching")

F3 = Callable[[Any, Any, Any], Any]


def rule_fn(fn: F3) -> F3:
    """``fn``, a batching rule of one argument (typed parameters for a lambda)."""
    return fn


XS = np.linspace(-1.0, 2.0, 3).astype(np.float32)
YS = np.linspace(0.5, 1.5, 3).astype(np.float32)
GRID = np.arange(6, dtype=np.float32).reshape(2, 3) / 4


class Lib:
    """One library's names, and a ``custom_vmap`` function ``f(x, y) =
    sin(x) * y`` whose rule adds 100 and records its ``in_batched``."""

    def __init__(self, ours: bool) -> None:
        self.ours = ours
        self.T: Any = jt if ours else jax
        self.N: Any = jnp if ours else jax_numpy
        self.custom_vmap: Any = custom_vmap if ours else jax_batching.custom_vmap
        self.sequential_vmap: Any = sequential_vmap if ours else jax_batching.sequential_vmap
        self.seen: list[tuple[int, object]] = []
        N = self.N
        f = self.custom_vmap(binary_fn(lambda x, y: N.sin(x) * y))

        def rule(axis_size: int, in_batched: list[bool], xs: Any, ys: Any) -> tuple[Any, bool]:
            self.seen.append((axis_size, list(in_batched)))
            return N.sin(xs) * ys + 100.0, in_batched[0] or in_batched[1]

        f.def_vmap(rule)
        self.f: Any = f

    def asarray(self, x: Any) -> Any:
        return self.N.asarray(x)


def both(run: Callable[[Lib], Any], rtol: float = 2e-6, atol: float = 1e-6, weak: bool = True) -> tuple[Lib, Lib]:
    """Run ``run`` in both libraries; results and recorded rule calls equal."""
    ours, theirs = Lib(True), Lib(False)
    assert_same(run(ours), run(theirs), rtol, atol, tree=True, weak=weak)
    assert ours.seen == theirs.seen, f"rule calls {ours.seen} != JAX's {theirs.seen}"
    return ours, theirs


# === calls outside vmap, and vmap ===


def test_eager_and_jit_run_the_function_not_the_rule() -> None:
    both(lambda L: L.f(L.asarray(XS), 2.0))
    both(lambda L: L.T.jit(L.f)(L.asarray(XS), L.asarray(YS)))
    both(lambda L: L.f(0.5, y=2.0))  # keywords resolve to positions, Python scalars stay weak


@pytest.mark.parametrize(
    ("in_axes", "out_axes", "args"),
    [
        ((0, None), 0, (XS, 2.0)),
        ((None, 0), 0, (0.5, YS)),
        ((0, 0), 0, (XS, YS)),
        ((1, None), 1, (GRID, np.float32(3.0))),
    ],
)
def test_vmap_calls_the_rule_with_the_batch_axis_first(in_axes: tuple[Any, Any], out_axes: int, args: tuple[Any, Any]) -> None:
    both(lambda L: L.T.vmap(L.f, in_axes=in_axes, out_axes=out_axes)(*args))


def test_vmap_with_jit_inside_and_outside_and_nested() -> None:
    both(lambda L: L.T.jit(L.T.vmap(L.f, in_axes=(0, None)))(L.asarray(XS), 2.0))
    both(lambda L: L.T.vmap(L.T.jit(L.f), in_axes=(0, None))(L.asarray(XS), 2.0))
    # The inner vmap calls the rule once; the outer one batches the rule's operations.
    both(lambda L: L.T.vmap(L.T.vmap(L.f), in_axes=(0, None))(L.asarray(GRID), L.asarray(YS)))


def test_pytree_arguments_and_outputs() -> None:
    def run(L: Lib) -> Any:
        N = L.N

        def fun(d: Any, y: Any) -> Any:
            return {"a": d["u"] * y, "b": (y, d["v"])}

        g = L.custom_vmap(fun)

        def rule(axis_size: int, in_batched: list[Any], d: Any, y: Any) -> tuple[Any, Any]:
            L.seen.append((axis_size, in_batched))
            out = {"a": d["u"] * y + 100.0, "b": (y, d["v"])}
            return out, {"a": in_batched[0]["u"] or in_batched[1], "b": (in_batched[1], in_batched[0]["v"])}

        g.def_vmap(rule)
        d = {"u": N.ones(3), "v": N.float32(2.0)}
        return L.T.vmap(g, in_axes=({"u": 0, "v": None}, 0))(d, N.asarray(YS))

    both(run)


def test_sequential_vmap_maps_the_function_over_the_batch() -> None:
    def run(L: Lib) -> Any:
        s = L.sequential_vmap(binary_fn(lambda x, y: L.N.sum(x) * y))
        return L.T.vmap(s, in_axes=(0, None))(L.asarray(GRID), 3.0), L.T.vmap(s)(L.asarray(GRID), L.asarray(YS[:2]))

    both(run)

    def total(x: jt.Array) -> jt.Array:
        return jnp.sum(x)

    text = str(jt.make_jaxpr(jt.vmap(sequential_vmap(total)))(jnp.ones((2, 3))))
    assert "scan[" in text and "custom_vmap_call[" in text, text


# === forward mode ===


def test_jvp_outside_and_inside_vmap() -> None:
    both(lambda L: L.T.jvp(L.f, (1.0, 2.0), (1.0, 0.0)))
    both(lambda L: L.T.jvp(L.T.vmap(L.f, in_axes=(0, None)), (L.asarray(XS), 2.0), (L.N.ones(3), 1.0)))
    # primal and tangent both batched: the rule's jvp runs batched, as in JAX
    both(lambda L: L.T.vmap(binary_fn(lambda x, t: L.T.jvp(L.f, (x, 2.0), (t, 0.0))))(L.asarray(XS), L.asarray(YS)))


@pytest.mark.parametrize("batched", ["primal", "tangent"])
def test_vmap_of_jvp_with_one_side_batched(batched: str) -> None:
    """JAX calls the rule unbatched inside a plain vmap here; jaxtyped
    broadcasts the other side and calls it batched (see the module
    docstring): the rule runs either way, and the values are JAX's."""

    def run(L: Lib) -> Any:
        if batched == "primal":
            return L.T.vmap(unary_fn(lambda x: L.T.jvp(L.f, (x, 2.0), (1.0, 0.0))))(L.asarray(XS))
        return L.T.vmap(unary_fn(lambda t: L.T.jvp(L.f, (1.0, 2.0), (t, 0.0))))(L.asarray(XS))

    ours, theirs = Lib(True), Lib(False)
    assert_same(run(ours), run(theirs), 2e-6, 1e-6, tree=True, weak=False)
    assert [s[1] for s in ours.seen] == [[True, False]] and [s[1] for s in theirs.seen] == [[False, False]]


def test_vmap_of_jvp_with_mixed_batching_is_per_example() -> None:
    """x batched in primal and tangent, y in its primal only: each output
    is the per-example jvp with the rule's marker (JAX 0.10.2 returns shape
    (3, 3) here, an extra batch axis)."""
    ours = Lib(True)
    primal, tangent = jt.vmap(binary_fn(lambda x, y: jt.jvp(ours.f, (x, y), (x, 0.0))))(jnp.asarray(XS), jnp.asarray(YS))
    assert primal.shape == tangent.shape == (3,)
    np.testing.assert_allclose(np.asarray(primal), np.sin(XS.astype(np.float64)) * YS + 100.0, rtol=2e-6)
    np.testing.assert_allclose(np.asarray(tangent), np.cos(XS.astype(np.float64)) * XS * YS, rtol=2e-6, atol=1e-6)


def test_jvp_of_a_closure_over_a_differentiated_value() -> None:
    def run(L: Lib) -> Any:
        def outer(c: Any) -> Any:
            k = L.custom_vmap(unary_fn(lambda x: x * c))
            k.def_vmap(rule_fn(lambda n, b, x: (x * c + 100.0, b[0])))
            return k(L.N.ones(2))

        return L.T.jvp(outer, (2.0,), (1.0,))

    both(run)


# === printed jaxprs ===


def test_printed_jaxprs() -> None:
    f = Lib(True).f
    assert str(jt.make_jaxpr(f)(1.0, 2.0)) == (
        "{ lambda ; a:f32[] b:f32[]. let\n"
        "    c:f32[] = custom_vmap_call[\n"
        "      name=<lambda>\n"
        "      call={ lambda ; d:f32[] e:f32[]. let\n"
        "          f:f32[] = sin d\n"
        "          g:f32[] = mul f e\n"
        "        in (g,) }\n"
        "      rule=rule\n"
        "    ] a b\n"
        "  in (c,) }"
    )
    # The rule's operations are staged, not the call (as in JAX).
    text = str(jt.make_jaxpr(jt.vmap(f, in_axes=(0, None)))(jnp.asarray(XS), 2.0))
    assert "custom_vmap_call" not in text and "add" in text, text
    jvp_text = str(jt.make_jaxpr(binary_fn(lambda a, b: jt.jvp(f, (a, b), (1.0, 0.0))))(1.0, 2.0))
    assert "rule=jvp_of_rule" in jvp_text, jvp_text


# === errors ===


def _no_rule(L: Lib, batched: bool) -> Any:
    g = L.custom_vmap(unary_fn(lambda x: x))
    return L.T.vmap(g)(L.N.ones(3)) if batched else g(L.N.ones(3))


@pytest.mark.parametrize("batched", [False, True])
def test_calling_without_a_rule_is_an_attribute_error(batched: bool) -> None:
    with pytest.raises(AttributeError):
        _no_rule(Lib(False), batched)
    with pytest.raises(JaxtypedAttributeError, match=r"No batching rule defined for custom_vmap function _no_rule.<locals>.<lambda> at .*test_custom_vmap.py:\d+ using def_vmap"):
        _no_rule(Lib(True), batched)


ERROR_CASES: dict[str, Callable[[Lib], Any]] = {
    "missing-argument": lambda L: L.f(1.0),
    "string-argument": lambda L: L.f("a", 2.0),
    "grad": lambda L: L.T.grad(L.f)(1.0, 2.0),
    "vmap-of-grad": lambda L: L.T.vmap(L.T.grad(L.f))(L.asarray(XS), L.asarray(YS)),
}


@pytest.mark.parametrize("name", list(ERROR_CASES))
def test_errors_as_jax(name: str) -> None:
    run = ERROR_CASES[name]
    try:
        run(Lib(False))
    except Exception as err:  # noqa: BLE001 - any of JAX's errors is compared by kind
        expect_same_error(err, lambda: run(Lib(True)))
    else:
        pytest.fail(f"JAX raised nothing for {name}")


def test_grad_error_names_the_function() -> None:
    with pytest.raises(JaxtypedValueError, match="custom_vmap function <lambda>: reverse-mode"):
        ERROR_CASES["grad"](Lib(True))


def _with_rule(rule: F3) -> Any:
    g = custom_vmap(unary_fn(lambda x: (x, x * 2.0)))
    g.def_vmap(rule)
    return jt.vmap(g)(jnp.ones(3))


def test_rule_output_structure_mismatch_is_a_value_error_as_in_jax() -> None:
    with pytest.raises(ValueError, match="do not match"):
        g = jax_batching.custom_vmap(unary_fn(lambda x: (x, x * 2.0)))
        g.def_vmap(rule_fn(lambda n, b, x: ((x, x * 2.0), True)))
        jax.vmap(g)(jax_numpy.ones(3))
    with pytest.raises(JaxtypedValueError, match=r"custom vmap rule <lambda> .* do not match"):
        _with_rule(rule_fn(lambda n, b, x: ((x, x * 2.0), True)))


def test_rule_results_are_checked_where_jax_crashes_or_trusts_them() -> None:
    # JAX 0.10.2 raises IndexError from deep inside for the first one.
    with pytest.raises(JaxtypedTypeError, match=r"output\[1\] is declared batched \(axis size 3\), so it must have shape \(3,\)"):
        _with_rule(rule_fn(lambda n, b, x: ((x, x[0]), (True, True))))
    with pytest.raises(JaxtypedTypeError, match="must return a pair"):
        _with_rule(rule_fn(lambda n, b, x: (x, x * 2.0, True)))
    with pytest.raises(JaxtypedTypeError, match="out_batched for output"):
        _with_rule(rule_fn(lambda n, b, x: ((x, x * 2.0), (True, 1))))


def test_closing_over_a_batched_value_is_refused() -> None:
    # JAX 0.10.2 fails an internal assertion here.
    def outer(c: jt.Array) -> Any:
        k = custom_vmap(unary_fn(lambda x: x * c))
        k.def_vmap(rule_fn(lambda n, b, x: (x * c, b[0])))
        return k(jnp.ones(2))

    with pytest.raises(UnexpectedTracerError, match="closes over a value that this vmap batches"):
        jt.vmap(outer)(jnp.arange(3.0))


def test_def_vmap_returns_the_rule_and_rejects_non_callables() -> None:
    g = custom_vmap(unary_fn(lambda x: x))

    def rule(n: int, b: list[bool], x: jt.Array) -> tuple[jt.Array, bool]:
        return x, b[0]

    assert g.def_vmap(rule) is rule
    # In debug mode beartype refuses the call first, by the annotation.
    with pytest.raises(JaxtypedTypeError, match="def_vmap" if jt.DEBUG else "def_vmap expects a callable"):
        g.def_vmap(3)  # type: ignore[type-var]  # pyright: ignore[reportArgumentType]  # the error under test
    assert g.__name__ == "<lambda>" and repr(g).startswith("<custom_vmap")
