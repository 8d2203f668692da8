"""The polynomial functions that need eigenvalues or singular values
(``roots``, ``poly`` of a matrix, ``polyfit(full=True)``) used as NumPy users
write them; the overloads give each result structure its own type."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

p = jnp.array([1.0, -3.0, 2.0])
found: Array = jnp.roots(p)


def roots_traced(q: Array) -> Array:
    return jnp.roots(q, strip_zeros=False)


traced: Array = jt.jit(roots_traced)(p)
assert np.allclose(np.sort_complex(np.asarray(found)), [1.0, 2.0], atol=1e-5)
assert np.allclose(np.sort_complex(np.asarray(traced)), [1.0, 2.0], atol=1e-5)

characteristic: Array = jnp.poly(jnp.array([[2.0, 0.0], [0.0, 3.0]]))
assert np.allclose(np.asarray(characteristic), [1.0, -5.0, 6.0], atol=1e-5)

x = jnp.linspace(-1.0, 2.0, 7)
y = 2 * x**2 - x + 0.5
coefficients, residuals, rank, singular_values, rcond = jnp.polyfit(x, y, 2, full=True)
same_fit, _, _, _, _ = jnp.polyfit(x, y, 2, None, True)
fit, covariance = jnp.polyfit(x, y, 2, cov=True)
plain: Array = jnp.polyfit(x, y, 2)
assert int(rank) == 3 and singular_values.shape == (3,) and residuals.shape == (1,)
assert np.allclose(np.asarray(coefficients), [2.0, -1.0, 0.5], atol=1e-4)
assert np.allclose(np.asarray(same_fit), np.asarray(plain), atol=1e-4)
assert covariance.shape == (3, 3) and fit.shape == (3,) and float(rcond) > 0
