"""Layer-library internals: pytree registration in its several forms (static
classes, keyed nodes, keyed classes), initializers drawn with orthogonal and
Rademacher samples, a transposed convolution, attention through
jax.nn.dot_product_attention, lax building blocks (clamp, iota,
broadcast_in_dim, dynamic_update_index_in_dim), and data-parallel helpers
(a sharding constraint, a ring shift with ppermute under shard_map)."""
import dataclasses
import functools
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.sharding import NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class Activation:
    name: str = "relu"

    def __call__(self, x):
        return jnp.maximum(x, 0.0) if self.name == "relu" else jnp.tanh(x)


jt.tree_util.register_static(Activation)


class Linear:
    def __init__(self, weight, bias, act=Activation()):
        self.weight = weight
        self.bias = bias
        self.act = act

    def __call__(self, x):
        return self.act(x @ self.weight + self.bias)


def flatten_linear(layer):
    children = ((jt.tree_util.GetAttrKey("weight"), layer.weight), (jt.tree_util.GetAttrKey("bias"), layer.bias))
    return children, layer.act


def unflatten_linear(act, children):
    weight, bias = children
    return Linear(weight, bias, act)


jt.tree_util.register_pytree_with_keys(Linear, flatten_linear, unflatten_linear)


@jt.tree_util.register_pytree_with_keys_class
class Scale:
    def __init__(self, factor):
        self.factor = factor

    def tree_flatten_with_keys(self):
        return ((jt.tree_util.GetAttrKey("factor"), self.factor),), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def __call__(self, x):
        return self.factor * x


def init_linear(key, n_in, n_out):
    w_key, s_key = jt.random.split(key)
    weight = jt.nn.initializers.orthogonal()(w_key, (n_in, n_out))
    signs = jt.random.rademacher(s_key, (n_out,), dtype=jnp.float32)
    return Linear(weight, 0.01 * signs)


key = jt.random.key(0)
layer = init_linear(key, 4, 4)
model = [layer, Scale(jnp.float32(2.0))]


def apply(model, x):
    for block in model:
        x = block(x)
    return x


x = jnp.ones((2, 4))
y = jt.jit(apply)(model, x)
reveal_type(y)
paths = [jt.tree_util.keystr(p) for p, _ in jt.tree_util.tree_flatten_with_path(model)[0]]
assert paths == ["[0].weight", "[0].bias", "[1].factor"] and y.shape == (2, 4)
q = jt.random.orthogonal(key, 3)
assert jnp.allclose(q @ q.T, jnp.eye(3), atol=1e-5)
again = jt.random.clone(key)
assert jnp.array_equal(jt.random.key_data(again), jt.random.key_data(key))

grads = jt.grad(lambda m: jnp.sum(apply(m, x) ** 2))(model)
assert isinstance(grads[0], Linear) and grads[0].weight.shape == (4, 4)
total = jt.tree_util.tree_reduce_associative(lambda a, b: a + b, [jnp.sum(g) for g in jt.tree.leaves(grads)])
reveal_type(total)
pair = jt.tree_util.treedef_tuple([jt.tree.structure(1), jt.tree.structure((2, 3))])
assert pair.num_leaves == 3

# a transposed convolution (an upsampling decoder layer), NHWC as Flax keeps it
images = jnp.ones((1, 4, 4, 2))
kernel = jnp.ones((3, 3, 2, 5))
up = lax.conv_transpose(images, kernel, strides=(2, 2), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
reveal_type(up)
assert up.shape == (1, 8, 8, 5)
pads = lax.padtype_to_pads((4, 4), (3, 3), (1, 1), "SAME")
assert list(pads) == [(1, 1), (1, 1)]

# attention through the library's fused entry point
q_, k_, v_ = (jnp.ones((2, 5, 4, 8)) for _ in range(3))
attended = jt.nn.dot_product_attention(q_, k_, v_, is_causal=True)
reveal_type(attended)
assert attended.shape == (2, 5, 4, 8)
gates = jt.nn.sparse_sigmoid(jnp.linspace(-2.0, 2.0, 5))
assert float(gates[0]) == 0.0 and float(gates[-1]) == 1.0


# lax building blocks, as a decoding loop writes them
def decode_step(cache, step, token):
    cache = lax.dynamic_update_index_in_dim(cache, token, step, axis=0)
    window = lax.dynamic_slice_in_dim(cache, jnp.maximum(step - 1, 0), 2, axis=0)
    return cache, window


cache = jnp.zeros((4, 3))
cache, window = decode_step(cache, 1, jnp.ones(3))
positions = lax.iota(jnp.int32, 4)
clipped = lax.clamp(0.0, jnp.linspace(-1.0, 2.0, 4), 1.0)
bias = lax.broadcast_in_dim(jnp.arange(3.0), (2, 3), (1,))
tiled = lax.broadcast(jnp.arange(3.0), (2,))
finite = lax.is_finite(jnp.array([1.0, jnp.inf]))
reveal_type(window)
reveal_type(positions)
reveal_type(finite)
assert window.shape == (2, 3) and float(cache[1, 0]) == 1.0 and positions.tolist() == [0, 1, 2, 3]
assert float(clipped.max()) == 1.0 and bias.shape == (2, 3) and tiled.shape == (2, 3)
assert finite.tolist() == [True, False] and lax.broadcast_shapes((2, 1), (1, 3)) == (2, 3)
spectrum = jnp.fft.fft(jnp.arange(4.0))
assert lax.real(spectrum).shape == (4,) and lax.imag(spectrum).dtype == jnp.float32
assert bool(jnp.all(lax.ge(positions, 0)))

# data parallelism over every device there is
n = jt.device_count()
mesh = jt.make_mesh((n,), ("data",))
batch = jnp.arange(n * 2.0).reshape(n, 2)
with jt.set_mesh(mesh):
    placed = jt.device_put(batch, NamedSharding(mesh, P("data")))
    constrained = jt.jit(lambda b: lax.with_sharding_constraint(b * 2, NamedSharding(mesh, P("data"))))(placed)
reveal_type(constrained)
assert constrained.shape == (n, 2)


@functools.partial(jt.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"))
def ring_shift(block):
    return lax.ppermute(block, "data", [(i, (i + 1) % n) for i in range(n)])


shifted = ring_shift(placed)
reveal_type(shifted)
assert np.allclose(np.asarray(shifted), np.roll(np.asarray(batch), 1, axis=0))
