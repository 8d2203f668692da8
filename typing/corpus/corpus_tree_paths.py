"""Tree paths: weight decay masked by key path, keystr for logging, flatten/unflatten round trips, tree_all."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.tree_util import keystr


def decay_mask(params):
    # decay weight matrices only: biases and norm scales are left alone
    return jt.tree.map_with_path(lambda path, p: keystr(path).endswith("['w']"), params)


def weight_decay(params, grads, rate):
    return jt.tree.map_with_path(
        lambda path, p, g: g + rate * p if "w" in keystr(path) else g, params, grads
    )


def describe(tree):
    return {keystr(path): tuple(leaf.shape) for path, leaf in jt.tree_util.tree_flatten_with_path(tree)[0]}


def all_finite(tree):
    return jt.tree_util.tree_all(jt.tree.map(lambda x: bool(jnp.all(jnp.isfinite(x))), tree))


def flat_vector(tree):
    leaves, treedef = jt.tree.flatten(tree)
    sizes = [leaf.size for leaf in leaves]
    shapes = [leaf.shape for leaf in leaves]

    def unravel(vec):
        parts = jnp.split(vec, [sum(sizes[: i + 1]) for i in range(len(sizes) - 1)])
        return jt.tree.unflatten(treedef, [p.reshape(s) for p, s in zip(parts, shapes)])

    return jnp.concatenate([leaf.ravel() for leaf in leaves]), unravel


params = {
    "dense": {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)},
    "norm": {"scale": jnp.ones(3)},
}
grads = jt.tree.map(jnp.ones_like, params)
mask = decay_mask(params)
assert mask["dense"]["w"] and not mask["dense"]["b"] and not mask["norm"]["scale"]
decayed = weight_decay(params, grads, 0.5)
assert jnp.allclose(decayed["dense"]["w"], 1.5) and jnp.allclose(decayed["dense"]["b"], 1.0)

shapes = describe(params)
assert shapes["['dense']['w']"] == (2, 3)
assert all_finite(params) and not all_finite({"x": jnp.array([jnp.nan])})

vec, unravel = flat_vector(params)
assert vec.shape == (12,)
back = unravel(vec)
assert jt.tree.structure(back) == jt.tree.structure(params)
assert jnp.array_equal(back["dense"]["w"], params["dense"]["w"])
n_params = sum(x.size for x in jt.tree.leaves(params))
assert n_params == 12
reveal_type(mask)
reveal_type(decayed)
reveal_type(shapes)
reveal_type(vec)
reveal_type(n_params)
