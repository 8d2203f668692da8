"""jt.make_jaxpr returns a jaxtyped.core.ClosedJaxpr whose equations are
typed all the way down: Eqn.primitive.name, Var.aval.shape, Eqn.params."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ClosedJaxpr, Eqn, Jaxpr, ShapedArray, Var
from jaxtyped.typing import Array


def f(x: Array, y: Array) -> Array:
    return jnp.sin(x) * y + 1.0


def primitive_names(closed: ClosedJaxpr) -> list[str]:
    return [eqn.primitive.name for eqn in closed.jaxpr.eqns]


x = jnp.arange(3.0)
closed: ClosedJaxpr = jt.make_jaxpr(f)(x, x)
jaxpr: Jaxpr = closed.jaxpr
names = primitive_names(closed)
assert names[0] == "sin" and "mul" in names and names[-1] == "add"

for eqn in jaxpr.eqns:
    assert isinstance(eqn, Eqn)
    outvar: Var = eqn.outvars[0]
    aval: ShapedArray = outvar.aval
    assert aval.shape in ((3,), ()) and aval.dtype == jnp.float32.dtype
    params: dict[str, object] = eqn.params
    assert all(isinstance(k, str) for k in params)
assert [v.aval.shape for v in jaxpr.invars] == [(3,), (3,)]
assert len(closed.consts) == 0
assert str(closed).startswith("{ lambda ")

# With return_shape the output's ShapeDtypeStruct comes back too.
# (typed object: narrow it before use)
closed2, shape = jt.make_jaxpr(f, return_shape=True)(x, x)
assert len(closed2.jaxpr.eqns) == len(jaxpr.eqns)
assert isinstance(shape, jt.ShapeDtypeStruct) and shape.shape == (3,)

# Static arguments are passed through as they are.
def power(x: Array, n: int) -> Array:
    return x**n


staged: ClosedJaxpr = jt.make_jaxpr(power, static_argnums=1)(x, 3)
assert len(staged.jaxpr.invars) == 1


# return_shape known only at run time: a ClosedJaxpr or a pair, narrowed.
def stage(with_shape: bool) -> ClosedJaxpr:
    result = jt.make_jaxpr(f, return_shape=with_shape)(x, x)
    return result[0] if isinstance(result, tuple) else result


assert str(stage(True)) == str(stage(False)) == str(closed)

# ShapeDtypeStructs stand in for the arrays: the same jaxpr.
spec = jt.ShapeDtypeStruct(x.shape, x.dtype)
assert str(jt.make_jaxpr(f)(spec, spec)) == str(closed)
assert str(jt.make_jaxpr(power, static_argnums=1)(spec, 3)) == str(staged)
