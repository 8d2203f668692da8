"""Misuse of the gamma family and counting distributions of jaxtyped.random
that both checkers reject: strings or None for parameters, shapes and
dtypes, missing parameters, misspelt keywords, and results used as Python
numbers."""

import jaxtyped.random as jrandom

key = jrandom.key(0)

jrandom.gamma(key)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.gamma(key, "1.0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.gamma(key, 1.0, "3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.gamma(key, 1.0, (2,), 3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.loggamma(key, None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.beta(key, 1.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.dirichlet(key, alpha="a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.chisquare(key, 2.0, shape=2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.t(key, df=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.f(key, 1.0, dfden="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.poisson(key, lam=1.0, rate=2.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.binomial(key, 5, "p")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.geometric(key, 0.5, dtype=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
count: int = jrandom.poisson(key, 3.0)  # expect: mypy[assignment] pyright[reportAssignmentType]
