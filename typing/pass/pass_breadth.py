"""The breadth family type-checks and runs: top-level names (jacobian,
typeof, custom_gradient, closure_convert, linear_transpose, named_call,
named_scope, the config states, make_array_from_callback), the newer
tree utilities and scipy.special functions."""

import dataclasses
from collections.abc import Callable

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special
from jaxtyped.typing import Array

x = jnp.arange(3.0)
jac = jt.jacobian(jnp.sin)(x)
aval = jt.typeof(x)
print(aval.shape, aval.dtype, jt.default_backend(), jt.float0)


def square_with_rule(v: Array) -> tuple[Array, Callable[[Array], Array]]:
    def rule(g: Array) -> Array:
        return 3.0 * g

    return v * v, rule


def double(v: Array) -> Array:
    return 2.0 * v


def add(a: int, b: int) -> int:
    return a + b


square = jt.custom_gradient(square_with_rule)
squared: Array = square(x)
converted, consts = jt.closure_convert(jnp.sin, 1.0)
transpose = jt.linear_transpose(double, x)
cotangents: tuple[Array, ...] = transpose(x)
named = jt.named_call(jnp.cos, name="cosine")
with jt.named_scope("block"), jt.enable_x64(False), jt.debug_nans(True), jt.default_matmul_precision("highest"):
    y = named(x)
flag: bool = jt.debug_nans.value
with jt.softmax_custom_jvp(True):
    own_rule: bool = jt.config.jax_softmax_custom_jvp
composition: bool = jt.softmax_custom_jvp.value
jt.config.update("jax_softmax_custom_jvp", False)
sharding = jt.sharding.SingleDeviceSharding(jt.devices()[0])
data = np.arange(4.0, dtype=np.float32)
made = jt.make_array_from_callback((4,), sharding, lambda index: data[index])
local = jt.make_array_from_process_local_data(sharding, data)
alive = jt.live_arrays()
same = jt.copy_to_host_async({"x": x})
indices: list[int] = jt.process_indices()
info: str = jt.print_environment_info(return_string=True)

add_one = jt.tree_util.Partial(jnp.add, 1.0)
broadcast = jt.tree.broadcast(1, [2, 3])
total: int = jt.tree.reduce_associative(add, [1, 2, 3])
children, aux = jt.tree_util.flatten_one_level({"a": 1})
is_node: bool = jt.tree_util.is_tree_node(tuple)


@jt.tree_util.register_static
class Mode(str):
    pass


@jt.tree_util.register_dataclass
@dataclasses.dataclass
class Op:
    v: Array
    name: str = jt.tree.static(default="add")


values = [special.beta(1.0, 2.0), special.loggamma(x), special.rel_entr(x, x), special.kl_div(x, 1.0)]
values += [special.poch(x, 2.0), special.comb(5, 2), special.boxcox(x, 0.5), special.boxcox1p(x, 0.0)]

broadcast_full = jt.tree_util.tree_broadcast({"a": 1}, {"a": [1, 2]})
total_util: int = jt.tree_util.tree_reduce_associative(add, [1, 2, 3])
keyed_children, keyed_aux = jt.tree_util.flatten_one_level_with_keys([1, 2])


@jt.tree_util.register_pytree_with_keys_class
class Pair:
    def __init__(self, a: Array, b: Array) -> None:
        self.a, self.b = a, b

    def tree_flatten_with_keys(self) -> tuple[tuple[tuple[jt.tree_util.GetAttrKey, Array], ...], None]:
        return ((jt.tree_util.GetAttrKey("a"), self.a), (jt.tree_util.GetAttrKey("b"), self.b)), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: tuple[Array, Array]) -> "Pair":
        return cls(*children)


class Level(str):
    pass


StaticLevel = jt.tree_util.register_static(Level)
values += [special.erfcx(x), special.bernoulli(4)]

import jaxtyped.scipy.stats as stats  # noqa: E402  # the stats distributions

densities = [stats.uniform.pdf(x), stats.expon.logpdf(x, 0.0, 2.0), stats.laplace.cdf(x), stats.logistic.ppf(0.5)]
densities += [stats.cauchy.isf(0.25), stats.gamma.logpdf(x, 2.0), stats.t.pdf(x, 3.0), stats.poisson.pmf(2, 1.5)]
densities += [stats.bernoulli.logpmf(1, 0.3), stats.bernoulli.cdf(0, 0.3)]
