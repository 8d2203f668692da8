"""Sharding family misuse both checkers reject (issue 17): a spec entry
that is not a name, a mesh that is not a Mesh, shard_map called with the
wrong arguments (it keeps the function's signature), an axis size used as
an array, a device count set to a string."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.sharding import NamedSharding, P
from jaxtyped.typing import Array

mesh = jt.make_mesh((1,), ("i",))
x = jnp.arange(4.0)


def block(v: Array, k: int) -> Array:
    return v * k


P(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
NamedSharding("mesh", P("i"))  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.shard_map(block, mesh=mesh, in_specs=P("i"), out_specs=P("i"))(x, "two")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.shard_map(block, mesh=mesh, in_specs=P("i"), out_specs=P("i"))(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jt.pmap(block, static_broadcasted_argnums=1)(x, "two")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.pmap(block, axis_name=0)  # expect: mypy[arg-type] pyright[reportArgumentType]
size: Array = lax.axis_size("i")  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.config.update("jax_num_cpu_devices", "4")  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
lax.pcast(x, "i")  # expect: mypy[call-arg] pyright[reportCallIssue]
jt.make_mesh((1,), ("i",), ("Auto",))  # expect: mypy[arg-type] pyright[reportArgumentType]
