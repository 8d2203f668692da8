"""jaxtyped.nn and einsum misuse both checkers reject: strings where
arrays are expected, wrong parameter kinds (a float class count, a string
axis), unknown keywords, and results used as Python scalars."""

import jaxtyped.nn as nn
import jaxtyped.numpy as jnp

x = jnp.ones((2, 3))

nn.relu("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.gelu(x, approximate="no")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.leaky_relu(x, negative_slope="0.1")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.glu(x, axis=1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.one_hot(x, 2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.one_hot(x, num_classes="3")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.softmax(x, axis="last")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.standardize(x, epsilon="small")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.sigmoid(x, 1.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
flag: bool = nn.relu(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
jnp.einsum(3, x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jnp.einsum("ij", x, out=x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jnp.einsum("ij", x, optimize=3.5)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jnp.einsum_path("ij", x, optimize=None)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jnp.logaddexp2(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.sinc(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]

# Every other function: a string is not array-like.
nn.relu6("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.silu("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.swish("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.log_sigmoid("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.softplus("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.soft_sign("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.sparse_plus("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.sparse_sigmoid("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.elu("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.selu("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.celu("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.hard_tanh("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.hard_sigmoid("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.hard_silu("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.hard_swish("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.mish("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.squareplus("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.tanh("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.identity("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.log1mexp("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.log_softmax("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.logsumexp("x")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jnp.einsum_path(3, x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
nn.logmeanexp(x, keepdims="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
nn.dot_product_attention(x, x, x, implementation="triton")  # expect: mypy[call-overload] pyright[reportArgumentType]
pair: tuple[int, int] = nn.dot_product_attention(x, x, x, return_residual=True)  # expect: mypy[assignment] pyright[reportAssignmentType]
nn.standardize(x, algorithm="exact")  # expect: mypy[arg-type] pyright[reportArgumentType]
