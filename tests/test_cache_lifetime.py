"""Compiled programs live as long as the functions that use them (issue 19, item 5).

A jitted function's programs are released when the function is
garbage-collected (JAX's weakly keyed caches); a live function keeps its
program; equal programs compile once while one of them is alive; eager
``grad`` of a jitted function reuses its compiled gradient; and
``clear_caches`` drops everything; and (item 4) the programs compiled for
a jitted gradient leave out its dead equations. Counts come from the process-wide compile
cache (``runtime.xla.compile_cache_info``: hits, misses = compiles, live
programs).
"""

import gc
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped._src.runtime import xla
from oracle import assert_same

jax: Any = pytest.importorskip("jax")

# How many recently used programs the compile cache keeps without an owner
# (runtime/xla.py, Note [compiled programs live while used]): made small
# here so that a few compiles evict a program from that window.
RECENT = 2
FRESH = RECENT + 4


@pytest.fixture(autouse=True)
def small_recent_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xla, "_RECENT_PROGRAMS", RECENT)


def _live_programs() -> int:
    gc.collect()
    return xla.compile_cache_info()[2]


def _compiles() -> int:
    return xla.compile_cache_info()[1]


def _affine(scale: float, shift: float = 0.0) -> Callable[[jt.Array], jt.Array]:
    """A fresh function whose constants are baked into its program text."""

    def f(v: jt.Array) -> jt.Array:
        return v * scale + shift

    return f


def _run_fresh_functions(offset: float) -> None:
    x = jtnp.ones(3)
    for i in range(FRESH):
        jt.jit(_affine(offset + i))(x)  # each one compiles


def test_programs_of_dead_functions_are_released() -> None:
    _run_fresh_functions(1000.5)  # fills the recent-programs window
    before = _live_programs()
    misses = _compiles()
    _run_fresh_functions(2000.5)
    assert _compiles() - misses == FRESH  # each was a new program
    # Only the window of recent programs outlives its functions (a strong
    # 1024-entry cache kept all of them: +FRESH here).
    assert _live_programs() - before <= 0


def test_a_live_function_keeps_its_program() -> None:
    x = jtnp.arange(4.0)
    kept = jt.jit(_affine(3.25, 1.0))
    first = kept(x)
    _run_fresh_functions(3000.5)  # evicts it from the recent window
    misses = _compiles()
    again = kept(x)
    assert _compiles() == misses  # no recompile: the function holds its program
    np.testing.assert_array_equal(np.asarray(again), np.asarray(first))


def test_equal_programs_compile_once_while_one_is_alive() -> None:
    x = jtnp.arange(5.0)
    first = jt.jit(_affine(7.75))
    first(x)
    _run_fresh_functions(4000.5)
    misses = _compiles()
    second = jt.jit(_affine(7.75))  # a new function, the same program text
    out = second(x)
    assert _compiles() == misses

    def reference(v: Any) -> Any:
        return v * 7.75 + 0.0

    assert_same(out, jax.jit(reference)(np.arange(5.0, dtype=np.float32)))


def test_eager_grad_of_a_jitted_function_reuses_its_program() -> None:
    @jt.jit
    def loss(w: jt.Array) -> jt.Array:
        return jtnp.sum(jtnp.sin(w) * w)

    def loss_jax(w: Any) -> Any:
        return jax.numpy.sum(jax.numpy.sin(w) * w)

    w = np.linspace(-1.0, 1.0, 6, dtype=np.float32)
    jt.grad(loss)(jtnp.asarray(w))
    _run_fresh_functions(5000.5)
    misses = _compiles()
    ours = jt.grad(loss)(jtnp.asarray(w))
    assert _compiles() == misses  # the transformed jaxprs are cached, so their programs are too
    assert_same(ours, jax.grad(jax.jit(loss_jax))(w))


def test_clear_caches_releases_every_program() -> None:
    x = jtnp.arange(3.0)
    kept = jt.jit(_affine(1.0, -0.125))
    kept(x)
    jt.clear_caches()
    assert _live_programs() <= _live_after_clear_allowance()
    misses = _compiles()
    kept(x)
    assert _compiles() == misses + 1  # recompiled: nothing kept it


def _live_after_clear_allowance() -> int:
    # Programs other live objects (a Compiled another test holds) still own.
    return 8


def test_dead_equations_are_not_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    # grad's unused primal output (sum of sin) stays in the traced jaxpr, as
    # in JAX's make_jaxpr, but is dropped before lowering (issue 19, item 4).
    from jaxtyped._src.runtime import host_callbacks

    texts: list[str] = []
    compile_lowered = host_callbacks.compile_lowered

    def capture(lowered: Any) -> xla.Executable:
        texts.append(lowered.text)
        return compile_lowered(lowered)

    monkeypatch.setattr(host_callbacks, "compile_lowered", capture)

    def loss(w: jt.Array) -> jt.Array:
        return jtnp.sum(jtnp.sin(w) * 2.5)

    def loss_jax(w: Any) -> Any:
        return jax.numpy.sum(jax.numpy.sin(w) * 2.5)

    w = np.linspace(-2.0, 2.0, 7, dtype=np.float32)
    traced = jt.make_jaxpr(jt.grad(loss))(jtnp.asarray(w))
    assert [str(e.primitive) for e in traced.jaxpr.eqns].count("sin") == 1  # kept in the jaxpr, as JAX
    out = jt.jit(jt.grad(loss))(jtnp.asarray(w))
    assert texts and "stablehlo.sine" not in texts[-1] and "stablehlo.cosine" in texts[-1]
    assert_same(out, jax.jit(jax.grad(loss_jax))(w))


def _affine_jax(v: Any) -> Any:
    return v * 2.0 + 1.0


def test_jit_written_inline_traces_a_function_once() -> None:
    # jt.jit(f)(x) in a loop is a new jitted object each time; as JAX's, the
    # traces are keyed on the function (Note [traces shared by function]).
    traces: list[int] = []

    def step(v: jt.Array) -> jt.Array:
        traces.append(1)
        return v * 2.0 + 1.0

    x = jtnp.arange(3.0)
    for _ in range(3):
        assert_same(jt.jit(step)(x), jax.jit(_affine_jax)(np.arange(3.0, dtype=np.float32)))
    assert len(traces) == 1
    jitted = jt.jit(step)
    jitted(x)
    assert len(traces) == 1 and jitted.cache_info().misses == 1  # new to this object, not retraced
    jt.jit(step, static_argnums=())(jtnp.ones(2))  # another signature
    assert len(traces) == 2
    jt.jit(step, donate_argnums=0)(jtnp.arange(3.0))  # other options: traced apart
    assert len(traces) == 3
    jitted.clear_cache()  # clears what every jit of step shares
    jt.jit(step)(x)
    assert len(traces) == 4


def test_shared_traces_go_with_their_function() -> None:
    from jaxtyped._src import api_jit

    def make() -> Callable[[jt.Array], jt.Array]:
        def twice(v: jt.Array) -> jt.Array:
            return v * 2.0

        return twice

    fun = make()
    jt.jit(fun)(jtnp.ones(2))
    assert fun in api_jit._shared_traces  # pyright: ignore[reportPrivateUsage]  # the registry under test
    gc.collect()  # other tests' garbage first, so that only fun's entry goes below
    before = len(api_jit._shared_traces)  # pyright: ignore[reportPrivateUsage]
    del fun
    gc.collect()
    assert len(api_jit._shared_traces) == before - 1  # pyright: ignore[reportPrivateUsage]
