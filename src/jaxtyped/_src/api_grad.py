"""Reverse-mode transformations (layer L5): ``vjp``, ``linearize``,
``grad``, ``value_and_grad``, ``jacrev`` and ``hessian``.

Each flattens the user's pytrees, runs :func:`linearize_flat` (jvp on top
of partial evaluation) and, for the reverse-mode ones, transposes the
linear map. Cotangents stay symbolic zeros through the backward pass (see
Note [symbolic zero cotangents]); zeros are materialised only here, where
an array must be returned.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, final, overload

import numpy as np
import typing_extensions
from typing_extensions import Concatenate, ParamSpec, TypeVarTuple, Unpack

from jaxtyped._src import dtypes
from jaxtyped._src.ad import LinearFunction, linearize_flat
from jaxtyped._src.ad_gradient_types import (
    Gradient,
    GradientOfPair,
    GradientOfPairWithAux,
    GradientOfSecond,
    GradientOfSecondWithAux,
    GradientWithAux,
    ValueAndGradient,
    ValueAndGradientOfPair,
    ValueAndGradientOfPairWithAux,
    ValueAndGradientOfSecond,
    ValueAndGradientOfSecondWithAux,
    ValueAndGradientWithAux,
    Hessian,
    HessianMaybeWithAux,
    HessianOfPair,
    HessianOfPairWithAux,
    HessianOfSecond,
    HessianOfSecondWithAux,
    HessianWithAux,
    Jacobian,
    JacobianMaybeWithAux,
    JacobianOfPair,
    JacobianOfPairWithAux,
    JacobianOfSecond,
    JacobianOfSecondWithAux,
    JacobianWithAux,
)
from jaxtyped._src.api import D0, D1, PD, RD, AuxD, check_jac_inputs, split_aux, standard_basis, jacfwd, vmap
from jaxtyped._src.api_util import arg_names, argnums_tuple, check_callable, flatten_with_names, leaf_to_array, wraps
from jaxtyped._src.core.array import Array, ArrayLike, PyTree
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.jaxpr import ClosedJaxpr
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, MissingRuleError
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.structural import instantiate, reshape
from jaxtyped._src.tree_util import PyTreeDef, register_pytree_node, tree_flatten, tree_unflatten
from jaxtyped._src.util import describe_function

__all__ = ["vjp", "linearize", "grad", "value_and_grad", "jacrev", "hessian"]

P = ParamSpec("P")
R = TypeVar("R")
# hessian's fun's array-like result (a default, as D0 has one).
RAD = typing_extensions.TypeVar("RAD", bound=ArrayLike, default=Array)
Aux = TypeVar("Aux")
# An array-like result (the run-time-argnums overloads of hessian).
RA = TypeVar("RA", bound=ArrayLike)
Ts = TypeVarTuple("Ts")


# === shared plumbing ===


class _Flat:
    """A user function seen as flat arrays in, flat arrays out, with the
    pytree structures and leaf names recorded for the way back."""

    def __init__(
        self,
        fun: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        positions: tuple[int, ...],
        has_aux: bool,
        transformation: str,
    ) -> None:
        self.fun, self.args, self.kwargs = fun, args, kwargs
        self.positions, self.has_aux, self.transformation = positions, has_aux, transformation
        names = arg_names(fun, len(args))
        dyn = tuple(args[i] for i in positions)
        leaves, self.in_tree = tree_flatten(dyn)
        self.in_names = [n for i in positions for n in flatten_with_names(args[i], names[i])[1]]
        self.primals = [leaf_to_array(x, n, transformation) for x, n in zip(leaves, self.in_names)]
        self.out_tree: PyTreeDef | None = None
        self.out_names: list[str] = []

    def __call__(self, leaves: list[Array]) -> tuple[list[Array], object]:
        full = list(self.args)
        for i, value in zip(self.positions, tree_unflatten(self.in_tree, leaves)):
            full[i] = value
        out, aux = split_aux(self.fun(*full, **self.kwargs), self.has_aux, self.transformation)
        out_leaves, self.out_tree = tree_flatten(out)
        self.out_names = flatten_with_names(out, "output")[1]
        return [leaf_to_array(x, n, self.transformation) for x, n in zip(out_leaves, self.out_names)], aux

    def linearize(self) -> tuple[list[Array], LinearFunction, object]:
        desc = describe_function(self.fun)
        try:
            return linearize_flat(self, self.primals, desc, self.transformation)
        except MissingRuleError as err:
            wrt = ", ".join(self.in_names) or "no arguments"
            raise MissingRuleError(f"{self.transformation} of {desc} with respect to {wrt}: {err}") from err


def _materialize(cts: Sequence[Tangent]) -> list[Array]:
    return [instantiate(ct) for ct in cts]


# === vjp and linearize ===


@overload
def vjp(
    fun: Callable[[Unpack[Ts]], R], *primals: Unpack[Ts], has_aux: Literal[False] = False
) -> tuple[R, Callable[[R], tuple[Unpack[Ts]]]]: ...
@overload
def vjp(
    fun: Callable[[Unpack[Ts]], tuple[R, Aux]], *primals: Unpack[Ts], has_aux: Literal[True]
) -> tuple[R, Callable[[R], tuple[Unpack[Ts]]], Aux]: ...
def vjp(fun: Callable[..., object], *primals: object, has_aux: bool = False) -> object:
    """``fun(*primals)`` and its vector-Jacobian product function (JAX's
    ``jax.vjp``).

    The returned ``vjp_fun(ct)`` takes a cotangent with the structure,
    shapes and dtypes of the output and returns a tuple with one cotangent
    per primal (float0 zeros for integer primals).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> y, f_vjp = jt.vjp(jnp.sin, 0.0)
        >>> f_vjp(1.0)
        (Array(1., dtype=float32, weak_type=True),)
    """
    check_callable(fun, "vjp")
    flat = _Flat(fun, primals, {}, tuple(range(len(primals))), has_aux, "vjp")
    outs, lin, aux = flat.linearize()
    assert flat.out_tree is not None
    signature = _VJPSignature(
        describe_function(fun), flat.in_tree, flat.out_tree, tuple(flat.out_names), tuple(o.aval for o in outs)
    )
    vjp_fun = VJPFunction(lin, signature)
    primal_out = tree_unflatten(flat.out_tree, outs)
    return (primal_out, vjp_fun, aux) if has_aux else (primal_out, vjp_fun)


@dataclass(frozen=True)
class _VJPSignature:
    """What a VJP function checks its cotangent against and builds its
    result with: the function's description, the primals' and outputs'
    structures, the outputs' names and types."""

    fun_desc: str
    in_tree: PyTreeDef
    out_tree: PyTreeDef
    out_names: tuple[str, ...]
    out_avals: tuple[ShapedArray, ...]


@final
class VJPFunction:
    """The function ``vjp`` returns: ``f_vjp(ct)`` maps a cotangent of the
    output to a tuple of cotangents of the primals.

    A pytree whose leaves are the residuals (JAX's ``vjp`` returns such a
    ``Partial``): it can be passed to a jitted function, or returned from
    one (``jax.fwd_and_bwd`` hands it from the forward to the backward
    function).
    """

    __slots__ = ("_linear", "_signature")

    def __init__(self, linear: LinearFunction, signature: _VJPSignature) -> None:
        self._linear = linear
        self._signature = signature

    def __call__(self, ct: Any) -> tuple[Any, ...]:
        sig = self._signature
        ct_leaves, ct_tree = tree_flatten(ct)
        if ct_tree != sig.out_tree:  # a ValueError, as JAX's
            raise JaxtypedValueError(
                f"vjp of {sig.fun_desc}: the cotangent must have the structure of the output, {sig.out_tree}, got {ct_tree}"
            )
        cts = [
            _check_cotangent(o, leaf_to_array(c, n, "vjp"), n) for o, c, n in zip(sig.out_avals, ct_leaves, sig.out_names)
        ]
        result = tree_unflatten(sig.in_tree, _materialize(self._linear.transpose(cts)))
        return tuple(result)

    def __repr__(self) -> str:
        return f"<vjp function of {self._signature.fun_desc}>"

    def _tree_flatten(self) -> tuple[list[Array], tuple[object, ...]]:
        linear = self._linear
        static = (linear.jaxpr.jaxpr, linear.in_avals, linear.out_avals, linear.out_nonzero, self._signature)
        return list(linear.jaxpr.consts), static

    @classmethod
    def _tree_unflatten(cls, static: tuple[Any, ...], residuals: Sequence[Array]) -> "VJPFunction":
        jaxpr, in_avals, out_avals, out_nonzero, signature = static
        linear = LinearFunction(ClosedJaxpr(jaxpr, tuple(residuals)), in_avals, out_avals, out_nonzero)
        return cls(linear, signature)


register_pytree_node(VJPFunction, VJPFunction._tree_flatten, VJPFunction._tree_unflatten)  # pyright: ignore[reportPrivateUsage]  # its own rules


def _check_cotangent(out: ShapedArray, ct: Array, name: str) -> Tangent:
    want = out.to_tangent_aval()
    if ct.shape != want.shape or (ct.dtype != want.dtype and not dtypes.is_float0(want.dtype)):
        raise JaxtypedValueError(  # as JAX's
            f"vjp: the cotangent for {name} has type {ct.aval.str_short()}, but the primal output has "
            f"type {out.str_short()} (its cotangent type is {want.str_short()})"
        )
    return Zero(want) if dtypes.is_float0(want.dtype) else ct


@overload
def linearize(
    fun: Callable[[Unpack[Ts]], R], *primals: Unpack[Ts], has_aux: Literal[False] = False
) -> tuple[R, Callable[[Unpack[Ts]], R]]: ...
@overload
def linearize(
    fun: Callable[[Unpack[Ts]], tuple[R, Aux]], *primals: Unpack[Ts], has_aux: Literal[True]
) -> tuple[R, Callable[[Unpack[Ts]], R], Aux]: ...
def linearize(fun: Callable[..., object], *primals: object, has_aux: bool = False) -> object:
    """``fun(*primals)`` and its linearization there (JAX's
    ``jax.linearize``): the returned ``f_jvp(*tangents)`` evaluates the
    Jacobian-vector product from saved residuals, without re-running
    ``fun``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> y, f_jvp = jt.linearize(jnp.sin, 0.0)
        >>> f_jvp(2.0)
        Array(2., dtype=float32, weak_type=True)
    """
    check_callable(fun, "linearize")
    flat = _Flat(fun, primals, {}, tuple(range(len(primals))), has_aux, "linearize")
    outs, lin, aux = flat.linearize()
    assert flat.out_tree is not None
    out_tree = flat.out_tree

    def f_jvp(*tangents: Any) -> Any:
        t_leaves, t_tree = tree_flatten(tangents)
        if t_tree != tree_flatten(tuple(primals))[1]:
            raise JaxtypedTypeError(
                f"linearize of {describe_function(fun)}: the tangents must have the structure of the "
                f"primals, {tree_flatten(tuple(primals))[1]}, got {t_tree}"
            )
        ts = [leaf_to_array(t, n, "linearize") for t, n in zip(t_leaves, flat.in_names)]
        for p, t, n in zip(flat.primals, ts, flat.in_names):
            if not p.aval.to_tangent_aval().same_type(t.aval):
                raise JaxtypedTypeError(
                    f"linearize: the tangent for {n} has type {t.aval.str_short()}, but the primal has "
                    f"type {p.aval.str_short()}"
                )
        return tree_unflatten(out_tree, _materialize(lin.jvp(ts)))

    primal_out = tree_unflatten(out_tree, outs)
    return (primal_out, f_jvp, aux) if has_aux else (primal_out, f_jvp)


# === grad and value_and_grad ===


# Overloads: a literal argnums (0, 1 or (0, 1)) gives a class from
# ad_gradient_types whose call types the gradient from the type fun declares
# for the differentiated parameter (see Note [unannotated functions]); an
# argnums known only at run time gives a PyTree (a tuple of them for a
# sequence). A scalar-valued fun takes has_aux=False; an (out, aux)-valued
# one has_aux=True or a bool known only at run time (for it, False fails at
# run time, so the aux shape is exact). A run-time bool with a scalar-valued
# fun is not accepted: an overload for it would also match has_aux=True for
# an Any-typed fun, and mypy then gives up on the call (typing/pending/
# NOTES.md, K2, K9). mypy calls the literal overloads "overlapping" the
# run-time ones with another result type; those are reached only when no
# literal one applies, which is the point, so that check is silenced on them.
# Note [unannotated functions] (issue 20): a checker gives an unannotated
# lambda's parameters the types of the first overload it tries, and pyright
# keeps that overload even when the lambda's body then fails to type-check
# (grad(lambda p: loss(p, batch)) with loss taking a dict, or a float). So
# the first overloads take fun's parameters as D0 (and D1), bound to Any:
# the lambda's body may do anything with them, and for a typed function D0
# is solved to its declared type. The class returned then types the
# gradient: Any for Any (an unannotated def, a lambda), an Array for an
# array-like declared type (Array, float, int, ArrayLike; it accepts any
# ArrayLike, converted before fun sees it), the declared type itself
# otherwise (a dict of parameters, a NamedTuple). ad_gradient_types says why
# classes and not Callables or protocols; vmap and checkpoint return their
# argument's type so that the class survives them.
@overload
def value_and_grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], ArrayLike],
    argnums: Literal[0] = 0,
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> ValueAndGradient[D0, PD]: ...
@overload
def value_and_grad(
    fun: Callable[Concatenate[D0, PD], tuple[ArrayLike, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> ValueAndGradientWithAux[D0, AuxD, PD]: ...
@overload
def value_and_grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], ArrayLike],
    argnums: Literal[1],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> ValueAndGradientOfSecond[D0, D1, PD]: ...
@overload
def value_and_grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[ArrayLike, AuxD]],
    argnums: Literal[1],
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> ValueAndGradientOfSecondWithAux[D0, D1, AuxD, PD]: ...
@overload
def value_and_grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], ArrayLike],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> ValueAndGradientOfPair[D0, D1, PD]: ...
@overload
def value_and_grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[ArrayLike, AuxD]],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> ValueAndGradientOfPairWithAux[D0, D1, AuxD, PD]: ...
@overload
def value_and_grad(
    fun: Callable[P, ArrayLike],
    argnums: int,
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[Array, PyTree]]: ...
@overload
def value_and_grad(
    fun: Callable[P, tuple[ArrayLike, Aux]],
    argnums: int,
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[tuple[Array, Aux], PyTree]]: ...
@overload
def value_and_grad(
    fun: Callable[P, ArrayLike],
    argnums: Sequence[int],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[Array, tuple[PyTree, ...]]]: ...
@overload
def value_and_grad(
    fun: Callable[P, tuple[ArrayLike, Aux]],
    argnums: Sequence[int],
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[tuple[Array, Aux], tuple[PyTree, ...]]]: ...
def value_and_grad(
    fun: Callable[..., object],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., object]:
    """A function computing ``fun``'s value and its gradient (JAX's
    ``jax.value_and_grad``): ``((value, aux), grad)`` with ``has_aux``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.value_and_grad(lambda x: x ** 2)(3.0)
        (Array(9., dtype=float32, weak_type=True), Array(6., dtype=float32, weak_type=True))
    """
    check_callable(fun, "value_and_grad")
    return _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, "value_and_grad")


@overload
def grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], ArrayLike],
    argnums: Literal[0] = 0,
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Gradient[D0, PD]: ...
@overload
def grad(
    fun: Callable[Concatenate[D0, PD], tuple[ArrayLike, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> GradientWithAux[D0, AuxD, PD]: ...
@overload
def grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], ArrayLike],
    argnums: Literal[1],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> GradientOfSecond[D0, D1, PD]: ...
@overload
def grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[ArrayLike, AuxD]],
    argnums: Literal[1],
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> GradientOfSecondWithAux[D0, D1, AuxD, PD]: ...
@overload
def grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], ArrayLike],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> GradientOfPair[D0, D1, PD]: ...
@overload
def grad(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[ArrayLike, AuxD]],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> GradientOfPairWithAux[D0, D1, AuxD, PD]: ...
@overload
def grad(
    fun: Callable[P, ArrayLike],
    argnums: int,
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, PyTree]: ...
@overload
def grad(
    fun: Callable[P, tuple[ArrayLike, Aux]],
    argnums: int,
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[PyTree, Aux]]: ...
@overload
def grad(
    fun: Callable[P, ArrayLike],
    argnums: Sequence[int],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[PyTree, ...]]: ...
@overload
def grad(
    fun: Callable[P, tuple[ArrayLike, Aux]],
    argnums: Sequence[int],
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[tuple[PyTree, ...], Aux]]: ...
def grad(
    fun: Callable[..., object],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., object]:
    """The gradient of a scalar-valued ``fun`` (JAX's ``jax.grad``).

    Args:
        fun: returns a real scalar (complex with ``holomorphic``), or
            ``(scalar, aux)`` with ``has_aux``.
        argnums: which positional argument(s) to differentiate: an int gives
            one gradient, a sequence a tuple of them.
        has_aux: return ``(grad, aux)``.
        holomorphic: ``fun`` is holomorphic; inputs and output are complex.
        allow_int: accept integer inputs (their gradient is float0 zeros).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.grad(jnp.sin)(0.0)
        Array(1., dtype=float32, weak_type=True)
    """
    check_callable(fun, "grad")
    value_and_grad_f = _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, "grad")

    @wraps(fun)
    def grad_f(*args: Any, **kwargs: Any) -> Any:
        value, g = value_and_grad_f(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return grad_f


def _value_and_grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int],
    has_aux: bool,
    holomorphic: bool,
    allow_int: bool,
    transformation: str,
) -> Callable[..., Any]:
    desc = describe_function(fun)

    @wraps(fun)
    def value_and_grad_f(*args: Any, **kwargs: Any) -> Any:
        positions = argnums_tuple(argnums, len(args), transformation)
        flat = _Flat(fun, args, kwargs, positions, has_aux, transformation)
        for x, name in zip(flat.primals, flat.in_names):
            _check_grad_input(x, name, desc, holomorphic, allow_int, transformation)
        outs, lin, aux = flat.linearize()
        assert flat.out_tree is not None
        value = _scalar_output(outs, flat.out_tree, desc, holomorphic, transformation)
        one = array_from_numpy(np.ones((), value.dtype), weak_type=value.weak_type)
        grads = tree_unflatten(flat.in_tree, _materialize(lin.transpose([one])))
        g = grads[0] if isinstance(argnums, int) else tuple(grads)
        return ((value, aux) if has_aux else value), g

    return value_and_grad_f


def _check_grad_input(x: Array, name: str, desc: str, holomorphic: bool, allow_int: bool, transformation: str) -> None:
    if holomorphic:
        if not dtypes.is_complex(x.dtype):
            raise JaxtypedTypeError(
                f"{transformation} of {desc} with holomorphic=True requires complex inputs, but "
                f"{name} has type {x.aval.str_short()}"
            )
        return
    if dtypes.is_floating(x.dtype) or dtypes.is_complex(x.dtype):
        return
    if allow_int and (dtypes.is_integer(x.dtype) or dtypes.is_bool(x.dtype)):
        return
    raise JaxtypedTypeError(
        f"{transformation} of {desc} requires real- or complex-valued inputs (a floating or complex "
        f"dtype), but {name} has type {x.aval.str_short()}. To differentiate with respect to "
        "integer or boolean inputs use vjp, or pass allow_int=True (the gradient is float0 zeros)."
    )


def _scalar_output(outs: list[Array], out_tree: PyTreeDef, desc: str, holomorphic: bool, transformation: str) -> Array:
    if len(outs) != 1 or out_tree.num_leaves != 1 or tree_unflatten(out_tree, [0]) != 0:
        raise JaxtypedTypeError(
            f"{transformation} of {desc}: the function must return a scalar array, but it returned "
            f"a pytree {out_tree}; use jacrev or vjp for non-scalar outputs"
        )
    (out,) = outs
    if out.shape != ():
        raise JaxtypedTypeError(
            f"{transformation} of {desc}: gradient only defined for scalar-output functions, but the "
            f"output has type {out.aval.str_short()}; use jacrev or vjp for non-scalar outputs"
        )
    if holomorphic and not dtypes.is_complex(out.dtype):
        raise JaxtypedTypeError(
            f"{transformation} of {desc} with holomorphic=True requires a complex output, got "
            f"{out.aval.str_short()}"
        )
    if not holomorphic and not dtypes.is_floating(out.dtype):
        hint = " For holomorphic differentiation, pass holomorphic=True." if dtypes.is_complex(out.dtype) else ""
        raise JaxtypedTypeError(
            f"{transformation} of {desc} requires a real floating-point output, got "
            f"{out.aval.str_short()}.{hint}"
        )
    return out


# === jacrev and hessian ===


# Overloads: as grad's (see Note [unannotated functions] in api_grad), a
# literal argnums 0, 1 or (0, 1) gives a class from ad_gradient_types whose
# call types the Jacobian from fun's parameter and output types: the
# output's type with respect to an array-like argument (each leaf an Array
# block; with has_aux, True or a run-time bool, the (out, aux) pair either
# way), the argument's type for a single array-like output, a PyTree
# otherwise, Any for Any. argnums known only at run time give a PyTree. The
# checkers call the precise overloads "overlapping" the wider ones with
# another result type; those are reached only when no precise one applies
# (the point), so that check is silenced on them.
@overload
def jacrev(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], RD],
    argnums: Literal[0] = 0,
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Jacobian[D0, RD, PD]: ...
@overload
def jacrev(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], tuple[RD, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: Literal[True],
    holomorphic: bool = False,
    allow_int: bool = False,
) -> JacobianWithAux[D0, RD, AuxD, PD]: ...
@overload
def jacrev(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], tuple[RD, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> JacobianMaybeWithAux[D0, RD, AuxD, PD]: ...
@overload
def jacrev(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], RD],
    argnums: Literal[1],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> JacobianOfSecond[D0, D1, RD, PD]: ...
@overload
def jacrev(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[RD, AuxD]],
    argnums: Literal[1],
    has_aux: Literal[True],
    holomorphic: bool = False,
    allow_int: bool = False,
) -> JacobianOfSecondWithAux[D0, D1, RD, AuxD, PD]: ...
@overload
def jacrev(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], RD],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> JacobianOfPair[D0, D1, RD, PD]: ...
@overload
def jacrev(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[RD, AuxD]],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[True],
    holomorphic: bool = False,
    allow_int: bool = False,
) -> JacobianOfPairWithAux[D0, D1, RD, AuxD, PD]: ...
@overload
def jacrev(
    fun: Callable[P, R],
    argnums: int | Sequence[int],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, PyTree]: ...
@overload
def jacrev(
    fun: Callable[P, tuple[R, Aux]],
    argnums: int | Sequence[int],
    has_aux: Literal[True],
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, tuple[PyTree, Aux]]: ...
@overload
def jacrev(
    fun: Callable[P, tuple[R, Aux]],
    argnums: int | Sequence[int],
    has_aux: bool,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[P, PyTree | tuple[PyTree, Aux]]: ...
def jacrev(
    fun: Callable[..., object],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., object]:
    """The Jacobian of ``fun`` by reverse mode (JAX's ``jax.jacrev``): one
    backward pass per output element, vectorised with ``vmap``.

    The result has the layout of :func:`jacfwd`'s: for an output leaf of
    shape ``S_out`` and an input leaf of shape ``S_in`` the block has shape
    ``S_out + S_in``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.jacrev(lambda x: x * x)(jnp.arange(2.0))
        Array([[0., 0.],
               [0., 2.]], dtype=float32)
    """
    check_callable(fun, "jacrev")

    @wraps(fun)
    def jacobian(*args: Any, **kwargs: Any) -> Any:
        positions = argnums_tuple(argnums, len(args), "jacrev")
        flat = _Flat(fun, args, kwargs, positions, has_aux, "jacrev")
        if not allow_int:
            check_jac_inputs(flat.primals, holomorphic, "jacrev")
        outs, lin, aux = flat.linearize()
        assert flat.out_tree is not None

        def pullback(*cts: Array) -> list[Array]:
            return _materialize(lin.transpose(list(cts)))

        rows: list[Array] = vmap(pullback)(*standard_basis(outs)) if outs else []
        jac = _unravel_rows(rows, outs, flat, isinstance(argnums, int))
        return (jac, aux) if has_aux else jac

    return jacobian


def _unravel_rows(rows: list[Array], outs: list[Array], flat: _Flat, single: bool) -> Any:
    """Split the leading (output element) axis of each input's cotangent
    rows into per-output blocks of shape ``out.shape + in.shape``."""
    assert flat.out_tree is not None
    blocks: list[Any] = []
    offset = 0
    for out in outs:
        per_input = [
            reshape(slice_in_dim(row, offset, offset + out.size, axis=0), (*out.shape, *x.shape))
            for row, x in zip(rows, flat.primals)
        ]
        offset += out.size
        inputs = tree_unflatten(flat.in_tree, per_input)
        blocks.append(inputs[0] if single else tuple(inputs))
    return tree_unflatten(flat.out_tree, blocks)


# Overloads: as grad's (see Note [unannotated functions]), a literal argnums
# 0, 1 or (0, 1) gives a class from ad_gradient_types whose call types the
# Hessian from fun's parameter types: an Array for array-like parameters (a
# 2x2 tuple of them for (0, 1)), a PyTree for a pytree (a pytree of pytrees
# is not expressible from the argument's type), Any for Any. A run-time
# has_aux bool types the pytree case as either; argnums known only at run
# time give a PyTree. The overlap check is silenced on the precise ones, as
# for grad.
@overload
def hessian(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], RAD],
    argnums: Literal[0] = 0,
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> Hessian[D0, PD]: ...
@overload
def hessian(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], tuple[RAD, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: Literal[True],
    holomorphic: bool = False,
) -> HessianWithAux[D0, AuxD, PD]: ...
@overload
def hessian(
    fun: Callable[Concatenate[D0, PD], tuple[RAD, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: bool,
    holomorphic: bool = False,
) -> HessianMaybeWithAux[D0, AuxD, PD]: ...
@overload
def hessian(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], RAD],
    argnums: Literal[1],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> HessianOfSecond[D0, D1, PD]: ...
@overload
def hessian(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[RAD, AuxD]],
    argnums: Literal[1],
    has_aux: bool,
    holomorphic: bool = False,
) -> HessianOfSecondWithAux[D0, D1, AuxD, PD]: ...
@overload
def hessian(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], RAD],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> HessianOfPair[D0, D1, PD]: ...
@overload
def hessian(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[RAD, AuxD]],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[True],
    holomorphic: bool = False,
) -> HessianOfPairWithAux[D0, D1, AuxD, PD]: ...
@overload
def hessian(
    fun: Callable[P, RA],
    argnums: int | Sequence[int],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> Callable[P, PyTree]: ...
@overload
def hessian(
    fun: Callable[P, tuple[RA, Aux]],
    argnums: int | Sequence[int],
    has_aux: Literal[True],
    holomorphic: bool = False,
) -> Callable[P, tuple[PyTree, Aux]]: ...
@overload
def hessian(
    fun: Callable[P, tuple[RA, Aux]],
    argnums: int | Sequence[int],
    has_aux: bool,
    holomorphic: bool = False,
) -> Callable[P, PyTree | tuple[PyTree, Aux]]: ...
def hessian(
    fun: Callable[..., object], argnums: int | Sequence[int] = 0, has_aux: bool = False, holomorphic: bool = False
) -> Callable[..., object]:
    """The Hessian of a scalar-valued ``fun``, as ``jacfwd(jacrev(fun))``
    (JAX's ``jax.hessian``).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.hessian(lambda x: (x ** 3).sum())(jnp.array([1.0, 2.0]))
        Array([[ 6.,  0.],
               [ 0., 12.]], dtype=float32)
    """
    check_callable(fun, "hessian")
    inner: Callable[..., Any] = jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic)  # type: ignore[arg-type]  # pyright: ignore[reportCallIssue, reportArgumentType, reportUnknownVariableType]  # has_aux is a runtime bool here
    outer: Callable[..., Any] = jacfwd(inner, argnums, has_aux=has_aux, holomorphic=holomorphic)  # pyright: ignore[reportUnknownArgumentType]  # inner is unknown to pyright (above)
    return outer

