"""The special-function family type-checks and runs: lax special functions
and small elementwise primitives, ``jaxtyped.scipy.special`` (with
``logsumexp``'s overloads) and ``jaxtyped.scipy.stats.norm``."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as sp
import jaxtyped.scipy.stats.norm as norm
from jaxtyped import lax
from jaxtyped.typing import Array

x = jnp.linspace(0.1, 0.9, 4)
ints = jnp.arange(4)

special_values: list[Array] = [
    lax.lgamma(x), lax.digamma(x), lax.polygamma(jnp.ones_like(x), x), lax.zeta(x + 1, x),
    lax.erf_inv(x), lax.erfc(x), lax.bessel_i0e(x), lax.bessel_i1e(x), lax.igamma(x, x),
    lax.igammac(x, x), lax.igamma_grad_a(x, x), lax.random_gamma_grad(x, x), lax.betainc(x, x, x),
    lax.cbrt(x), lax.exp2(x), lax.square(x), lax.reciprocal(x), lax.clamp(0.2, x, 0.5),
    lax.nextafter(x, jnp.zeros_like(x)), lax.population_count(ints), lax.clz(ints),
    lax.reduce_precision(x, 5, 10),
]  # fmt: skip

scipy_values: list[Array] = [
    sp.erf(x), sp.erfc(x), sp.erfinv(x), sp.expit(x), sp.logit(x), sp.gammaln(x), sp.gamma(x),
    sp.gammasgn(x), sp.digamma(x), sp.polygamma(1, x), sp.zeta(2.0, x), sp.betaln(x, x),
    sp.betainc(x, x, x), sp.gammainc(x, x), sp.gammaincc(x, x), sp.i0e(x), sp.i1e(x), sp.i0(x),
    sp.i1(x), sp.xlogy(x, x), sp.xlog1py(x, x), sp.entr(x), sp.ndtr(x), sp.ndtri(x),
    sp.log_ndtr(x, series_order=4), sp.factorial(x), sp.multigammaln(x + 2, 2),
    sp.softmax(x, axis=0), sp.log_softmax(x), sp.logsumexp(x, axis=0, keepdims=True),
]  # fmt: skip
value, sign = sp.logsumexp(x, b=np.array([1.0, -1.0, 2.0, 0.5]), return_sign=True)


def lse(v: Array) -> Array:
    return sp.logsumexp(v)


grad_of_lse = jt.grad(lse)(x)

norm_values: list[Array] = [
    norm.pdf(x), norm.logpdf(x, 1.0, 2.0), norm.cdf(x, loc=0.5), norm.logcdf(x), norm.ppf(x),
    norm.sf(x), norm.logsf(x, scale=3.0), norm.isf(x),
]  # fmt: skip
assert len(special_values) + len(scipy_values) + len(norm_values) == 60
assert sign.shape == () and value.shape == () and grad_of_lse.shape == (4,)
