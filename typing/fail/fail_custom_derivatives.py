"""Misuse of jt.custom_jvp / jt.custom_vjp that both checkers reject: the
decorated function keeps its parameters and result type, and the rules
passed to ``defjvp``/``defjvps``/``defvjp`` must produce the function's
result type. A ``custom_jvp[Any, Any]`` would accept every line below."""

import functools
from collections.abc import Callable

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


@jt.custom_jvp
def f(x: Array, y: float) -> Array:
    return jnp.sin(x) * y


@jt.custom_vjp
def v(x: Array) -> Array:
    return x


def int_tangent(primals: tuple[Array, float], tangents: tuple[Array, float]) -> tuple[Array, int]:
    return primals[0], 0


def str_fwd(x: Array) -> tuple[str, None]:
    return "out", None


def str_tangent(t: Array, ans: Array, x: Array, y: float) -> str:
    return "zero"


def bwd(res: None, ct: Array) -> tuple[Array]:
    return (ct,)


def array_fwd(x: Array) -> tuple[Array, Array]:
    return x, x


x = jnp.ones(3)

# The wrapped function's parameters and result.
f("x", 2.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
f(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
f(x, 2.0, 3.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
f(x, z=2.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
text: str = f(x, 2.0)  # expect: mypy[assignment] pyright[reportAssignmentType]
v(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
label: str = v(x)  # expect: mypy[assignment] pyright[reportAssignmentType]

# Rules must produce the function's result type.
f.defjvp(int_tangent)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
f.defjvp(42)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
f.defjvps(str_tangent, None)  # expect: mypy[arg-type] pyright[reportArgumentType]
# ... and take (tangent, primal_out, *the function's parameters): y is a float.
f.defjvps(lambda t, ans, x: t * x, None)  # expect: mypy[arg-type,misc] pyright[reportArgumentType]
f.defjvps(lambda t, ans, x, y: y.shape, None)  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType,reportUnknownLambdaType]
v.defvjp(str_fwd, bwd)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
v.defvjp(bwd)  # expect: mypy[call-overload] pyright[reportCallIssue]

# The decorator needs a callable; the wrapper keeps its parameters.
jt.custom_jvp(3.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.custom_vjp("v")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.custom_vjp(array_fwd)(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]


# Known divergence: pyright does not solve a generic class's type
# parameters through functools.partial, so the partial form of
# nondiff_argnums gives custom_jvp[..., Unknown] there (mypy keeps the
# signature). Use jt.custom_jvp(fn, nondiff_argnums=...) under pyright.
@functools.partial(jt.custom_jvp, nondiff_argnums=(0,))
def app(g: Callable[[Array], Array], x: Array) -> Array:
    return g(x)


y = app(jnp.sin, x)  # expect: pyright[reportUnknownVariableType]  # see above
app(jnp.sin, "x")  # expect: mypy[arg-type]  # pyright accepts it (see above)
