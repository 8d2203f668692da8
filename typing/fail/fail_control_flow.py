"""Control-flow misuse both checkers reject: ``cond``/``switch`` branches
whose result types differ (caught where the result meets a declared type:
each checker widens the result to a union or ``object`` otherwise), the
wrong number of operands for the branches, a non-callable branch list;
``while_loop``/``fori_loop`` bodies returning a different carry type, a
``fori_loop`` body with the wrong arity or an ``int`` counter (it is an
``Array``); a ``scan`` ``f`` not returning a ``(carry, y)`` pair, changing
the carry type or taking ``None`` while ``xs`` is given; ``map`` of a
function of the wrong argument type; results used at the wrong type. The
same with lambdas (pyright accepts two of them: typing/pending/NOTES.md,
section CF)."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

Params = dict[str, Array]

x = jnp.ones(3)


def double(v: Array) -> Array:
    return v * 2.0


def binary(v: Array, w: Array) -> Array:
    return v * w


def to_params(v: Array) -> Params:
    return {"w": v}


def to_str(v: Array) -> str:
    return "no"


def below(c: Array) -> Array:
    return c.sum() < 10


def pair_below(c: tuple[Array, Array]) -> Array:
    return c[0].sum() < 10


def pair_to_one(c: tuple[Array, Array]) -> Array:
    return c[0] + c[1]


def to_pair(c: Array) -> tuple[Array, Array]:
    return c, c


def add_i(i: Array, c: Array) -> Array:
    return c + i


def int_counter(i: int, c: Array) -> Array:
    return c * i


def one_of_pair(i: Array, c: tuple[Array, Array]) -> Array:
    return c[0] + i


def step(c: Array, v: Array) -> tuple[Array, Array]:
    return c + v, c * v


def no_pair(c: Array, v: Array) -> Array:
    return c + v


def triple(c: Array, v: Array) -> tuple[Array, Array, Array]:
    return c, v, v


def changes_carry(c: Array, v: Array) -> tuple[Params, Array]:
    return {"c": c}, v


def no_xs(c: Array, _: None) -> tuple[Array, Array]:
    return c + 1, c


def pair_sum(xy: tuple[Array, Array]) -> Array:
    return xy[0] + xy[1]


# cond: branches with different result types, used as one type.
r1: Array = jt.lax.cond(True, double, to_params, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
r2: Array = jt.lax.cond(True, to_str, double, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.lax.cond(True, double, to_params, x) + 1  # expect: mypy[operator] pyright[reportOperatorIssue,reportUnusedExpression]
jt.lax.cond(True, lambda v: v, lambda v: (v, v), x)[0].sum()  # expect: mypy[index]  # pyright: R is Array | tuple[Array, Array], both indexable
# cond: the branches take two operands, one (or none, or three) is given.
jt.lax.cond(True, binary, binary, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.cond(True, double, double)  # expect: mypy[arg-type,call-arg] pyright[reportArgumentType]
jt.lax.cond(True, binary, binary, x, x, x)  # expect: mypy[arg-type,call-arg] pyright[reportArgumentType]
jt.lax.cond(True, double, binary, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.cond("yes", double, double, x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.lax.cond(True, double, double, x).keys()  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]

# switch: the same, and the branches must be a sequence.
r3: Array = jt.lax.switch(0, [double, to_params], x)  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.lax.switch(0, [binary, binary], x)  # expect: mypy[list-item] pyright[reportArgumentType,reportCallIssue]
jt.lax.switch(0, [double, binary], x, x)  # expect: mypy[arg-type,call-arg] pyright[reportArgumentType]
jt.lax.switch(0, double, x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]

# while_loop: the body changes the carry type; cond_fun of the wrong carry.
# (mypy also reports a pair carry's call against the pair-of-Any overload, as a type-var error.)
jt.lax.while_loop(pair_below, pair_to_one, (x, x))  # expect: mypy[arg-type,type-var] pyright[reportArgumentType,reportCallIssue]
jt.lax.while_loop(below, to_pair, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.while_loop(pair_below, double, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.while_loop(below, to_str, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.while_loop(lambda c: c < 3, lambda c: (c, c), 0.0)  # expect: mypy[arg-type,return-value] pyright[reportArgumentType,reportCallIssue,reportOperatorIssue,reportUnknownLambdaType]
jt.lax.while_loop(lambda c: c[0] < 3, lambda c: c[0], (x, x))  # expect: mypy[arg-type,return-value,type-var]  # pyright widens C to a union (NOTES CF5)
w: Params = jt.lax.while_loop(below, double, x)  # expect: mypy[assignment] pyright[reportAssignmentType]

# fori_loop: the body takes (i, value), i is an Array, the value keeps its type.
jt.lax.fori_loop(0, 3, double, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.fori_loop(0, 3, lambda c: c * 2, x)  # expect: mypy[arg-type,misc] pyright[reportArgumentType,reportCallIssue]
jt.lax.fori_loop(0, 3, int_counter, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.fori_loop(0, 3, one_of_pair, (x, x))  # expect: mypy[arg-type,type-var] pyright[reportArgumentType,reportCallIssue]
jt.lax.fori_loop("0", 3, add_i, x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]

# scan: f must return a (carry, y) pair with the carry's type.
jt.lax.scan(no_pair, x[0], x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.scan(lambda c, v: c + v, x[0], x)  # expect: mypy[arg-type,return-value] pyright[reportArgumentType,reportCallIssue,reportOperatorIssue,reportUnknownLambdaType]
jt.lax.scan(triple, x[0], x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.scan(changes_carry, x[0], x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.scan(double, x[0], x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.scan(no_xs, 0.0, x)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.scan(lambda c, v: ((c, c), v), 0.0, x)  # expect: mypy[arg-type,return-value] pyright[reportArgumentType,reportCallIssue]
jt.lax.scan(step, 0.0)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.scan(step, 0.0, x, length="3")  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
carry, ys = jt.lax.scan(step, 0.0, x)
ys.keys()  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]

# map: f gets one slice of xs.
jt.lax.map(pair_sum, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.lax.map(binary, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
m: Params = jt.lax.map(double, x)  # expect: mypy[arg-type] pyright[reportAssignmentType]

# operand= is one operand of the branches' parameter type.
jt.lax.cond(True, double, double, operand="x")  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.lax.cond(True, to_params, to_params, operand={"a": x})  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
