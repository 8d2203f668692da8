"""``shard_map`` lowered as JAX lowers it (issue 17, H17 item 2): one
``sdy.manual_computation`` over the mesh's axes with the body in per-device
shapes, and every collective a StableHLO collective (``all_reduce``,
``all_gather``, ``reduce_scatter``, ``collective_permute``, ``all_to_all``,
``partition_id`` for ``axis_index``) with replica groups from the mesh axes.
Values, replica groups and result shardings are compared with JAX on the
same (4, 2) mesh, under ``jit`` and eagerly.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the bodies are lambdas over either library's lax, untyped by design)

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import jax

import jaxtyped as jt
import jaxtyped.sharding as jts

jsh: Any = pytest.importorskip("jax.sharding")
jt_any: Any = jt

X = np.arange(32.0, dtype=np.float32).reshape(8, 4)
TWO = np.float32(2.0)
SWAP_A = [(0, 1), (1, 2), (2, 3), (3, 0)]


def _body(L: Any) -> Callable[..., Any]:
    def body(x: Any, y: Any) -> tuple[Any, ...]:
        return (
            L.psum(x * y, "a"),
            L.all_gather(x, "b", tiled=True, axis=1),
            L.ppermute(x, "a", SWAP_A),
            L.psum_scatter(x, "b", scatter_dimension=1, tiled=True),
            L.all_to_all(x, "b", 0, 1, tiled=True),
            L.broadcast(L.axis_index("b"), (1,)),
            L.pmax(x, ("a", "b")),
            L.all_gather(x, "a"),
            L.psum_scatter(L.broadcast(x, (4,)), "a"),
            L.all_to_all(L.broadcast(x, (2,)), "b", 0, 2),
            L.pmin(x, "b"),
        )

    return body


def _specs(P: Any) -> tuple[Any, Any]:
    outs = (P(None, "b"), P("a", "b"), P("a", "b"), P("a", "b"), P("a", "b"), P("b"), P(), P(None, "a", "b"), P("a", "b"),
            P("a", "b"), P("a"))  # fmt: skip
    return (P("a", "b"), P()), outs


def _mapped(api: Any, sh: Any, check_vma: bool) -> Any:
    mesh = sh.Mesh(np.array(api.devices()).reshape(4, 2), ("a", "b"))
    in_specs, out_specs = _specs(sh.PartitionSpec)
    return api.shard_map(_body(api.lax), mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_vma)


@pytest.fixture(scope="module")
def theirs() -> tuple[Any, ...]:
    return tuple(np.asarray(o) for o in jax.jit(_mapped(jax, jsh, False))(X, TWO))


def _replica_groups(text: str) -> list[str]:
    return sorted(re.findall(r"(?:replica_groups|source_target_pairs) = dense<(\[\[[^>]*\]\])>", text))


def test_lowers_to_one_manual_computation_with_jaxs_collectives() -> None:
    ours = jt_any.jit(_mapped(jt_any, jts, False)).lower(X, TWO).as_text()
    theirs = jax.jit(_mapped(jax, jsh, False)).lower(X, TWO).as_text()
    assert ours.count("sdy.manual_computation") == 1
    assert 'manual_axes={"a", "b"}' in ours
    # The body works on blocks: the first operand's block is f32[2,2].
    assert re.search(r"\(%arg\d+: tensor<2x2xf32>, %arg\d+: tensor<f32>\)", ours)
    for op in ("all_reduce", "all_gather", "reduce_scatter", "collective_permute", "all_to_all", "partition_id"):
        assert ours.count(f"stablehlo.{op}") == theirs.count(f"stablehlo.{op}"), op
    assert _replica_groups(ours) == _replica_groups(theirs)
    # Nothing is left for the partitioner to decide inside the region.
    assert "sdy.sharding_constraint" not in ours


@pytest.mark.parametrize("check_vma", [False, True])
def test_jitted_values_equal_jaxs(theirs: tuple[Any, ...], check_vma: bool) -> None:
    ours = jt_any.jit(_mapped(jt_any, jts, check_vma))(X, TWO)
    assert len(ours) == len(theirs)
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape and a.dtype == b.dtype, k
        np.testing.assert_allclose(np.asarray(a), b, err_msg=f"output {k}")


def test_eager_call_runs_over_the_mesh_with_jaxs_shardings(theirs: tuple[Any, ...]) -> None:
    # Each library's collectives finish before the other's start (one
    # process, two CPU clients sharing 2 cores).
    ours = [o.block_until_ready() for o in _mapped(jt_any, jts, False)(X, TWO)]
    eager_jax = jax.block_until_ready(_mapped(jax, jsh, False)(X, TWO))
    for k, (a, b, c) in enumerate(zip(ours, theirs, eager_jax)):
        np.testing.assert_allclose(np.asarray(a), b, err_msg=f"output {k}")
        assert len(a.sharding.device_set) == 8, k
        assert tuple(a.sharding.spec) == tuple(c.sharding.spec), k


def test_collectives_outside_their_shard_map_do_not_lower() -> None:
    from jaxtyped import errors

    f = jt_any.vmap(lambda r: jt_any.lax.psum(r, "i"), axis_name="i")
    # Under vmap the batching rule evaluates the collective: it lowers as a sum.
    text = jt_any.jit(f).lower(X).as_text()
    assert "all_reduce" not in text and "stablehlo.reduce" in text
    with pytest.raises(errors.UnboundAxisNameError):
        jt_any.lax.psum(X, "i")
