"""Scientific computing in annotated code: an ODE solved with odeint, a
minimization by gradient descent in a while_loop, distributions from
scipy.stats, quadrature, interpolation, polynomial fits and special
functions."""
from typing import NamedTuple, reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy as jsp
from jaxtyped import Array
from jaxtyped.experimental.ode import odeint


class Fit(NamedTuple):
    params: Array
    loss: Array
    steps: Array


def lotka_volterra(y: Array, t: Array, alpha: float, beta: float) -> Array:
    prey, predator = y[0], y[1]
    return jnp.stack([alpha * prey - beta * prey * predator, beta * prey * predator - predator])


def simulate(y0: Array, ts: Array) -> Array:
    return odeint(lotka_volterra, y0, ts, 1.0, 0.5)


def rosenbrock(p: Array) -> Array:
    return jnp.sum(100.0 * (p[1:] - p[:-1] ** 2) ** 2 + (1 - p[:-1]) ** 2)


def fit(learning_rate: float = 1e-3, tol: float = 1e-2) -> Fit:
    def keep_going(state: Fit) -> Array:
        return (state.loss > tol) & (state.steps < 20_000)

    def step(state: Fit) -> Fit:
        params = state.params - learning_rate * jt.grad(rosenbrock)(state.params)
        return Fit(params, rosenbrock(params), state.steps + 1)

    start = jnp.zeros(3)
    return jt.lax.while_loop(keep_going, step, Fit(start, rosenbrock(start), jnp.array(0)))


def log_likelihood(x: Array, mu: float, sigma: float) -> Array:
    return jnp.sum(jsp.stats.norm.logpdf(x, loc=mu, scale=sigma))


def tail_probabilities(x: Array) -> tuple[Array, Array]:
    return jsp.stats.norm.sf(x), jsp.stats.expon.sf(x, scale=2.0)


def student_t_log_density(x: Array, df: float) -> Array:
    return jsp.stats.t.logpdf(x, df=df)


def area_under(xs: Array, ys: Array) -> Array:
    return jnp.trapezoid(ys, xs)


def resample(xs: Array, ys: Array, grid: Array) -> Array:
    return jnp.interp(grid, xs, ys)


def quadratic_fit(xs: Array, ys: Array) -> Array:
    coefficients = jnp.polyfit(xs, ys, 2)
    return jnp.polyval(coefficients, xs)


def special_values(x: Array) -> tuple[Array, Array, Array]:
    return jsp.special.gammaln(x), jsp.special.erf(x), jsp.special.xlogy(x, x)


ts = jnp.linspace(0.0, 2.0, 21)
trajectory = simulate(jnp.array([1.0, 1.0]), ts)
assert trajectory.shape == (21, 2)
solution = fit()
assert float(solution.loss) <= 1e-2
samples = jt.random.normal(jt.random.key(0), (100,))
assert float(log_likelihood(samples, 0.0, 1.0)) < 0
normal_tail, expon_tail = tail_probabilities(jnp.array([1.0, 2.0]))
assert float(normal_tail[0]) < 0.2 and float(expon_tail[1]) < 0.4
assert student_t_log_density(jnp.zeros(2), 3.0).shape == (2,)
xs = jnp.linspace(0.0, 1.0, 11)
assert abs(float(area_under(xs, xs**2)) - 1 / 3) < 1e-2
assert resample(xs, xs**2, jnp.array([0.5])).shape == (1,)
np.testing.assert_allclose(quadratic_fit(xs, xs**2), xs**2, atol=1e-4)
gamma_ln, erf, xlogx = special_values(jnp.array([0.5, 2.0]))
assert gamma_ln.shape == (2,)
grad_ll = jt.grad(log_likelihood, argnums=1)(samples, 0.0, 1.0)
reveal_type(trajectory)
reveal_type(solution)
reveal_type(grad_ll)
reveal_type(special_values(xs))
