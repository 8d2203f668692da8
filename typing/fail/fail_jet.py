"""Misuse of ``jaxtyped.experimental.jet`` that both checkers reject: a
non-callable function, primals or series that are not sequences (of
sequences) of arrays, a non-boolean ``factorial_scaled``, and using the
terms or the output as what they are not."""

import jaxtyped.numpy as jnp
from jaxtyped.experimental.jet import jet
from jaxtyped.typing import Array

x = jnp.ones(3)
jet(3, (x,), ((x,),))  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jet(jnp.sin, x, ((x,),))  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jet(jnp.sin, (x,), (x,))  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jet(jnp.sin, (x,), ((x,),), factorial_scaled="yes")  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
terms: Array = jet(jnp.sin, (x,), ((x,),))[1]  # expect: mypy[assignment] pyright[reportAssignmentType]
value: float = jet(jnp.sin, (x,), ((x,),))[0]  # expect: mypy[assignment] pyright[reportAssignmentType]
