"""``shard_map`` (issue 17, step 4): every example of JEP 14273 with its
shapes and values (mesh ``(4, 2)`` over 8 devices, as in the JEP), compared
with ``jax.shard_map`` on the same mesh; jit, grad, jvp and vmap of it;
the ``check_vma`` error for an out_spec that claims equality a value does
not have.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the cases are functions over either library, untyped by design)

import re
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, jax_numpy, library

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.sharding as jts
from jaxtyped import errors

jsh: Any = pytest.importorskip("jax.sharding")


class Side:
    """One library: its api (jit, grad, shard_map), lax, numpy, P and a
    (4, 2) mesh with axes ('i', 'j') over its first 8 devices."""

    def __init__(self, ours: bool) -> None:
        lib = library(jnp if ours else jax_numpy)
        self.api: Any = lib.api
        self.lax: Any = lib.lax
        self.np: Any = lib.np
        self.P: Any = jts.PartitionSpec if ours else jsh.PartitionSpec
        devices = np.array((jt.devices() if ours else jax.devices())[:8]).reshape(4, 2)
        self.mesh: Any = jts.Mesh(devices, ("i", "j")) if ours else jsh.Mesh(devices, ("i", "j"))
        self.mesh1: Any = (jts.Mesh if ours else jsh.Mesh)(np.array((jt.devices() if ours else jax.devices())[:4]), ("i",))

    def smap(self, f: Callable[..., Any], in_specs: Any, out_specs: Any, mesh: Any = None, **kw: Any) -> Any:
        return self.api.shard_map(f, mesh=self.mesh if mesh is None else mesh, in_specs=in_specs, out_specs=out_specs, **kw)


OURS, THEIRS = Side(True), Side(False)

A = np.arange(8 * 16.0, dtype=np.float32).reshape(8, 16)
B = np.arange(16 * 32.0, dtype=np.float32).reshape(16, 32)
X12 = np.arange(12 * 12).reshape(12, 12)


def matmul_basic(s: Side) -> Any:
    @partial(s.smap, in_specs=(s.P("i", "j"), s.P("j", None)), out_specs=s.P("i", None))
    def f(a_block: Any, b_block: Any) -> Any:
        assert a_block.shape == (2, 8) and b_block.shape == (8, 32)
        z_partialsum = s.np.dot(a_block, b_block)
        return s.lax.psum(z_partialsum, "j")

    return f(A, B)


def matmul_reduce_scatter(s: Side) -> Any:
    @partial(s.smap, in_specs=(s.P("i", "j"), s.P("j", None)), out_specs=s.P("i", "j"))
    def f(a_block: Any, b_block: Any) -> Any:
        c_partialsum = s.np.matmul(a_block, b_block)
        c_block = s.lax.psum_scatter(c_partialsum, "j", scatter_dimension=1, tiled=True)
        assert c_block.shape == (2, 16)
        return c_block

    return f(A, B)


def split_concat(s: Side) -> Any:
    y = np.arange(8 * 5.0, dtype=np.float32).reshape(8, 5)
    f = lambda blk: s.np.concatenate([blk, blk[:1]], axis=0)[:, :3] * 2  # noqa: E731
    return s.smap(f, s.P("i"), s.P("i"), mesh=s.mesh1)(y)


def tile_f1(s: Side) -> Any:
    def f1(x_block: Any) -> Any:
        assert x_block.shape == (3, 12)
        return x_block

    return s.smap(f1, s.P("i", None), s.P("i", "j"))(X12)


def tile_f2(s: Side) -> Any:
    def f2(x_block: Any) -> Any:
        assert x_block.shape == (3, 12)
        return x_block

    return s.smap(f2, s.P("i", "j"), s.P("i", "j"))(np.tile(X12, (1, 2)))


def closure(spec: tuple[Any, ...]) -> Callable[[Side], Any]:
    def run(s: Side) -> Any:
        x = s.np.array([[3.0]])
        return s.smap(lambda: x, (), s.P(*spec))()

    return run


def untile(spec: tuple[Any, ...], names: Any) -> Callable[[Side], Any]:
    def run(s: Side) -> Any:
        return s.smap(lambda xb: s.lax.psum(xb, names), s.P("i", "j"), s.P(*spec))(X12)

    return run


def axis_size_by_psum(s: Side) -> Any:
    def f(x: Any) -> Any:
        size = s.lax.psum(1, axis_name="i")
        assert size == 4 and isinstance(size, int)
        return x * size + s.lax.axis_index("i")

    return s.smap(f, s.P("i"), s.P("i"), mesh=s.mesh1)(np.arange(8.0, dtype=np.float32))


def collective_matmul(s: Side) -> Any:
    """The JEP's collective matmul (all-gather of the lhs by a ring of
    ppermutes), at a small size."""

    def f(lhs: Any, rhs: Any) -> Any:
        axis_size = s.lax.psum(1, axis_name="i")
        axis_index = s.lax.axis_index(axis_name="i")
        chunk_size = lhs.shape[0]

        def step(i: int, carry: Any) -> Any:
            accum, lhs = carry
            update = lhs @ rhs
            lhs = s.lax.ppermute(lhs, axis_name="i", perm=[(j, (j - 1) % axis_size) for j in range(axis_size)])
            update_index = (((axis_index + i) % axis_size) * chunk_size, 0)
            accum = s.lax.dynamic_update_slice(accum, update, update_index)
            return accum, lhs

        accum = s.np.zeros((lhs.shape[0] * axis_size, rhs.shape[1]), dtype=lhs.dtype)
        for i in range(0, axis_size - 1):
            accum, lhs = step(i, (accum, lhs))
        update = lhs @ rhs
        i = axis_size - 1
        update_index = (((axis_index + i) % axis_size) * chunk_size, 0)
        return s.lax.dynamic_update_slice(accum, update, update_index)

    lhs = np.arange(16 * 8.0, dtype=np.float32).reshape(16, 8) / 10
    rhs = np.arange(8 * 4.0, dtype=np.float32).reshape(8, 4) / 10
    mapped = s.smap(f, (s.P("i", None), s.P()), s.P(), mesh=s.mesh1, check_vma=False)
    return s.api.jit(mapped)(lhs, rhs)


EXAMPLES: dict[str, Callable[[Side], Any]] = {
    "matmul_basic": matmul_basic,
    "matmul_reduce_scatter": matmul_reduce_scatter,
    "split-concat-8x5": split_concat,
    "tile-f1": tile_f1,
    "tile-f2": tile_f2,
    "closure-P(i,j)": closure(("i", "j")),
    "closure-P(i,None)": closure(("i", None)),
    "closure-P(None,None)": closure((None, None)),
    "untile-f3": untile(("i", None), "j"),
    "untile-f4": untile((None, "j"), "i"),
    "untile-f5": untile((None, None), ("i", "j")),
    "axis_size-psum-1": axis_size_by_psum,
    "jit-matmul_basic": lambda s: s.api.jit(lambda a, b: matmul_basic_fn(s)(a, b) * 2)(A, B),
    "collective-matmul": collective_matmul,
}


def matmul_basic_fn(s: Side) -> Any:
    f = lambda a, b: s.lax.psum(s.np.dot(a, b), "j")  # noqa: E731
    return s.smap(f, (s.P("i", "j"), s.P("j", None)), s.P("i", None))


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_jep_14273_example_matches_jax(name: str) -> None:
    ours, theirs = EXAMPLES[name](OURS), EXAMPLES[name](THEIRS)
    assert_same(ours, theirs, where=name)


def test_matmul_results_equal_the_one_device_product() -> None:
    expected = A @ B
    np.testing.assert_allclose(np.asarray(matmul_basic(OURS)), expected)
    np.testing.assert_allclose(np.asarray(matmul_reduce_scatter(OURS)), expected)


def test_untile_shapes_are_the_jeps() -> None:
    assert untile(("i", None), "j")(OURS).shape == (12, 6)
    assert untile((None, "j"), "i")(OURS).shape == (3, 12)
    assert untile((None, None), ("i", "j"))(OURS).shape == (3, 6)


def test_jit_of_shard_map_on_sharded_inputs_keeps_the_layout() -> None:
    a = jt.device_put(jnp.asarray(A), jts.NamedSharding(OURS.mesh, jts.P("i", "j")))
    mapped: Callable[..., Any] = matmul_basic_fn(OURS)
    out: Any = jt.jit(mapped)(a, jnp.asarray(B))
    np.testing.assert_allclose(np.asarray(out), A @ B)
    assert {d.id for d in out.devices()} == set(range(8))


DERIVATIVE_CASES: dict[str, Callable[[Side, Any], Any]] = {
    # JEP 17111's Example 1 (psum to an unmapped output) and Example 2.
    "example-1": lambda s, x: s.smap(lambda v: s.lax.psum(s.np.sin(v), "i"), s.P("i"), s.P(), mesh=s.mesh1)(x),
    "example-2": lambda s, x: s.smap(
        lambda v, y: s.lax.psum(s.np.sin(v), "i") * y, (s.P("i"), s.P("i")), s.P("i"), mesh=s.mesh1
    )(x, x * 2),
    "all_gather": lambda s, x: s.smap(
        lambda v: s.lax.all_gather(v, "i", tiled=True)[1:3] * v, s.P("i"), s.P("i"), mesh=s.mesh1
    )(x),
    "matmul": lambda s, x: s.smap(
        lambda a, b: s.lax.psum(a @ b, "j"), (s.P("i", "j"), s.P("j", None)), s.P("i", None)
    )(x.reshape(4, 2), x.reshape(2, 4)),
}


@pytest.mark.parametrize("name", list(DERIVATIVE_CASES))
def test_grad_jvp_vmap_of_shard_map_match_jax(name: str) -> None:
    case = DERIVATIVE_CASES[name]
    x = np.linspace(-1.0, 1.0, 8, dtype=np.float32)

    def run(s: Side) -> tuple[Any, ...]:
        loss = lambda v: s.np.sum(case(s, v) ** 2)  # noqa: E731
        grad = s.api.grad(loss)(x)
        _, tangent = s.api.jvp(lambda v: case(s, v), (x,), (s.np.ones_like(x),))
        batched = s.api.vmap(lambda v: case(s, v))(s.np.stack([x, 2 * x]))
        jitted_grad = s.api.jit(s.api.grad(loss))(x)
        return grad, tangent, batched, jitted_grad

    assert_same(run(OURS), run(THEIRS), rtol=1e-5, atol=1e-5, where=name)


def _message(f: Callable[[], Any]) -> str:
    with pytest.raises(ValueError) as info:
        f()
    return str(info.value)


INVARIANCE_CLAIMS: list[tuple[str, Callable[[Side], Any]]] = [
    # JEP 17111: checked statically from the outputs' vma, before running.
    ("one-axis", lambda s: s.smap(lambda xb: xb, s.P("i", "j"), s.P("i", None))(X12)),
    ("all-axes", lambda s: s.smap(lambda xb: (xb, xb), s.P("i", "j"), (s.P(), s.P("i", "j")))(X12)),
    ("two-outputs", lambda s: s.smap(lambda xb: (xb, xb), s.P("i", "j"), s.P())(X12)),
    ("psum-leaves-j", lambda s: s.smap(lambda xb: s.lax.psum(xb, "i"), s.P("i", "j"), s.P())(X12)),
    ("ppermute-varies", lambda s: s.smap(lambda xb: s.lax.ppermute(xb, "i", [(0, 1), (1, 0), (2, 3), (3, 2)]),
                                         s.P(), s.P())(X12)),
]  # fmt: skip


@pytest.mark.parametrize("name, case", INVARIANCE_CLAIMS, ids=[n for n, _ in INVARIANCE_CLAIMS])
def test_out_spec_claiming_invariance_is_rejected_with_jaxs_message(name: str, case: Callable[[Side], Any]) -> None:
    theirs = _message(lambda: case(THEIRS))
    with pytest.raises(errors.JaxtypedValueError):
        case(OURS)
    # JAX's eager shard_map names an internal wrapper as the function.
    ours = re.sub(r"the function '[^']*'", "the function", _message(lambda: case(OURS)))
    assert ours == re.sub(r"the function '[^']*'", "the function", theirs), name


def test_out_spec_claiming_invariance_is_rejected() -> None:
    unchecked = OURS.smap(lambda xb: xb, OURS.P("i", "j"), OURS.P("i", None), check_vma=False)(X12)
    np.testing.assert_array_equal(np.asarray(unchecked), X12[:, :6])


def test_bad_specs_are_rejected() -> None:
    with pytest.raises(errors.JaxtypedValueError, match="does not divide"):
        OURS.smap(lambda xb: xb, OURS.P("i"), OURS.P("i"))(np.ones((6, 2)))
    with pytest.raises(errors.JaxtypedValueError, match="not in"):
        OURS.smap(lambda xb: xb, OURS.P("k"), OURS.P("k"))(np.ones((8, 2)))
    with pytest.raises(errors.JaxtypedValueError, match="2 entries for 1 values"):
        OURS.smap(lambda xb: xb, (OURS.P("i"), OURS.P("i")), OURS.P("i"))(np.ones((8, 2)))
    with pytest.raises(errors.JaxtypedValueError, match="no mesh"):
        jt.shard_map(lambda xb: xb, in_specs=jts.P("i"), out_specs=jts.P("i"))(np.ones((8, 2)))


def test_mesh_context_supplies_the_mesh() -> None:
    with OURS.mesh1:
        out = jt.shard_map(lambda xb: xb * 2, in_specs=jts.P("i"), out_specs=jts.P("i"))(np.ones(8, np.float32))
    np.testing.assert_array_equal(np.asarray(out), np.full(8, 2.0, np.float32))


def _collectives_in_compiled_program(fn: Callable[..., Any], *args: Any) -> tuple[int, int]:
    """(all-reduces, other collectives) in the partitioned HLO of the one
    SPMD program that ``fn(*args)`` compiles."""
    import re

    from jaxtyped._src import api_sharding

    programs = api_sharding._programs  # pyright: ignore[reportPrivateUsage]  # the SPMD program cache
    programs.clear()
    fn(*args)
    (program,) = list(programs.values())
    text = program.executable.hlo_text()
    all_reduces = len(re.findall(r"all-reduce(?:-start)?\(", text))
    others = len(re.findall(r"all-gather|collective-permute|reduce-scatter|all-to-all", text))
    return all_reduces, others


def test_jep_17111_transpose_of_psum_of_invariant_cotangent_does_not_communicate() -> None:
    """Example 1 (psum to an unmapped output): its backward pass performs no
    communication; Example 2 (mapped output) keeps the all-reduce it needs.
    Gradients equal JAX's (test_grad_jvp_vmap_of_shard_map_match_jax)."""
    mesh = OURS.mesh1
    f1 = jt.shard_map(lambda v: jt.lax.psum(jnp.sin(v), "i"), mesh=mesh, in_specs=jts.P("i"), out_specs=jts.P())
    f2 = jt.shard_map(
        lambda v, y: jt.lax.psum(jnp.sin(v), "i") * y, mesh=mesh, in_specs=(jts.P("i"), jts.P("i")), out_specs=jts.P("i")
    )
    x = jt.device_put(jnp.linspace(0.0, 1.0, 8), jts.NamedSharding(mesh, jts.P("i")))
    assert _collectives_in_compiled_program(jt.jit(f1), x) == (1, 0)  # the forward psum
    backward1 = jt.jit(lambda v, ct: jt.vjp(f1, v)[1](ct))
    assert _collectives_in_compiled_program(backward1, x, jnp.ones(2)) == (0, 0)
    backward2 = jt.jit(lambda v, y, ct: jt.vjp(lambda a: f2(a, y), v)[1](ct))
    assert _collectives_in_compiled_program(backward2, x, x, jnp.ones(8)) == (1, 0)
