"""``linear_call``: a call of a linear function with a user-given transpose
(JAX's ``jax.custom_derivatives.linear_call``; layer L4).

``linear_call(fun, fun_transpose, residual_args, linear_args)`` traces
``fun(residual_args, linear_args)`` and ``fun_transpose(residual_args,
out_cotangent)`` to jaxprs and binds :class:`LinearCall`, which holds both.
Its rules:

- evaluation runs ``fun``'s jaxpr op by op and lowering inlines it;
- ``jvp`` is the same call on the linear arguments' tangents (``fun`` is
  linear in them); residuals must not be perturbed (JAX fails an
  assertion there; this raises a typed error);
- the transpose is a ``linear_call`` of ``fun_transpose`` whose own
  transpose is ``fun`` again, so ``grad`` of ``grad`` keeps using both;
- ``vmap`` batches both jaxprs. The linear arguments and the outputs are
  always batched (at dimension 0): a batched residual makes every output
  batched, and the transpose must then give batched cotangents for every
  linear argument. JAX has no batching rule.

Both functions' closed-over values are operands, laid out as
``[transpose consts, callee consts, residuals, linear args]``: transposing
swaps the first two groups and the jaxprs, and the callee's inputs stay the
last operands (what :func:`inner_effects` assumes). JAX traces
``fun_transpose`` only when the call is transposed; here it is traced with
``fun``, so its errors surface at the call.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar, cast, final

from typing_extensions import override

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, shared_numpy_constants
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.effects import Effects, inner_effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, Primitive, Tangent
from jaxtyped._src.custom_derivatives import rule_name
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, UnexpectedTracerError
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.structural import bdim_to_front, instantiate, zeros
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import (
    batch_jaxpr,
    cached_transform,
    check_operand_types,
    consts_as_invars,
    evaluate_eagerly,
    hashable_or_id,
)
from jaxtyped._src.tree_util import PyTreeDef, tree_unflatten
from jaxtyped._src.util import describe_function

__all__ = ["LinearCall", "linear_call"]

Res = TypeVar("Res")
Lin = TypeVar("Lin")
Out = TypeVar("Out")


@final
@dataclass(frozen=True, slots=True)
class LinearCall(Primitive):
    """Call of a function linear in its last operands, with its transpose
    (JAX's ``linear_call``).

    Operands: ``num_transpose_consts`` values ``transpose_jaxpr`` closes over,
    ``num_callee_consts`` values ``callee`` closes over, ``num_res``
    residuals, then the linear arguments.

    Attributes:
        callee: the linear function (callee consts, residuals, linear
            arguments -> outputs), without constvars.
        transpose_jaxpr: its transpose (transpose consts, residuals, output
            cotangents -> linear arguments' cotangents), without constvars.
        num_callee_consts: how many operands ``callee`` closes over.
        num_transpose_consts: how many operands ``transpose_jaxpr`` closes over.
        num_res: how many operands are residuals.
        fun_name: the user's function's name, for errors.
        transpose_name: the user's transpose function's name, printed as
            ``transpose_thunk=``.
    """

    name: ClassVar[str] = "linear_call"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    callee: Jaxpr
    transpose_jaxpr: Jaxpr
    num_callee_consts: int
    num_transpose_consts: int
    num_res: int
    fun_name: str
    transpose_name: str

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        expected = self.transpose_jaxpr.in_avals[: self.num_transpose_consts] + self.callee.in_avals
        check_operand_types(f"linear_call of {self.fun_name}", avals, expected)
        return self.callee.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        callee_args = args[self.num_transpose_consts :]
        return evaluate_eagerly(lambda: eval_jaxpr(self.callee, (), *callee_args))

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return lower_jaxpr_inline(ctx, self.callee, (), args[self.num_transpose_consts :])

    @override
    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        # Only the callee runs; the transpose's effects belong to the call
        # that transposing makes.
        return inner_effects((self.callee,), len(avals))

    @property
    def num_known(self) -> int:
        """How many leading operands are not linear (consts, residuals)."""
        return self.num_transpose_consts + self.num_callee_consts + self.num_res

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        nt, nk = self.num_transpose_consts, self.num_known
        for value in tangents[nt : nt + self.num_callee_consts]:
            if not isinstance(value, Zero):
                raise UnexpectedTracerError(
                    f"linear_call function {self.fun_name} closes over a value of type {value.aval.str_short()} "
                    "that is being differentiated, but linear_call differentiates only its linear arguments: "
                    "pass the value as one of them, or wrap it in stop_gradient"
                )
        for i, value in enumerate(tangents[nt + self.num_callee_consts : nk]):
            if not isinstance(value, Zero):
                raise JaxtypedTypeError(
                    f"linear_call of {self.fun_name}: residual operand {i} ({value.aval.str_short()}) is being "
                    "differentiated, but linear_call is differentiable only in its linear arguments (as in "
                    "JAX); pass the value as a linear argument, or wrap it in stop_gradient"
                )
        # Tangents of the transpose's closed-over values do not change the
        # call's value, so they are dropped.
        outs = bind(self, *primals)
        tangent_outs = bind(self, *primals[:nk], *(instantiate(t) for t in tangents[nk:]))
        return outs, tangent_outs

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        nt, nf, nk = self.num_transpose_consts, self.num_callee_consts, self.num_known
        known: list[Array] = []
        for i, arg in enumerate(args[:nk]):
            if isinstance(arg, UndefinedPrimal):
                # Only reachable through linear_transpose of a function of a residual.
                raise JaxtypedTypeError(
                    f"linear_call of {self.fun_name} is not linear in its residual operand {i - nt - nf} "
                    f"({arg.aval.str_short()}): only its linear arguments can be transposed"
                )
            known.append(arg)
        ct_avals = self.transpose_jaxpr.in_avals[nt + self.num_res :]
        ct_arrays = [zeros(aval) if isinstance(ct, Zero) else ct for ct, aval in zip(cts, ct_avals, strict=True)]
        t_consts, f_consts, res = known[:nt], known[nt : nt + nf], known[nt + nf :]
        lin_cts = bind(self.flipped(), *f_consts, *t_consts, *res, *ct_arrays)
        results: list[Tangent | None] = [None] * nk
        results += [ct if isinstance(arg, UndefinedPrimal) else None for ct, arg in zip(lin_cts, args[nk:], strict=True)]
        return tuple(results)

    def flipped(self) -> "LinearCall":
        """The call of the transpose, whose transpose is this callee."""
        return LinearCall(
            callee=self.transpose_jaxpr,
            transpose_jaxpr=self.callee,
            num_callee_consts=self.num_transpose_consts,
            num_transpose_consts=self.num_callee_consts,
            num_res=self.num_res,
            fun_name=self.transpose_name,
            transpose_name=self.fun_name,
        )

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        nt, nk, size = self.num_transpose_consts, self.num_known, axis.size
        operands = [*args[:nk], *(bdim_to_front(x, d, size) for x, d in zip(args[nk:], dims[nk:], strict=True))]
        operand_dims = (*dims[:nk], *(0 for _ in args[nk:]))
        avals = tuple(x.aval for x in operands)
        name_key = hashable_or_id(axis.name)
        n_out = len(self.callee.outvars)

        def make_callee() -> tuple[ClosedJaxpr[Array], None]:
            closed, _ = batch_jaxpr(self.callee, axis, avals[nt:], operand_dims[nt:], (True,) * n_out)
            return closed, None

        callee, _ = cached_transform(("linear_call vmap", self.callee, operand_dims[nt:], avals[nt:], size, name_key), make_callee)
        res = slice(nt + self.num_callee_consts, nk)
        t_avals = (*avals[:nt], *avals[res], *callee.jaxpr.out_avals)
        t_dims = (*operand_dims[:nt], *operand_dims[res], *(0 for _ in range(n_out)))
        n_lin = len(args) - nk

        def make_transpose() -> tuple[ClosedJaxpr[Array], None]:
            closed, _ = batch_jaxpr(self.transpose_jaxpr, axis, t_avals, t_dims, (True,) * n_lin)
            return closed, None

        transpose, _ = cached_transform(("linear_call vmap", self.transpose_jaxpr, t_dims, t_avals, size, name_key), make_transpose)
        prim = LinearCall(
            callee=consts_as_invars(callee.jaxpr),
            transpose_jaxpr=consts_as_invars(transpose.jaxpr),
            num_callee_consts=len(callee.consts) + self.num_callee_consts,
            num_transpose_consts=len(transpose.consts) + nt,
            num_res=self.num_res,
            fun_name=self.fun_name,
            transpose_name=self.transpose_name,
        )
        outs = bind(prim, *transpose.consts, *operands[:nt], *callee.consts, *operands[nt:])
        return outs, (0,) * len(outs)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        # JAX's parameters; JAX holds the transpose as a thunk, printed
        # ``transpose_thunk=<function ...>``: here the transpose function's name.
        consts = (("num_transpose_consts", self.num_transpose_consts),) if self.num_transpose_consts else ()
        return (
            ("callee", self.callee), ("num_callee_consts", self.num_callee_consts), ("num_res", self.num_res),
            *consts, ("transpose_thunk", self.transpose_name),
        )  # fmt: skip


# === the user-facing function ===


def _stage(
    fun: Callable[[object, object], object],
    desc: str,
    res_tree: PyTreeDef,
    res_avals: Sequence[ShapedArray],
    arg_tree: PyTreeDef,
    arg_avals: Sequence[ShapedArray],
    convert: Callable[[list[object], list[str], PyTreeDef], list[Array]],
) -> tuple[ClosedJaxpr[Array], PyTreeDef]:
    """``fun(residuals, args)`` staged over the given types into a closed
    jaxpr; ``convert`` turns the output leaves into arrays (checking them)."""
    interp = StagingInterpreter(current_interpreter(), desc, "linear_call")
    with transformation_scope(interp), shared_numpy_constants():
        res = [interp.new_arg(aval) for aval in res_avals]
        args = [interp.new_arg(aval) for aval in arg_avals]
        out = fun(tree_unflatten(res_tree, res), tree_unflatten(arg_tree, args))
        leaves, names, out_tree = named_leaves(out, "output")
        closed = interp.build(convert(leaves, names, out_tree))
    maybe_check_jaxpr(closed)
    return closed, out_tree


def linear_call(
    fun: Callable[[Res, Lin], Out], fun_transpose: Callable[[Res, Out], object], residual_args: Res, linear_args: Lin
) -> Out:
    """Call ``fun(residual_args, linear_args)``, a function linear in
    ``linear_args``, whose transpose is ``fun_transpose(residual_args,
    out_cotangent)`` (JAX's ``jax.custom_derivatives.linear_call``).

    ``fun_transpose`` must return a value of ``linear_args``' structure,
    shapes and dtypes. ``jvp`` applies the call to the linear arguments'
    tangents; ``grad``, ``vjp`` and ``linear_transpose`` call
    ``fun_transpose``, whose transpose is ``fun`` again. Residuals are not
    differentiable.

    >>> import jaxtyped as jt
    >>> from jaxtyped.custom_derivatives import linear_call
    >>> def div_add(x, denom):
    ...     return x + linear_call(lambda r, x: x / r, lambda r, t: t / r, denom, x)
    >>> float(div_add(9.0, 3.0))
    12.0
    >>> float(jt.grad(div_add)(9.0, 3.0))
    1.3333333730697632

    Raises:
        JaxtypedTypeError: an argument or output leaf is not an array;
            ``fun_transpose`` returns another structure than
            ``linear_args``; a residual is differentiated.
        JaxtypedValueError: ``fun_transpose`` returns a leaf of another
            shape or dtype than the linear argument it stands for.
    """
    fun_desc, t_desc = describe_function(fun), describe_function(fun_transpose)
    res_leaves, res_names, res_tree = named_leaves(residual_args, "residual_args")
    lin_leaves, lin_names, lin_tree = named_leaves(linear_args, "linear_args")
    res = [leaf_as_array(x, f"linear_call of {fun_desc}: {n}") for x, n in zip(res_leaves, res_names)]
    lin = [leaf_as_array(x, f"linear_call of {fun_desc}: {n}") for x, n in zip(lin_leaves, lin_names)]
    res_avals = [x.aval for x in res]
    lin_avals = [x.aval for x in lin]

    def fun_outputs(leaves: list[object], names: list[str], tree: PyTreeDef) -> list[Array]:
        return [leaf_as_array(x, f"linear_call function {fun_desc}: {n}") for x, n in zip(leaves, names)]

    # Called on tracers of Res's and Lin's structure, which stand for them.
    untyped_fun = cast(Callable[[object, object], object], fun)
    callee, out_tree = _stage(untyped_fun, fun_desc, res_tree, res_avals, lin_tree, lin_avals, fun_outputs)

    def transpose_outputs(leaves: list[object], names: list[str], tree: PyTreeDef) -> list[Array]:
        where = f"linear_call: the transpose function {t_desc} (of {fun_desc})"
        if tree != lin_tree:
            raise JaxtypedTypeError(
                f"{where} must return a value of the linear arguments' structure {lin_tree}, but returned {tree}"
            )
        outs: list[Array] = []
        for leaf, name, lin_name, aval in zip(leaves, names, lin_names, lin_avals, strict=True):
            x = leaf_as_array(leaf, f"{where}: {name}")
            if x.aval.weak_type and x.shape == aval.shape and x.dtype != aval.dtype:
                x = convert_element_type(x, aval.dtype)  # a Python scalar takes the argument's dtype
            if x.shape != aval.shape or x.dtype != aval.dtype:
                raise JaxtypedValueError(
                    f"{where} returned {x.aval.str_short()} at {name}, but the linear argument {lin_name} it "
                    f"is the cotangent of is {aval.str_short()}"
                )
            outs.append(x)
        return outs

    untyped_transpose = cast(Callable[[object, object], object], fun_transpose)
    transpose, _ = _stage(untyped_transpose, t_desc, res_tree, res_avals, out_tree, callee.jaxpr.out_avals, transpose_outputs)
    prim = LinearCall(
        callee=consts_as_invars(callee.jaxpr),
        transpose_jaxpr=consts_as_invars(transpose.jaxpr),
        num_callee_consts=len(callee.consts),
        num_transpose_consts=len(transpose.consts),
        num_res=len(res),
        fun_name=rule_name(fun),
        transpose_name=rule_name(fun_transpose),
    )
    outs = bind(prim, *transpose.consts, *callee.consts, *res, *lin)
    return cast(Out, tree_unflatten(out_tree, outs))  # fun's output, rebuilt from its structure
