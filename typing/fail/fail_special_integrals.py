"""Misuse of the integrals, Bessel and hypergeometric functions of
jaxtyped.scipy.special that both checkers reject: strings for arrays,
missing or extra arguments, a result used at the wrong type, a pair
assigned to an int."""

import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special

x = jnp.ones(3)
special.exp1("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
special.expi(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
special.expn(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
special.spence(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
pair: int = special.sici(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
name: str = special.dawsn(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
special.fresnel("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
special.owens_t(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
special.bessel_jn(x, v="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
special.hyp1f1(1.0, 2.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
special.hyp2f1(1.0, 2.0, 3.0, "x")  # expect: mypy[arg-type] pyright[reportArgumentType]
special.wofz(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
special.sph_harm_y(2, 1, x, x, n_max="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
