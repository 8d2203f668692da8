"""``Compiled`` is called as the jitted function (``Compiled[P, R]``):
keyword arguments, static arguments (passed again, or left out as JAX
expects), and methods bound to their instance; ``Traced.out_info``.

Results are compared with the jitted function's own and, where JAX accepts
the same call, with JAX's compiled function.
"""

import functools
from typing import Any, NamedTuple

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import JaxtypedTypeError
from jaxtyped.stages import Compiled
from jaxtyped.typing import Array

X = np.array([0.5, -1.0, 2.0], np.float32)


def jax_module() -> Any:
    return pytest.importorskip("jax")


def scaled(x: Array, n: int, *, shift: float = 0.0) -> Array:
    return jnp.sin(x) * n + shift


def scaled_any(x: Any, n: int, *, shift: float = 0.0) -> Any:
    return jax_module().numpy.sin(x) * n + shift


def host(x: object) -> np.ndarray[Any, Any]:
    value: np.ndarray[Any, Any] = np.asarray(x)
    return value


def test_keyword_arguments_as_lowered() -> None:
    jax = jax_module()
    compiled = jt.jit(scaled).lower(jnp.asarray(X), 2, shift=1.5).compile()
    theirs = jax.jit(scaled_any).lower(X, 2, shift=1.5).compile()
    np.testing.assert_allclose(host(compiled(jnp.asarray(X), 3, shift=0.5)), host(theirs(X, 3, shift=0.5)), rtol=1e-6)
    with pytest.raises(JaxtypedTypeError, match=r"structure PyTreeDef\(\(\(\*, \*\), \{\}\)\) but compiled for"):
        compiled(jnp.asarray(X), 3)  # shift was dynamic when lowered: it must be passed


def test_static_arguments_may_be_passed_again_or_left_out() -> None:
    jax = jax_module()
    jitted = jt.jit(scaled, static_argnums=1)
    compiled: Compiled[[Array, int], Array] = jitted.lower(jnp.asarray(X), 4).compile()
    theirs: Any = jax.jit(scaled_any, static_argnums=1).lower(X, 4).compile()
    expected = host(theirs(X))  # JAX's form: the static argument left out
    np.testing.assert_allclose(host(compiled(jnp.asarray(X), 4)), expected, rtol=1e-6)
    np.testing.assert_allclose(host(compiled(jnp.asarray(X))), expected, rtol=1e-6)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue, reportUnknownArgumentType]  # JAX's form, outside the typed signature
    np.testing.assert_allclose(host(compiled(jnp.asarray(X), 4)), host(jitted(jnp.asarray(X), 4)), rtol=1e-6)
    with pytest.raises(JaxtypedTypeError, match="static argument 1 is 5 but the function was compiled for 4"):
        compiled(jnp.asarray(X), 5)
    with pytest.raises(JaxtypedTypeError, match="static argument 1 is 4.0"):
        compiled(jnp.asarray(X), 4.0)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # a float where an int was compiled


def test_static_keyword_arguments() -> None:
    compiled = jt.jit(scaled, static_argnames="shift").lower(jnp.asarray(X), 2, shift=1.0).compile()
    expected = host(scaled(jnp.asarray(X), 2, shift=1.0))
    np.testing.assert_allclose(host(compiled(jnp.asarray(X), 2, shift=1.0)), expected, rtol=1e-6)
    np.testing.assert_allclose(host(compiled(jnp.asarray(X), 2)), expected, rtol=1e-6)
    with pytest.raises(JaxtypedTypeError, match="static argument 'shift' is 2.0"):
        compiled(jnp.asarray(X), 2, shift=2.0)


class Affine(NamedTuple):
    """A pytree with a jitted method: ``self`` is a dynamic argument."""

    weight: Array

    @jt.jit
    def apply(self, x: Array) -> Array:
        return self.weight * x


class Scaler:
    """A hashable object with a jitted method: ``self`` is static."""

    def __init__(self, factor: float) -> None:
        self.factor = factor

    def __hash__(self) -> int:
        return hash(self.factor)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scaler) and other.factor == self.factor

    @functools.partial(jt.jit, static_argnums=0)
    def apply(self, x: Array) -> Array:
        return jnp.sin(x) * self.factor


def test_bound_methods_keep_their_instance() -> None:
    affine = Affine(jnp.asarray(np.float32(3.0)))
    x = jnp.asarray(X)
    compiled = affine.apply.lower(x).compile()
    np.testing.assert_allclose(host(compiled(x)), 3.0 * X, rtol=1e-6)
    scaler = Scaler(2.0)
    np.testing.assert_allclose(host(scaler.apply.lower(x).compile()(x)), host(scaler.apply(x)), rtol=1e-6)


def test_out_info() -> None:
    x = jnp.asarray(X)
    info = jt.jit(scaled).trace(x, 2).out_info
    assert isinstance(info, jt.ShapeDtypeStruct)
    assert (info.shape, info.dtype) == ((3,), np.dtype(np.float32))
    def pair_of(v: Array) -> tuple[Array, list[Array]]:
        return v, [v.sum()]

    pair = jt.jit(pair_of).trace(x).out_info
    assert repr(pair) == "(ShapeDtypeStruct(shape=(3,), dtype=float32), [ShapeDtypeStruct(shape=(), dtype=float32)])"
