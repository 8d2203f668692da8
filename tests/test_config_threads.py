"""Config scopes are per thread/context, as JAX's (issue 19, item 6).

Each probe runs the same code against jaxtyped and JAX and compares what
they observe: a ``with`` block (``disable_jit``, ``enable_x64``,
``enable_checks``, ``default_matmul_precision``) in one thread must not
change what another thread sees, while ``config.update`` stays global.
"""

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import ModuleType
from typing import Any, TypeVar

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped.errors import DebugTypeError, JaxtypedValueError

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

LIBS: tuple[tuple[ModuleType, ModuleType], ...] = ((jt, jtnp), (jax, jnp))
IDS = ("jaxtyped", "jax")
T = TypeVar("T")


def _while_scoped_elsewhere(scope: Callable[[], AbstractContextManager[Any]], probe: Callable[[], T]) -> T:
    """Run ``probe`` in this thread while another thread is inside ``scope``."""
    entered = threading.Event()
    done = threading.Event()
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with scope():
                entered.set()
                done.wait(30)
        except BaseException as err:  # reported below
            errors.append(err)
            entered.set()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert entered.wait(30)
        return probe()
    finally:
        done.set()
        holder.join()
        assert not errors, errors


def _in_new_thread(probe: Callable[[], T]) -> T:
    out: list[T] = []
    worker = threading.Thread(target=lambda: out.append(probe()))
    worker.start()
    worker.join()
    assert len(out) == 1
    return out[0]


def _disable_jit_elsewhere(lib: ModuleType, np_lib: ModuleType) -> tuple[int, bool]:
    runs: list[int] = []

    def f(x: Any) -> Any:
        runs.append(1)
        return x * 2.0

    jitted = lib.jit(f)
    x = np_lib.ones(3)
    jitted(x)  # traced once, before the other thread disables jit

    def probe() -> tuple[int, bool]:
        for _ in range(5):
            jitted(x)
        return len(runs) - 1, bool(lib.config.jax_disable_jit)

    return _while_scoped_elsewhere(lib.disable_jit, probe)


def test_disable_jit_in_one_thread_leaves_another_compiled() -> None:
    # The probe: jaxtyped ran 5 of 5 calls as Python, JAX 0 of 5.
    ours, theirs = (_disable_jit_elsewhere(lib, np_lib) for lib, np_lib in LIBS)
    assert ours == theirs == (0, False)


def test_disable_jit_applies_to_its_own_thread() -> None:
    def probe(lib: ModuleType, np_lib: ModuleType) -> int:
        runs: list[int] = []
        def add_one(x: Any) -> Any:
            runs.append(1)
            return x + 1.0

        jitted = lib.jit(add_one)
        x = np_lib.ones(2)
        jitted(x)

        def in_thread() -> int:
            with lib.disable_jit():
                for _ in range(3):
                    jitted(x)
            return len(runs)

        return _in_new_thread(in_thread)

    assert [probe(lib, np_lib) for lib, np_lib in LIBS] == [4, 4]


@pytest.mark.parametrize(("lib", "np_lib"), LIBS, ids=IDS)
def test_enable_x64_is_thread_local(lib: ModuleType, np_lib: ModuleType) -> None:
    def dtype_of_zeros() -> str:
        return str(np_lib.zeros(2).dtype)

    jitted_zeros = lib.jit(lambda: np_lib.zeros(2))
    with lib.enable_x64(True):
        inside = dtype_of_zeros()
        other_thread = _in_new_thread(dtype_of_zeros)
        # The trace cache is keyed on the scoped value: a retrace in f64.
        jitted_inside = str(jitted_zeros().dtype)
    after = str(jitted_zeros().dtype)
    assert (inside, other_thread, jitted_inside, after) == ("float64", "float32", "float64", "float32")
    elsewhere = _while_scoped_elsewhere(lambda: lib.enable_x64(True), dtype_of_zeros)
    assert elsewhere == "float32"


@pytest.mark.parametrize(("lib", "np_lib"), LIBS, ids=IDS)
def test_enable_checks_and_matmul_precision_are_thread_local(lib: ModuleType, np_lib: ModuleType) -> None:
    # The suite runs with checks on globally (conftest): scope the other value.
    checks = bool(lib.config.jax_enable_checks)

    def read() -> tuple[bool, object]:
        precision = lib.config.jax_default_matmul_precision if lib is jax else lib.default_matmul_precision.value
        return bool(lib.config.jax_enable_checks), precision

    with lib.enable_checks(not checks), lib.default_matmul_precision("highest"):
        assert read() == (not checks, "highest")
        assert _in_new_thread(read) == (checks, None)
    assert read() == (checks, None)
    assert _while_scoped_elsewhere(lambda: lib.default_matmul_precision("float32"), read) == (checks, None)


@pytest.mark.parametrize(("lib", "np_lib"), LIBS, ids=IDS)
def test_config_update_stays_global(lib: ModuleType, np_lib: ModuleType) -> None:
    previous = bool(lib.config.jax_enable_checks)
    lib.config.update("jax_enable_checks", True)
    try:
        assert _in_new_thread(lambda: bool(lib.config.jax_enable_checks)) is True
    finally:
        lib.config.update("jax_enable_checks", previous)
    assert _in_new_thread(lambda: bool(lib.config.jax_enable_checks)) is previous


@pytest.mark.parametrize(("lib", "np_lib"), LIBS, ids=IDS)
def test_a_scope_outlives_a_global_update_and_restores(lib: ModuleType, np_lib: ModuleType) -> None:
    # Inside a scope the scoped value wins over a global update; leaving
    # the scope shows the global value, which the update did change.
    previous = bool(lib.config.jax_enable_checks)
    try:
        with lib.enable_checks(True):
            lib.config.update("jax_enable_checks", False)
            assert bool(lib.config.jax_enable_checks) is True
            with lib.enable_checks(False):
                assert bool(lib.config.jax_enable_checks) is False
            assert bool(lib.config.jax_enable_checks) is True
        assert bool(lib.config.jax_enable_checks) is False
    finally:
        lib.config.update("jax_enable_checks", previous)


def test_scope_restores_after_an_exception_and_rejects_bad_values() -> None:
    with pytest.raises(ZeroDivisionError):
        with jt.enable_x64(True):
            _ = 1 / 0
    assert jt.config.jax_enable_x64 is False
    assert jt.config.values()["jax_enable_x64"] is False
    # Under JAXTYPED_DEBUG=1 the annotation check answers first.
    with pytest.raises((JaxtypedValueError, DebugTypeError), match="must be a bool|violates type hint"):
        jt.config.scoped("jax_disable_jit", "yes")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the run-time check
    with pytest.raises((JaxtypedValueError, DebugTypeError), match="unknown option|violates type hint"):
        jt.config.scoped("jax_no_such_option", True)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the run-time check


def test_trace_state_and_values_follow_the_scope() -> None:
    outside = jt.config.trace_state()
    with jt.enable_x64(True):
        assert jt.config.trace_state() != outside
        assert jt.config.values()["jax_enable_x64"] is True
        assert _in_new_thread(jt.config.trace_state) == outside
    assert jt.config.trace_state() == outside


def test_scoped_x64_results_match_jax() -> None:
    def run(np_lib: ModuleType, lib: ModuleType) -> tuple[str, np.ndarray[Any, Any]]:
        with lib.enable_x64(True):
            out = lib.jit(lambda x: np_lib.sum(x * 0.1))(np_lib.arange(10.0))  # pyright: ignore[reportUnknownLambdaType]  # modules typed as ModuleType
            return str(out.dtype), np.asarray(out)

    (ours_dtype, ours), (theirs_dtype, theirs) = (run(np_lib, lib) for lib, np_lib in LIBS)
    assert ours_dtype == theirs_dtype == "float64"
    np.testing.assert_allclose(ours, theirs, rtol=1e-15)
