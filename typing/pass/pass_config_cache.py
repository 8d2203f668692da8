"""Per-thread config scopes and the persistent compilation cache's options
(issue 19); every option is restored at the end."""

import threading

import jaxtyped as jt
import jaxtyped.numpy as jnp

with jt.config.scoped("jax_disable_jit", True):
    assert jt.config.jax_disable_jit
seen: list[bool] = []
with jt.disable_jit():
    worker = threading.Thread(target=lambda: seen.append(jt.config.jax_disable_jit))
    worker.start()
    worker.join()
assert seen == [False]

directory: str | None = jt.config.jax_compilation_cache_dir
min_secs: float = jt.config.jax_persistent_cache_min_compile_time_secs
min_bytes: int = jt.config.jax_persistent_cache_min_entry_size_bytes
max_size: int = jt.config.jax_compilation_cache_max_size
jt.config.update("jax_compilation_cache_dir", None)
jt.config.update("jax_persistent_cache_min_compile_time_secs", 0.5)
jt.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
jt.config.update("jax_compilation_cache_max_size", -1)
assert jnp.ones(2).shape == (2,)
jt.config.update("jax_compilation_cache_dir", directory)
jt.config.update("jax_persistent_cache_min_compile_time_secs", min_secs)
jt.config.update("jax_persistent_cache_min_entry_size_bytes", min_bytes)
jt.config.update("jax_compilation_cache_max_size", max_size)
