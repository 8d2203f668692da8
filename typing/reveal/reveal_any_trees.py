"""A tree typed ``Any`` (Optax annotates updates and states so; an
unannotated function's result is Any in mypy) gives ``Any`` back, as JAX's
functions do: the user's own ``Any`` in, ``Any`` out, never pyright's
Unknown nor an ``object`` the next line cannot use (Note [Any in, Any out]
in api_tree). The same for a loop's carry and a callback's result types."""

from typing import Any

from typing_extensions import assert_type

import jaxtyped as jt


def check(updates: Any, state: Any) -> None:
    assert_type(jt.tree_util.tree_leaves(updates), list[Any])
    assert_type(jt.tree.leaves(updates), list[Any])
    assert_type(jt.tree_util.tree_leaves(updates, is_leaf=lambda x: x is None), list[Any])
    assert_type(jt.tree_util.tree_unflatten(jt.tree_util.tree_structure(state), [1.0]), Any)
    assert_type(jt.device_put(state), Any)
    assert_type(jt.device_put(state, jt.devices()[0], donate=True), Any)
    assert_type(jt.device_get(state), Any)
    assert_type(jt.tree_util.tree_map(lambda u: u * 0.1, updates), Any)
    assert_type(jt.tree_util.tree_transpose(jt.tree_util.tree_structure([0, 0]), None, state), Any)
    carry, _ = jt.lax.scan(lambda c, x: (c, x), state, jt.numpy.arange(3.0))
    assert_type(carry, Any)  # was Array: carry["w"] an error in every pyright mode
    assert_type(jt.lax.fori_loop(0, 3, lambda i, s: s, state), Any)
    assert_type(jt.lax.while_loop(lambda s: True, lambda s: s, state), Any)
    # A pair or triple of Any (an unannotated function's carry) stays Any,
    # not the Array elements a pair of array-likes gets (was tuple[Array, ...]
    # in pyright: an error where the elements are dicts).
    first, _ = jt.lax.fori_loop(0, 3, lambda i, c: c, (updates, state))
    _, _, third = jt.lax.fori_loop(0, 3, lambda i, c: c, (updates, state, state))
    looped, _ = jt.lax.while_loop(lambda c: True, lambda c: c, (updates, state))
    assert_type(first, Any)
    assert_type(third, Any)
    assert_type(looped, Any)
    assert_type(jt.pure_callback(lambda: None, state), Any)
    total = sum(jt.numpy.sum(u) for u in jt.tree.leaves(updates))
    assert_type(len(jt.tree_util.tree_leaves(state)), int)
    del total
