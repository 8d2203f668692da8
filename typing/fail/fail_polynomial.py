"""Misuse of ``roots`` and ``polyfit`` that both checkers reject: a
non-boolean ``strip_zeros``, a tuple-valued fit used as one array."""

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

x = jnp.linspace(0.0, 1.0, 5)

jnp.roots(x, strip_zeros="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.roots(x, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
full_fit: Array = jnp.polyfit(x, x, 1, full=True)  # expect: mypy[assignment] pyright[reportAssignmentType]
cov_fit: Array = jnp.polyfit(x, x, 1, cov=True)  # expect: mypy[assignment] pyright[reportAssignmentType]
