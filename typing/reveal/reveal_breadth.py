"""Result types of the breadth family: top-level functions return Arrays,
avals, tuples of Arrays or the function they were given; config states read
their value types; tree utilities and scipy.special functions."""

from collections.abc import Callable, Hashable
from typing import Literal

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special
import jaxtyped.scipy.stats as stats
from jaxtyped.core import ShapedArray
from jaxtyped.typing import Array


def check(x: Array, f: Callable[[Array], Array]) -> None:
    assert_type(jt.typeof(x), ShapedArray)
    assert_type(jt.default_backend(), str)
    assert_type(jt.named_call(f, name="f"), Callable[[Array], Array])
    assert_type(jt.linear_transpose(f, x)(x), tuple[Array, ...])
    assert_type(jt.make_array_from_process_local_data(jt.sharding.SingleDeviceSharding(jt.devices()[0]), x), Array)
    assert_type(jt.live_arrays(), list[Array])
    assert_type(jt.copy_to_host_async(x), Array)
    assert_type(jt.process_indices(), list[int])
    assert_type(jt.print_environment_info(), None)
    assert_type(jt.print_environment_info(return_string=True), str)
    assert_type(jt.enable_x64.value, bool)
    assert_type(jt.numpy_rank_promotion.value, Literal["allow", "warn", "raise"])
    assert_type(jt.tree_util.is_tree_node(list), bool)
    assert_type(jt.tree_util.flatten_one_level([x]), tuple[list[object], Hashable])
    assert_type(jt.tree.reduce_associative(jnp.add, [x, x]), Array)
    assert_type(special.beta(x, 2.0), Array)
    assert_type(special.loggamma(x), Array)
    assert_type(special.rel_entr(x, x), Array)
    assert_type(special.kl_div(x, x), Array)
    assert_type(special.poch(x, 1.0), Array)
    assert_type(special.comb(x, 2, repetition=True), Array)
    assert_type(special.boxcox(x, 0.0), Array)
    assert_type(special.boxcox1p(x, 0.0), Array)
    assert_type(special.erfcx(x), Array)
    assert_type(special.bernoulli(4), Array)


class Box:
    def tree_flatten_with_keys(self) -> tuple[tuple[()], None]:
        return (), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: tuple[()]) -> "Box":
        return cls()


class Tag(str):
    pass


def check_trees(x: Array) -> None:
    assert_type(jt.tree_util.tree_broadcast(1, [x, x]), object)  # a pytree of the prefix's leaves
    assert_type(jt.tree_util.tree_reduce_associative(jnp.add, [x, x]), Array)
    assert_type(jt.tree_util.flatten_one_level_with_keys([x]), tuple[list[tuple[Hashable, object]], Hashable])
    assert_type(jt.tree_util.register_pytree_with_keys_class(Box), type[Box])
    assert_type(jt.tree_util.register_static(Tag), type[Tag])


def check_stats(x: Array) -> None:
    assert_type(stats.uniform.logpdf(x, 0.0, 1.0), Array)
    assert_type(stats.expon.ppf(0.5), Array)
    assert_type(stats.laplace.pdf(x), Array)
    assert_type(stats.logistic.isf(x), Array)
    assert_type(stats.cauchy.logsf(x), Array)
    assert_type(stats.gamma.sf(x, 2.0), Array)
    assert_type(stats.t.logpdf(x, 4.0), Array)
    assert_type(stats.poisson.cdf(x, 2.0), Array)
    assert_type(stats.bernoulli.ppf(x, 0.5), Array)
