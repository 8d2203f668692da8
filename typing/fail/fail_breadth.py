"""Misuse of the breadth family both checkers reject."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special
import jaxtyped.scipy.stats as stats

x = jnp.ones(3)

jt.typeof("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.named_scope(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.named_call(jnp.sin, name=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.enable_x64("yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.softmax_custom_jvp("yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.tree_util.is_tree_node(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.make_array_from_callback((4,), "cpu", lambda index: x)  # expect: mypy[arg-type] pyright[reportArgumentType]
special.beta("a", 1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
special.comb(5, 2, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
name: str = special.loggamma(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.tree_util.flatten_one_level()  # expect: mypy[call-arg] pyright[reportCallIssue]
jt.tree_util.flatten_one_level_with_keys([1], 2)  # expect: mypy[call-arg] pyright[reportCallIssue]
jt.tree_util.register_pytree_with_keys_class(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.tree_util.register_static([1])  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.tree_util.tree_broadcast(1, [1], is_leaf=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.tree_util.tree_reduce_associative(3, [1])  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
special.boxcox(x, "a")  # expect: mypy[arg-type] pyright[reportArgumentType]
special.boxcox1p("a", 0.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
special.kl_div(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
special.poch(x, None)  # expect: mypy[arg-type] pyright[reportArgumentType]
special.rel_entr(x, x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
special.erfcx("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
special.bernoulli(2.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
stats.gamma.pdf(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
stats.uniform.cdf(x, scale="wide")  # expect: mypy[arg-type] pyright[reportArgumentType]
stats.bernoulli.cdf(1, 0.5, 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
