"""``ref[idx] += v`` misuse both checkers reject: adding a ref, a string or
None or a list to a ref's element (``Array.__iadd__`` takes array-likes),
and a ref as the value of an explicit ``addupdate``."""

import jaxtyped as jt
import jaxtyped.numpy as jnp

x_ref = jt.new_ref(jnp.zeros(3))
other = jt.new_ref(jnp.ones(3))

x_ref[0] += other  # expect: mypy[arg-type] pyright[reportOperatorIssue]
x_ref[0] += "a"  # expect: mypy[arg-type] pyright[reportOperatorIssue]
x_ref[0] += None  # expect: mypy[arg-type] pyright[reportOperatorIssue]
x_ref[1:] += [1.0, 2.0]  # expect: mypy[arg-type] pyright[reportOperatorIssue]
jt.ref.addupdate(x_ref, 0, other)  # expect: mypy[arg-type] pyright[reportArgumentType]
