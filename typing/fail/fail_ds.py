"""Misuse of ``jaxtyped.ds`` that both checkers reject: a float start or
size, a non-int stride, a start read as an int (it may be an array), a
``ds`` slice used where a ``slice`` is expected, too many arguments."""

import jaxtyped as jt
import jaxtyped.numpy as jnp

x = jnp.arange(10.0)
jt.ds(1.5, 2)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.ds(1, 2.0)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.ds(1, 2, 1.0)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.ds(1, 2, 1, 4)  # expect: mypy[call-overload] pyright[reportCallIssue]
k: int = jt.ds(1, 2).start  # expect: mypy[assignment] pyright[reportAssignmentType]
s: slice = jt.ds(1, 2)  # expect: mypy[assignment] pyright[reportAssignmentType]
x[jt.ds("1", 2)]  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
