"""Return types of the transformations: jvp pairs (and triples with
has_aux; a union of both for a pair-valued function with a run-time flag;
lists of primals check only the result), vmap keeping the signature,
jacfwd typed like jacrev (the output's type for an array-like argument,
the argument's type for a single-array output, else a PyTree), make_jaxpr
giving a ClosedJaxpr whose parts are typed."""

from collections.abc import Callable

from typing_extensions import TypeAlias, assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ClosedJaxpr, Eqn, Jaxpr, Primitive, ShapedArray, Var
from jaxtyped.typing import Array, JaxprMaker, PyTree

# make_jaxpr's result: its consts are arrays and the refs the function closes over.
Closed: TypeAlias = ClosedJaxpr[Array | jt.Ref[Array]]


class Aux:
    """A user's auxiliary output type."""


def f(x: Array) -> Array:
    return jnp.sin(x)


def f2(x: Array, y: Array) -> Array:
    return x * y


def f_aux(x: Array) -> tuple[Array, Aux]:
    return x, Aux()


def g(x: Array, n: int) -> Array:
    return x * n


def pair_out(x: Array) -> tuple[Array, Array]:
    return x, x


def norm(params: dict[str, Array]) -> Array:
    return jnp.sum(params["w"] ** 2)


def scaled(params: dict[str, Array]) -> dict[str, Array]:
    return {"w": params["w"] * 2.0}


def scaled_aux(params: dict[str, Array]) -> tuple[dict[str, Array], Aux]:
    return {"w": params["w"] * 2.0}, Aux()


def check(x: Array, t: Array, params: dict[str, Array], flag: bool, dyn: int) -> None:
    assert_type(jt.jvp(f, (x,), (t,)), tuple[Array, Array])
    assert_type(jt.jvp(f2, (x, x), (t, t)), tuple[Array, Array])
    assert_type(jt.jvp(f, (x,), (t,), has_aux=False), tuple[Array, Array])
    assert_type(jt.jvp(f_aux, (x,), (t,), has_aux=True), tuple[Array, Array, Aux])
    assert_type(jt.jvp(pair_out, (x,), (t,)), tuple[tuple[Array, Array], tuple[Array, Array]])
    assert_type(jt.jvp(jnp.sin, (x,), (t,)), tuple[Array, Array])
    assert_type(jt.jvp(f, [x], [t]), tuple[Array, Array])
    assert_type(jt.jvp(f2, [x, x], [t, t]), tuple[Array, Array])
    assert_type(jt.jvp(f_aux, [x], [t], has_aux=True), tuple[Array, Array, Aux])
    assert_type(jt.jvp(f, (x,), (t,), has_aux=flag), tuple[Array, Array])
    assert_type(
        jt.jvp(f_aux, (x,), (t,), has_aux=flag),
        tuple[tuple[Array, Aux], tuple[Array, Aux]] | tuple[Array, Array, Aux],
    )

    vg: Callable[[Array, int], Array] = jt.vmap(g)
    assert_type(vg(x, 2), Array)
    assert_type(jt.vmap(g)(x, 2), Array)
    assert_type(jt.vmap(g, in_axes=(0, None))(x, n=3), Array)
    assert_type(jt.vmap(pair_out)(x), tuple[Array, Array])

    assert_type(jt.jacfwd(f)(x), Array)
    assert_type(jt.jacfwd(jnp.cos)(1.0), Array)
    assert_type(jt.jacfwd(pair_out)(x), tuple[Array, Array])
    assert_type(jt.jacfwd(f2, argnums=1)(x, x), Array)
    assert_type(jt.jacfwd(f2, argnums=(0, 1))(x, x), tuple[Array, Array])
    assert_type(jt.jacfwd(f2, argnums=dyn)(x, x), PyTree)
    assert_type(jt.jacfwd(norm)(params), dict[str, Array])
    assert_type(jt.jacfwd(scaled)(params), PyTree)
    assert_type(jt.jacfwd(f_aux, has_aux=True)(x), tuple[Array, Aux])
    assert_type(jt.jacfwd(f_aux, has_aux=flag)(x), tuple[Array, Aux])
    assert_type(jt.jacfwd(scaled_aux, has_aux=flag)(params), PyTree | tuple[PyTree, Aux])
    jf: Callable[[Array], Array] = jt.jacfwd(f)
    assert_type(jf(x), Array)

    closed = jt.make_jaxpr(f)(x)
    assert_type(closed, Closed)
    assert_type(jt.make_jaxpr(g, static_argnums=1)(x, 2), Closed)
    assert_type(jt.make_jaxpr(f, return_shape=True)(x), tuple[Closed, object])
    assert_type(jt.make_jaxpr(f, return_shape=flag)(x), Closed | tuple[Closed, object])
    # ShapeDtypeStructs stand in for arrays (Note [abstract arguments]).
    spec = jt.ShapeDtypeStruct((3,), jnp.float32)
    maker: JaxprMaker[[Array], Closed] = jt.make_jaxpr(f)  # still a Callable of f's parameters:
    as_callable: Callable[[Array], Closed] = maker
    assert_type(as_callable(x), Closed)
    assert_type(jt.make_jaxpr(f)(spec), Closed)
    assert_type(jt.make_jaxpr(g, static_argnums=1)(spec, 2), Closed)
    assert_type(jt.make_jaxpr(f, return_shape=True)((spec,)), tuple[Closed, object])
    assert_type(closed.jaxpr, Jaxpr)
    assert_type(closed.jaxpr.eqns, tuple[Eqn, ...])
    assert_type(closed.consts, tuple[Array | jt.Ref[Array], ...])
    assert_type(closed.in_avals, tuple[ShapedArray, ...])
    for eqn in closed.jaxpr.eqns:
        assert_type(eqn, Eqn)
        assert_type(eqn.primitive, Primitive)
        assert_type(eqn.primitive.name, str)
        assert_type(eqn.outvars, tuple[Var, ...])
        assert_type(eqn.params, dict[str, object])
        assert_type(eqn.outvars[0].aval.shape, tuple[int, ...])
