"""``shard_map``'s own rules with device-variance types (issue 17, H17 item
2; JEP 17111): jvp, partial evaluation, transpose and vmap build shard_maps
of the transformed body, and the transpose of ``psum_invariant`` of an
invariant cotangent is ``pvary`` (no communication).

JEP 17111's examples on an 8-device mesh ``('i',)``: gradients equal JAX's
and the single-device gradients; the compiled backward program of Example 1
has no all-reduce and Example 2's keeps the one it needs (the counts in the
compiled HLO equal JAX's); jvp and vmap of shard_maps with collectives
equal JAX's.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the programs are written once over either library, untyped by design)

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import jax

import jaxtyped as jt
import jaxtyped.sharding as jts

jsh: Any = pytest.importorskip("jax.sharding")
jt_any: Any = jt

X = np.linspace(-2.0, 2.0, 16, dtype=np.float32)
Y = np.linspace(0.5, 1.5, 16, dtype=np.float32)


class Lib:
    """One library's api, numpy, lax, P and an 8-device mesh ('i',)."""

    def __init__(self, api: Any, sh: Any) -> None:
        self.api, self.np, self.lax, self.P = api, api.numpy, api.lax, sh.PartitionSpec
        self.mesh = sh.Mesh(np.array(api.devices()[:8]), ("i",))

    def smap(self, f: Callable[..., Any], in_specs: Any, out_specs: Any, check_vma: bool = True) -> Any:
        return self.api.shard_map(f, mesh=self.mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_vma)


OURS, THEIRS = Lib(jt_any, jts), Lib(jax, jsh)


def example1(s: Lib) -> Any:
    """psum to an unmapped output: its cotangent is invariant."""
    return s.smap(lambda x: s.lax.psum(s.np.sin(x), "i"), s.P("i"), s.P())


def example2(s: Lib) -> Any:
    """psum to a mapped output: the backward pass needs its psum."""
    return s.smap(lambda x, y: s.lax.psum(s.np.sin(x), "i") * y, (s.P("i"), s.P("i")), s.P("i"))


def example5(s: Lib) -> Any:
    """all_gather to a mapped output: the backward pass is a psum_scatter."""
    return s.smap(lambda x, y: s.lax.all_gather(x, "i") * y, (s.P("i"), s.P("i")), s.P("i"))


def grad1(s: Lib) -> Any:
    return s.api.grad(lambda x: example1(s)(x).sum())


def grad2(s: Lib) -> Any:
    # Linear in the output: the forward psum is dead, the backward one is needed.
    return s.api.grad(lambda x, y: (example2(s)(x, y) * 3.0).sum())


def grad2_squared(s: Lib) -> Any:
    return s.api.grad(lambda x, y: (example2(s)(x, y) ** 2).sum())


Y5 = np.linspace(0.5, 1.5, 8 * 8 * 2, dtype=np.float32).reshape(64, 2)
X5 = X.reshape(8, 2)


def grad5(s: Lib) -> Any:
    return s.api.grad(lambda x, y: (example5(s)(x, y) * 3.0).sum())


GRADS: list[tuple[str, Callable[[Lib], Any], tuple[Any, ...]]] = [
    ("example1", grad1, (X,)),
    ("example2", grad2, (X, Y)),
    ("example2-squared", grad2_squared, (X, Y)),
    ("example5", grad5, (X5, Y5)),
]


@pytest.mark.parametrize("name, grad, args", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_equal_jaxs_eager_and_jitted(name: str, grad: Callable[[Lib], Any], args: tuple[Any, ...]) -> None:
    theirs = np.asarray(jax.jit(grad(THEIRS))(*args))
    np.testing.assert_allclose(np.asarray(jt_any.jit(grad(OURS))(*args)), theirs, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(grad(OURS)(*args)), theirs, rtol=1e-6, atol=1e-6)


def test_gradients_equal_the_single_device_ones() -> None:
    # Example 1 on one device: the 8 blocks of sin(x) summed.
    single1 = jt_any.grad(lambda x: jt_any.numpy.sin(x).reshape(8, 2).sum(0).sum())
    np.testing.assert_allclose(np.asarray(jt_any.jit(grad1(OURS))(X)), np.asarray(single1(X)), rtol=1e-6)

    def single2(x: Any, y: Any) -> Any:
        total = jt_any.numpy.sin(x).reshape(8, 2).sum(0)
        return ((jt_any.numpy.tile(total, 8) * y) * 3.0).sum()

    np.testing.assert_allclose(np.asarray(jt_any.jit(grad2(OURS))(X, Y)), np.asarray(jt_any.grad(single2)(X, Y)), rtol=1e-5)


def _compiled_all_reduces(lib: Lib, grad: Callable[[Lib], Any], args: tuple[Any, ...]) -> int:
    text: str = lib.api.jit(grad(lib)).lower(*args).compile().as_text()
    return text.count("all-reduce(")


def test_backward_of_example1_does_not_communicate_and_example2_keeps_its_psum() -> None:
    assert _compiled_all_reduces(OURS, grad1, (X,)) == 0 == _compiled_all_reduces(THEIRS, grad1, (X,))
    assert _compiled_all_reduces(OURS, grad2, (X, Y)) == 1 == _compiled_all_reduces(THEIRS, grad2, (X, Y))


def _shard_map_bodies(text: str) -> list[str]:
    return text.split("shard_map[")[1:]


def test_transposed_bodies_use_pvary_for_invariant_cotangents() -> None:
    # Example 1: the backward shard_map broadcasts the invariant cotangent
    # (pvary) with no psum; its forward one sums with psum_invariant.
    text = str(jt_any.make_jaxpr(grad1(OURS))(X))
    forward, backward = _shard_map_bodies(text)
    assert "psum_invariant[axes=('i',)]" in forward
    assert "pvary[axes=('i',)]" in backward and "psum" not in backward
    # Example 2: the cotangent of the psum'd value varies: the backward body sums it.
    bodies = _shard_map_bodies(str(jt_any.make_jaxpr(grad2(OURS))(X, Y)))
    assert "psum_invariant[axes=('i',)]" in bodies[-1]


def jvp2(s: Lib) -> Any:
    f = example2(s)
    return lambda x, y, tx: s.api.jvp(lambda x: f(x, y), (x,), (tx,))


def vmap2(s: Lib) -> Any:
    return s.api.vmap(example2(s), in_axes=(0, None))


def vmap2_axis1(s: Lib) -> Any:
    return s.api.vmap(example2(s), in_axes=(1, 1), out_axes=1)


def vmap_grad1(s: Lib) -> Any:
    return s.api.vmap(grad1(s))


XS = np.stack([X, 2 * X, -X])


TRANSFORMS: list[tuple[str, Callable[[Lib], Any], tuple[Any, ...]]] = [
    ("jvp", jvp2, (X, Y, np.ones_like(X))),
    ("vmap", vmap2, (XS, Y)),
    ("vmap-axis1", vmap2_axis1, (XS.T, np.stack([Y, Y, Y], 1))),
    ("vmap-of-grad", vmap_grad1, (XS,)),
]


@pytest.mark.parametrize("name, transform, args", TRANSFORMS, ids=[t[0] for t in TRANSFORMS])
def test_transformed_shard_maps_equal_jaxs(name: str, transform: Callable[[Lib], Any], args: tuple[Any, ...]) -> None:
    theirs = jax.tree_util.tree_leaves(jax.block_until_ready(jax.jit(transform(THEIRS))(*args)))
    ours = jt_any.tree_util.tree_leaves(jt_any.jit(transform(OURS))(*args))
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.shape == b.shape
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


def test_transformed_programs_stay_shard_maps() -> None:
    """No inlining: jvp and vmap of a shard_map are shard_maps of the
    transformed body (the emulation's global array operations do not appear)."""
    jvp_text = str(jt_any.make_jaxpr(jvp2(OURS))(X, Y, np.ones_like(X)))
    assert jvp_text.count("shard_map[") == 1 and "psum_invariant" in jvp_text
    vmap_text = str(jt_any.make_jaxpr(vmap2(OURS))(XS, Y))
    assert vmap_text.count("shard_map[") == 1
    assert "in_specs=(P(None, 'i'), P('i',))" in vmap_text


def test_pcast_marks_varying_and_rejects_other_targets_as_jax() -> None:
    def f(s: Lib) -> Any:
        return s.smap(lambda x, y: x * s.lax.pcast(y, "i", to="varying"), (s.P("i"), s.P()), s.P("i"))

    text = str(jt_any.make_jaxpr(f(OURS))(X, np.float32(2.0)))
    assert "pvary[axes=('i',)]" in text
    np.testing.assert_allclose(np.asarray(f(OURS)(X, np.float32(2.0))), np.asarray(f(THEIRS)(X, np.float32(2.0))))
    with pytest.raises(ValueError) as theirs:
        THEIRS.smap(lambda x: THEIRS.lax.pcast(x, "i", to="invariant"), THEIRS.P("i"), THEIRS.P("i"))(X)
    from jaxtyped import errors

    with pytest.raises(errors.JaxtypedValueError) as ours:
        OURS.smap(lambda x: OURS.lax.pcast(x, "i", to="invariant"), OURS.P("i"), OURS.P("i"))(X)
    # JAX prints the allowed values as a set (its order varies by process).
    assert str(ours.value).split("{")[0] == str(theirs.value).split("{")[0]
    assert sorted(str(ours.value).split("{")[1]) == sorted(str(theirs.value).split("{")[1])


# Without check_vma invariance is unknown: the transpose divides the
# cotangents of replicated outputs and sums those of replicated inputs
# (JEP 17111's "current" transpose), still as shard_maps of the body.
UNCHECKED: list[tuple[str, Callable[[Lib], Any], tuple[Any, ...]]] = [
    ("example1", lambda s: s.api.grad(lambda x: s.smap(lambda b: s.lax.psum(s.np.sin(b), "i"), s.P("i"), s.P(),
                                                     False)(x).sum()), (X,)),
    ("example2", lambda s: s.api.grad(lambda x, y: (s.smap(lambda a, b: s.lax.psum(s.np.sin(a), "i") * b,
                                                           (s.P("i"), s.P("i")), s.P("i"), False)(x, y) ** 2).sum()),
     (X, Y)),
    ("cursed-identity", lambda s: s.api.grad(lambda x: (s.smap(lambda b: b * b, s.P(), s.P(), False)(x)).sum()), (X,)),
    ("all-gather-unmapped", lambda s: s.api.grad(lambda x: (s.smap(lambda b: s.lax.all_gather(b, "i"), s.P("i"), s.P(),
                                                                   False)(x) ** 2).sum()), (X,)),
    ("vmap", lambda s: s.api.vmap(s.smap(lambda a: s.lax.psum(a * 2.0, "i"), s.P("i"), s.P(), False)), (XS,)),
    ("jvp", lambda s: lambda x: s.api.jvp(s.smap(lambda a: s.lax.psum(a, "i") * a, s.P("i"), s.P("i"), False),
                                          (x,), (x,)), (X,)),
]  # fmt: skip


@pytest.mark.parametrize("name, make, args", UNCHECKED, ids=[u[0] for u in UNCHECKED])
def test_unchecked_shard_maps_transform_as_jaxs(name: str, make: Callable[[Lib], Any], args: tuple[Any, ...]) -> None:
    theirs = jax.tree_util.tree_leaves(jax.block_until_ready(jax.jit(make(THEIRS))(*args)))
    ours = jt_any.tree_util.tree_leaves(jt_any.jit(make(OURS))(*args))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)
    text = str(jt_any.make_jaxpr(make(OURS))(*args))
    # No inlining: the transformed programs are shard_maps of transformed bodies.
    assert "shard_map[" in text and "sharding_constraint" not in text
