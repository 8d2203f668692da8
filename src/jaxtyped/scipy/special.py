"""Special functions (JAX's ``jax.scipy.special``), with JAX's derivative
rules where JAX defines its own (``logsumexp``, ``xlogy``, ``xlog1py``,
``entr``, ``logit``, ``log_ndtr``, ``softmax``).

Example:
    >>> import jaxtyped.scipy.special as sp
    >>> sp.logsumexp(sp.xlogy(0.0, 0.0))
    Array(0., dtype=float32)
"""

from jaxtyped._src.scipy.special import (
    betainc,
    betaln,
    digamma,
    entr,
    erf,
    erfc,
    erfinv,
    expit,
    factorial,
    gamma,
    gammainc,
    gammaincc,
    gammaln,
    gammasgn,
    i0,
    i0e,
    i1,
    i1e,
    log_ndtr,
    logit,
    logsumexp,
    multigammaln,
    ndtr,
    ndtri,
    polygamma,
    xlog1py,
    xlogy,
    zeta,
)
from jaxtyped._src.scipy.special_more import (
    bernoulli,
    beta,
    boxcox,
    boxcox1p,
    comb,
    erfcx,
    kl_div,
    loggamma,
    poch,
    rel_entr,
)
from jaxtyped._src.scipy.special_hyper import bessel_jn, hyp1f1, hyp2f1, sph_harm_y, wofz
from jaxtyped._src.scipy.special_integrals import (
    dawsn,
    exp1,
    expi,
    expn,
    fresnel,
    owens_t,
    sici,
    spence,
)
from jaxtyped._src.scipy.special import special_log_softmax as log_softmax
from jaxtyped._src.scipy.special import special_softmax as softmax

__all__ = [
    "betainc", "betaln", "digamma", "entr", "erf", "erfc", "erfinv", "expit", "factorial",
    "gamma", "gammainc", "gammaincc", "gammaln", "gammasgn", "i0", "i0e", "i1", "i1e",
    "log_ndtr", "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "ndtri",
    "polygamma", "softmax", "xlog1py", "xlogy", "zeta",
    # breadth: more of jax.scipy.special
    "beta", "boxcox", "boxcox1p", "comb", "kl_div", "loggamma", "poch", "rel_entr", "bernoulli", "erfcx",
    # breadth: the exponential, sine/cosine, Fresnel and Dawson integrals, the dilogarithm, Owen's T
    "exp1", "expi", "expn", "spence", "sici", "dawsn", "fresnel", "owens_t",
    # breadth: Bessel functions of the first kind, the confluent and Gauss hypergeometric functions,
    # the Faddeeva function, spherical harmonics
    "bessel_jn", "hyp1f1", "hyp2f1", "wofz", "sph_harm_y",
]  # fmt: skip
