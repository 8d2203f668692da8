"""Training statistics kept in refs while a jitted training step runs (the seeds' refs example)."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def make_train(x, y):
    @jt.jit
    def train(w, steps_ref, loss_sum_ref):
        for _ in range(3):
            value, g = jt.value_and_grad(loss)(w, x, y)
            w = w - 0.1 * g
            steps_ref[...] += 1
            loss_sum_ref[...] += value
        return w

    return train


x = jnp.arange(8.0).reshape(4, 2) / 8
y = x @ jnp.array([1.0, -1.0])
steps = jt.new_ref(jnp.array(0))
loss_sum = jt.new_ref(jnp.array(0.0))
train = make_train(x, y)
w = jnp.zeros(2)
w = train(w, steps, loss_sum)
w = train(w, steps, loss_sum)
assert int(steps[...]) == 6
mean_loss = loss_sum[...] / steps[...]
assert mean_loss > 0
reveal_type(w)
reveal_type(mean_loss)
