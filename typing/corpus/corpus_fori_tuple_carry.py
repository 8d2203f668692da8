"""fori_loop with tuple carries: power iteration, a Horner scheme, a buffer filled with dynamic slices."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def power_iteration(a, num_iters=50):
    def body(i, carry):
        v, _ = carry
        w = a @ v
        return w / jnp.linalg.norm(w), jnp.vdot(w, v)

    v0 = jnp.ones(a.shape[0]) / jnp.sqrt(a.shape[0])
    return lax.fori_loop(0, num_iters, body, (v0, jnp.float32(0.0)))


def horner(coeffs, x):
    return lax.fori_loop(0, coeffs.shape[0], lambda i, acc: acc * x + coeffs[i], jnp.zeros_like(x))


def running_windows(signal, width):
    n = signal.shape[0] - width + 1
    out = jnp.zeros((n, width), signal.dtype)

    def body(i, out):
        window = lax.dynamic_slice(signal, (i,), (width,))
        return lax.dynamic_update_slice(out, window[None, :], (i, 0))

    return lax.fori_loop(0, n, body, out)


def fib(n):
    a, _ = lax.fori_loop(0, n, lambda _, ab: (ab[1], ab[0] + ab[1]), (jnp.int32(0), jnp.int32(1)))
    return a


a = jnp.array([[2.0, 1.0], [1.0, 3.0]])
v, lam = jt.jit(power_iteration, static_argnames="num_iters")(a, num_iters=40)
assert jnp.allclose(lam, (5 + jnp.sqrt(5.0)) / 2, atol=1e-4)
assert jnp.allclose(a @ v, lam * v, atol=1e-3)

coeffs = jnp.array([1.0, -2.0, 0.5])
xs = jnp.linspace(0.0, 1.0, 4)
assert jnp.allclose(horner(coeffs, xs), jnp.polyval(coeffs, xs))
slope = jt.grad(lambda x: horner(coeffs, x))(2.0)
assert jnp.allclose(slope, 2.0)

windows = running_windows(jnp.arange(6.0), 3)
assert windows.shape == (4, 3) and float(windows[3, 2]) == 5.0
assert int(jt.jit(fib, static_argnums=0)(10)) == 55

# sensitivities to the evaluation points only (argnums=1), the coefficients held fixed
d_points = jt.grad(lambda c, x: jnp.sum(c[0] * x**2 + c[1] * x), argnums=1)(coeffs, xs)
assert jnp.allclose(d_points, 2 * xs - 2.0)
jac_points = jt.jacfwd(lambda c, x: jnp.polyval(c, x) * c[0], argnums=1)(coeffs, xs)
assert jac_points.shape == (4, 4)
primal_out, tangent_out = jt.jvp(horner, (coeffs, xs), (jnp.zeros(3), jnp.ones(4)))
out, lin = jt.linearize(lambda x: horner(coeffs, x), xs)
assert jnp.allclose(lin(jnp.ones(4)), tangent_out)
reveal_type(v)
reveal_type(lam)
reveal_type(windows)
reveal_type(tangent_out)
reveal_type(lin)
