"""The static types of the functions ``grad``, ``value_and_grad``,
``hessian``, ``jacfwd`` and ``jacrev`` return (layer L4).

Each class's ``__call__`` overloads compute the gradient's type from the
type ``fun`` declares for the differentiated parameter: an ``Array`` for an
array-like one (``Array``, ``float``, ``int``, ``ArrayLike``), the
parameter's own type otherwise (a dict of parameters, a NamedTuple, a
registered dataclass; for ``hessian`` a ``PyTree``; for a Jacobian the
output's type, the parameter's for an array-like output, else a
``PyTree``), and ``Any`` where fun's parameter is ``Any`` (an
unannotated ``def``, a lambda). For ``argnums=(0, 1)`` each of the two
gradients is typed so, in any mix (both ``Any`` if either parameter is
``Any``). The other parameters are fun's.

These are types for checkers only: at run time ``grad`` returns a plain
function (``isinstance`` against these classes is False), and calling the
classes' own ``__call__`` raises. mypy cannot check their overloads against
the untyped implementation (the overloads' ``self`` types), hence its one
ignore per class.

Why not ``Callable`` results, and why classes, not protocols: a checker
gives an unannotated lambda's parameters the types of the first overload of
``grad`` it tries, and pyright keeps that overload even when the lambda's
body then fails to type-check. So the first overload takes the parameter as
a type variable bound to ``Any`` (a lambda's body may pass it to a function
of a dict, or of a ``float``), which every typed function matches too, and
the gradient's type is computed afterwards, here. A protocol would let
pyright solve that type variable from the type the enclosing call expects
(``vmap(grad(lambda v: ...))``), turning the lambda's parameter into vmap's
unsolved result type; a nominal class is never the expected type, so it
does not. ``vmap`` and ``checkpoint`` return their argument's own type, so
that these classes survive them: through ``Callable[P, R]`` pyright
flattens the overloads, and ``jit`` then takes the last one's parameters
(see Note [unannotated functions] in api_grad).

Example:
    >>> import jaxtyped as jt, jaxtyped.numpy as jnp
    >>> def loss(params: dict[str, jt.Array]) -> jt.Array:
    ...     return jnp.sum(params["w"] ** 2)
    >>> jt.grad(lambda p: loss(p))({"w": jnp.ones(2)})["w"]
    Array([2., 2.], dtype=float32)
"""

from typing import Any, Generic, TypeVar, overload

from typing_extensions import ParamSpec

from jaxtyped._src.core.array import Array, ArrayLike, PyTree
from jaxtyped._src.util import Unannotated

__all__ = [
    "Gradient",
    "GradientWithAux",
    "GradientOfSecond",
    "GradientOfSecondWithAux",
    "GradientOfPair",
    "GradientOfPairWithAux",
    "ValueAndGradient",
    "ValueAndGradientWithAux",
    "ValueAndGradientOfSecond",
    "ValueAndGradientOfSecondWithAux",
    "ValueAndGradientOfPair",
    "ValueAndGradientOfPairWithAux",
    "Hessian",
    "HessianWithAux",
    "HessianMaybeWithAux",
    "HessianOfSecond",
    "HessianOfSecondWithAux",
    "HessianOfPair",
    "HessianOfPairWithAux",
    "Jacobian",
    "JacobianWithAux",
    "JacobianMaybeWithAux",
    "JacobianOfSecond",
    "JacobianOfSecondWithAux",
    "JacobianOfPair",
    "JacobianOfPairWithAux",
]


# Unannotated (a type no value has) and AnyOnly live in util, shared with the
# tree functions and control flow (Note [Any in, Any out] in api_tree).

_STATIC_ONLY = "a static type only: grad and value_and_grad return plain functions"


P = ParamSpec("P")
# The declared types of fun's first two parameters (Any for a lambda's).
D0 = TypeVar("D0", bound=Any, covariant=True)
D1 = TypeVar("D1", bound=Any, covariant=True)
AuxOut = TypeVar("AuxOut", covariant=True)
# Solved from a class's type arguments in the overloads below.
T0 = TypeVar("T0")
T1 = TypeVar("T1")
L0 = TypeVar("L0", bound=ArrayLike)
L1 = TypeVar("L1", bound=ArrayLike)
U0 = TypeVar("U0", bound=Unannotated)
U1 = TypeVar("U1", bound=Unannotated)
Aux = TypeVar("Aux")
# fun's output type (the Jacobians'), and an array-like one.
Out = TypeVar("Out", covariant=True)
R0 = TypeVar("R0")
RL0 = TypeVar("RL0", bound=ArrayLike)


class Gradient(Generic[D0, P]):
    """``grad(fun)``: the gradient of the first argument."""

    @overload
    def __call__(
        self: "Gradient[U0, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> U0: ...
    @overload
    def __call__(
        self: "Gradient[L0, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> Array: ...
    @overload
    def __call__(
        self: "Gradient[T0, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> T0: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class GradientWithAux(Generic[D0, AuxOut, P]):
    """``grad(fun, has_aux=True)``: the gradient of the first argument, with aux."""

    @overload
    def __call__(
        self: "GradientWithAux[U0, Aux, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U0, Aux]: ...
    @overload
    def __call__(
        self: "GradientWithAux[L0, Aux, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Aux]: ...
    @overload
    def __call__(
        self: "GradientWithAux[T0, Aux, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T0, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class GradientOfSecond(Generic[D0, D1, P]):
    """``grad(fun, argnums=1)``: the gradient of the second argument."""

    @overload
    def __call__(
        self: "GradientOfSecond[T0, U1, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> U1: ...
    @overload
    def __call__(
        self: "GradientOfSecond[T0, L1, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> Array: ...
    @overload
    def __call__(
        self: "GradientOfSecond[T0, T1, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> T1: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class GradientOfSecondWithAux(Generic[D0, D1, AuxOut, P]):
    """``grad(fun, argnums=1, has_aux=True)``: the gradient of the second argument, with aux."""

    @overload
    def __call__(
        self: "GradientOfSecondWithAux[T0, U1, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U1, Aux]: ...
    @overload
    def __call__(
        self: "GradientOfSecondWithAux[T0, L1, Aux, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Aux]: ...
    @overload
    def __call__(
        self: "GradientOfSecondWithAux[T0, T1, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T1, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class GradientOfPair(Generic[D0, D1, P]):
    """``grad(fun, argnums=(0, 1))``: the gradient of arguments 0 and 1."""

    # Any first (a lambda's parameters; a partly annotated def gives Any for
    # both), then each mix of array-like and other parameters.
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "GradientOfPair[U0, T1, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U0, U0]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "GradientOfPair[T0, U1, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U1, U1]: ...
    @overload
    def __call__(
        self: "GradientOfPair[L0, L1, P]", x: ArrayLike, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Array]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # both array-like: the overload before applies
        self: "GradientOfPair[L0, T1, P]", x: ArrayLike, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, T1]: ...
    @overload
    def __call__(
        self: "GradientOfPair[T0, L1, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T0, Array]: ...
    @overload
    def __call__(
        self: "GradientOfPair[T0, T1, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T0, T1]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class GradientOfPairWithAux(Generic[D0, D1, AuxOut, P]):
    """``grad(fun, argnums=(0, 1), has_aux=True)``: the gradient of arguments 0 and 1, with aux."""

    # Any first (a lambda's parameters; a partly annotated def gives Any for
    # both), then each mix of array-like and other parameters.
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "GradientOfPairWithAux[U0, T1, Aux, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[U0, U0], Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "GradientOfPairWithAux[T0, U1, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[U1, U1], Aux]: ...
    @overload
    def __call__(
        self: "GradientOfPairWithAux[L0, L1, Aux, P]", x: ArrayLike, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Array], Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # both array-like: the overload before applies
        self: "GradientOfPairWithAux[L0, T1, Aux, P]", x: ArrayLike, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, T1], Aux]: ...
    @overload
    def __call__(
        self: "GradientOfPairWithAux[T0, L1, Aux, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[T0, Array], Aux]: ...
    @overload
    def __call__(
        self: "GradientOfPairWithAux[T0, T1, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[T0, T1], Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class ValueAndGradient(Generic[D0, P]):
    """``value_and_grad(fun)``: the value and gradient of the first argument."""

    @overload
    def __call__(
        self: "ValueAndGradient[U0, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, U0]: ...
    @overload
    def __call__(
        self: "ValueAndGradient[L0, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Array]: ...
    @overload
    def __call__(
        self: "ValueAndGradient[T0, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, T0]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class ValueAndGradientWithAux(Generic[D0, AuxOut, P]):
    """``value_and_grad(fun, has_aux=True)``: the value and gradient of the first argument, with aux."""

    @overload
    def __call__(
        self: "ValueAndGradientWithAux[U0, Aux, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], U0]: ...
    @overload
    def __call__(
        self: "ValueAndGradientWithAux[L0, Aux, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], Array]: ...
    @overload
    def __call__(
        self: "ValueAndGradientWithAux[T0, Aux, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], T0]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class ValueAndGradientOfSecond(Generic[D0, D1, P]):
    """``value_and_grad(fun, argnums=1)``: the value and gradient of the second argument."""

    @overload
    def __call__(
        self: "ValueAndGradientOfSecond[T0, U1, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, U1]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfSecond[T0, L1, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Array]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfSecond[T0, T1, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, T1]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class ValueAndGradientOfSecondWithAux(Generic[D0, D1, AuxOut, P]):
    """``value_and_grad(fun, argnums=1, has_aux=True)``: the value and gradient of the second argument, with aux."""

    @overload
    def __call__(
        self: "ValueAndGradientOfSecondWithAux[T0, U1, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], U1]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfSecondWithAux[T0, L1, Aux, P]",
        x: T0, y: ArrayLike,
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> tuple[tuple[Array, Aux], Array]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfSecondWithAux[T0, T1, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], T1]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class ValueAndGradientOfPair(Generic[D0, D1, P]):
    """``value_and_grad(fun, argnums=(0, 1))``: the value and gradient of arguments 0 and 1."""

    # Any first (a lambda's parameters; a partly annotated def gives Any for
    # both), then each mix of array-like and other parameters.
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "ValueAndGradientOfPair[U0, T1, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, tuple[U0, U0]]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "ValueAndGradientOfPair[T0, U1, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, tuple[U1, U1]]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfPair[L0, L1, P]", x: ArrayLike, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, tuple[Array, Array]]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # both array-like: the overload before applies
        self: "ValueAndGradientOfPair[L0, T1, P]", x: ArrayLike, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, tuple[Array, T1]]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfPair[T0, L1, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, tuple[T0, Array]]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfPair[T0, T1, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, tuple[T0, T1]]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class ValueAndGradientOfPairWithAux(Generic[D0, D1, AuxOut, P]):
    """``value_and_grad(fun, argnums=(0, 1), has_aux=True)``: the value and gradient of arguments 0 and 1, with aux."""

    # Any first (a lambda's parameters; a partly annotated def gives Any for
    # both), then each mix of array-like and other parameters.
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "ValueAndGradientOfPairWithAux[U0, T1, Aux, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], tuple[U0, U0]]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # Any: the first two overloads apply
        self: "ValueAndGradientOfPairWithAux[T0, U1, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], tuple[U1, U1]]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfPairWithAux[L0, L1, Aux, P]",
        x: ArrayLike, y: ArrayLike,
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> tuple[tuple[Array, Aux], tuple[Array, Array]]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # both array-like: the overload before applies
        self: "ValueAndGradientOfPairWithAux[L0, T1, Aux, P]", x: ArrayLike, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], tuple[Array, T1]]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfPairWithAux[T0, L1, Aux, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], tuple[T0, Array]]: ...
    @overload
    def __call__(
        self: "ValueAndGradientOfPairWithAux[T0, T1, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Aux], tuple[T0, T1]]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class Hessian(Generic[D0, P]):
    """``hessian(fun)``: the Hessian of the first argument."""

    @overload
    # Any: the first overload applies (the others give PyTrees for other types).
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "Hessian[U0, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> U0: ...
    @overload
    def __call__(
        self: "Hessian[L0, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> Array: ...
    @overload
    def __call__(
        self: "Hessian[T0, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class HessianWithAux(Generic[D0, AuxOut, P]):
    """``hessian(fun, has_aux=True)``: the Hessian of the first argument, with aux."""

    @overload
    # Any: the first overload applies (the others give PyTrees for other types).
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "HessianWithAux[U0, Aux, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U0, Aux]: ...
    @overload
    def __call__(
        self: "HessianWithAux[L0, Aux, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Aux]: ...
    @overload
    def __call__(
        self: "HessianWithAux[T0, Aux, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class HessianMaybeWithAux(Generic[D0, AuxOut, P]):
    """``hessian(fun, has_aux=flag)``: the Hessian of the first argument, with aux when flag is true."""

    @overload
    # Any: the first overload applies (the others give PyTrees for other types).
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "HessianMaybeWithAux[U0, Aux, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> U0: ...
    @overload
    def __call__(
        self: "HessianMaybeWithAux[L0, Aux, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Aux]: ...
    @overload
    def __call__(
        self: "HessianMaybeWithAux[T0, Aux, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree | tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class HessianOfSecond(Generic[D0, D1, P]):
    """``hessian(fun, argnums=1)``: the Hessian of the second argument."""

    @overload
    # Any: the first overload applies (the others give PyTrees for other types).
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "HessianOfSecond[T0, U1, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> U1: ...
    @overload
    def __call__(
        self: "HessianOfSecond[T0, L1, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> Array: ...
    @overload
    def __call__(
        self: "HessianOfSecond[T0, T1, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class HessianOfSecondWithAux(Generic[D0, D1, AuxOut, P]):
    """``hessian(fun, argnums=1, has_aux=True)``: the Hessian of the second argument, with aux."""

    @overload
    # Any: the first overload applies (the others give PyTrees for other types).
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "HessianOfSecondWithAux[T0, U1, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U1, Aux]: ...
    @overload
    def __call__(
        self: "HessianOfSecondWithAux[T0, L1, Aux, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Aux]: ...
    @overload
    def __call__(
        self: "HessianOfSecondWithAux[T0, T1, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class HessianOfPair(Generic[D0, D1, P]):
    """``hessian(fun, argnums=(0, 1))``: the Hessian of arguments 0 and 1."""

    @overload
    # Any: the first overload applies (the others give PyTrees for other types).
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "HessianOfPair[U0, T1, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> U0: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "HessianOfPair[T0, U1, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> U1: ...
    @overload
    def __call__(
        self: "HessianOfPair[L0, L1, P]", x: ArrayLike, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, Array], tuple[Array, Array]]: ...
    @overload
    def __call__(
        self: "HessianOfPair[T0, T1, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class HessianOfPairWithAux(Generic[D0, D1, AuxOut, P]):
    """``hessian(fun, argnums=(0, 1), has_aux=True)``: the Hessian of arguments 0 and 1, with aux."""

    @overload
    # Any: the first overload applies (the others give PyTrees for other types).
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "HessianOfPairWithAux[U0, T1, Aux, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U0, Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "HessianOfPairWithAux[T0, U1, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U1, Aux]: ...
    @overload
    def __call__(
        self: "HessianOfPairWithAux[L0, L1, Aux, P]", x: ArrayLike, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[tuple[Array, Array], tuple[Array, Array]], Aux]: ...
    @overload
    def __call__(
        self: "HessianOfPairWithAux[T0, T1, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class Jacobian(Generic[D0, Out, P]):
    """``jacfwd(fun)`` (or jacrev): the Jacobian of the first argument."""

    # Most precise first: each overload applies only where the ones before do
    # not, so the checkers' overlap warnings are silenced (Any, then array-like).
    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "Jacobian[U0, R0, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> U0: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "Jacobian[L0, R0, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> R0: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "Jacobian[T0, RL0, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> T0: ...
    @overload
    def __call__(
        self: "Jacobian[T0, R0, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class JacobianWithAux(Generic[D0, Out, AuxOut, P]):
    """``jacfwd(fun, has_aux=True)`` (or jacrev): the Jacobian of the first argument, with aux."""

    # Most precise first: each overload applies only where the ones before do
    # not, so the checkers' overlap warnings are silenced (Any, then array-like).
    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "JacobianWithAux[U0, R0, Aux, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U0, Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianWithAux[L0, R0, Aux, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[R0, Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianWithAux[T0, RL0, Aux, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T0, Aux]: ...
    @overload
    def __call__(
        self: "JacobianWithAux[T0, R0, Aux, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class JacobianMaybeWithAux(Generic[D0, Out, AuxOut, P]):
    """``jacfwd(fun, has_aux=flag)`` (or jacrev): the Jacobian of the first argument, with aux when flag is true."""

    # Most precise first: each overload applies only where the ones before do
    # not, so the checkers' overlap warnings are silenced (Any, then array-like).
    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "JacobianMaybeWithAux[U0, R0, Aux, P]", x: U0, /, *args: P.args, **kwargs: P.kwargs
    ) -> U0: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianMaybeWithAux[L0, R0, Aux, P]", x: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[R0, Aux]: ...
    @overload
    def __call__(
        self: "JacobianMaybeWithAux[T0, R0, Aux, P]", x: T0, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree | tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class JacobianOfSecond(Generic[D0, D1, Out, P]):
    """``jacfwd(fun, argnums=1)`` (or jacrev): the Jacobian of the second argument."""

    # Most precise first: each overload applies only where the ones before do
    # not, so the checkers' overlap warnings are silenced (Any, then array-like).
    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "JacobianOfSecond[T0, U1, R0, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> U1: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfSecond[T0, L1, R0, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> R0: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfSecond[T0, T1, RL0, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> T1: ...
    @overload
    def __call__(
        self: "JacobianOfSecond[T0, T1, R0, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class JacobianOfSecondWithAux(Generic[D0, D1, Out, AuxOut, P]):
    """``jacfwd(fun, argnums=1, has_aux=True)`` (or jacrev): the Jacobian of the second argument, with aux."""

    # Most precise first: each overload applies only where the ones before do
    # not, so the checkers' overlap warnings are silenced (Any, then array-like).
    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "JacobianOfSecondWithAux[T0, U1, R0, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U1, Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfSecondWithAux[T0, L1, R0, Aux, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[R0, Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfSecondWithAux[T0, T1, RL0, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T1, Aux]: ...
    @overload
    def __call__(
        self: "JacobianOfSecondWithAux[T0, T1, R0, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class JacobianOfPair(Generic[D0, D1, Out, P]):
    """``jacfwd(fun, argnums=(0, 1))`` (or jacrev): the Jacobian of arguments 0 and 1."""

    # Most precise first: each overload applies only where the ones before do
    # not, so the checkers' overlap warnings are silenced (Any, then array-like).
    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "JacobianOfPair[U0, T1, R0, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> U0: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPair[T0, U1, R0, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> U1: ...
    @overload
    def __call__(
        self: "JacobianOfPair[L0, L1, RL0, P]", x: ArrayLike, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, Array]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPair[L0, T1, RL0, P]", x: ArrayLike, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Array, T1]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPair[T0, L1, RL0, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T0, Array]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPair[T0, T1, RL0, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[T0, T1]: ...
    @overload
    def __call__(
        self: "JacobianOfPair[T0, T1, R0, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> PyTree: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)


class JacobianOfPairWithAux(Generic[D0, D1, Out, AuxOut, P]):
    """``jacfwd(fun, argnums=(0, 1), has_aux=True)`` (or jacrev): the Jacobian of arguments 0 and 1, with aux."""

    # Most precise first: each overload applies only where the ones before do
    # not, so the checkers' overlap warnings are silenced (Any, then array-like).
    @overload
    def __call__(  # type: ignore[overload-overlap]  # pyright: ignore[reportOverlappingOverload]  # see above
        self: "JacobianOfPairWithAux[U0, T1, R0, Aux, P]", x: U0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U0, Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPairWithAux[T0, U1, R0, Aux, P]", x: T0, y: U1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[U1, Aux]: ...
    @overload
    def __call__(
        self: "JacobianOfPairWithAux[L0, L1, RL0, Aux, P]",
        x: ArrayLike, y: ArrayLike,
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> tuple[tuple[Array, Array], Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPairWithAux[L0, T1, RL0, Aux, P]", x: ArrayLike, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[Array, T1], Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPairWithAux[T0, L1, RL0, Aux, P]", x: T0, y: ArrayLike, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[T0, Array], Aux]: ...
    @overload
    def __call__(  # type: ignore[overload-overlap]  # see above
        self: "JacobianOfPairWithAux[T0, T1, RL0, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[tuple[T0, T1], Aux]: ...
    @overload
    def __call__(
        self: "JacobianOfPairWithAux[T0, T1, R0, Aux, P]", x: T0, y: T1, /, *args: P.args, **kwargs: P.kwargs
    ) -> tuple[PyTree, Aux]: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]  # see the module docstring
        raise NotImplementedError(_STATIC_ONLY)
