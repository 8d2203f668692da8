"""Suite-wide test configuration.

Importing jaxtyped here, first, lets JAXTYPED_DEBUG=1 install beartype
before any jaxtyped submodule is imported. Every test runs with
``jax_enable_checks`` on, so each jaxpr a transformation produces is
type-checked and every jvp and batching rule's output types are checked.

The JAX oracle keeps its compiled programs in a persistent cache under
``.pytest_cache/`` (unless ``JAX_COMPILATION_CACHE_DIR`` says otherwise):
the debug-mode run of the suite, and every later run, then skips JAX's
compiles of the same cases (measured on ``tests/random/test_random_gamma.py``:
217 s -> 133 s on a second run).
"""

import importlib
import os
from collections.abc import Callable, Iterator

import pytest

import jaxtyped
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
    _cache_jax_compilations(config)


def _cache_jax_compilations(config: pytest.Config) -> None:
    """Point the JAX oracle's persistent compilation cache at
    ``.pytest_cache/jax-compilation-cache`` (every program, however fast it
    compiled), unless the user chose a directory."""
    if os.environ.get("JAX_COMPILATION_CACHE_DIR"):
        return
    try:
        jax = importlib.import_module("jax")
    except ImportError:
        return
    directory = config.rootpath / ".pytest_cache" / "jax-compilation-cache"
    update = getattr(jax.config, "update")
    update("jax_compilation_cache_dir", str(directory))
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
