"""Collectives over named axes under ``vmap(..., axis_name=...)`` (issue 17,
step 3), compared with JAX on the same programs: ``psum``, ``pmean``,
``pmax``, ``pmin``, ``all_gather`` (``axis``, ``tiled``), ``psum_scatter``
(``scatter_dimension``, ``tiled``), ``ppermute``, ``all_to_all`` (``tiled``),
``axis_index``, ``axis_size``; nested vmaps with several names, jit inside
and outside, forward and reverse derivatives, and the errors for unbound
names and non-differentiable collectives.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the cases are lambdas over either library, untyped by design)

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax_numpy, library

import jaxtyped.numpy as jnp
from jaxtyped import errors

Fn = Callable[[Any], Any]

X3 = np.arange(3.0, dtype=np.float32) - 1.0
M34 = np.arange(12.0, dtype=np.float32).reshape(3, 4) / 4 - 1
M33 = np.arange(9.0, dtype=np.float32).reshape(3, 3) / 3
M36 = np.arange(18.0, dtype=np.float32).reshape(3, 6) / 5
T333 = np.arange(27.0, dtype=np.float32).reshape(3, 3, 3)
G234 = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4) / 7
CYCLE = [(0, 1), (1, 2), (2, 0)]


def vm(o: Any, f: Callable[..., Any], name: str = "i") -> Callable[..., Any]:
    """``vmap`` binding ``name``; NumPy inputs become the library's arrays
    first (JAX's batching rules of some collectives hand NumPy inputs back
    as NumPy arrays)."""
    mapped = o.api.vmap(f, axis_name=name)

    def call(*xs: Any) -> Any:
        return mapped(*(o.np.asarray(x) for x in xs))

    return call


CASES: dict[str, Callable[[Any], Any]] = {
    "psum": lambda o: vm(o, lambda r: o.lax.psum(r, "i"))(M34),
    "psum-tuple-tree": lambda o: vm(o, lambda r: o.lax.psum((r, r * 2), "i"))(X3),
    "psum-python-scalar": lambda o: vm(o, lambda r: o.lax.psum(1.0, "i") + r)(X3),
    "psum-int-scalar": lambda o: vm(o, lambda r: o.lax.psum(1, "i"))(X3),
    "psum-int": lambda o: vm(o, lambda r: o.lax.psum(r, "i"))(np.arange(6, dtype=np.int32).reshape(3, 2)),
    "psum-unbatched-value": lambda o: vm(o, lambda r: o.lax.psum(o.np.ones(2), "i") * r)(X3),
    "pmean": lambda o: vm(o, lambda r: o.lax.pmean(r, "i"))(M34),
    "pmax": lambda o: vm(o, lambda r: o.lax.pmax(r, "i"))(M34),
    "pmin": lambda o: vm(o, lambda r: o.lax.pmin(r, "i"))(M34),
    "all_gather": lambda o: vm(o, lambda r: o.lax.all_gather(r, "i"))(M34),
    "all_gather-axis1": lambda o: vm(o, lambda r: o.lax.all_gather(r, "i", axis=1))(M34),
    "all_gather-tiled": lambda o: vm(o, lambda r: o.lax.all_gather(r, "i", tiled=True))(M34),
    "all_gather-unbatched": lambda o: vm(o, lambda r: o.lax.all_gather(o.np.ones(2), "i") * r)(X3),
    "psum_scatter": lambda o: vm(o, lambda r: o.lax.psum_scatter(r, "i"))(M33),
    "psum_scatter-tiled": lambda o: vm(o, lambda r: o.lax.psum_scatter(r, "i", tiled=True))(M36),
    "psum_scatter-dim1": lambda o: vm(o, lambda r: o.lax.psum_scatter(r, "i", scatter_dimension=1))(T333),
    "ppermute": lambda o: vm(o, lambda r: o.lax.ppermute(r, "i", CYCLE))(M34),
    "all_to_all": lambda o: vm(o, lambda r: o.lax.all_to_all(r, "i", 0, 1))(T333),
    "all_to_all-same-axis": lambda o: vm(o, lambda r: o.lax.all_to_all(r, "i", 0, 0))(M33),
    "all_to_all-tiled": lambda o: vm(o, lambda r: o.lax.all_to_all(r, "i", 0, 1, tiled=True))(T333),
    "pshuffle": lambda o: vm(o, lambda r: o.lax.pshuffle(r, "i", [2, 0, 1]))(M34),
    "pswapaxes": lambda o: vm(o, lambda r: o.lax.pswapaxes(r, "i", 0))(M33),
    "pswapaxes-axis1": lambda o: vm(o, lambda r: o.lax.pswapaxes(r, "i", 1))(T333),
    "axis_index": lambda o: vm(o, lambda r: o.lax.axis_index("i") + r)(X3),
    "axis_size": lambda o: vm(o, lambda r: r * o.lax.axis_size("i"))(X3),
    "batch-dim-1": lambda o: o.api.vmap(lambda r: o.lax.psum(r, "i"), in_axes=1, axis_name="i")(M34),
    "nested-both-names": lambda o: vm(o, vm(o, lambda r: o.lax.psum(r, ("i", "j")), "j"))(M34),
    "nested-outer-name": lambda o: vm(o, vm(o, lambda r: o.lax.psum(r, "i"), "j"))(M34),
    "nested-inner-name": lambda o: vm(o, vm(o, lambda r: o.lax.pmax(r, "j"), "j"))(M34),
    "nested-gather-outer": lambda o: vm(o, vm(o, lambda r: o.lax.all_gather(r, "i"), "j"))(G234),
    "nested-scatter-outer": lambda o: vm(o, vm(o, lambda r: o.lax.psum_scatter(r, "i"), "j"))(
        np.arange(24.0, dtype=np.float32).reshape(2, 3, 2, 2)
    ),
    "nested-all_to_all-outer": lambda o: vm(o, vm(o, lambda r: o.lax.all_to_all(r, "i", 0, 0), "j"))(
        np.arange(12.0, dtype=np.float32).reshape(2, 3, 2)
    ),
    "nested-ppermute-outer": lambda o: vm(o, vm(o, lambda r: o.lax.ppermute(r, "i", [(0, 1), (1, 0)]), "j"))(G234),
    "nested-axis_index": lambda o: vm(o, vm(o, lambda r: o.lax.axis_index("i") * 10 + o.lax.axis_index("j") + r, "j"))(
        M34
    ),
    "jit-inside-vmap": lambda o: vm(o, o.api.jit(lambda r: o.lax.psum(r, "i") + o.lax.axis_index("i")))(X3),
    "jit-of-vmap": lambda o: o.api.jit(vm(o, lambda r: o.lax.all_gather(r, "i", tiled=True)))(M34),
    "normalise": lambda o: vm(o, lambda r: (r - o.lax.pmean(r, "i")) / o.lax.psum(r * r, "i"))(M34 + 2),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_collective_matches_jax(case: str) -> None:
    fn = CASES[case]
    assert_same(fn(library(jnp)), fn(library(jax_numpy)), where=case)


DERIVATIVE_CASES: dict[str, Callable[[Any, Any], Any]] = {
    "psum": lambda o, r: o.lax.psum(r, "i") * r,
    "pmean": lambda o, r: o.np.sin(o.lax.pmean(r, "i")) * r,
    "all_gather": lambda o, r: o.np.sum(o.lax.all_gather(r, "i") ** 2),
    "all_gather-tiled": lambda o, r: o.np.sum(o.np.cos(o.lax.all_gather(o.np.stack([r, r * r]), "i", tiled=True))),
    "psum_scatter": lambda o, r: o.np.sum(o.lax.psum_scatter(o.np.stack([r, 2 * r, 3 * r]), "i") ** 2),
    "ppermute": lambda o, r: o.np.sum(o.lax.ppermute(r, "i", CYCLE) ** 3),
    "pshuffle": lambda o, r: o.np.sum(o.lax.pshuffle(r, "i", [1, 2, 0]) ** 3),
    "all_to_all": lambda o, r: o.np.sum(o.lax.all_to_all(o.np.stack([r, r * r, 2 * r]), "i", 0, 0) ** 2),
    "axis_index": lambda o, r: r * o.lax.axis_index("i"),
}


@pytest.mark.parametrize("case", sorted(DERIVATIVE_CASES))
def test_grad_and_jvp_of_collectives_match_jax(case: str) -> None:
    f = DERIVATIVE_CASES[case]

    def grads(o: Any) -> Any:
        per_member = lambda r: o.np.sum(f(o, r))  # noqa: E731
        return vm(o, o.api.grad(per_member))(X3 + 2)

    def jvps(o: Any) -> Any:
        return vm(o, lambda r, t: o.api.jvp(lambda u: f(o, u), (r,), (t,)))(X3 + 2, np.ones(3, np.float32))

    assert_same(grads(library(jnp)), grads(library(jax_numpy)), where=f"{case} grad")
    assert_same(jvps(library(jnp)), jvps(library(jax_numpy)), where=f"{case} jvp")


def test_grad_outside_vmap_matches_jax() -> None:
    def f(o: Any) -> Any:
        loss = lambda xs: o.np.sum(vm(o, lambda r: o.lax.psum(o.np.sin(r), "i") * r)(xs))  # noqa: E731
        return o.api.grad(loss)(M34)

    assert_same(f(library(jnp)), f(library(jax_numpy)))


def test_unbound_axis_name_is_a_name_error_as_in_jax() -> None:
    def run(o: Any) -> Any:
        return vm(o, lambda r: o.lax.psum(r, "k"))(X3)

    with pytest.raises(NameError):
        run(library(jax_numpy))
    with pytest.raises(errors.UnboundAxisNameError, match="unbound axis name: 'k'.*bound here are \\['i'\\]"):
        run(library(jnp))
    lax = library(jnp).lax
    calls: list[Callable[[], object]] = [
        lambda: lax.psum(jnp.ones(3), "i"),
        lambda: lax.axis_index("i"),
        lambda: lax.axis_size("i"),
        lambda: lax.all_gather(jnp.ones(3), "i"),
    ]
    for call in calls:
        with pytest.raises(errors.UnboundAxisNameError):
            call()


def test_pmax_is_not_differentiable_as_in_jax() -> None:
    def run(o: Any) -> Any:
        return vm(o, o.api.grad(lambda r: o.lax.pmax(r, "i")))(X3)

    with pytest.raises(NotImplementedError):
        run(library(jax_numpy))
    with pytest.raises(errors.JaxtypedNotImplementedError, match="pmax"):
        run(library(jnp))


def test_bad_shapes_are_rejected() -> None:
    o = library(jnp)
    with pytest.raises(errors.JaxtypedValueError, match="must equal the axis size"):
        vm(o, lambda r: o.lax.psum_scatter(r, "i"))(M34)
    with pytest.raises(errors.JaxtypedValueError, match="divisible"):
        vm(o, lambda r: o.lax.all_to_all(r, "i", 0, 0, tiled=True))(M34)
    with pytest.raises(errors.JaxtypedValueError, match="twice"):
        vm(o, lambda r: o.lax.ppermute(r, "i", [(0, 1), (1, 1)]))(X3)


def test_pshuffle_rejects_what_is_not_a_permutation_as_jax() -> None:
    for o in (library(jnp), library(jax_numpy)):
        with pytest.raises(ValueError, match="does not represent a permutation"):
            vm(o, lambda r: o.lax.pshuffle(r, "i", [0, 0, 1]))(X3)
    with pytest.raises(errors.JaxtypedNotImplementedError, match="axis_index_groups"):
        vm(library(jnp), lambda r: library(jnp).lax.pswapaxes(r, "i", 0, axis_index_groups=[[0, 1, 2]]))(M33)
