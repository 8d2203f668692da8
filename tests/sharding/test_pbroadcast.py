"""``lax.pbroadcast`` (issue 17 item 4): every member of a named axis gets
member ``source``'s value.

Under ``vmap(axis_name=...)`` it is compared with JAX 0.10.2 where JAX runs
it: JAX's batching rule only works on a NumPy operand the vmap received as
is (it calls ``.take`` with a list, which a tracer rejects), so the JAX
cases pass NumPy inputs straight to ``vmap`` and stay eager. Everything else
(jit, jvp, grad of a vmap, several names, an inner name of nested vmaps)
fails in JAX with "take requires ndarray or scalar arguments", and inside
``shard_map`` JAX has no CPU lowering ("MLIR translation rule for primitive
'pbroadcast' not found for platform cpu"): there the reference is NumPy and
our own vmap result.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the cases are lambdas over either library, untyped by design)

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, jax_numpy, library

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.sharding as jts
from jaxtyped import errors

jt_any: Any = jt

X4 = np.arange(4.0, dtype=np.float32) - 1.5
M34 = np.arange(12.0, dtype=np.float32).reshape(3, 4) / 4 - 1
W4 = np.arange(1.0, 5.0, dtype=np.float32)


def bc(name: Any, source: int) -> Callable[[Any], Callable[[Any], Any]]:
    return lambda o: lambda r: o.lax.pbroadcast(r, name, source)


# Each case gets the library (``library(L)``) and returns the result.
CASES: dict[str, Callable[[Any], Any]] = {
    "vector": lambda o: o.api.vmap(bc("i", 2)(o), axis_name="i")(X4),
    "matrix-rows": lambda o: o.api.vmap(bc("i", 0)(o), axis_name="i")(M34),
    "batch-dim-1": lambda o: o.api.vmap(bc("i", 3)(o), in_axes=1, axis_name="i")(M34),
    "int": lambda o: o.api.vmap(bc("i", 1)(o), axis_name="i")(np.arange(6, dtype=np.int32).reshape(3, 2)),
    "pytree": lambda o: o.api.vmap(lambda t: o.lax.pbroadcast(t, "i", 1), axis_name="i")(
        {"a": X4, "b": np.arange(8, dtype=np.int32).reshape(4, 2)}
    ),
    "python-scalar-leaf": lambda o: o.api.vmap(lambda r: o.lax.pbroadcast((r, 3.0), "i", 1), axis_name="i")(X4),
    "unbatched-operand": lambda o: o.api.vmap(lambda r, c: o.lax.pbroadcast(c, "i", 1), in_axes=(0, None), axis_name="i")(
        X4, M34
    ),
    "nested-outer-name": lambda o: o.api.vmap(o.api.vmap(bc("i", 2)(o), axis_name="j"), axis_name="i")(M34),
    "vmap-of-grad": lambda o: o.api.vmap(o.api.grad(lambda y, w: o.lax.pbroadcast(y, "i", 1) * w), axis_name="i")(X4, W4),
    "vmap-of-jvp": lambda o: o.api.vmap(
        lambda y, t: o.api.jvp(lambda u: o.lax.pbroadcast(u, "i", 2) ** 2, (y,), (t,)), axis_name="i"
    )(X4, W4),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_pbroadcast_under_vmap_matches_jax(case: str) -> None:
    fn = CASES[case]
    # JAX hands back NumPy arrays where its batching rule returned its input.
    assert_same(fn(library(jnp)), jax.tree_util.tree_map(jax_numpy.asarray, fn(library(jax_numpy))), where=case, weak=False, tree=True)


def _vm(f: Callable[[Any], Any], name: str = "i") -> Any:
    return jt_any.vmap(f, axis_name=name)


def test_jit_jvp_and_grad_of_vmap() -> None:
    # JAX 0.10.2 fails on all of these (its batching rule on a tracer).
    f = _vm(lambda r: jt.lax.pbroadcast(r, "i", 2))
    np.testing.assert_array_equal(np.asarray(jt_any.jit(f)(X4)), np.full(4, X4[2]))
    np.testing.assert_array_equal(np.asarray(f(jnp.asarray(X4))), np.full(4, X4[2]))
    _, tangent = jt_any.jvp(f, (X4,), (W4,))
    np.testing.assert_array_equal(np.asarray(tangent), np.full(4, W4[2]))
    # The source's input receives every member's cotangent; the others none.
    g = jt_any.grad(lambda x: jnp.sum(f(x) * W4))(X4)
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0, W4.sum(), 0.0])
    g = jt_any.jit(jt_any.grad(lambda x: jnp.sum(jnp.sin(f(x)) * W4)))(X4)
    np.testing.assert_allclose(np.asarray(g), [0.0, 0.0, np.sum(np.cos(X4[2]) * W4), 0.0], rtol=1e-6)


def test_grad_matches_finite_differences() -> None:
    def loss(x: Any) -> Any:
        return jnp.sum(_vm(lambda r: jt.lax.pbroadcast(r, "i", 1) ** 2)(x) * W4)

    x = X4
    g = np.asarray(jt_any.grad(loss)(x))
    eps = np.float32(1e-2)
    numeric = [(float(loss(x + eps * e)) - float(loss(x - eps * e))) / (2 * eps) for e in np.eye(4, dtype=np.float32)]
    np.testing.assert_allclose(g, numeric, rtol=1e-3, atol=1e-3)


def test_nested_vmaps_inner_and_several_names() -> None:
    inner = _vm(_vm(lambda r: jt.lax.pbroadcast(r, "j", 3), "j"))(M34)
    np.testing.assert_array_equal(np.asarray(inner), np.broadcast_to(M34[:, 3:4], (3, 4)))
    # Several names: the source counts members row-major over ("i", "j").
    both = _vm(_vm(lambda r: jt.lax.pbroadcast(r, ("i", "j"), 6), "j"))(M34)
    np.testing.assert_array_equal(np.asarray(both), np.full((3, 4), M34[1, 2]))
    g = jt_any.grad(lambda m: jnp.sum(_vm(_vm(lambda r: jt.lax.pbroadcast(r, ("i", "j"), 6), "j"))(m)))(M34)
    expected = np.zeros((3, 4), np.float32)
    expected[1, 2] = 12
    np.testing.assert_array_equal(np.asarray(g), expected)


def test_errors() -> None:
    with pytest.raises(AssertionError, match="doesn't fit"):
        jax.vmap(lambda r: jax.lax.pbroadcast(r, "i", 4), axis_name="i")(X4)
    # JAX's is an AssertionError from an `assert` in its batching rule; ours
    # a ValueError raised when pbroadcast is called, naming the sizes.
    with pytest.raises(errors.JaxtypedValueError, match="source 4 is out of range for axis 'i' of size 4"):
        _vm(lambda r: jt.lax.pbroadcast(r, "i", 4))(X4)
    with pytest.raises(errors.JaxtypedValueError, match="source -1"):
        _vm(lambda r: jt.lax.pbroadcast(r, "i", -1))(X4)
    # (the debug mode's type check rejects it first, also as a TypeError)
    with pytest.raises(TypeError, match="source"):
        half: Any = 1.5  # a float source, past the type checkers
        _vm(lambda r: jt.lax.pbroadcast(r, "i", half))(X4)
    # An unbound name: as every collective here (JAX: NotImplementedError
    # "Evaluation rule for 'pbroadcast' not implemented").
    with pytest.raises(errors.UnboundAxisNameError, match="unbound axis name: 'k'"):
        _vm(lambda r: jt.lax.pbroadcast(r, "k", 0))(X4)


# --- inside shard_map over the (4, 2) mesh (JAX cannot lower it on CPU) ---

X84 = np.arange(32.0, dtype=np.float32).reshape(8, 4) - 7


def _blocks(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """(a, b, 2, 2): the block of mesh position (a, b) of an ``P('a', 'b')`` array."""
    return x.reshape(4, 2, 2, 2).transpose(0, 2, 1, 3)


def _unblocks(b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return b.transpose(0, 2, 1, 3).reshape(8, 4)


def _reference(x: np.ndarray[Any, Any], axis: str, source: int) -> np.ndarray[Any, Any]:
    b = _blocks(x)
    if axis == "a":
        return _unblocks(np.broadcast_to(b[source : source + 1], b.shape))
    if axis == "b":
        return _unblocks(np.broadcast_to(b[:, source : source + 1], b.shape))
    a, j = divmod(source, 2)
    return _unblocks(np.broadcast_to(b[a : a + 1, j : j + 1], b.shape))


def _mapped(name: Any, source: int, check_vma: bool) -> Any:
    mesh = jts.Mesh(np.array(jt.devices()).reshape(4, 2), ("a", "b"))
    spec = jts.P("a", "b")
    return jt_any.shard_map(
        lambda x: jt.lax.pbroadcast(x, name, source), mesh=mesh, in_specs=(spec,), out_specs=spec, check_vma=check_vma
    )


def _emulated(name: Any, source: int) -> Any:
    # The same program as nested named vmaps over the blocks.
    def run(x: Any) -> Any:
        per_block = _vm(_vm(lambda r: jt.lax.pbroadcast(r, name, source), "b"), "a")(_blocks(x))
        return _unblocks(np.asarray(per_block))

    return run


@pytest.mark.parametrize(("name", "source"), [("a", 2), ("b", 1), (("a", "b"), 5)])
@pytest.mark.parametrize("check_vma", [True, False])
def test_shard_map_values(name: Any, source: int, check_vma: bool) -> None:
    f = _mapped(name, source, check_vma)
    expected = _reference(X84, name if isinstance(name, str) else "ab", source)
    np.testing.assert_array_equal(_emulated(name, source)(X84), expected)
    np.testing.assert_array_equal(np.asarray(jt_any.jit(f)(X84)), expected)
    if check_vma and name == "a":
        np.testing.assert_array_equal(np.asarray(f(X84)), expected)  # eager


def test_shard_map_lowers_to_an_all_gather() -> None:
    text = jt_any.jit(_mapped("a", 2, True)).lower(X84).as_text()
    # XLA:CPU has no collective_broadcast: the source's block of a gather.
    assert "collective_broadcast" not in text
    assert text.count("stablehlo.all_gather") == 1
    assert "replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]>" in text
    assert "stablehlo.slice %2 [2:3, 0:2, 0:2]" in text


def test_shard_map_vma_types() -> None:
    mesh = jts.Mesh(np.array(jt.devices()).reshape(4, 2), ("a", "b"))
    # As JAX's abstract eval: the type is unchanged, a varying input stays varying.
    f = jt_any.shard_map(lambda x: jt.lax.pbroadcast(x, "a", 1), mesh=mesh, in_specs=jts.P("a"), out_specs=jts.P("a"))
    printed = str(jt_any.make_jaxpr(f)(X84))
    assert "pbroadcast[axis_name=a source=1]" in printed, printed
    assert "f32[2,4]{V:a} = pbroadcast" in printed, printed
    # An invariant value is already the same everywhere: nothing is bound,
    # so out_specs may claim invariance.
    g = jt_any.shard_map(lambda x: jt.lax.pbroadcast(x, "a", 1), mesh=mesh, in_specs=jts.P(), out_specs=jts.P())
    assert "pbroadcast" not in str(jt_any.make_jaxpr(g)(X84))
    np.testing.assert_array_equal(np.asarray(jt_any.jit(g)(X84)), X84)


@pytest.mark.parametrize("check_vma", [True, False])
def test_shard_map_grad(check_vma: bool) -> None:
    f = _mapped("a", 2, check_vma)
    w = np.cos(X84)
    g = np.asarray(jt_any.jit(jt_any.grad(lambda x: jnp.sum(f(x) * w)))(X84))
    # The source row of blocks gets every row's weights, the others nothing.
    wb = _blocks(w)
    expected = np.zeros_like(wb)
    expected[2] = wb.sum(axis=0)
    np.testing.assert_allclose(g, _unblocks(expected), rtol=1e-6)
    emulated = jt_any.grad(lambda x: jnp.sum(_vm(_vm(lambda r: jt.lax.pbroadcast(r, "a", 2), "b"), "a")(x) * _blocks(w)))
    np.testing.assert_allclose(_unblocks(np.asarray(emulated(_blocks(X84)))), g, rtol=1e-6)


def test_shard_map_under_vmap_and_integers() -> None:
    f = jt_any.jit(_mapped("a", 2, True))
    stacked = np.stack([X84, -X84])
    got = np.asarray(jt_any.vmap(f)(stacked))
    np.testing.assert_array_equal(got, np.stack([_reference(X84, "a", 2), _reference(-X84, "a", 2)]))
    ints = X84.astype(np.int32)
    out = f(ints)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(out), _reference(ints, "a", 2))
