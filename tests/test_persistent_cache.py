"""The persistent compilation cache across processes (issue 19, item 4).

Each scenario runs a small jitted MLP step in a fresh Python process with
``jax_compilation_cache_dir`` set and reads ``runtime.xla.persistent_cache_info``
(XLA compiles, cache loads, cache saves): the first process compiles and
saves, the second loads and compiles nothing and computes the same values;
corrupt, truncated or stale entries are ignored (recompiled, same values);
the minimum compile time and the environment variable are honoured.
"""

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from oracle import debug_violations

_CHILD = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import jaxtyped as jt
    import jaxtyped.numpy as jnp
    from jaxtyped._src.runtime import xla

    directory, min_secs = sys.argv[1], float(sys.argv[2])
    if directory != "ENV":
        jt.config.update("jax_compilation_cache_dir", directory)
    jt.config.update("jax_persistent_cache_min_compile_time_secs", min_secs)

    def loss(w, x):
        h = jnp.tanh(x @ w)
        return jnp.sum(h * h)

    step = jt.jit(jt.grad(loss))
    w = jnp.asarray(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3))
    x = jnp.asarray(np.linspace(0.0, 2.0, 8, dtype=np.float32).reshape(2, 4))
    out = np.asarray(step(w, x)).tolist()
    compiles, loads, stores = xla.persistent_cache_info()
    print(json.dumps({"compiles": compiles, "loads": loads, "stores": stores, "out": out}))
    """
)


def _run(directory: str, min_secs: float = 0.0, env_dir: str | None = None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "JAX_COMPILATION_CACHE_DIR"}
    if env_dir is not None:
        env["JAX_COMPILATION_CACHE_DIR"] = env_dir
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, directory, str(min_secs)], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.jtexec"))


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    directory = tmp_path_factory.mktemp("compile_cache")
    first = _run(str(directory))
    return directory, first


def test_the_first_process_compiles_and_saves(warm: tuple[Path, dict[str, object]]) -> None:
    directory, first = warm
    assert first["loads"] == 0
    assert first["compiles"] == first["stores"]
    assert isinstance(first["stores"], int) and first["stores"] >= 1
    assert len(_entries(directory)) == first["stores"]
    assert not list(directory.glob(".tmp-*"))  # atomic writes leave no partial files


def test_a_second_process_loads_instead_of_compiling(warm: tuple[Path, dict[str, object]]) -> None:
    directory, first = warm
    second = _run(str(directory))
    assert second["compiles"] == 0
    assert second["loads"] == first["stores"]
    np.testing.assert_array_equal(np.asarray(second["out"]), np.asarray(first["out"]))


def test_corrupt_truncated_and_stale_entries_are_recompiled(tmp_path: Path) -> None:
    reference = _run(str(tmp_path))
    entries = _entries(tmp_path)
    assert entries
    for i, entry in enumerate(entries):
        data = entry.read_bytes()
        if i % 3 == 0:
            entry.write_bytes(b"garbage")  # not an entry at all
        elif i % 3 == 1:
            entry.write_bytes(data[: len(data) // 2])  # truncated: checksum mismatch
        else:
            # A well-formed entry whose payload jaxlib cannot load (stale).
            import hashlib

            payload = b"not an executable"
            entry.write_bytes(data[:8] + hashlib.sha256(payload).digest() + payload)
    again = _run(str(tmp_path))
    assert again["loads"] == 0
    assert again["compiles"] == reference["compiles"]
    np.testing.assert_array_equal(np.asarray(again["out"]), np.asarray(reference["out"]))
    healed = _run(str(tmp_path))  # the recompiled programs were saved over the bad entries
    assert healed["compiles"] == 0


def test_min_compile_time_and_the_environment_variable(tmp_path: Path) -> None:
    slow_only = _run(str(tmp_path / "a"), min_secs=1000.0)
    assert slow_only["stores"] == 0 and not (tmp_path / "a").exists()
    by_env = _run("ENV", env_dir=str(tmp_path / "b"))
    assert isinstance(by_env["stores"], int) and by_env["stores"] >= 1
    assert _run("ENV", env_dir=str(tmp_path / "b"))["compiles"] == 0


def test_config_options_are_checked() -> None:
    import jaxtyped as jt
    from jaxtyped.errors import DebugTypeError, JaxtypedValueError

    assert jt.config.jax_compilation_cache_dir is None or isinstance(jt.config.jax_compilation_cache_dir, str)
    assert jt.config.jax_persistent_cache_min_entry_size_bytes == 0
    with pytest.raises((JaxtypedValueError, DebugTypeError)):
        jt.config.update("jax_persistent_cache_min_compile_time_secs", -1.0)
    with pytest.raises((JaxtypedValueError, DebugTypeError)):
        jt.config.update("jax_compilation_cache_dir", 3)  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]  # the run-time check


def test_the_size_bound_evicts_the_least_recently_used(tmp_path: Path) -> None:
    import time

    from jaxtyped._src.runtime import compile_cache

    payload = b"x" * 1000
    for key in ("a", "b", "c"):
        assert compile_cache.store(str(tmp_path), key, payload)
    old = time.time() - 100
    for i, key in enumerate(("a", "b", "c")):
        os.utime(tmp_path / f"{key}.jtexec", (old + i, old + i))
    assert compile_cache.load(str(tmp_path), "a") == payload  # now the most recently used
    entry_size = (tmp_path / "a.jtexec").stat().st_size
    assert compile_cache.store(str(tmp_path), "d", payload, max_size=3 * entry_size)
    assert sorted(p.stem for p in _entries(tmp_path)) == ["a", "c", "d"]  # b was the least recently used
    assert compile_cache.load(str(tmp_path), "b") is None


def test_max_size_zero_turns_the_cache_off(tmp_path: Path) -> None:
    import jaxtyped as jt
    import jaxtyped.numpy as jtnp
    from jaxtyped._src.runtime import xla

    assert jt.config.jax_compilation_cache_max_size == -1
    previous = jt.config.jax_compilation_cache_dir
    jt.config.update("jax_compilation_cache_dir", str(tmp_path))
    jt.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jt.config.update("jax_compilation_cache_max_size", 0)
    try:
        stores = xla.persistent_cache_info()[2]
        def fresh(v: jt.Array) -> jt.Array:
            return v * 0.375 - 9.5

        jt.jit(fresh)(jtnp.ones(3))
        assert xla.persistent_cache_info()[2] == stores
        assert not _entries(tmp_path)
    finally:
        jt.config.update("jax_compilation_cache_max_size", -1)
        jt.config.update("jax_persistent_cache_min_compile_time_secs", 1.0)
        jt.config.update("jax_compilation_cache_dir", previous)


def _compile_fresh(namespace: Any, numpy: Any, offset: float) -> None:
    """Compile and run a function no earlier call compiled."""

    def fresh(v: Any) -> Any:
        return v * 0.625 - offset

    namespace.jit(fresh)(numpy.ones(3))


def test_set_cache_dir_and_reset_cache_as_jax(tmp_path: Path) -> None:
    """``jax.experimental.compilation_cache.compilation_cache``: set_cache_dir
    (a str, or a Path, which JAX refuses; None turns the cache off) is the
    config option, and after reset_cache the next compile that uses the
    cache counts this process as a task using it again, as JAX's events do."""
    import importlib

    from oracle import jax

    import jaxtyped as jt
    import jaxtyped.numpy as jtnp
    from jaxtyped import monitoring
    from jaxtyped.experimental.compilation_cache import compilation_cache as cc

    jax_cc: Any = importlib.import_module("jax.experimental.compilation_cache.compilation_cache")
    tasks = "/jax/compilation_cache/tasks_using_cache"
    seen: dict[str, list[str]] = {"ours": [], "jax": []}

    def listener(side: str) -> Callable[..., None]:
        def record(event: str, **_: object) -> None:
            seen[side].append(event)

        return record

    ours_listener, jax_listener = listener("ours"), listener("jax")
    monitoring.register_event_listener(ours_listener)
    jax.monitoring.register_event_listener(jax_listener)
    previous = jt.config.jax_compilation_cache_dir
    jax_previous = jax.config.jax_compilation_cache_dir
    sides: list[tuple[str, Any, Any, Any]] = [("ours", cc, jt, jtnp), ("jax", jax_cc, jax, jax.numpy)]
    try:
        for side, module, namespace, numpy in sides:
            module.reset_cache()  # an earlier test in this process may have used the cache
            module.set_cache_dir(str(tmp_path / side))
            _compile_fresh(namespace, numpy, 1.25)
            module.reset_cache()
            _compile_fresh(namespace, numpy, 3.5)
            module.set_cache_dir(None)
            _compile_fresh(namespace, numpy, 7.5)  # the cache is off: no event
        assert seen["ours"].count(tasks) == seen["jax"].count(tasks) == 2
        for given, expected in [(tmp_path, str(tmp_path)), (None, None)]:  # a Path too (JAX takes only a str)
            cc.set_cache_dir(given)
            assert jt.config.jax_compilation_cache_dir == expected
        wrong: Any = 3
        with pytest.raises((ValueError, *debug_violations()), match="set_cache_dir"):  # JAX's config raises ValueError
            cc.set_cache_dir(wrong)
    finally:
        monitoring.unregister_event_listener(ours_listener)
        jax.monitoring.unregister_event_listener(jax_listener)
        jt.config.update("jax_compilation_cache_dir", previous)
        jax.config.update("jax_compilation_cache_dir", jax_previous)
        jax_cc.reset_cache()


def test_sharded_programs_are_saved_and_loaded(tmp_path: Path) -> None:
    """A program compiled over a mesh is kept like a single-device one (JAX
    keeps them too): after the in-memory caches are dropped it is loaded,
    with the same values and output sharding. One that inspects shardings
    is always compiled: its callback runs only while XLA compiles."""
    import jaxtyped as jt
    import jaxtyped.numpy as jtnp
    from jaxtyped._src.runtime import xla
    from jaxtyped.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(np.array(jt.devices()[:4]), ("x",))
    x = jt.device_put(jtnp.arange(16.0).reshape(8, 2), NamedSharding(mesh, PartitionSpec("x")))
    seen: list[str] = []

    def scaled(a: jt.Array) -> jt.Array:
        return jtnp.sin(a) * 0.8125 + a.sum()

    def inspected(a: jt.Array) -> jt.Array:
        jt.debug.inspect_array_sharding(a, callback=lambda s: seen.append(repr(s)))
        return a * 0.8125

    previous = jt.config.jax_compilation_cache_dir
    previous_min = jt.config.jax_persistent_cache_min_compile_time_secs
    jt.config.update("jax_compilation_cache_dir", str(tmp_path))
    jt.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    try:
        compiles, loads, stores = xla.persistent_cache_info()
        first = jt.jit(scaled)(x)
        jt.jit(inspected)(x)
        assert xla.persistent_cache_info() == (compiles + 1, loads, stores + 1)
        assert len(_entries(tmp_path)) == 1 and len(seen) == 1
        jt.clear_caches()
        second = jt.jit(scaled)(x)
        jt.jit(inspected)(x)
        assert xla.persistent_cache_info() == (compiles + 1, loads + 1, stores + 1)
        assert len(seen) == 2 and seen[0] == seen[1]
        np.testing.assert_array_equal(np.asarray(second), np.asarray(first))
        assert second.sharding == first.sharding == NamedSharding(mesh, PartitionSpec("x"))
    finally:
        jt.config.update("jax_persistent_cache_min_compile_time_secs", previous_min)
        jt.config.update("jax_compilation_cache_dir", previous)
