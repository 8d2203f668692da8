"""Neural-network functions (JAX's ``jax.nn``): activations, ``softmax``
and friends, ``one_hot``, ``standardize``, with JAX's derivative rules.

Example:
    >>> import jaxtyped as jt
    >>> import jaxtyped.nn as nn
    >>> jt.grad(nn.relu)(0.0)  # 0 at the kink, as in JAX
    Array(0., dtype=float32, weak_type=True)
"""

from jaxtyped._src.nn.attention import dot_product_attention
from jaxtyped._src.nn.functions import (
    celu,
    elu,
    gelu,
    glu,
    hard_sigmoid,
    hard_silu,
    hard_swish,
    hard_tanh,
    identity,
    leaky_relu,
    log1mexp,
    log_sigmoid,
    logmeanexp,
    mish,
    one_hot,
    relu,
    relu6,
    selu,
    sigmoid,
    silu,
    soft_sign,
    softplus,
    sparse_plus,
    sparse_sigmoid,
    squareplus,
    standardize,
    swish,
    tanh,
)
from jaxtyped._src.scipy.special import log_softmax, logsumexp, softmax
from jaxtyped.nn import initializers as initializers  # nn.initializers family (a submodule, as jax.nn.initializers)

__all__ = [
    "celu", "dot_product_attention", "elu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh",
    "identity", "leaky_relu", "log1mexp", "log_sigmoid", "log_softmax", "logmeanexp", "logsumexp", "mish",
    "one_hot", "relu", "relu6", "selu", "sigmoid", "silu", "soft_sign", "softmax", "softplus",
    "sparse_plus", "sparse_sigmoid", "squareplus", "standardize", "swish", "tanh",
]  # fmt: skip
