"""Options of the persistent compilation cache take their own types, and
Config.scoped takes only boolean options (issue 19)."""

import jaxtyped as jt

jt.config.update("jax_compilation_cache_dir", 3)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.config.update("jax_compilation_cache_max_size", "1GB")  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.config.scoped("jax_compilation_cache_dir", True)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.config.scoped("jax_disable_jit", "yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
size: str = jt.config.jax_compilation_cache_max_size  # expect: mypy[assignment] pyright[reportAssignmentType]

from jaxtyped.experimental.compilation_cache import compilation_cache as cc  # noqa: E402

cc.set_cache_dir(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
cc.set_cache_dir(b"/tmp/cache")  # expect: mypy[arg-type] pyright[reportArgumentType]
cc.reset_cache("now")  # expect: mypy[call-arg] pyright[reportCallIssue]
