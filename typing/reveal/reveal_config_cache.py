"""Types of the per-thread config scopes and the persistent compilation
cache's options (issue 19)."""

from contextlib import AbstractContextManager

from typing_extensions import assert_type

import jaxtyped as jt

assert_type(jt.config.scoped("jax_enable_x64", True), AbstractContextManager[None])
assert_type(jt.config.jax_compilation_cache_dir, str | None)
assert_type(jt.config.jax_persistent_cache_min_compile_time_secs, float)
assert_type(jt.config.jax_persistent_cache_min_entry_size_bytes, int)
assert_type(jt.config.jax_compilation_cache_max_size, int)
assert_type(jt.config.update("jax_compilation_cache_dir", None), None)

# jax.experimental.compilation_cache.compilation_cache
from pathlib import Path  # noqa: E402

from jaxtyped.experimental.compilation_cache import compilation_cache as cc  # noqa: E402

assert_type(cc.set_cache_dir("/tmp/jaxtyped-cache"), None)
assert_type(cc.set_cache_dir(Path("/tmp/jaxtyped-cache")), None)
assert_type(cc.set_cache_dir(None), None)
assert_type(cc.reset_cache(), None)
jt.config.update("jax_compilation_cache_dir", None)
