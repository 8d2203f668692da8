"""Reverse-mode misuse both checkers reject: ``vjp``/``linearize``/``jvp``
with the wrong number of primals (mypy blames the function, pyright the
primals), ``grad`` of a function returning a ``str`` or a tuple without
``has_aux``, ``has_aux=True`` on a function that returns no ``(out, aux)``
pair, wrong argument types, counts and keywords to the gradient function
(it keeps the loss's parameters; the differentiated first argument is
positional-only, as at run time), and results used at the wrong type."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

Params = dict[str, Array]


def unary(x: Array) -> Array:
    return jnp.sin(x)


def binary(x: Array, y: Array) -> Array:
    return x * y


def loss(x: Array) -> Array:
    return jnp.sum(jnp.sin(x))


def mse(params: Params, inputs: Array, targets: Array) -> Array:
    return jnp.mean((params["w"] * inputs - targets) ** 2)


def loss_aux(x: Array) -> tuple[Array, str]:
    return jnp.sum(x), "aux"


def returns_str(x: Array) -> str:
    return "not a number"


def returns_pair(x: Array) -> tuple[Array, Array]:
    return jnp.sum(x), x


x = jnp.ones(3)
flag = bool(x.sum() > 0)
t = jnp.ones(3)
params: Params = {"w": jnp.ones(())}

# The number of primals must match the function's arity.
jt.vjp(binary, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.vjp(unary, x, x)  # expect: mypy[arg-type,call-arg] pyright[reportArgumentType]
jt.vjp(mse, params, x)  # expect: mypy[arg-type,call-arg] pyright[reportArgumentType]
jt.linearize(binary, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jvp(binary, (x,), (t,))  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.vjp(mse, x, x, x)  # expect: mypy[arg-type,call-arg] pyright[reportArgumentType]  # params is a dict, not an Array

# The pullback takes a cotangent of the output's type and returns a tuple.
y, pullback = jt.vjp(binary, x, x)
pullback("ct")  # expect: mypy[arg-type] pyright[reportArgumentType]
pullback(y, y)  # expect: mypy[call-arg] pyright[reportCallIssue]
only: Array = pullback(y)  # expect: mypy[assignment] pyright[reportAssignmentType]
_, f_jvp = jt.linearize(binary, x, x)
f_jvp(t)  # expect: mypy[call-arg] pyright[reportCallIssue]

# has_aux=True needs an (output, aux) pair, and so does a has_aux known
# only at run time (it can be True only for such a function: NOTES.md, K2).
jt.vjp(unary, x, has_aux=True)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.grad(loss, has_aux=True)  # expect: mypy[arg-type] pyright[reportCallIssue,reportArgumentType]
jt.value_and_grad(loss, has_aux=flag)  # expect: mypy[arg-type] pyright[reportCallIssue,reportArgumentType]
jt.jacrev(unary, has_aux=True)  # expect: mypy[arg-type] pyright[reportCallIssue,reportArgumentType]
jt.hessian(loss, has_aux=flag)  # expect: mypy[arg-type] pyright[reportCallIssue,reportArgumentType]

# grad needs a scalar-valued function: a str or a tuple (without has_aux) is rejected.
jt.grad(returns_str)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.grad(returns_pair)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.value_and_grad(returns_str)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.grad(loss_aux)  # expect: mypy[arg-type] pyright[reportArgumentType]  # forgot has_aux=True
jt.grad(returns_str, argnums=0)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]  # (K1) also with argnums
jt.grad(loss_aux, argnums=1)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.value_and_grad(returns_pair, argnums=-1)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.hessian(returns_str)  # expect: mypy[type-var] pyright[reportArgumentType]

# The gradient function keeps the loss's parameters.
grad_mse = jt.grad(mse)
grad_mse("params", x, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
grad_mse(params, x, "targets")  # expect: mypy[arg-type] pyright[reportArgumentType]
grad_mse({"w": 1.0}, x, x)  # expect: mypy[dict-item] pyright[reportArgumentType]
grad_mse(params, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
grad_mse(params, x, x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
grad_mse(params, x, labels=x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jt.grad(loss)(x=x)  # expect: mypy[call-overload] pyright[reportCallIssue]  # argnums=0 must be positional
jt.grad(binary, argnums=1)(x, "y")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.grad(binary, argnums=(0, 1))(x)  # expect: mypy[call-overload] pyright[reportCallIssue]
jt.value_and_grad(mse)(params, 1, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(jt.grad(mse))(params, "x", x)  # expect: mypy[arg-type] pyright[reportArgumentType]

# Results have precise types.
g_wrong: Array = jt.grad(mse)(params, x, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
pair_wrong: Array = jt.grad(binary, argnums=(0, 1))(x, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
aux_wrong: tuple[Array, int] = jt.grad(loss_aux, has_aux=True)(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
value, grads = jt.value_and_grad(mse)(params, x, x)
grads["w"] = 1.0  # expect: mypy[assignment] pyright[reportArgumentType]  # a dict of Arrays
text: str = value  # expect: mypy[assignment] pyright[reportAssignmentType]

# Bad options.
jt.grad(loss, argnums="0")  # expect: mypy[arg-type] pyright[reportCallIssue,reportArgumentType]
jt.grad(loss, argnums=0.5)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.grad(42)  # expect: mypy[call-overload] pyright[reportArgumentType]
jt.grad(loss, bogus=True)  # expect: mypy[call-overload] pyright[reportCallIssue]
jt.jacrev(unary, argnums="0")  # expect: mypy[arg-type] pyright[reportCallIssue,reportArgumentType]
jt.hessian(loss, has_aux="yes")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
