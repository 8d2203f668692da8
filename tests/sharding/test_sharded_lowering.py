"""``jit(...).lower()`` / ``.compile()`` over several devices (issue 17
follow-up): a jitted function with ``in_shardings``/``out_shardings``, with
sharded arguments or with a sharding constraint lowers to the SPMD module
over its mesh (a Shardy mesh, an ``sdy.sharding`` per parameter and per
requested result, ``mhlo.num_partitions`` = the mesh size), the same
annotations JAX's ``Lowered.as_text()`` shows; the compiled program is
partitioned and runs sharded, with JAX's result layouts and values.

The suite runs with 8 CPU devices in both libraries (tests/conftest.py).
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the programs are lambdas over either library's arrays, untyped by design)

import re
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.sharding as jts

jsh: Any = pytest.importorskip("jax.sharding")
jt_any: Any = jt

_MESH_LINE = re.compile(r"sdy\.mesh @mesh = <\[[^\]]*\]>")
_SHARDING = re.compile(r"#sdy\.sharding<@mesh, \[[^\]]*\]>")
_PARTITIONS = re.compile(r"mhlo\.num_partitions = (\d+)")


def _annotations(text: str) -> tuple[list[str], list[str], list[str]]:
    """The mesh, the shardings (in order) and the partition count of a module."""
    return _MESH_LINE.findall(text), _SHARDING.findall(text), _PARTITIONS.findall(text)


def _meshes() -> tuple[jts.Mesh, Any]:
    return jt.make_mesh((4, 2), ("a", "b")), jax.make_mesh((4, 2), ("a", "b"))


X = np.arange(32.0, dtype=np.float32).reshape(8, 4)
Y = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(4, 2)


def _matmul_pair() -> tuple[Any, Any]:
    mesh, jmesh = _meshes()

    def make(api: Any, sh: Any, m: Any, L: Any) -> Any:
        return api.jit(
            lambda x, y: L.sin(x) @ y,
            in_shardings=(sh.NamedSharding(m, sh.PartitionSpec("a", "b")), sh.NamedSharding(m, sh.PartitionSpec("b"))),
            out_shardings=sh.NamedSharding(m, sh.PartitionSpec("a")),
        )

    return make(jt, jts, mesh, jnp), make(jax, jsh, jmesh, jax_numpy)


def test_lowered_text_has_jaxs_sharding_annotations() -> None:
    ours_fn, theirs_fn = _matmul_pair()
    ours, theirs = ours_fn.lower(X, Y).as_text(), theirs_fn.lower(X, Y).as_text()
    mesh, shardings, partitions = _annotations(ours)
    assert (mesh, shardings, partitions) == _annotations(theirs)
    assert mesh == ['sdy.mesh @mesh = <["a"=4, "b"=2]>'] and partitions == ["8"]
    assert len(shardings) == 3  # two parameters, one result


def test_compiled_program_is_partitioned_and_runs_sharded() -> None:
    ours_fn, theirs_fn = _matmul_pair()
    compiled = ours_fn.lower(X, Y).compile()
    hlo = compiled.as_text()
    assert "num_partitions=8" in hlo
    # Each partition's parameters are its blocks: x is (8, 4) over a (4, 2) mesh.
    assert "f32[2,2]" in hlo and "f32[8,4]" not in hlo.split("ENTRY", 1)[1].split("\n", 1)[0]
    ours, theirs = compiled(X, Y), theirs_fn(X, Y)
    assert_same(ours, theirs)
    assert repr(ours.sharding) == repr(theirs.sharding)
    assert len(ours.devices()) == 8
    # The compiled program equals the jitted call, also on already-sharded inputs.
    assert_same(ours_fn(X, Y), theirs)
    xs = jt_any.device_put(X, jts.NamedSharding(jt.make_mesh((4, 2), ("a", "b")), jts.P("a", "b")))
    assert_same(compiled(xs, Y), theirs)
    assert compiled.cost_analysis()["flops"] > 0


def test_lowering_of_sharded_arguments_is_spmd() -> None:
    mesh, jmesh = _meshes()
    x = jt_any.device_put(X, jts.NamedSharding(mesh, jts.P("a")))
    jx = jax.device_put(X, jsh.NamedSharding(jmesh, jsh.PartitionSpec("a")))
    ours = jt_any.jit(lambda v: v * 2.0 + 1.0).lower(x)
    theirs = jax.jit(lambda v: v * 2.0 + 1.0).lower(jx)
    ours_mesh, ours_shardings, ours_parts = _annotations(ours.as_text())
    theirs_mesh, theirs_shardings, theirs_parts = _annotations(theirs.as_text())
    assert (ours_mesh, ours_parts) == (theirs_mesh, theirs_parts)
    assert ours_shardings[0] == theirs_shardings[0]  # the parameter's layout
    assert_same(ours.compile()(x), theirs.compile()(jx))


def test_lowering_with_a_sharding_constraint_is_spmd() -> None:
    # Auto axes (the Mesh constructor's default): JAX constrains only those.
    mesh = jts.Mesh(np.array(jt.devices()).reshape(4, 2), ("a", "b"))
    jmesh = jsh.Mesh(np.array(jax.devices()).reshape(4, 2), ("a", "b"))

    def program(api: Any, sh: Any, m: Any) -> Any:
        return api.jit(lambda v: api.lax.with_sharding_constraint(v * 2.0, sh.NamedSharding(m, sh.PartitionSpec("b"))))

    ours = program(jt_any, jts, mesh).lower(X)
    theirs = program(jax, jsh, jmesh).lower(X)
    assert _annotations(ours.as_text())[0] == _annotations(theirs.as_text())[0]
    constraint = re.compile(r"sdy\.sharding_constraint %\w+ <@mesh, \[[^\]]*\]>")
    assert constraint.findall(ours.as_text()) == constraint.findall(theirs.as_text())
    assert constraint.findall(ours.as_text()) == ['sdy.sharding_constraint %1 <@mesh, [{"b"}, {}]>']
    assert_same(ours.compile()(X), theirs.compile()(X))


def test_unsharded_lowering_is_unchanged() -> None:
    text = jt_any.jit(lambda v: v + 1.0).lower(X).as_text()
    assert "sdy." not in text and "mhlo.num_partitions = 1" in text


def test_complex_and_scalar_arguments_of_a_sharded_program() -> None:
    """Each parameter's sharding has the parameter's rank, whatever its
    element type (``complex<f32>`` has an "x" of its own)."""
    # Auto axes (the Mesh constructor's default), as with_sharding_constraint needs in JAX.
    mesh = jts.Mesh(np.array(jt.devices()).reshape(4, 2), ("a", "b"))
    jmesh = jsh.Mesh(np.array(jax.devices()).reshape(4, 2), ("a", "b"))
    c = (X[:4, :2] + 1j * Y).astype(np.complex64)

    def program(api: Any, sh: Any, m: Any) -> Any:
        constrained = sh.NamedSharding(m, sh.PartitionSpec("a"))
        return api.jit(lambda x, z, s: (api.lax.with_sharding_constraint(x * s, constrained), z * 2))

    ours = program(jt_any, jts, mesh)
    theirs = program(jax, jsh, jmesh)
    # JAX leaves unconstrained parameters unannotated; ours replicate them, each at its rank.
    assert _annotations(ours.lower(X, c, 3.0).as_text())[1][:3] == [
        "#sdy.sharding<@mesh, [{}, {}]>", "#sdy.sharding<@mesh, [{}, {}]>", "#sdy.sharding<@mesh, []>",
    ]  # fmt: skip
    for got, want in zip(ours(X, c, 3.0), theirs(X, c, 3.0), strict=True):
        assert_same(got, want)
