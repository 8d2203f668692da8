"""A class registered with register_pytree_node_class, passed through jit and vmap."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


@jt.tree_util.register_pytree_node_class
class Gaussian:
    def __init__(self, mean, log_std):
        self.mean = mean
        self.log_std = log_std

    def tree_flatten(self):
        return (self.mean, self.log_std), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def log_prob(self, x):
        z = (x - self.mean) / jnp.exp(self.log_std)
        return -0.5 * z**2 - self.log_std - 0.5 * jnp.log(2 * jnp.pi)


@jt.jit
def total_log_prob(dist, xs):
    return jnp.sum(dist.log_prob(xs))


dist = Gaussian(jnp.array(0.5), jnp.array(0.0))
xs = jnp.linspace(-1.0, 1.0, 5)
lp = total_log_prob(dist, xs)
g = jt.grad(total_log_prob)(dist, xs)
assert isinstance(g, Gaussian)
many = Gaussian(jnp.zeros(3), jnp.zeros(3))
per = jt.vmap(lambda d: d.log_prob(1.0))(many)
assert per.shape == (3,)
reveal_type(lp)
reveal_type(g)
reveal_type(per)
