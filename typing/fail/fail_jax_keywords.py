"""JAX keywords given values of the wrong type, which both checkers reject
(as the run-time checks do): a backend that is not a name or a client, an
axis_env that is not (name, size) pairs, per-leaf donation flags, a
non-None ``out`` for ``jnp.stack``."""

import jaxtyped as jt
import jaxtyped.numpy as jnp

x = jnp.ones(3)

jt.devices(0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.make_jaxpr(jnp.sin, axis_env=["i"])  # expect: mypy[list-item] pyright[reportArgumentType]
jt.device_put(x, donate=(True,))  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
jnp.stack([x, x], 0, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.checkpoint(jnp.sin, static_argnames=0)  # expect: mypy[arg-type] pyright[reportArgumentType]
