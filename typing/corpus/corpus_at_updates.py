"""NumPy-style code: .at[] updates, boolean masks via where, concatenation and sorting."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def histogram(values, bins):
    idx = jnp.clip((values * bins).astype(jnp.int32), 0, bins - 1)
    return jnp.zeros(bins).at[idx].add(1.0)


def one_step_of_life(board):
    padded = jnp.pad(board, 1, mode="wrap")
    neighbours = sum(
        padded[1 + di : 1 + di + board.shape[0], 1 + dj : 1 + dj + board.shape[1]]
        for di in (-1, 0, 1)
        for dj in (-1, 0, 1)
        if (di, dj) != (0, 0)
    )
    return jnp.where((neighbours == 3) | ((board == 1) & (neighbours == 2)), 1, 0)


values = jnp.array([0.05, 0.15, 0.17, 0.95, 0.5])
hist = histogram(values, 4)
assert jnp.allclose(hist, jnp.array([3.0, 0.0, 1.0, 1.0]))
board = jnp.zeros((5, 5), dtype=jnp.int32).at[2, 1:4].set(1)
nxt = jt.jit(one_step_of_life)(board)
assert int(nxt.sum()) == 3 and int(nxt[1, 2]) == 1
x = jnp.arange(10.0)
x = x.at[::2].multiply(-1.0)
order = jnp.argsort(x)
top = x[order[-3:]]
stacked = jnp.stack([x, x**2], axis=1)
clipped = jnp.where(x < 0, 0.0, x)
reveal_type(hist)
reveal_type(nxt)
reveal_type(top)
reveal_type(stacked)
