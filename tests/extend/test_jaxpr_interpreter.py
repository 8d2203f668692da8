# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""The interpreter JAX's docs teach ("Writing custom jaxpr interpreters"):
walk a jaxpr and apply each equation with ``eqn.primitive.bind(*invals,
**eqn.params)``, wrapping a single result when ``multiple_results`` is
false. The same interpreter runs jaxtyped's and JAX's jaxprs of programs
with one-result, several-result and no-result equations (control flow,
sort, linear algebra, a host print), eagerly and under ``jit``, and the
values are compared with JAX's."""

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import jax

import jaxtyped as jt
from jaxtyped import errors
from jaxtyped.extend.core import primitives as P

Lib = Any  # jaxtyped or jax: the same API by contract


def extend_core(lib: Lib) -> Any:
    """``lib.extend.core`` (JAX does not import it with ``jax``)."""
    return importlib.import_module(f"{lib.__name__}.extend.core")


def interpret(lib: Lib, closed: Any, *args: Any) -> list[Any]:
    """Evaluate ``closed`` equation by equation, as JAX's tutorial does."""
    env: dict[Any, Any] = {}
    literal = extend_core(lib).Literal

    def read(v: Any) -> Any:
        return v.val if isinstance(v, literal) else env[v]

    for v, val in zip(closed.jaxpr.constvars, closed.consts):
        env[v] = val
    for v, val in zip(closed.jaxpr.invars, args):
        env[v] = val
    for eqn in closed.jaxpr.eqns:
        outvals = eqn.primitive.bind(*[read(v) for v in eqn.invars], **eqn.params)
        if not eqn.primitive.multiple_results:
            outvals = [outvals]
        for v, val in zip(eqn.outvars, outvals, strict=True):
            env[v] = val
    return [read(v) for v in closed.jaxpr.outvars]


def _mlp(lib: Lib, w: Any, x: Any) -> Any:
    return lib.numpy.tanh(x @ w + 1.0).sum()


def _loops(lib: Lib, w: Any, x: Any) -> Any:
    carry, ys = lib.lax.scan(lambda c, row: (c + row @ w, lib.numpy.sin(row)), lib.numpy.zeros(w.shape[1]), x)
    total = lib.lax.fori_loop(0, 3, lambda i, acc: acc * 0.5 + i, carry.sum())
    return lib.lax.cond(total > 0, lambda v: v * 2.0, lambda v: -v, ys.sum() + total)


def _several_results(lib: Lib, w: Any, x: Any) -> Any:
    values, order = lib.lax.sort((x[:, 0], lib.numpy.arange(x.shape[0])), num_keys=1)
    q, r = lib.numpy.linalg.qr(w @ w.T + lib.numpy.eye(w.shape[0]))
    top, _ = lib.lax.top_k(values, 2)
    return values.sum() + order.sum() + q.sum() + r.sum() + top.sum()


def _host_print(lib: Lib, w: Any, x: Any) -> Any:
    lib.debug.print("w sum {}", w.sum())
    return (x * 2.0).sum()


PROGRAMS: dict[str, Callable[[Lib, Any, Any], Any]] = {
    "mlp": _mlp,
    "scan-fori-cond": _loops,
    "sort-qr-top_k": _several_results,
    "debug-print": _host_print,
}


@pytest.mark.parametrize("under_jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_tutorial_interpreter_runs_our_jaxprs_as_jax_runs_its(name: str, under_jit: bool) -> None:
    program = PROGRAMS[name]
    rng = np.random.default_rng(0)
    w, x = rng.standard_normal((3, 2), dtype=np.float32), rng.standard_normal((4, 3), dtype=np.float32)

    def run(lib: Lib) -> Any:
        closed = lib.make_jaxpr(lambda w, x: program(lib, w, x))(w, x)
        evaluate = lambda w, x: interpret(lib, closed, w, x)  # noqa: E731 - a one-line program
        return (lib.jit(evaluate) if under_jit else evaluate)(w, x), program(lib, w, x)

    (ours, ours_direct), (theirs, _) = run(jt), run(jax)
    assert len(ours) == len(theirs) == 1
    np.testing.assert_allclose(np.asarray(ours[0]), np.asarray(theirs[0]), rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(ours[0]), np.asarray(ours_direct), rtol=2e-6, atol=1e-6)


def test_multiple_results_is_jaxs_for_each_built_in_primitive() -> None:
    """The handles' flags are the classes' (one source), and they are JAX's
    for every handle JAX has under the same name."""
    jax_primitives: Any = extend_core(jax).primitives
    compared = 0
    for name, handle in vars(P).items():
        theirs = getattr(jax_primitives, name, None)
        if not name.endswith("_p") or theirs is None:
            continue
        assert handle.multiple_results is handle.primitive_class.several_results, name
        assert handle.multiple_results == theirs.multiple_results, name
        compared += 1
    assert compared > 100


def test_bind_takes_the_equations_params_or_others() -> None:
    closed = jt.make_jaxpr(lambda x: jt.numpy.sum(x, axis=0))(np.ones((2, 3), np.float32))
    (eqn,) = closed.jaxpr.eqns
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    same, other = eqn.primitive.bind(x, **eqn.params), eqn.primitive.bind(x, axes=(1,))
    assert isinstance(same, jt.Array) and isinstance(other, jt.Array)  # one result: not a list
    assert same.tolist() == [3.0, 5.0, 7.0]
    assert other.tolist() == [3.0, 12.0]  # JAX's bind takes any params the same way
    with pytest.raises(errors.JaxtypedTypeError, match=r"reduce_sum.bind: invalid parameters \['axis'\]"):
        eqn.primitive.bind(x, axis=1)
