"""An Equinox-style module library, annotated: modules are frozen dataclasses
registered as pytrees, filtered by a predicate into arrays and the rest."""
import dataclasses
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array
from jaxtyped.typing import ArrayLike, DTypeLike

P = ParamSpec("P")
R = TypeVar("R")
M = TypeVar("M")


def is_array(element: object) -> bool:
    return isinstance(element, (np.ndarray, np.generic, Array))


def is_inexact_array(element: object) -> bool:
    return isinstance(element, Array) and jnp.issubdtype(element.dtype, jnp.inexact)


def partition(tree: M, predicate: Callable[[Any], bool]) -> tuple[M, M]:
    dynamic = jt.tree_util.tree_map(lambda x: x if predicate(x) else None, tree)
    static = jt.tree_util.tree_map(lambda x: None if predicate(x) else x, tree)
    return dynamic, static


def combine(*trees: M) -> M:
    def first_not_none(*xs: Any) -> Any:
        return next((x for x in xs if x is not None), None)

    first, *rest = trees
    return jt.tree_util.tree_map(first_not_none, first, *rest, is_leaf=lambda x: x is None)


def filter_jit(fun: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fun)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        return jt.jit(fun)(*args, **kwargs)

    return wrapper


@jt.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Linear:
    weight: Array
    bias: Array
    in_features: int = dataclasses.field(metadata={"static": True})
    out_features: int = dataclasses.field(metadata={"static": True})

    @classmethod
    def init(cls, in_features: int, out_features: int, *, key: Array, dtype: DTypeLike = jnp.float32) -> "Linear":
        wkey, bkey = jt.random.split(key, 2)
        lim = 1 / np.sqrt(in_features)
        weight = jt.random.uniform(wkey, (out_features, in_features), dtype, minval=-lim, maxval=lim)
        bias = jt.random.uniform(bkey, (out_features,), dtype, minval=-lim, maxval=lim)
        return cls(weight, bias, in_features, out_features)

    def __call__(self, x: Array) -> Array:
        return self.weight @ x + self.bias


@jt.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class MLP:
    layers: tuple[Linear, ...]
    activation: Callable[[Array], Array] = dataclasses.field(metadata={"static": True})

    @classmethod
    def init(cls, sizes: list[int], *, key: Array) -> "MLP":
        keys = jt.random.split(key, len(sizes) - 1)
        layers = tuple(Linear.init(i, o, key=k) for i, o, k in zip(sizes[:-1], sizes[1:], keys))
        return cls(layers, jt.nn.relu)

    def __call__(self, x: Array) -> Array:
        for layer in self.layers[:-1]:
            x = self.activation(layer(x))
        return self.layers[-1](x)


def loss(model: MLP, x: Array, y: Array) -> Array:
    pred = jt.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


@filter_jit
def train_step(model: MLP, x: Array, y: Array, lr: float) -> tuple[MLP, Array]:
    value, grads = jt.value_and_grad(loss)(model, x, y)
    new_model = jt.tree_util.tree_map(lambda p, g: p - lr * g, model, grads)
    return new_model, value


def count_params(model: MLP) -> int:
    return sum(int(np.prod(x.shape)) for x in jt.tree_util.tree_leaves(model) if is_array(x))


def cast_floating(tree: M, dtype: DTypeLike) -> M:
    return jt.tree_util.tree_map(lambda x: x.astype(dtype) if is_inexact_array(x) else x, tree)


def to_numpy(x: ArrayLike) -> np.ndarray[Any, np.dtype[Any]]:
    return np.asarray(x)


key = jt.random.key(0)
model = MLP.init([2, 8, 1], key=key)
xs = jt.random.normal(jt.random.fold_in(key, 1), (32, 2))
ys = jnp.sum(xs, axis=1, keepdims=True)
first = float(loss(model, xs, ys))
for _ in range(30):
    model, value = train_step(model, xs, ys, 0.05)
assert float(loss(model, xs, ys)) < first
assert count_params(model) == 2 * 8 + 8 + 8 + 1
half = cast_floating(model, jnp.float16)
assert half.layers[0].weight.dtype == jnp.float16
dyn, stat = partition(model, is_inexact_array)
assert jt.tree_util.tree_structure(combine(dyn, stat)) == jt.tree_util.tree_structure(model)
spec = jt.eval_shape(model, jt.ShapeDtypeStruct((2,), jnp.float32))
assert spec.shape == (1,)
assert to_numpy(model(xs[0])).shape == (1,)
reveal_type(train_step)
reveal_type(half)
reveal_type(spec)
reveal_type(jt.grad(loss)(model, xs, ys))
