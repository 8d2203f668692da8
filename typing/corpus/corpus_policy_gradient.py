"""REINFORCE on a 3-armed bandit: categorical sampling, log-probabilities and a score-function gradient."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp

REWARDS = jnp.array([0.1, 0.5, 0.9])


def surrogate(logits, actions, rewards):
    logp = jt.nn.log_softmax(logits)[actions]
    baseline = rewards.mean()
    return -jnp.mean(logp * (rewards - baseline))


@jt.jit
def train_step(logits, key):
    actions = jt.random.categorical(key, logits, shape=(32,))
    rewards = REWARDS[actions]
    g = jt.grad(surrogate)(logits, actions, rewards)
    return logits - 0.5 * g, rewards.mean()


logits = jnp.zeros(3)
key = jt.random.PRNGKey(0)
history = []
for _ in range(10):
    key, sub = jt.random.split(key)
    logits, avg = train_step(logits, sub)
    history.append(avg)
probs = jt.nn.softmax(logits)
assert int(jnp.argmax(probs)) == 2
reveal_type(logits)
reveal_type(probs)
reveal_type(history)
