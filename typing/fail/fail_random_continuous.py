"""Misuse of the continuous distributions of jaxtyped.random that both
checkers reject: strings or None for keys, shapes, dtypes and parameters,
missing parameters, misspelt keywords, and results used as Python numbers."""

import jaxtyped.random as jrandom

key = jrandom.key(0)

jrandom.uniform("key")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.uniform(key, "3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.uniform(key, (3,), 3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.uniform(key, (3,), minval="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.normal(key, shape=2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.normal(key, (2,), scale=2.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.truncated_normal(key, -1.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.truncated_normal(key, None, 1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.gumbel(key, (2,), mode=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.bernoulli(key, "0.5")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.bernoulli(key, 0.5, mode=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.pareto(key)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.double_sided_maxwell(key, 0.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.weibull_min(key, 1.0, concentration="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.triangular(key, 0.0, 1.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.generalized_normal(key, p=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.exponential(key, None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.laplace(key, (2,), "float32", scale=1.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.logistic(key, shape="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.cauchy(key, loc=1.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.rademacher(key, (2,), dtype=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.lognormal(key, sigma="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.maxwell(key, 2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.rayleigh(key)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.wald(key, mean=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
x: float = jrandom.uniform(key)  # expect: mypy[assignment] pyright[reportAssignmentType]
