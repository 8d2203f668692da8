"""The integrals, Bessel and hypergeometric functions of
jaxtyped.scipy.special type-check and run: arrays and Python scalars in,
an Array (a pair of Arrays for sici and fresnel) out."""

import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special
from jaxtyped.typing import Array

x = jnp.linspace(0.1, 0.9, 3)
values: list[Array] = [special.exp1(x), special.expi(x), special.expn(2, x), special.spence(x), special.dawsn(x)]
values += [special.owens_t(x, 0.5), special.bessel_jn(x, v=2), special.hyp1f1(1.0, 2.0, x)]
values += [special.hyp2f1(0.5, 1.0, 2.0, x), special.wofz(x + 1j), special.sph_harm_y(2, 1, x, 0.3, n_max=2)]
si, ci = special.sici(x)
s, c = special.fresnel(0.5)
values += [si, ci, s, c]
assert [v.shape for v in values] == [(3,)] * 6 + [(3, 3)] + [(3,)] * 4 + [(3,), (3,), (), ()]  # bessel_jn: orders 0..v
