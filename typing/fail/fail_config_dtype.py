"""Configuration values must be bools and dtype= arguments must be
DTypeLike (a name, a scalar type, a dtype, or an object with .dtype)."""

import jaxtyped as jt
import jaxtyped.numpy as jnp

jt.config.update("jax_enable_x64", "yes")  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.config.update("jax_enable_x64", 1.0)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.config.update("jax_enable_x64")  # expect: mypy[call-overload] pyright[reportCallIssue]
enabled: str = jt.config.jax_enable_x64  # expect: mypy[assignment] pyright[reportAssignmentType]

jnp.zeros(3, dtype=5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.ones(3, dtype=[("a", "f4")])  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.asarray(1.0, dtype=3.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.zeros(3).astype(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.float32.dtype = jnp.int32.dtype  # expect: mypy[misc] pyright[reportAttributeAccessIssue]

jt.config.update("jax_enable_64", True)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.config.jax_enable_x64 = True  # expect: mypy[misc] pyright[reportAttributeAccessIssue]
