"""jt.jvp with tuples of primals and tangents matching the function's arity.

The TypeVarTuple signature ties the tuple lengths and element types to the
function's parameters; the result is a (primal_out, tangent_out) pair of
the function's return type, plus the aux value with has_aux=True.
"""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def square(x: Array) -> Array:
    return x * x


def inner(x: Array, y: Array) -> Array:
    return jnp.sum(x * y)


def with_aux(x: Array) -> tuple[Array, dict[str, Array]]:
    y = jnp.sin(x)
    return y, {"input": x, "output": y}


x = jnp.array([1.0, 2.0, 3.0])
t = jnp.ones(3)

y, dy = jt.jvp(square, (x,), (t,))
assert np.allclose(np.asarray(y), [1.0, 4.0, 9.0]) and np.allclose(np.asarray(dy), [2.0, 4.0, 6.0])

v, dv = jt.jvp(inner, (x, x), (t, jnp.zeros(3)))
assert float(v) == 14.0 and float(dv) == 6.0

# A jaxtyped.numpy function and a lambda work as the function too.
s, ds = jt.jvp(jnp.sin, (x,), (t,))
assert np.allclose(np.asarray(ds), np.cos(np.asarray(x)))
c, dc = jt.jvp(lambda a: jnp.cos(a) * 2.0, (x,), (t,))
assert c.shape == dc.shape == (3,)

out, d_out, aux = jt.jvp(with_aux, (x,), (t,), has_aux=True)
assert sorted(aux) == ["input", "output"]
assert np.allclose(np.asarray(aux["output"]), np.asarray(out))
assert np.allclose(np.asarray(d_out), np.cos(np.asarray(x)))

# Primals may be Python floats when the function takes floats... or ArrayLike.
p, dp = jt.jvp(lambda a: a * a, (3.0,), (1.0,))
assert float(p) == 9.0 and float(dp) == 6.0

# Lists of primals and tangents (as the docstring allows): the result is
# still typed, the arity is checked at run time only.
yl, dyl = jt.jvp(square, [x], [t])
assert np.allclose(np.asarray(dyl), np.asarray(dy)) and yl.shape == (3,)
out_l, d_out_l, aux_l = jt.jvp(with_aux, [x], [t], has_aux=True)
assert sorted(aux_l) == ["input", "output"]


# has_aux known only at run time (B5): exact for a function without aux.
def directional(flag: bool) -> Array:
    _, tangent = jt.jvp(square, (x,), (t,), has_aux=flag)
    return tangent


assert np.allclose(np.asarray(directional(False)), [2.0, 4.0, 6.0])
both = jt.jvp(with_aux, (x,), (t,), has_aux=bool(x.sum() > 0))
assert len(both) == 3  # (out, tangent, aux) or ((out, aux), (tangent, aux_tangent))
