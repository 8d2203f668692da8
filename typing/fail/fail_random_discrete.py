"""Misuse of the discrete and multivariate distributions of
jaxtyped.random: a list as a dtype, an int where JAX wants a
sequence, non-integer sizes, keyword-only arguments passed positionally
and out_sharding (one device)."""

import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom

key = jrandom.key(0)
p = jnp.array([0.5, 0.5])

jrandom.randint(key, (2,), 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.randint(key, (2,), 0, 5, dtype=[1])  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.choice(key, 5, 3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.permutation(key, 5, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.categorical(key, p, mode=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.multinomial(key, 10, p, (2,))  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.orthogonal(key, 2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.ball(key, "3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.multivariate_normal(key, p, jnp.eye(2), method=2)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.randint(key, (2,), 0, 5, out_sharding="x")  # expect: mypy[arg-type] pyright[reportArgumentType]
