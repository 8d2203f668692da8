"""Walking a jaxpr as analysis tools do: an interpreter that evaluates
equations by binding their primitives, a FLOP counter keyed on primitives,
a pass that lists the shapes flowing through a model, and a check that a
function was staged without host prints."""
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.extend import core as jex_core


def eval_jaxpr(jaxpr, consts, *args):
    env = {}

    def read(v):
        return v.val if isinstance(v, jex_core.Literal) else env[v]

    def write(v, val):
        env[v] = val

    for v, val in zip(jaxpr.constvars, consts):
        write(v, val)
    for v, val in zip(jaxpr.invars, args):
        write(v, val)
    for eqn in jaxpr.eqns:
        invals = [read(v) for v in eqn.invars]
        outvals = eqn.primitive.bind(*invals, **eqn.params)
        if not eqn.primitive.multiple_results:
            outvals = [outvals]
        for v, val in zip(eqn.outvars, outvals):
            write(v, val)
    return [read(v) for v in jaxpr.outvars]


def flops(closed):
    total = 0
    for eqn in closed.jaxpr.eqns:
        if eqn.primitive == lax.dot_general_p:
            (lhs_contract, _), _ = eqn.params["dimension_numbers"]
            lhs = eqn.invars[0].aval
            out = eqn.outvars[0].aval
            total += 2 * int(np.prod(out.shape)) * int(np.prod([lhs.shape[d] for d in lhs_contract]))
        elif eqn.primitive in (lax.add_p, lax.mul_p, lax.tanh_p):
            total += int(np.prod(eqn.outvars[0].aval.shape))
    return total


def shapes(closed):
    return [(str(eqn.primitive), tuple(v.aval.shape for v in eqn.outvars)) for eqn in closed.jaxpr.eqns]


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
x = jnp.ones((4, 3))
closed = jt.make_jaxpr(layer)(params, x)
reveal_type(closed)
reveal_type(closed.jaxpr.eqns)
out = eval_jaxpr(closed.jaxpr, closed.consts, *jt.tree.leaves((params, x)))
assert jnp.allclose(out[0], layer(params, x))
assert flops(closed) == 2 * 4 * 2 * 3 + 4 * 2 + 4 * 2
assert shapes(closed)[0] == ("dot_general", ((4, 2),))
print(closed)


def prints_on_the_host(fn, *args):
    staged = jt.make_jaxpr(fn)(*args)
    return any(str(eqn.primitive) == "debug_print" for eqn in staged.jaxpr.eqns)


def noisy(x):
    jt.debug.print("x = {}", x)
    return x * 2


assert prints_on_the_host(noisy, 1.0) and not prints_on_the_host(layer, params, x)
as_fun = jex_core.jaxpr_as_fun(closed)
direct = as_fun(*jt.tree.leaves((params, x)))
reveal_type(direct)
assert jnp.allclose(direct[0], out[0])
typed = [v.aval for v in closed.jaxpr.invars]
assert [a.shape for a in typed] == [(2,), (3, 2), (4, 3)] and all(a.dtype == jnp.float32 for a in typed)
