"""A checkpointed function keeps its parameters: wrong argument types,
counts and keywords are rejected in every form of jt.checkpoint, as are bad
options (a non-callable policy, a list for static_argnums, JAX's removed
``concrete=``) and a non-str name."""

import functools

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.ad_checkpoint import checkpoint_name
from jaxtyped.typing import Array

cp = jt.checkpoint_policies


@jt.checkpoint
def affine(x: Array, y: Array) -> Array:
    return x * y + x


@functools.partial(jt.checkpoint, policy=cp.dots_saveable)
def dots(x: Array, y: Array) -> Array:
    return jnp.dot(x, y)


@functools.partial(jt.checkpoint, static_argnums=(1,))
def flagged(x: Array, training: bool) -> Array:
    return x if training else -x


x = jnp.ones(3)

affine("x", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
affine(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
affine(x, z=x)  # expect: mypy[call-arg] pyright[reportCallIssue]
dots(x, 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
flagged(x, "yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
text: str = affine(x, x)  # expect: mypy[assignment] pyright[reportAssignmentType]

jt.checkpoint(affine, policy="dots")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.checkpoint(affine, static_argnums=[1])  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.checkpoint(affine, concrete=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
jt.checkpoint(affine, cp.dots_saveable)  # expect: mypy[arg-type,call-arg] pyright[reportCallIssue]  # the options are keyword-only
jt.checkpoint(42)  # expect: mypy[type-var] pyright[reportArgumentType]
checkpoint_name(x, 3)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
cp.save_only_these_names(1)  # expect: mypy[arg-type] pyright[reportArgumentType]

# jt.remat is the same function under JAX's other name.
jt.remat(affine)(x, "y")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.remat(affine, policy=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
