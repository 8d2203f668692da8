"""Reverse mode of a ref read accumulates in place (issue 16 item 3; Note
[sparse cotangents accumulate in place] in ``jaxtyped._src.ad_accumulation``).

- gradients of loops reading a ref made from the differentiated input
  (sequential, non-sequential, index arrays with repeats, rows of a 2-d
  ref, windows clamped at the edges, under ``vmap`` with shared and with
  per-example indices, a closed-over array instead of a ref, an unrolled
  loop, the read inside an inner ``jit``) equal JAX 0.10.2's ``grad``,
  eagerly and under ``jit``;
- the rewrite fires: the transposed loop bodies update the accumulated
  cotangent (``dynamic_update_slice`` of it, ``scatter-add`` into it) and
  fill no zeros of the whole ref, and the lowered module loses the
  per-step full-size zeros;
- it never changes values: random programs of each form (both operand
  orders of the ``add``, clamped starts, repeated scatter indices, batched
  starts) evaluate the same rewritten and not, eagerly and compiled, and
  as JAX; and it leaves alone what it must not fold (a sparse update used
  twice, nonzero fill, a scatter that may overlap windows, a change of weak
  type).
"""

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from oracle import as_tuple, assert_same, jax

import jaxtyped as jt
from jaxtyped._src import lowering
from jaxtyped._src.ad_accumulation import accumulate_in_place
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.lax.arithmetic import Add
from jaxtyped._src.lax.slicing import DynamicUpdateSlice
from jaxtyped._src.lax.structural import BroadcastInDim
from jaxtyped.core import ClosedJaxpr, Eqn, Jaxpr, Literal, Var, eval_jaxpr

Lib = Any  # jaxtyped or jax: the same API by contract

N = 12
BATCH = 3


def _loss(lib: Lib, access: str) -> Callable[[Any, Any], Any]:
    """A loss of ``(x, k)`` whose loop reads the ref made from ``x`` as
    ``access`` says, once or twice per step."""
    jnp = lib.numpy

    def loss(x: Any, k: Any) -> Any:
        x_ref = lib.new_ref(x)

        def step(i: Any, acc: Any) -> Any:
            if access in ("strided", "unrolled"):
                term = jnp.sin(x_ref[i]) * x_ref[(7 * i) % N]
            elif access == "repeated":  # an index array naming one element twice: a scatter-add of repeats
                term = jnp.sum(jnp.sin(x_ref[jnp.stack([i, (5 * i) % N, i])]))
            elif access == "rows":
                term = jnp.sum(jnp.cos(x_ref[(3 * i) % N]) * x_ref[i])
            elif access == "window":  # starts past both ends: clamped
                term = jnp.sum(lib.lax.dynamic_slice_in_dim(x_ref[...], i - 2, 4) ** 2) * (i + 1)
            elif access == "per_example":
                term = jnp.sin(x_ref[(i + k) % N]) * x_ref[i]
            elif access == "inner_jit":  # the read inside a jit inside the loop

                def read(j: Any) -> Any:
                    return jnp.sin(x_ref[j]) * x_ref[(7 * j) % N]

                term = lib.jit(read)(i)
            else:
                term = jnp.sin(x_ref[i])
            return acc + term

        return lib.lax.fori_loop(0, N, step, 0.0, unroll=3 if access == "unrolled" else None)

    return loss


def _closed_over_loss(lib: Lib) -> Callable[[Any, Any], Any]:
    """A loop reading a closed-over array (no ref): the same transposes."""

    def loss(x: Any, k: Any) -> Any:
        def step(carry: Any, i: Any) -> tuple[Any, Any]:
            return carry + lib.numpy.tanh(x[(3 * i + 1) % N]) * x[i], None

        return lib.lax.scan(step, 0.0, lib.numpy.arange(N))[0]

    return loss


ACCESSES = (
    "sequential", "strided", "repeated", "rows", "window", "per_example", "shared_index_vmap", "closed_over", "unrolled",
    "inner_jit",
)  # fmt: skip


def _grad_fn(lib: Lib, access: str) -> Any:
    if access == "closed_over":
        return lib.grad(_closed_over_loss(lib))
    if access == "shared_index_vmap":
        return lib.vmap(lib.grad(_loss(lib, "sequential")), in_axes=(0, None))
    grad = lib.grad(_loss(lib, access))
    return lib.vmap(grad) if access == "per_example" else grad


def _inputs(access: str) -> tuple[np.ndarray[Any, Any], Any]:
    rng = np.random.default_rng(len(access))
    shape = {"rows": (N, 4), "per_example": (BATCH, N), "shared_index_vmap": (BATCH, N)}.get(access, (N,))
    x = rng.normal(size=shape).astype(np.float32)
    k = np.array([1, 5, 11], np.int32) if access == "per_example" else np.int32(0)
    return x, k


@pytest.mark.parametrize("access", ACCESSES)
def test_grads_match_jax(access: str) -> None:
    x, k = _inputs(access)
    theirs = jax.jit(_grad_fn(jax, access))(x, k)
    ours_fn = _grad_fn(jt, access)
    assert_same(jt.jit(ours_fn)(x, k), theirs, rtol=1e-5, atol=1e-5, where=f"jit(grad) {access}")
    assert_same(ours_fn(x, k), theirs, rtol=1e-5, atol=1e-5, where=f"grad {access}")


def _sub_jaxprs(jaxpr: Jaxpr) -> Iterator[Jaxpr]:
    """``jaxpr`` and every jaxpr nested in its equations' parameters."""
    yield jaxpr
    for eqn in jaxpr.eqns:
        for value in eqn.params.values():
            items: tuple[object, ...] = value if isinstance(value, tuple) else (value,)  # pyright: ignore[reportUnknownVariableType]
            for item in items:
                if isinstance(item, ClosedJaxpr):
                    yield from _sub_jaxprs(item.jaxpr)
                elif isinstance(item, Jaxpr):
                    yield from _sub_jaxprs(item)


def _reverse_loop_bodies(jaxpr: Jaxpr) -> list[Jaxpr]:
    """The bodies of the reverse scans (the transposed loops)."""
    bodies: list[Jaxpr] = []
    for inner in _sub_jaxprs(jaxpr):
        for eqn in inner.eqns:
            body = eqn.params.get("jaxpr")
            if eqn.primitive.name == "scan" and eqn.params.get("reverse") is True and isinstance(body, Jaxpr):
                bodies.append(body)
    return bodies


def _zero_fills(jaxpr: Jaxpr) -> int:
    """How many arrays of zeros (literal 0 broadcast to more than one
    element: what a sparse update is written into) ``jaxpr`` makes, not
    counting inner jaxprs."""
    return sum(
        1
        for eqn in jaxpr.eqns
        if eqn.primitive.name == "broadcast_in_dim"
        and isinstance(literal := eqn.invars[0], Literal)
        and literal.val == 0
        and eqn.outvars[0].aval.size > 1
    )


@pytest.mark.parametrize("access", ACCESSES)
def test_transposed_loop_bodies_update_in_place(access: str) -> None:
    x, k = _inputs(access)
    traced = jt.make_jaxpr(_grad_fn(jt, access))(x, k).jaxpr
    before, after = _reverse_loop_bodies(traced), _reverse_loop_bodies(accumulate_in_place(traced))
    assert len(before) == len(after) == 1
    # Counted inside the body's inner jaxprs too (the transposed inner jit
    # of ``inner_jit`` gets the accumulated cotangent and adds into it).
    assert sum(map(_zero_fills, _sub_jaxprs(before[0]))) > 0, "the traced body writes its cotangent into zeros"
    assert sum(map(_zero_fills, _sub_jaxprs(after[0]))) == 0, f"{access}: the rewritten body fills zeros:\n{after[0]}"
    names = set(_names(after[0]))
    assert names & {"dynamic_update_slice", "scatter-add"}
    assert "scatter" not in names


def test_lowered_module_loses_the_per_step_zeros(monkeypatch: pytest.MonkeyPatch) -> None:
    x, k = _inputs("strided")
    fn = jt.jit(_grad_fn(jt, "strided"))
    rewritten = fn.lower(x, k).as_text()
    monkeypatch.setattr(lowering, "_lowering_rewrites", [])
    plain = jt.jit(_grad_fn(jt, "strided")).lower(x, k).as_text()

    def zero_fills_in_backward_loop(text: str) -> int:
        # The backward loop is the module's last while; its body fills zeros
        # of the ref's size once per read unless the rewrite folded them.
        body = text[text.rindex("stablehlo.while(") :]
        return sum(1 for line in body.splitlines() if "broadcast_in_dim" in line and f"-> tensor<{N}xf32>" in line)

    assert zero_fills_in_backward_loop(plain) == 2
    assert zero_fills_in_backward_loop(rewritten) == 0
    assert rewritten.count("stablehlo.dynamic_slice") > plain.count("stablehlo.dynamic_slice")


# === the rewrite on programs of each form ===


def _dus_sum(lib: Lib, flipped: bool) -> Callable[..., Any]:
    def f(a: Any, u: Any, i: Any, j: Any) -> Any:
        sparse = lib.lax.dynamic_update_slice(lib.numpy.zeros(a.shape, a.dtype), u, (i, j))
        return sparse + a if flipped else a + sparse

    return f


def _scatter_add_sum(lib: Lib, flipped: bool) -> Callable[..., Any]:
    def f(a: Any, idx: Any, u: Any) -> Any:
        sparse = lib.numpy.zeros(a.shape, a.dtype).at[idx].add(u)
        return sparse + a if flipped else a + sparse

    return f


def _batched_dus_sum(lib: Lib) -> Any:
    def one(a: Any, u: Any, i: Any) -> Any:
        return a + lib.lax.dynamic_update_slice(lib.numpy.zeros(a.shape, a.dtype), u, (i,))

    return lib.vmap(one)


def _names(jaxpr: Jaxpr) -> list[str]:
    return [eqn.primitive.name for inner in _sub_jaxprs(jaxpr) for eqn in inner.eqns]


def _check_rewrite(fn: Callable[[Lib], Callable[..., Any]], args: tuple[Any, ...], folds: int) -> None:
    """Rewritten so that ``folds`` fewer arrays of zeros are made (where it
    must not fire, left alone), and equal to the unrewritten program, to the
    compiled one and to JAX's."""
    closed = jt.make_jaxpr(fn(jt))(*args)
    rewritten = accumulate_in_place(closed.jaxpr)
    assert (rewritten is not closed.jaxpr) == (folds > 0), f"folds={folds}:\n{closed}"
    assert _zero_fills(rewritten) == _zero_fills(closed.jaxpr) - folds, f"{closed}\nbecame\n{rewritten}"
    plain_out = eval_jaxpr(closed.jaxpr, closed.consts, *args)
    rewritten_out = eval_jaxpr(rewritten, closed.consts, *args)
    for p, r in zip(plain_out, rewritten_out, strict=True):
        assert (p.dtype, p.weak_type, p.shape) == (r.dtype, r.weak_type, r.shape)
        # Repeated scatter indices add into the accumulator one by one
        # rather than summed first: equal up to rounding.
        np.testing.assert_allclose(np.asarray(p), np.asarray(r), rtol=1e-6, atol=1e-6)
    theirs = jax.jit(fn(jax))(*args)
    assert_same(jt.jit(fn(jt))(*args), theirs, rtol=1e-6, atol=1e-6)
    for i, (p, t) in enumerate(zip(plain_out, as_tuple(theirs), strict=True)):
        assert_same(p, t, rtol=1e-6, atol=1e-6, where=f"eager output {i}")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("flipped", [False, True], ids=["acc_first", "acc_second"])
def test_dynamic_update_slice_of_zeros_folds(seed: int, flipped: bool) -> None:
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(2, 6)), int(rng.integers(2, 6)))
    window = (int(rng.integers(1, shape[0] + 1)), int(rng.integers(1, shape[1] + 1)))
    a = rng.normal(size=shape).astype(np.float32)
    u = rng.normal(size=window).astype(np.float32)
    # Starts out of range on purpose: both slicings clamp them alike.
    i, j = (np.int32(rng.integers(-shape[d] - 2, shape[d] + 3)) for d in range(2))
    _check_rewrite(lambda lib: _dus_sum(lib, flipped), (a, u, i, j), folds=1)


def _sums_of_sparse_updates(lib: Lib, form: str) -> Callable[..., Any]:
    def f(a: Any, u: Any, i: Any, idx: Any) -> Any:
        jnp = lib.numpy
        s1 = lib.lax.dynamic_update_slice(jnp.zeros(a.shape, a.dtype), u, (i, 0))
        s2 = jnp.zeros(a.shape, a.dtype).at[idx].add(u[0, :1])
        s3 = lib.lax.dynamic_update_slice(jnp.zeros(a.shape, a.dtype), u * 2, (i + 1, 1))
        if form == "sum_alone":  # a value itself: the first as it was, the others added into it
            return s1 + (s2 + s3)
        if form == "sum_then_acc":
            return (s1 + s2) + s3 + a
        return a + (s1 + (s2 + s3))

    return f


@pytest.mark.parametrize(("form", "folds"), [("sum_alone", 2), ("sum_then_acc", 3), ("acc_then_sum", 3)])
def test_sums_of_sparse_updates_fold(form: str, folds: int) -> None:
    rng = np.random.default_rng(30)
    a = rng.normal(size=(6, 5)).astype(np.float32)
    u = rng.normal(size=(2, 3)).astype(np.float32)
    idx = np.array([4, 0, 4], np.int32)
    _check_rewrite(lambda lib: _sums_of_sparse_updates(lib, form), (a, u, np.int32(3), idx), folds=folds)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("flipped", [False, True], ids=["acc_first", "acc_second"])
def test_scatter_add_of_zeros_folds_with_repeated_indices(seed: int, flipped: bool) -> None:
    rng = np.random.default_rng(10 + seed)
    a = rng.normal(size=(7, 3)).astype(np.float32)
    idx = rng.integers(0, 7, size=9).astype(np.int32)
    idx[:3] = idx[3]  # repeats must still sum
    u = rng.normal(size=(9, 3)).astype(np.float32)
    _check_rewrite(lambda lib: _scatter_add_sum(lib, flipped), (a, idx, u), folds=1)


@pytest.mark.parametrize("seed", range(3))
def test_batched_dynamic_update_slice_of_zeros_folds(seed: int) -> None:
    # Per-example starts: vmap makes a scatter (replace) of one window per
    # example into zeros; it folds into a scatter-add.
    rng = np.random.default_rng(20 + seed)
    a = rng.normal(size=(4, 9)).astype(np.float32)
    u = rng.normal(size=(4, 3)).astype(np.float32)
    i = rng.integers(-2, 10, size=4).astype(np.int32)
    _check_rewrite(_batched_dus_sum, (a, u, i), folds=1)
    assert "scatter-add" in _names(accumulate_in_place(jt.make_jaxpr(_batched_dus_sum(jt))(a, u, i).jaxpr))


def _used_twice(lib: Lib) -> Callable[..., Any]:
    def f(a: Any, u: Any, i: Any) -> Any:
        sparse = lib.lax.dynamic_update_slice(lib.numpy.zeros(a.shape, a.dtype), u, (i,))
        return a + sparse, sparse * 2

    return f


def _nonzero_fill(lib: Lib) -> Callable[..., Any]:
    def f(a: Any, u: Any, i: Any) -> Any:
        return a + lib.lax.dynamic_update_slice(lib.numpy.ones(a.shape, a.dtype), u, (i,))

    return f


def _overlapping_scatter(lib: Lib) -> Callable[..., Any]:
    # Two windows in one operand: a replace could overlap them, so it is not an add.
    def f(a: Any, u: Any, i: Any) -> Any:
        return a + lib.numpy.zeros(a.shape, a.dtype).at[lib.numpy.stack([i, i + 3])].set(u)

    return f


def _weak_accumulator(lib: Lib) -> Callable[..., Any]:
    # A weak accumulator plus a strong update: the add converts the
    # accumulator to a strong array first, so the fold keeps the type.
    def f(u: Any, i: Any) -> Any:
        acc = lib.lax.broadcast_in_dim(2.0, (6,), ())
        return acc + lib.lax.dynamic_update_slice(lib.numpy.zeros(6, "float32"), u, (i,))

    return f


def test_weak_accumulator_is_converted_then_folded() -> None:
    _check_rewrite(_weak_accumulator, (np.full(2, 3.0, np.float32), np.int32(4)), folds=1)


@pytest.mark.parametrize("weak", [False, True], ids=["strong_update", "weak_update"])
def test_rewrite_never_changes_a_weak_type(weak: bool) -> None:
    # Built by hand: an add of a weak accumulator and a strong sparse update
    # is strong, which the fold (an update of the weak accumulator) would
    # not be; with weak zeros and update everything stays weak and it folds.
    f32 = np.dtype("float32")
    acc = Var(0, ShapedArray((6,), f32, weak_type=True))
    u = Var(1, ShapedArray((2,), f32, weak_type=weak))
    i = Var(2, ShapedArray((), np.dtype("int32")))
    zero = Literal.from_array(array_from_numpy(np.zeros((), f32), weak_type=weak))
    zeros, sparse, total = (Var(3 + k, ShapedArray((6,), f32, weak_type=weak)) for k in range(3))
    jaxpr = Jaxpr((), (acc, u, i), (total,), (
        Eqn(BroadcastInDim((6,), ()), (zero,), (zeros,)),
        Eqn(DynamicUpdateSlice(), (zeros, u, i), (sparse,)),
        Eqn(Add(), (acc, sparse), (total,)),
    ))
    rewritten = accumulate_in_place(jaxpr)
    assert (rewritten is not jaxpr) == weak
    assert rewritten.out_avals == jaxpr.out_avals
    args = (np.arange(6.0, dtype=np.float32), np.full(2, -1.0, np.float32), np.int32(3))
    np.testing.assert_array_equal(np.asarray(eval_jaxpr(rewritten, (), *args)[0]), [0, 1, 2, 2, 3, 5])


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (_used_twice, (np.ones(6, np.float32), np.full(2, 3.0, np.float32), np.int32(2))),
        (_nonzero_fill, (np.ones(6, np.float32), np.full(2, 3.0, np.float32), np.int32(5))),
        (_overlapping_scatter, (np.ones((8, 2), np.float32), np.arange(4.0, dtype=np.float32).reshape(2, 2), np.int32(1))),
    ],
    ids=["used_twice", "nonzero_fill", "overlapping_scatter"],
)
def test_rewrite_leaves_other_programs_alone(fn: Callable[[Lib], Callable[..., Any]], args: tuple[Any, ...]) -> None:
    _check_rewrite(fn, args, folds=0)
