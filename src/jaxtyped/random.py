"""Pseudo-random numbers with JAX's ``jax.random`` names and signatures,
bit-exact with JAX 0.10 (threefry2x32, partitionable counters by default).

Keys are explicit: make one with :func:`key` (a typed key array, dtype
``key<fry>``) or :func:`PRNGKey` (a legacy ``uint32[2]``), derive new ones
with :func:`split` or :func:`fold_in`, and pass one to each sampler.

Example:
    >>> import jaxtyped as jt
    >>> k1, k2 = jt.random.split(jt.random.key(0))
    >>> jt.random.bits(k1, (2,)).dtype
    dtype('uint32')
"""

# Each family adds its own import block and its own ``__all__`` block.
# --- keys (R1) ---
from jaxtyped._src.random.keys import (
    KeyArray as KeyArray,
    PRNGKey as PRNGKey,
    bits as bits,
    clone as clone,
    fold_in as fold_in,
    key as key,
    key_data as key_data,
    key_dtype as key_dtype,
    key_impl as key_impl,
    split as split,
    wrap_key_data as wrap_key_data,
)
# --- continuous distributions (R2) ---
from jaxtyped._src.random.continuous import (
    bernoulli as bernoulli,
    cauchy as cauchy,
    exponential as exponential,
    gumbel as gumbel,
    laplace as laplace,
    logistic as logistic,
    normal as normal,
    rademacher as rademacher,
    truncated_normal as truncated_normal,
    uniform as uniform,
)
from jaxtyped._src.random.continuous_derived import (
    double_sided_maxwell as double_sided_maxwell,
    generalized_normal as generalized_normal,
    lognormal as lognormal,
    maxwell as maxwell,
    pareto as pareto,
    rayleigh as rayleigh,
    triangular as triangular,
    wald as wald,
    weibull_min as weibull_min,
)
# --- gamma family (R3) ---
from jaxtyped._src.random.counts import binomial as binomial, geometric as geometric, poisson as poisson
from jaxtyped._src.random.gamma import (
    beta as beta,
    chisquare as chisquare,
    dirichlet as dirichlet,
    f as f,
    gamma as gamma,
    loggamma as loggamma,
    t as t,
)
# --- discrete and multivariate (R4) ---
from jaxtyped._src.random.discrete import (
    categorical as categorical,
    choice as choice,
    multinomial as multinomial,
    permutation as permutation,
    randint as randint,
)
from jaxtyped._src.random.multivariate import (
    ball as ball,
    multivariate_normal as multivariate_normal,
    orthogonal as orthogonal,
)

__all__: list[str] = [
    # --- keys (R1) ---
    "KeyArray",
    "PRNGKey",
    "bits",
    "clone",
    "fold_in",
    "key",
    "key_data",
    "key_dtype",
    "key_impl",
    "split",
    "wrap_key_data",
    # --- continuous distributions (R2) ---
    "bernoulli",
    "cauchy",
    "exponential",
    "gumbel",
    "laplace",
    "logistic",
    "normal",
    "rademacher",
    "truncated_normal",
    "uniform",
    "double_sided_maxwell",
    "generalized_normal",
    "lognormal",
    "maxwell",
    "pareto",
    "rayleigh",
    "triangular",
    "wald",
    "weibull_min",
    # --- gamma family (R3) ---
    "beta",
    "binomial",
    "chisquare",
    "dirichlet",
    "f",
    "gamma",
    "geometric",
    "loggamma",
    "poisson",
    "t",
    # --- discrete and multivariate (R4) ---
    "ball",
    "categorical",
    "choice",
    "multinomial",
    "multivariate_normal",
    "orthogonal",
    "permutation",
    "randint",
]
