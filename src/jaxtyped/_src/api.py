"""The user-facing transformations (layer L5): ``jvp``, ``vmap``,
``jacfwd`` and ``make_jaxpr``.

Each one flattens the user's pytrees, creates its interpreter with the
current interpreter as parent, runs the user function with that interpreter
installed, and unpacks the results after the interpreter's scope has ended
(so work done on the results, such as materialising zero tangents, happens
in the enclosing context).
"""

import contextlib
from collections.abc import Callable, Generator, Hashable, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Generic, Literal, TypeVar, cast, overload

import numpy as np
import typing_extensions
from typing_extensions import Concatenate, ParamSpec, TypeVarTuple, Unpack

from jaxtyped._src import dtypes
from jaxtyped._src.ad_gradient_types import (
    Jacobian,
    JacobianMaybeWithAux,
    JacobianOfPair,
    JacobianOfPairWithAux,
    JacobianOfSecond,
    JacobianOfSecondWithAux,
    JacobianWithAux,
)
from jaxtyped._src.api_refs import ref_or_input_aval, vmap_with_refs
from jaxtyped._src.state.primitives import AbstractRef, stage_refs_in
from jaxtyped._src.state.threading import refs_as_consts
from jaxtyped._src.state.types import Ref, RefsTouched, bound_refs, is_ref, ref_type_str
from jaxtyped._src.api_util import (
    ShapeDtypeStruct,
    SpecTree,
    arg_names,
    argnums_tuple,
    check_callable,
    flatten_with_names,
    leaf_to_array,
    wraps,
)
from jaxtyped._src.core.array import Array, ArrayLike, PyTree
from jaxtyped._src.core.array_impl import array_from_numpy, shared_numpy_constants
from jaxtyped._src.core.avals import BatchAxis, BatchDim, Zero
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.interpreter import compile_time_eval, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, PyTreeStructureError
from jaxtyped._src.interpreters.batching import BatchInterpreter
from jaxtyped._src.interpreters.jvp import JVPInterpreter
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.structural import bdim_to_front, instantiate, moveaxis, reshape
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.tree_util import broadcast_prefix, tree_flatten, tree_unflatten
from jaxtyped._src.util import AnyOnly, describe_function, is_tuple

__all__ = ["jvp", "vmap", "jacfwd", "make_jaxpr", "ShapeDtypeStruct", "eval_shape", "ensure_compile_time_eval"]

P = ParamSpec("P")
R = TypeVar("R")
# vmap returns its argument's type: a gradient function's class (which
# types the gradient from fun's parameters) survives, where Callable[P, R]
# would have pyright flatten its overloads and then take the wrong one's
# parameters in jit(vmap(grad(f))) for an unannotated f (issue 20).
F = TypeVar("F", bound=Callable[..., object])
# The parameters and output of the fun given to jacfwd, and (imported from
# here) to grad, value_and_grad, jacrev and hessian: D0 and D1 its first two
# parameters, bound to Any so that a checker gives an unannotated lambda's
# parameters Any (see Note [unannotated functions] in api_grad), PD the
# others, RD its output, AuxD its aux output. The defaults are for mypy:
# given an Any-typed fun it leaves them unsolved and would ask for an
# annotation of the result's variable.
D0 = typing_extensions.TypeVar("D0", bound=Any, default=Any)
D1 = typing_extensions.TypeVar("D1", bound=Any, default=Any)
PD = ParamSpec("PD", default=...)
RD = typing_extensions.TypeVar("RD", default=Any)
AuxD = typing_extensions.TypeVar("AuxD", default=Any)
Aux = TypeVar("Aux")
T = TypeVar("T")
JaxprOut = TypeVar("JaxprOut", covariant=True)  # what a JaxprMaker returns
Ts = TypeVarTuple("Ts")

# vmap's in_axes/out_axes: an axis, None, or a pytree prefix of them
# (tuples, lists, dicts). Not Sequence[object]: a str would match it.
AxisSpec = int | None | tuple[object, ...] | list[int | None] | list[object] | Mapping[str, object]


# === jvp ===


def _check_tangent(primal: Array, tangent: Array, name: str) -> Tangent:
    """Validate one tangent against its primal; float0 tangents become zeros."""
    if tangent.shape != primal.shape:
        raise JaxtypedValueError(
            f"jvp called with different primal and tangent shapes at {name}: primal "
            f"{primal.aval.str_short()}, tangent {tangent.aval.str_short()}"
        )
    expected = primal.aval.to_tangent_aval()
    if tangent.dtype != expected.dtype:
        raise JaxtypedTypeError(
            f"primal and tangent arguments to jvp do not match at {name}: dtypes must be "
            "equal, or for an integer or boolean primal the tangent dtype must be float0; "
            f"got primal {primal.aval.str_short()} and tangent {tangent.aval.str_short()}"
        )
    return Zero(expected) if dtypes.is_float0(tangent.dtype) else tangent


# Tuples tie the primals and tangents to the function's parameters; lists
# (accepted at run time too) check only the result. has_aux: with a flag
# known only at run time, a pair-valued function gives either shape; for
# any other function has_aux=True fails at run time, so (R, R) is exact.
# mypy calls the flag overloads "overlapping" the literal ones with another
# result; they are reached only when those fail, so that check is silenced.
@overload
def jvp(  # type: ignore[overload-overlap]  # see above
    fun: Callable[[Unpack[Ts]], R],
    primals: tuple[Unpack[Ts]],
    tangents: tuple[Unpack[Ts]],
    has_aux: Literal[False] = False,
) -> tuple[R, R]: ...
@overload
def jvp(  # type: ignore[overload-overlap]  # see above
    fun: Callable[[Unpack[Ts]], tuple[R, Aux]],
    primals: tuple[Unpack[Ts]],
    tangents: tuple[Unpack[Ts]],
    has_aux: Literal[True],
) -> tuple[R, R, Aux]: ...
@overload
def jvp(  # type: ignore[overload-overlap]  # see above
    fun: Callable[[Unpack[Ts]], tuple[R, Aux]],
    primals: tuple[Unpack[Ts]],
    tangents: tuple[Unpack[Ts]],
    has_aux: bool,
) -> tuple[tuple[R, Aux], tuple[R, Aux]] | tuple[R, R, Aux]: ...
@overload
def jvp(
    fun: Callable[[Unpack[Ts]], R], primals: tuple[Unpack[Ts]], tangents: tuple[Unpack[Ts]], has_aux: bool
) -> tuple[R, R]: ...
@overload
def jvp(
    fun: Callable[..., R], primals: list[T], tangents: list[T], has_aux: Literal[False] = False
) -> tuple[R, R]: ...
@overload
def jvp(
    fun: Callable[..., tuple[R, Aux]], primals: list[T], tangents: list[T], has_aux: Literal[True]
) -> tuple[R, R, Aux]: ...
def jvp(fun: Callable[..., object], primals: object, tangents: object, has_aux: bool = False) -> object:
    """Jacobian-vector product: ``fun(*primals)`` and its derivative along
    ``tangents`` (JAX's ``jax.jvp``).

    Args:
        fun: a function of arrays (pytrees of arrays) to arrays.
        primals: the point, as a tuple (or list) of positional arguments.
        tangents: the direction: same structure, shapes and dtypes as
            ``primals`` (``float0`` for integer primals).
        has_aux: ``fun`` returns ``(output, aux)``; ``aux`` is returned
            undifferentiated.

    Returns:
        ``(primals_out, tangents_out)``, plus ``aux`` with ``has_aux``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.jvp(jnp.sin, (0.0,), (1.0,))
        (Array(0., dtype=float32, weak_type=True), Array(1., dtype=float32, weak_type=True))
    """
    check_callable(fun, "jvp")
    return _jvp(fun, primals, tangents, has_aux, "jvp")


def _jvp(fun: Callable[..., Any], primals: Any, tangents: Any, has_aux: bool, transformation: str) -> Any:
    """``jvp``'s body; ``transformation`` is the API name errors mention."""
    for what, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, (tuple, list)):
            raise JaxtypedTypeError(
                f"{transformation}: {what} must be a tuple or list of positional arguments, "
                f"got {type(value).__name__}"
            )
    if len(primals) != len(tangents):
        raise JaxtypedTypeError(
            f"{transformation}: got {len(primals)} primal argument(s) but {len(tangents)} tangent(s); "
            "primals and tangents must have the same tree structure"
        )
    names = arg_names(fun, len(primals))
    primal_leaves, tangent_leaves, in_tree = _paired_leaves(tuple(primals), tuple(tangents), names, transformation)
    interp = JVPInterpreter(current_interpreter(), describe_function(fun))
    with transformation_scope(interp):
        boxed = [interp.box(p, t) for p, t in zip(primal_leaves, tangent_leaves)]
        result = fun(*tree_unflatten(in_tree, boxed))
        out, aux = split_aux(result, has_aux, transformation)
        out_leaves, out_tree = tree_flatten(out)
        out_names = flatten_with_names(out, "output")[1]
        pairs = [interp.unbox(leaf_to_array(x, n, transformation)) for x, n in zip(out_leaves, out_names)]
        aux_primal = _aux_primals(interp, aux) if has_aux else None
    primals_out = tree_unflatten(out_tree, [p for p, _ in pairs])
    tangents_out = tree_unflatten(out_tree, [instantiate(t) for _, t in pairs])
    if has_aux:
        return primals_out, tangents_out, aux_primal
    return primals_out, tangents_out


def _paired_leaves(
    primals: tuple[Any, ...], tangents: tuple[Any, ...], names: list[str], transformation: str
) -> tuple[list[Array], list[Tangent], Any]:
    p_leaves, in_tree = tree_flatten(primals)
    t_leaves, t_tree = tree_flatten(tangents)
    if t_tree != in_tree:
        # A TypeError, as in JAX; the message gives the first differing path.
        try:
            broadcast_prefix(primals, tangents, what=transformation, prefix_name="primals", full_name="tangents")
            detail = f"got {in_tree} and {t_tree}"
        except PyTreeStructureError as err:
            detail = str(err).removeprefix(f"{transformation}: ")
        raise JaxtypedTypeError(
            f"{transformation}: primals and tangents must have the same tree structure; {detail}"
        )
    leaf_names = [n for i, arg in enumerate(primals) for n in flatten_with_names(arg, names[i])[1]]
    p_arrays = [leaf_to_array(p, n, transformation) for p, n in zip(p_leaves, leaf_names)]
    t_arrays = [
        _check_tangent(p, leaf_to_array(t, n, transformation), n) for p, t, n in zip(p_arrays, t_leaves, leaf_names)
    ]
    return p_arrays, t_arrays, in_tree


def split_aux(result: object, has_aux: bool, transformation: str) -> tuple[object, object]:
    """``(output, aux)`` of a ``has_aux`` function's result (aux None otherwise)."""
    if not has_aux:
        return result, None
    if not is_tuple(result) or len(result) != 2:
        got = (
            f"an array of type {result.aval.str_short()}"
            if isinstance(result, Array)
            else f"a tuple of length {len(result)}" if is_tuple(result) else type(result).__name__
        )
        raise JaxtypedTypeError(
            f"{transformation} with has_aux=True requires the function to return a pair "
            f"(output, aux), got {got}"
        )
    return result[0], result[1]


def _aux_primals(interp: JVPInterpreter, aux: Any) -> Any:
    leaves, tree = tree_flatten(aux)
    return tree_unflatten(tree, [interp.unbox(x)[0] if isinstance(x, Array) else x for x in leaves])


# === vmap ===


def vmap(
    fun: F,
    in_axes: AxisSpec = 0,
    out_axes: AxisSpec = 0,
    axis_name: str | None = None,
    axis_size: int | None = None,
) -> F:
    """Vectorise ``fun`` over an axis of its arguments (JAX's ``jax.vmap``).

    Args:
        fun: the function to vectorise.
        in_axes: the mapped axis of each positional argument: an int, None
            (not mapped), or a pytree prefix of the arguments. Keyword
            arguments are always mapped over axis 0.
        out_axes: where the mapped axis appears in each output (a pytree
            prefix of the outputs; None for outputs that are not mapped).
        axis_name: a name for the mapped axis (for collectives).
        axis_size: the axis size, needed when no argument is mapped.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.vmap(lambda x: x + 1.0)(jnp.arange(3.0))
        Array([1., 2., 3.], dtype=float32)
    """
    check_callable(fun, "vmap")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    desc = describe_function(fun)
    call: Callable[..., object] = fun  # called with tracers, not its static types

    @wraps(fun)
    def batched(*args: Any, **kwargs: Any) -> Any:
        axes_prefix = in_axes_prefix(in_axes, len(args))
        leaves, in_tree = tree_flatten((args, kwargs))
        names = [n for i, a in enumerate(args) for n in flatten_with_names(a, f"args[{i}]")[1]]
        names += [n for k, v in kwargs.items() for n in flatten_with_names(v, k)[1]]
        axes = broadcast_prefix(
            (axes_prefix, {k: 0 for k in kwargs}), (args, kwargs),
            what="vmap", prefix_name="in_axes", full_name="args",
        )
        if any(is_ref(leaf) for leaf in leaves):
            # Ref arguments (issue 16): mapped refs are threaded through.
            return vmap_with_refs(vmap, call, in_axes, out_axes, axis_name, axis_size, leaves, in_tree, axes, names)
        values, dims = _mapped_inputs(leaves, axes, names)
        size = _axis_size(values, dims, names, axis_size)
        interp = BatchInterpreter(current_interpreter(), BatchAxis(size, axis_name), desc)
        with transformation_scope(interp):
            boxed = [x if d is None else interp.box(cast(Array, x), d) for x, d in zip(values, dims)]  # mapped: an array
            call_args, call_kwargs = tree_unflatten(in_tree, boxed)
            out = call(*call_args, **call_kwargs)
            out_leaves, out_tree = tree_flatten(out)
            out_names = flatten_with_names(out, "output")[1]
            pairs = [interp.unbox(leaf_to_array(x, n, "vmap")) for x, n in zip(out_leaves, out_names)]
        spec = broadcast_prefix(out_axes, out, what="vmap", prefix_name="out_axes", full_name="output")
        results = [_place_output(v, d, a, size, n) for (v, d), a, n in zip(pairs, spec, out_names)]
        return tree_unflatten(out_tree, results)

    return cast(F, batched)


def in_axes_prefix(in_axes: AxisSpec, nargs: int, transformation: str = "vmap") -> object:
    """``in_axes`` as a tree prefix of the ``nargs`` positional arguments
    (an int or None repeated for each), for ``vmap`` and ``pmap``."""
    if isinstance(in_axes, int) or in_axes is None:
        return (in_axes,) * nargs
    if isinstance(in_axes, tuple) and len(in_axes) != nargs:
        raise JaxtypedValueError(
            f"{transformation} in_axes must be an int, None, or a tuple of entries corresponding to the "
            f"positional arguments passed to the function, but got len(in_axes)={len(in_axes)}, "
            f"len(args)={nargs}"
        )
    return in_axes


def _mapped_inputs(leaves: list[Any], axes: list[Any], names: list[str]) -> tuple[list[object], list[BatchDim]]:
    """Per leaf, the value fun gets (a mapped one as an array; an unmapped
    one as it was given, a Python int staying an int, as in JAX) and its
    batch dimension."""
    values: list[object] = []
    dims: list[BatchDim] = []
    for leaf, axis, name in zip(leaves, axes, names):
        if axis is None:
            values.append(leaf)
            dims.append(None)
            continue
        x = leaf_to_array(leaf, name, "vmap")
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise JaxtypedTypeError(f"vmap in_axes for {name} must be an int or None, got {axis!r}")
        if not -x.ndim <= axis < x.ndim:
            raise JaxtypedValueError(
                f"vmap was requested to map its argument {name} along axis {axis}, which "
                f"implies that its rank should be at least {axis + 1 if axis >= 0 else -axis}, "
                f"but it is {x.aval.str_short()}"
            )
        values.append(x)
        dims.append(axis % x.ndim)
    return values, dims


def _axis_size(values: list[object], dims: list[BatchDim], names: list[str], axis_size: int | None) -> int:
    mapped = [(x, d, n) for x, d, n in zip(values, dims, names) if d is not None and isinstance(x, Array)]
    sizes = {x.shape[d] for x, d, _ in mapped}
    if axis_size is not None:
        sizes.add(axis_size)
    if not sizes:
        raise JaxtypedValueError(
            "vmap must have at least one non-None value in in_axes or axis_size must be specified"
        )
    if len(sizes) > 1:
        detail = ", ".join(f"{n} of type {x.aval.str_short()} has size {x.shape[d]} along axis {d}" for x, d, n in mapped)
        given = f"; axis_size={axis_size}" if axis_size is not None else ""
        raise JaxtypedValueError(f"vmap got inconsistent sizes for array axes to be mapped: {detail}{given}")
    return sizes.pop()


def _place_output(value: Array, dim: BatchDim, out_axis: Any, size: int, name: str) -> Array:
    if out_axis is None:
        if dim is not None:
            raise JaxtypedValueError(
                f"vmap has out_axes=None for {name}, but that output is batched (it depends on the mapped inputs)"
            )
        return value
    if isinstance(out_axis, bool) or not isinstance(out_axis, int):
        raise JaxtypedTypeError(f"vmap out_axes for {name} must be an int or None, got {out_axis!r}")
    rank = value.ndim + (dim is None)
    if not -rank <= out_axis < rank:
        raise JaxtypedValueError(f"vmap out_axes={out_axis} is out of range for {name} of rank {rank}")
    return moveaxis(bdim_to_front(value, dim, size), 0, out_axis % rank)


# === jacfwd ===


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
def jacfwd(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], RD],
    argnums: Literal[0] = 0,
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> Jacobian[D0, RD, PD]: ...
@overload
def jacfwd(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], tuple[RD, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: Literal[True],
    holomorphic: bool = False,
) -> JacobianWithAux[D0, RD, AuxD, PD]: ...
@overload
def jacfwd(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, PD], tuple[RD, AuxD]],
    argnums: Literal[0] = 0,
    *,
    has_aux: bool,
    holomorphic: bool = False,
) -> JacobianMaybeWithAux[D0, RD, AuxD, PD]: ...
@overload
def jacfwd(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], RD],
    argnums: Literal[1],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> JacobianOfSecond[D0, D1, RD, PD]: ...
@overload
def jacfwd(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[RD, AuxD]],
    argnums: Literal[1],
    has_aux: Literal[True],
    holomorphic: bool = False,
) -> JacobianOfSecondWithAux[D0, D1, RD, AuxD, PD]: ...
@overload
def jacfwd(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], RD],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> JacobianOfPair[D0, D1, RD, PD]: ...
@overload
def jacfwd(  # type: ignore[overload-overlap]  # see above
    fun: Callable[Concatenate[D0, D1, PD], tuple[RD, AuxD]],
    argnums: tuple[Literal[0], Literal[1]],
    has_aux: Literal[True],
    holomorphic: bool = False,
) -> JacobianOfPairWithAux[D0, D1, RD, AuxD, PD]: ...
@overload
def jacfwd(
    fun: Callable[P, R],
    argnums: int | Sequence[int],
    has_aux: Literal[False] = False,
    holomorphic: bool = False,
) -> Callable[P, PyTree]: ...
@overload
def jacfwd(
    fun: Callable[P, tuple[R, Aux]],
    argnums: int | Sequence[int],
    has_aux: Literal[True],
    holomorphic: bool = False,
) -> Callable[P, tuple[PyTree, Aux]]: ...
@overload
def jacfwd(
    fun: Callable[P, tuple[R, Aux]],
    argnums: int | Sequence[int],
    has_aux: bool,
    holomorphic: bool = False,
) -> Callable[P, PyTree | tuple[PyTree, Aux]]: ...
def jacfwd(
    fun: Callable[..., object], argnums: int | Sequence[int] = 0, has_aux: bool = False, holomorphic: bool = False
) -> Callable[..., object]:
    """The Jacobian of ``fun`` by forward mode (JAX's ``jax.jacfwd``).

    For an output leaf of shape ``S_out`` and an input leaf of shape
    ``S_in`` the Jacobian block has shape ``S_out + S_in``; the result is the
    output pytree with each leaf replaced by the input pytree of blocks
    (a tuple of them when ``argnums`` is a tuple).

    Static types: with respect to one array-like argument the result has
    ``fun``'s output type; for a single-array output, the argument's type
    (a tuple of them for ``argnums=(0, 1)``); otherwise a ``PyTree``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.jacfwd(lambda x: x * x)(jnp.arange(2.0))
        Array([[0., 0.],
               [0., 2.]], dtype=float32)
    """
    check_callable(fun, "jacfwd")

    @wraps(fun)
    def jacobian(*args: Any, **kwargs: Any) -> Any:
        positions = argnums_tuple(argnums, len(args), "jacfwd")
        dyn = tuple(args[i] for i in positions)
        leaves, dyn_tree = tree_flatten(dyn)
        arrays = [leaf_to_array(x, f"args[{i}]", "jacfwd") for i, x in enumerate(leaves)]
        check_jac_inputs(arrays, holomorphic)

        def partial_fun(*dyn_args: Any) -> Any:
            full = list(args)
            for i, value in zip(positions, dyn_args):
                full[i] = value
            return fun(*full, **kwargs)

        basis = standard_basis(arrays)

        def pushforward(*basis_leaves: Array) -> Any:
            tangents = tree_unflatten(dyn_tree, list(basis_leaves))
            if has_aux:
                return _jvp(partial_fun, dyn, tangents, True, "jacfwd")[1:]
            return _jvp(partial_fun, dyn, tangents, False, "jacfwd")[1]

        out_axes: AxisSpec = (-1, None) if has_aux else -1
        pushed = vmap(pushforward, in_axes=0, out_axes=out_axes)(*basis)
        tangents_out, aux = pushed if has_aux else (pushed, None)
        jac = _unravel(tangents_out, arrays, dyn_tree, isinstance(argnums, int))
        return (jac, aux) if has_aux else jac

    return jacobian


def check_jac_inputs(arrays: list[Array], holomorphic: bool, transformation: str = "jacfwd") -> None:
    """Jacobians are taken with respect to floating (or, with
    ``holomorphic``, complex) inputs only, as in JAX."""
    for x in arrays:
        ok = dtypes.is_complex(x.dtype) if holomorphic else dtypes.is_floating(x.dtype)
        if not ok:
            kind = "complex" if holomorphic else "real-valued floating"
            raise JaxtypedTypeError(
                f"{transformation} requires {kind} inputs, but got {x.aval.str_short()}. "
                "For differentiation with respect to integer inputs, use jvp directly."
            )


def standard_basis(arrays: list[Array]) -> list[Array]:
    """One-hot tangents: leaf i gets the rows of the identity for its
    elements, shaped ``(N,) + leaf.shape`` with N the total size."""
    total = sum(x.size for x in arrays)
    basis: list[Array] = []
    offset = 0
    for x in arrays:
        block = np.zeros((total, x.size), dtype=x.dtype)
        block[offset : offset + x.size] = np.eye(x.size, dtype=x.dtype)
        basis.append(array_from_numpy(block.reshape((total, *x.shape)), weak_type=x.weak_type))
        offset += x.size
    return basis


def _unravel(tangents_out: Any, arrays: list[Array], dyn_tree: Any, single: bool) -> Any:
    """Split the trailing basis axis of each output into per-input blocks."""
    out_leaves, out_tree = tree_flatten(tangents_out)
    blocks: list[Any] = []
    for y in out_leaves:
        per_input: list[Array] = []
        offset = 0
        for x in arrays:
            piece = slice_in_dim(y, offset, offset + x.size, axis=y.ndim - 1)
            per_input.append(reshape(piece, (*y.shape[:-1], *x.shape)))
            offset += x.size
        inputs = tree_unflatten(dyn_tree, per_input)
        blocks.append(inputs[0] if single else inputs)
    return tree_unflatten(out_tree, blocks)


# === make_jaxpr ===


class JaxprMaker(Generic[P, JaxprOut]):
    """What ``make_jaxpr(fun)`` returns, for type checkers: called with
    ``fun``'s arguments, or with ``ShapeDtypeStruct`` stand-ins for arrays
    (a tree of them as one of the first three positional arguments; the
    others are then checked at run time, as for ``jit(fun).lower``: Note
    [abstract arguments] in api_jit). A static type only: at run time
    ``make_jaxpr`` returns a plain function, and this class's own
    ``__call__`` raises."""

    @overload
    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> JaxprOut: ...
    @overload
    def __call__(self, a0: SpecTree, /, *args: object, **kwargs: object) -> JaxprOut: ...
    @overload
    def __call__(self, a0: object, a1: SpecTree, /, *args: object, **kwargs: object) -> JaxprOut: ...
    @overload
    def __call__(self, a0: object, a1: object, a2: SpecTree, /, *args: object, **kwargs: object) -> JaxprOut: ...
    def __call__(self, *args: object, **kwargs: object) -> JaxprOut:  # type: ignore[misc]  # as Jitted.lower
        raise NotImplementedError("JaxprMaker is a static type only: make_jaxpr returns a plain function")


@overload
def make_jaxpr(
    fun: Callable[P, object],
    static_argnums: int | Sequence[int] = (),
    axis_env: Sequence[tuple[Hashable, int]] | None = None,
    return_shape: Literal[False] = False,
) -> JaxprMaker[P, ClosedJaxpr[Array | Ref[Array]]]: ...
@overload
def make_jaxpr(
    fun: Callable[P, object],
    static_argnums: int | Sequence[int],
    axis_env: Sequence[tuple[Hashable, int]] | None,
    return_shape: Literal[True],
) -> JaxprMaker[P, tuple[ClosedJaxpr[Array | Ref[Array]], object]]: ...
@overload
def make_jaxpr(
    fun: Callable[P, object],
    static_argnums: int | Sequence[int] = (),
    axis_env: Sequence[tuple[Hashable, int]] | None = None,
    *,
    return_shape: Literal[True],
) -> JaxprMaker[P, tuple[ClosedJaxpr[Array | Ref[Array]], object]]: ...
@overload
def make_jaxpr(
    fun: Callable[P, object],
    static_argnums: int | Sequence[int],
    axis_env: Sequence[tuple[Hashable, int]] | None,
    return_shape: bool,
) -> JaxprMaker[P, ClosedJaxpr[Array | Ref[Array]] | tuple[ClosedJaxpr[Array | Ref[Array]], object]]: ...
@overload
def make_jaxpr(
    fun: Callable[P, object],
    static_argnums: int | Sequence[int] = (),
    axis_env: Sequence[tuple[Hashable, int]] | None = None,
    *,
    return_shape: bool,
) -> JaxprMaker[P, ClosedJaxpr[Array | Ref[Array]] | tuple[ClosedJaxpr[Array | Ref[Array]], object]]: ...
def make_jaxpr(
    fun: Callable[..., object],
    static_argnums: int | Sequence[int] = (),
    axis_env: Sequence[tuple[Hashable, int]] | None = None,
    return_shape: bool = False,
) -> Callable[..., object]:
    """A function that stages ``fun`` out to a closed jaxpr (JAX's
    ``jax.make_jaxpr``).

    Arguments may be arrays, scalars, or ``ShapeDtypeStruct``\\ s (only
    their types are used); ``static_argnums`` are passed to ``fun`` as they
    are. ``axis_env`` lists ``(axis_name, size)`` pairs that collectives in
    ``fun`` (``lax.psum(x, "i")``) may name, as an enclosing ``pmap`` or
    ``vmap`` would bind them; they are staged as equations. With
    ``return_shape`` the output's ``ShapeDtypeStruct`` pytree is
    returned too. A ref passed in is a ``Ref{...}``-typed input; a ref
    ``fun`` closes over is a constvar whose const is the ``Ref`` itself, as
    in JAX.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> print(jt.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(1.0))
        { lambda ; a:f32[]. let b:f32[] = sin a; c:f32[] = mul b 2.0:f32[] in (c,) }
    """
    check_callable(fun, "make_jaxpr")
    desc = describe_function(fun)
    axes = _axis_env(axis_env)

    @wraps(fun)
    def make(*args: Any, **kwargs: Any) -> object:
        with contextlib.ExitStack() as scopes:
            # The named axes are bound below the staging, as shard_map binds
            # its mesh's: collectives over them are recorded as equations.
            for axis in axes:
                scopes.enter_context(transformation_scope(BatchInterpreter(current_interpreter(), axis, f"make_jaxpr of {desc}")))
            return stage(*args, **kwargs)

    def stage(*args: Any, **kwargs: Any) -> object:
        static: set[int] = set(argnums_tuple(static_argnums, len(args), "make_jaxpr")) if static_argnums != () else set()
        names = arg_names(fun, len(args))
        dynamic = {i: a for i, a in enumerate(args) if i not in static}
        leaves, in_tree = tree_flatten((dynamic, kwargs))
        leaf_names = [n for i, a in dynamic.items() for n in flatten_with_names(a, names[i])[1]]
        leaf_names += [n for k, v in kwargs.items() for n in flatten_with_names(v, k)[1]]
        # Refs (issue 16), passed or closed over, are read and written by
        # equations (Note [staged refs]): a passed ref is a ref-typed input;
        # a closed-over one is traced as an input after the arguments, then
        # becomes a constvar bound to the ref itself (refs_as_consts).
        closed_refs: list[Ref[Array]] = []
        in_avals = [ref_or_input_aval(x, n, "make_jaxpr") for x, n in zip(leaves, leaf_names)]
        while True:
            # The type only: reading a ref of an enclosing staging would stage a read there.
            closed_avals = [AbstractRef(r.shape, r.dtype, r.weak_type) for r in closed_refs]
            interp = StagingInterpreter(current_interpreter(), desc)
            stage_refs_in(interp)
            try:
                with transformation_scope(interp), shared_numpy_constants():
                    tracers: list[Any] = [interp.new_arg(aval, n) for aval, n in zip(in_avals, leaf_names)]
                    boxes: list[Ref[Array]] = [Ref(t, interp, freezable=False) for t, x in zip(tracers, leaves) if is_ref(x)]
                    box_iter = iter(boxes)
                    tracers = [next(box_iter) if is_ref(x) else t for t, x in zip(tracers, leaves)]
                    closed_values = [interp.new_arg(aval, "closed-over ref") for aval in closed_avals]
                    traced_dynamic, traced_kwargs = tree_unflatten(in_tree, tracers)
                    call_args = [traced_dynamic[i] if i in traced_dynamic else a for i, a in enumerate(args)]
                    with bound_refs(closed_refs, closed_values):
                        out = fun(*call_args, **traced_kwargs)
                    out_leaves, out_tree = tree_flatten(out)
                    out_names = flatten_with_names(out, "output")[1]
                    outs = [leaf_to_array(x, n, "make_jaxpr") for x, n in zip(out_leaves, out_names)]
                    traced = interp.build(outs)
            except RefsTouched as err:
                # Ours when the ref lives outside this trace (err.staging is
                # then this trace or one enclosing it): the jaxpr closes over
                # the ref itself, and no enclosing trace sees it, as in JAX.
                ours = err.staging.is_ancestor_of(interp)
                for leaf, leaf_name in zip(leaves, leaf_names):
                    if ours and err.ref is leaf:
                        raise JaxtypedValueError(
                            f"when tracing {desc} for make_jaxpr, a mutable array reference of type "
                            f"{ref_type_str(leaf)} was both closed over and passed as the argument {leaf_name}"
                        ) from None
                if not ours or any(err.ref is r for r in closed_refs):
                    raise
                closed_refs.append(err.ref)
                continue
            break
        closed = refs_as_consts(traced, closed_refs)
        maybe_check_jaxpr(closed)
        if return_shape:
            shapes = [ShapeDtypeStruct(o.shape, o.dtype, weak_type=o.weak_type) for o in outs]
            return closed, tree_unflatten(out_tree, shapes)
        return closed

    return make


def _axis_env(axis_env: object) -> list[BatchAxis]:
    """``make_jaxpr``'s ``axis_env`` (as the caller gave it) as the axes to
    bind, checked."""
    if axis_env is None:
        return []
    if isinstance(axis_env, (str, bytes)) or not isinstance(axis_env, Sequence):
        raise JaxtypedValueError(f"make_jaxpr: axis_env must be a sequence of (axis_name, size) pairs, got {axis_env!r}")
    axes: list[BatchAxis] = []
    for entry in cast("Sequence[object]", axis_env):
        if not isinstance(entry, (tuple, list)) or len(cast("Sequence[object]", entry)) != 2:
            raise JaxtypedValueError(f"make_jaxpr: each axis_env entry must be an (axis_name, size) pair, got {entry!r}")
        name, size = cast("Sequence[object]", entry)
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise JaxtypedValueError(f"make_jaxpr: the size of axis {name!r} in axis_env must be a positive int, got {size!r}")
        axes.append(BatchAxis(int(cast(int, size)), name))
    return axes



# === eval_shape and ensure_compile_time_eval ===


# A function returning Any (one calling an unannotated function, in mypy)
# gives Any, not the first array-like overload's ShapeDtypeStruct: its
# result may well be a dict (issue 20).
@overload
def eval_shape(fun: Callable[..., AnyOnly], /, *args: object, **kwargs: object) -> AnyOnly: ...
@overload
def eval_shape(fun: Callable[..., ArrayLike], /, *args: object, **kwargs: object) -> ShapeDtypeStruct: ...
@overload
def eval_shape(fun: Callable[..., tuple[ArrayLike, ...]], /, *args: object, **kwargs: object) -> tuple[ShapeDtypeStruct, ...]: ...
@overload
def eval_shape(fun: Callable[..., Mapping[str, ArrayLike]], /, *args: object, **kwargs: object) -> dict[str, ShapeDtypeStruct]: ...
@overload
def eval_shape(fun: Callable[..., object], /, *args: object, **kwargs: object) -> object: ...
def eval_shape(fun: Callable[..., object], /, *args: object, **kwargs: object) -> object:
    """The shapes and dtypes of ``fun(*args, **kwargs)`` without computing
    it (JAX's ``jax.eval_shape``): ``fun`` is traced on the arguments' types
    only, so arguments may be ``ShapeDtypeStruct``\\ s, and a pytree of
    ``ShapeDtypeStruct`` of the output's structure is returned.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.eval_shape(lambda x: jnp.sum(x, axis=0), jt.ShapeDtypeStruct((1000, 3), "float32"))
        ShapeDtypeStruct(shape=(3,), dtype=float32)
    """
    check_callable(fun, "eval_shape")
    _, shapes = make_jaxpr(fun, return_shape=True)(*args, **kwargs)
    return shapes


@contextmanager
def ensure_compile_time_eval() -> Generator[None, None, None]:
    """Evaluate operations on concrete values at once, even while tracing
    (JAX's ``jax.ensure_compile_time_eval``): inside a jitted function,
    ``jnp.arange(3) * 2`` in the block is a concrete array usable as a
    Python value, while operations on traced arguments are still staged.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> @jt.jit
        ... def f(x):
        ...     with jt.ensure_compile_time_eval():
        ...         n = int(jnp.sum(jnp.arange(4)))  # concrete: 6
        ...     return x * n
        >>> f(2.0)
        Array(12., dtype=float32, weak_type=True)
    """
    with compile_time_eval():
        yield
