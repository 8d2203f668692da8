"""Suite-wide test configuration.

Importing jaxtyped here, first, lets JAXTYPED_DEBUG=1 install beartype
before any jaxtyped submodule is imported. Every test runs with
``jax_enable_checks`` on, so each jaxpr a transformation produces is
type-checked and every jvp and batching rule's output types are checked.

Both libraries keep their compiled programs in persistent caches, every
program however fast it compiled (``_cache_compilations``): the JAX
oracle's and jaxtyped's own (``runtime/compile_cache.py``). A program
compiled once is then loaded, not compiled, by the other xdist worker, by
the same worker after the mapping-pressure cleanup below dropped it, and by
the debug-mode run of the suite (``tools/test.sh`` points both runs at one
directory it creates and removes: ``JAXTYPED_TEST_CACHE_DIR``). Without
that variable the caches live under ``.pytest_cache/``, kept across runs;
``JAX_COMPILATION_CACHE_DIR`` set by the user wins over both. Tests of the
cache itself use directories of their own (``tests/test_persistent_cache.py``).
The debug-mode run also loads JAX's case-table results the first run
stored (``tests/support/oracle_store.py``).

Both libraries compile with XLA's cheaper CPU code generation
(``_compile_at_test_level``): LLVM backend optimisation level 1 instead of
the default 2, and the classic elemental emitters instead of the MLIR
fusion emitters. Compiling is most of the suite's time; level 1 halves it,
and the classic emitters take another 40% off (a gamma sampler: 0.51 s,
0.33 s with both). These settings change the machine code (and so,
through instruction selection, the last bits of some floating-point
results) of both libraries alike; the programs compared are the ones we
emit and the ones JAX emits, unchanged. Level 0 would compile faster
still, but there a program's eager and jitted results differ in the last
bits, so it is not used. The jaxlib-range gate runs its smoke subset with
XLA's defaults (``JAXTYPED_TEST_XLA_BACKEND_OPT=default``).
"""

import importlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _compile_at_test_level() -> None:
    """Add the test run's XLA CPU code-generation flags to ``XLA_FLAGS``:
    ``--xla_backend_optimization_level`` (``$JAXTYPED_TEST_XLA_BACKEND_OPT``,
    1 unless set) and ``--xla_cpu_use_fusion_emitters=false``, each unless
    the user's flags already name it; ``JAXTYPED_TEST_XLA_BACKEND_OPT=default``
    adds neither. XLA reads its flags once, when a backend starts, so this
    runs before jaxtyped is imported; subprocesses a test starts inherit it."""
    level = os.environ.get("JAXTYPED_TEST_XLA_BACKEND_OPT", "1")
    if level == "default":
        return
    flags = os.environ.get("XLA_FLAGS", "")
    for name, value in (("--xla_backend_optimization_level", level), ("--xla_cpu_use_fusion_emitters", "false")):
        if name not in flags:
            flags = f"{flags} {name}={value}".strip()
    os.environ["XLA_FLAGS"] = flags


_compile_at_test_level()

import jaxtyped  # after XLA_FLAGS is set (above)
from jaxtyped import config


# sharding family (issue 17): every test process has this many CPU devices,
# in jaxtyped and in the JAX oracle alike. The count must be set before
# either backend starts, so it is set here, first. Programs still run on
# device 0 unless a test asks for a mesh.
TEST_DEVICE_COUNT = int(os.environ.get("JAXTYPED_TEST_DEVICES", "8"))  # the sharding tests need 8


def _use_several_devices() -> None:
    jaxtyped.config.update("jax_num_cpu_devices", TEST_DEVICE_COUNT)
    try:
        jax = importlib.import_module("jax")
    except ImportError:
        return
    getattr(jax.config, "update")("jax_num_cpu_devices", TEST_DEVICE_COUNT)


def pytest_configure(config: pytest.Config) -> None:
    jaxtyped.config.update("jax_enable_checks", True)
    _use_several_devices()
    _cache_compilations(config)


def _cache_compilations(config: pytest.Config) -> None:
    """Turn on both persistent compilation caches for every program (no
    minimum compile time), in ``$JAXTYPED_TEST_CACHE_DIR/{jax,jaxtyped}`` or
    else under ``.pytest_cache/``; a user's ``JAX_COMPILATION_CACHE_DIR``
    (read by both libraries) is left as it is."""
    if os.environ.get("JAX_COMPILATION_CACHE_DIR"):
        return
    shared = os.environ.get("JAXTYPED_TEST_CACHE_DIR")
    root = Path(shared) if shared else config.rootpath / ".pytest_cache"
    jaxtyped.config.update("jax_compilation_cache_dir", str(root / ("jaxtyped" if shared else "jaxtyped-compilation-cache")))
    jaxtyped.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    try:
        jax = importlib.import_module("jax")
    except ImportError:
        return
    update = getattr(jax.config, "update")
    update("jax_compilation_cache_dir", str(root / ("jax" if shared else "jax-compilation-cache")))
    update("jax_persistent_cache_min_compile_time_secs", 0.0)
    update("jax_persistent_cache_min_entry_size_bytes", -1)


def _jax_x64_switch() -> tuple[Callable[[], bool], Callable[[bool], None]] | None:
    """Read/set JAX's x64 flag, if the JAX oracle is installed."""
    try:
        jax = importlib.import_module("jax")
    except ImportError:
        return None
    jax_config: object = jax.config

    def read() -> bool:
        return bool(getattr(jax_config, "jax_enable_x64"))

    def write(value: bool) -> None:
        getattr(jax_config, "update")("jax_enable_x64", value)

    return read, write


@pytest.fixture
def x64() -> Iterator[None]:
    """Run a test with 64-bit types enabled (in jaxtyped and, where it is
    installed, in the JAX oracle), restoring the previous state after."""
    previous = config.jax_enable_x64
    switch = _jax_x64_switch()
    jax_previous = switch[0]() if switch else None
    config.update("jax_enable_x64", True)
    if switch:
        switch[1](True)
    try:
        yield
    finally:
        config.update("jax_enable_x64", previous)
        if switch and jax_previous is not None:
            switch[1](jax_previous)


_TESTS_BETWEEN_MAPPING_CHECKS = 20
_tests_since_mapping_check = [0]


def pytest_runtest_teardown(item: pytest.Item) -> None:
    """Drop both libraries' compiled programs when the worker's memory
    mappings near the kernel's cap.

    jaxtyped relieves its own caches (Note [mapping pressure] in
    ``runtime/xla.py``), but the JAX oracle keeps its programs too, and one
    worker runs thousands of tests: without this, a worker that compiled a
    few hundred samplers in both libraries aborted inside an XLA compile.
    """
    del item
    _tests_since_mapping_check[0] += 1
    if _tests_since_mapping_check[0] < _TESTS_BETWEEN_MAPPING_CHECKS:
        return
    _tests_since_mapping_check[0] = 0
    from jaxtyped._src.runtime import xla

    measured = xla.mapping_count_and_cap()
    if measured is None or measured[0] < 0.3 * measured[1]:
        return
    jaxtyped.clear_caches()
    try:
        jax = importlib.import_module("jax")
    except ImportError:
        return
    getattr(jax, "clear_caches")()
