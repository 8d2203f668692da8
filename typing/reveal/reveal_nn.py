"""Return types of jaxtyped.nn and the einsum family: every function
returns Array for any array-like input; einsum_path returns the path as a
list of int tuples and an opaque description."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped.nn as nn
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, n: "np.ndarray[tuple[int, int], np.dtype[np.float32]]") -> None:
    assert_type(nn.relu(x), Array)
    assert_type(nn.relu(a), Array)
    assert_type(nn.relu6(n), Array)
    assert_type(nn.gelu(x, approximate=False), Array)
    assert_type(nn.silu(2.0), Array)
    assert_type(nn.swish(x), Array)
    assert_type(nn.sigmoid(a), Array)
    assert_type(nn.log_sigmoid(x), Array)
    assert_type(nn.softplus(x), Array)
    assert_type(nn.soft_sign(x), Array)
    assert_type(nn.sparse_plus(x), Array)
    assert_type(nn.sparse_sigmoid(x), Array)
    assert_type(nn.elu(x, 2.0), Array)
    assert_type(nn.selu(x), Array)
    assert_type(nn.celu(x), Array)
    assert_type(nn.leaky_relu(x), Array)
    assert_type(nn.hard_tanh(x), Array)
    assert_type(nn.hard_sigmoid(x), Array)
    assert_type(nn.hard_silu(x), Array)
    assert_type(nn.hard_swish(x), Array)
    assert_type(nn.mish(x), Array)
    assert_type(nn.squareplus(x), Array)
    assert_type(nn.tanh(x), Array)
    assert_type(nn.identity(a), Array)
    assert_type(nn.log1mexp(x), Array)
    assert_type(nn.glu(x), Array)
    assert_type(nn.softmax(x), Array)
    assert_type(nn.log_softmax(x, axis=0), Array)
    assert_type(nn.logsumexp(x), Array)
    assert_type(nn.logmeanexp(x, axis=0), Array)
    assert_type(nn.dot_product_attention(x, x, x), Array)
    assert_type(nn.dot_product_attention(x, n, n, return_residual=True), tuple[Array, Array])
    assert_type(nn.one_hot(x, 3), Array)
    assert_type(nn.standardize(n), Array)
    assert_type(jnp.einsum("ij,jk", x, n), Array)
    assert_type(jnp.einsum(x, [0, 1], n, [1, 2]), Array)
    assert_type(jnp.einsum_path("ij,jk", x, n), tuple[list[tuple[int, ...]], object])
    assert_type(jnp.logaddexp2(x, a), Array)
    assert_type(jnp.sinc(a), Array)
