"""The primitives behind ``custom_jvp`` and ``custom_vjp`` (layer L4):
``custom_jvp_call``, ``custom_vjp_call`` and ``custom_lin``.

See Note [custom derivatives as call primitives] in
:mod:`jaxtyped._src.custom_derivatives` for how they are used. The rules
they hold are flat (arrays in, arrays out, see :class:`JVPRule`,
:class:`FwdRule`, :class:`BwdRule`); vmap wraps them (``_Batched*``) so
that they run under a batching interpreter when they are finally called.
Every batched output and residual is moved to batch dimension 0, so the
batch dimensions of a rule's results are known before the rule runs.

Rules defined with ``symbolic_zeros`` (Note [symbolic zeros in custom
rules] in :mod:`jaxtyped._src.custom_derivatives`) receive the symbolic
:class:`Zero` tangents and cotangents as they are, instead of zeros, and
may return ``Zero`` s; under vmap a ``Zero`` is handed on with the type of
one batch element.
"""

from abc import ABC, abstractmethod
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, final

from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import EVAL, bind, current_interpreter, interpreting, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, UnexpectedTracerError
from jaxtyped._src.interpreters.batching import BatchInterpreter
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.reductions import reduce_sum
from jaxtyped._src.lax.structural import bdim_to_front, instantiate, moveaxis
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import cached_transform, consts_as_invars
from jaxtyped._src.tree_util import PyTreeDef

__all__ = ["JVPRule", "FwdRule", "BwdRule", "CustomCall", "CustomJVPCall", "CustomVJPCall", "CustomLin"]


# === flat rules held by the primitives ===


class JVPRule(ABC):
    """A jvp rule over flat arrays: primals and tangents of the call's
    operands after the closed-over values -> primal and tangent outputs.
    Zero tangents are instantiated unless :attr:`symbolic_zeros`."""

    __slots__ = ()

    @property
    @abstractmethod
    def name(self) -> str:
        """The user's rule name, shown in printed jaxprs."""

    @property
    def symbolic_zeros(self) -> bool:
        """Whether the rule takes symbolic :class:`Zero` tangents."""
        return False

    @abstractmethod
    def __call__(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        """Primal and tangent outputs (a tangent output may be a ``Zero``)."""

    def __str__(self) -> str:
        return self.name


class FwdRule(ABC):
    """A custom_vjp forward rule over flat arrays: the call's operands
    after the closed-over values (and which of them are perturbed, i.e.
    have a non-zero tangent) -> outputs, residual leaves and the
    residuals' tree structure."""

    __slots__ = ()

    @property
    @abstractmethod
    def name(self) -> str:
        """The user's rule name, shown in printed jaxprs."""

    @property
    def symbolic_zeros(self) -> bool:
        """Whether the rule is told which operands are perturbed."""
        return False

    @abstractmethod
    def __call__(
        self, primals: tuple[Array, ...], perturbed: tuple[bool, ...]
    ) -> tuple[tuple[Array, ...], tuple[Array, ...], PyTreeDef]:
        """Outputs, residual leaves and the residuals' structure."""

    def __str__(self) -> str:
        return self.name


class BwdRule(ABC):
    """A custom_vjp backward rule over flat arrays: residual leaves and
    output cotangents (zeros instantiated unless :attr:`symbolic_zeros`)
    -> one cotangent per differentiable leaf."""

    __slots__ = ()

    @property
    @abstractmethod
    def name(self) -> str:
        """The user's rule name, shown in printed jaxprs."""

    @property
    def symbolic_zeros(self) -> bool:
        """Whether the rule takes symbolic :class:`Zero` cotangents."""
        return False

    @abstractmethod
    def __call__(self, res_tree: PyTreeDef, res: tuple[Array, ...], cts: tuple[Tangent, ...]) -> tuple[Tangent, ...]:
        """The cotangents (symbolic zeros where the rule returned None)."""

    def __str__(self) -> str:
        return self.name


# === rules under vmap ===


def _batched_aval(aval: ShapedArray, dim: BatchDim, size: int) -> ShapedArray:
    """``aval`` with a batch axis of ``size`` inserted at ``dim``."""
    if dim is None:
        return aval
    return aval.update(shape=(*aval.shape[:dim], size, *aval.shape[dim:]))


def _unbatched_aval(aval: ShapedArray, dim: BatchDim) -> ShapedArray:
    """``aval`` without its batch axis ``dim``: one batch element's type."""
    if dim is None:
        return aval
    return aval.update(shape=(*aval.shape[:dim], *aval.shape[dim + 1 :]))


def _as_symbolic(t: Tangent) -> Tangent:
    """A tangent as a symbolic_zeros rule takes it: a ``float0`` tangent
    (of an integer) is zero, as in JAX."""
    return Zero(t.aval) if not isinstance(t, Zero) and dtypes.is_float0(t.aval.dtype) else t


def _is_perturbed(t: Tangent) -> bool:
    return not isinstance(_as_symbolic(t), Zero)


@contextmanager
def _closure_hint(rule_name: str) -> Generator[None, None, None]:
    """Explain the one way a batched rule meets a foreign tracer."""
    try:
        yield
    except UnexpectedTracerError as err:
        raise UnexpectedTracerError(
            f"{err} This happened while the custom rule {rule_name} ran under vmap: a custom rule "
            "that closes over a value batched by an enclosing vmap cannot run once that vmap has "
            "handed the call on (jvp or grad of a vmapped function); pass the value as an argument "
            "instead (for custom_jvp, through nondiff_argnums)."
        ) from err


@final
class _BatchedJVPRule(JVPRule):
    """``inner`` under vmap: primals (and their tangents, which have the
    same batch dimensions) at ``dims``; every output at batch dimension 0."""

    __slots__ = ("inner", "axis", "dims")

    def __init__(self, inner: JVPRule, axis: BatchAxis, dims: tuple[BatchDim, ...]) -> None:
        self.inner, self.axis, self.dims = inner, axis, dims

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def symbolic_zeros(self) -> bool:
        return self.inner.symbolic_zeros

    def __call__(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        interp = BatchInterpreter(current_interpreter(), self.axis, self.name)
        with transformation_scope(interp), _closure_hint(self.name):
            boxed_p = tuple(interp.box(p, d) for p, d in zip(primals, self.dims, strict=True))
            boxed_t = tuple(
                Zero(_unbatched_aval(t.aval, d)) if isinstance(t, Zero) else interp.box(t, d)
                for t, d in zip(tangents, self.dims, strict=True)
            )
            outs, tangent_outs = self.inner(boxed_p, boxed_t)
            pairs = [interp.unbox(x) for x in outs]
            tangent_pairs = [t if isinstance(t, Zero) else interp.unbox(t) for t in tangent_outs]
        size = self.axis.size
        return (
            tuple(bdim_to_front(v, d, size) for v, d in pairs),
            tuple(
                Zero(_batched_aval(t.aval, 0, size)) if isinstance(t, Zero) else bdim_to_front(t[0], t[1], size)
                for t in tangent_pairs
            ),
        )


@final
class _BatchedFwd(FwdRule):
    """``inner`` under vmap: primals at ``dims``; outputs and residuals at
    batch dimension 0."""

    __slots__ = ("inner", "axis", "dims")

    def __init__(self, inner: FwdRule, axis: BatchAxis, dims: tuple[BatchDim, ...]) -> None:
        self.inner, self.axis, self.dims = inner, axis, dims

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def symbolic_zeros(self) -> bool:
        return self.inner.symbolic_zeros

    def __call__(
        self, primals: tuple[Array, ...], perturbed: tuple[bool, ...]
    ) -> tuple[tuple[Array, ...], tuple[Array, ...], PyTreeDef]:
        interp = BatchInterpreter(current_interpreter(), self.axis, self.name)
        with transformation_scope(interp), _closure_hint(self.name):
            boxed = tuple(interp.box(p, d) for p, d in zip(primals, self.dims, strict=True))
            outs, res, res_tree = self.inner(boxed, perturbed)
            pairs = [interp.unbox(x) for x in outs]
            res_pairs = [interp.unbox(x) for x in res]
        size = self.axis.size
        return (
            tuple(bdim_to_front(v, d, size) for v, d in pairs),
            tuple(bdim_to_front(v, d, size) for v, d in res_pairs),
            res_tree,
        )


@final
class _BatchedBwd(BwdRule):
    """``inner`` under vmap: residuals at ``res_dims`` (None: all at 0),
    cotangents at 0; each input cotangent is placed at its input's batch
    dimension, or summed over the batch for inputs that were not batched."""

    __slots__ = ("inner", "axis", "res_dims", "arg_dims")

    def __init__(
        self, inner: BwdRule, axis: BatchAxis, res_dims: tuple[BatchDim, ...] | None, arg_dims: tuple[BatchDim, ...]
    ) -> None:
        self.inner, self.axis, self.res_dims, self.arg_dims = inner, axis, res_dims, arg_dims

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def symbolic_zeros(self) -> bool:
        return self.inner.symbolic_zeros

    def __call__(self, res_tree: PyTreeDef, res: tuple[Array, ...], cts: tuple[Tangent, ...]) -> tuple[Tangent, ...]:
        res_dims = self.res_dims if self.res_dims is not None else (0,) * len(res)
        interp = BatchInterpreter(current_interpreter(), self.axis, self.name)
        with transformation_scope(interp), _closure_hint(self.name):
            boxed_res = tuple(interp.box(r, d) for r, d in zip(res, res_dims, strict=True))
            boxed_cts = tuple(Zero(_unbatched_aval(ct.aval, 0)) if isinstance(ct, Zero) else interp.box(ct, 0) for ct in cts)
            arg_cts = self.inner(res_tree, boxed_res, boxed_cts)
            pairs = [ct if isinstance(ct, Zero) else interp.unbox(ct) for ct in arg_cts]
        return tuple(self._place(pair, dim) for pair, dim in zip(pairs, self.arg_dims, strict=True))

    def _place(self, pair: Zero | tuple[Array, BatchDim], arg_dim: BatchDim) -> Tangent:
        size = self.axis.size
        if isinstance(pair, Zero):
            return Zero(_batched_aval(pair.aval, arg_dim, size))
        front = bdim_to_front(pair[0], pair[1], size)
        if arg_dim is None:
            return reduce_sum(front, (0,))
        return moveaxis(front, 0, arg_dim)


def _batch_to_front(
    jaxpr: Jaxpr, axis: BatchAxis, in_avals: tuple[ShapedArray, ...], dims: tuple[BatchDim, ...]
) -> ClosedJaxpr[Array]:
    """The jaxpr batched, every output moved to batch dimension 0 (so that
    the batched rules, which do the same, agree with it)."""
    staging = StagingInterpreter(current_interpreter(), "vmap of a custom derivative call", "vmap")
    with transformation_scope(staging):
        vals = [staging.new_arg(aval) for aval in in_avals]
        batch_interp = BatchInterpreter(staging, axis, "a custom derivative call")
        with transformation_scope(batch_interp):
            outs = eval_jaxpr(jaxpr, (), *(batch_interp.box(v, d) for v, d in zip(vals, dims)))
            pairs = [batch_interp.unbox(o) for o in outs]
        return staging.build([bdim_to_front(v, d, axis.size) for v, d in pairs])


# === the primitives ===


class CustomCall(Primitive):
    """Shared rules of ``custom_jvp_call``, ``custom_vjp_call`` and
    ``custom_vmap_call`` (:mod:`jaxtyped._src.custom_batching`): a call of
    ``call_jaxpr`` on ``num_consts`` closed-over values followed by the
    arguments' leaves (traced non-differentiable ones first)."""

    __slots__ = ()
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    call_jaxpr: Jaxpr
    num_consts: int
    fun_name: str
    kind: ClassVar[str]

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        expected = self.call_jaxpr.in_avals
        if len(avals) != len(expected) or not all(a.same_type(e) for a, e in zip(avals, expected)):
            got = ", ".join(a.str_short() for a in avals)
            want = ", ".join(a.str_short() for a in expected)
            raise JaxtypedTypeError(f"{self.kind} function {self.fun_name}: called with ({got}) but traced for ({want})")
        return self.call_jaxpr.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        # Op by op, as the plain function would run: no compile per call.
        with interpreting(EVAL):
            outs = eval_jaxpr(self.call_jaxpr, (), *args)
        results: list[ArrayImpl] = []
        for out in outs:
            assert isinstance(out, ArrayImpl), type(out)
            results.append(out)
        return tuple(results)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return lower_jaxpr_inline(ctx, self.call_jaxpr, (), args)

    @override
    def format_param(self, name: str, value: object) -> str:
        if isinstance(value, (JVPRule, FwdRule, BwdRule)):
            return value.name
        return Primitive.format_param(self, name, value)

    def arg_tangents(self, tangents: tuple[Tangent, ...]) -> tuple[Tangent, ...]:
        """The tangents of the operands after the closed-over values,
        checking that those have none: a rule cannot account for them."""
        for value in tangents[: self.num_consts]:
            if not isinstance(value, Zero):
                raise UnexpectedTracerError(
                    f"{self.kind} function {self.fun_name} closes over a value of type "
                    f"{value.aval.str_short()} that is being differentiated; its custom rule cannot "
                    "account for that value's derivative. Pass the value as an argument instead."
                )
        return tangents[self.num_consts :]


@final
@dataclass(frozen=True, slots=True)
class CustomJVPCall(CustomCall):
    """Call of a ``custom_jvp`` function (JAX's ``custom_jvp_call``).

    Attributes:
        call_jaxpr: the primal function, without constvars; its first
            ``num_consts`` inputs are the values it closes over.
        rule: the jvp rule over the operands after the closed-over values
            (printed ``jvp=``).
        num_consts: how many leading operands are closed-over values.
        fun_name: the function's name, printed as ``name=``.
    """

    name: ClassVar[str] = "custom_jvp_call"
    several_results = True
    kind: ClassVar[str] = "custom_jvp"
    call_jaxpr: Jaxpr
    rule: JVPRule
    num_consts: int
    fun_name: str

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        arg_tangents = self.arg_tangents(tangents)
        if self.rule.symbolic_zeros:
            rule_tangents = tuple(_as_symbolic(t) for t in arg_tangents)
        else:
            rule_tangents = tuple(instantiate(t) for t in arg_tangents)
        return self.rule(primals[self.num_consts :], rule_tangents)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        in_avals = tuple(a.aval for a in args)
        key = ("custom_jvp vmap", self.call_jaxpr, self.rule, dims, in_avals, axis)

        def make() -> tuple[ClosedJaxpr[Array], JVPRule]:
            closed = _batch_to_front(self.call_jaxpr, axis, in_avals, dims)
            return closed, _BatchedJVPRule(self.rule, axis, dims[self.num_consts :])

        closed, rule = cached_transform(key, make)
        prim = CustomJVPCall(consts_as_invars(closed.jaxpr), rule, len(closed.consts) + self.num_consts, self.fun_name)
        outs = bind(prim, *closed.consts, *args)
        return outs, (0,) * len(outs)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        consts = (("num_consts", self.num_consts),) if self.num_consts else ()
        return (
            ("name", self.fun_name), ("call_jaxpr", self.call_jaxpr), ("jvp", self.rule), *consts,
            ("symbolic_zeros", self.rule.symbolic_zeros),
        )  # fmt: skip


@final
@dataclass(frozen=True, slots=True)
class CustomVJPCall(CustomCall):
    """Call of a ``custom_vjp`` function (JAX's ``custom_vjp_call``).

    Attributes:
        call_jaxpr: the primal function, without constvars; its first
            ``num_consts`` inputs are the values it closes over.
        fwd: the forward rule over the operands after the closed-over values.
        bwd: the backward rule, transposing the ``custom_lin`` that the
            jvp of this call binds.
        num_consts: how many leading operands are closed-over values.
        fun_name: the function's name, printed as ``name=``.
    """

    name: ClassVar[str] = "custom_vjp_call"
    several_results = True
    kind: ClassVar[str] = "custom_vjp"
    call_jaxpr: Jaxpr
    fwd: FwdRule
    bwd: BwdRule
    num_consts: int
    fun_name: str

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        arg_tangents = self.arg_tangents(tangents)
        args = primals[self.num_consts :]
        outs, res, res_tree = self.fwd(args, tuple(_is_perturbed(t) for t in arg_tangents))
        lin = CustomLin(
            bwd=self.bwd,
            res_tree=res_tree,
            res_avals=tuple(r.aval for r in res),
            in_avals=tuple(a.aval.to_tangent_aval() for a in args),
            in_nonzero=tuple(not isinstance(t, Zero) for t in arg_tangents),
            out_avals=tuple(a.to_tangent_aval() for a in self.call_jaxpr.out_avals),
            fun_name=self.fun_name,
        )
        tangent_outs = bind(lin, *res, *(t for t in arg_tangents if not isinstance(t, Zero)))
        return outs, tangent_outs

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        in_avals = tuple(a.aval for a in args)
        key = ("custom_vjp vmap", self.call_jaxpr, self.fwd, self.bwd, dims, in_avals, axis)
        arg_dims = dims[self.num_consts :]

        def make() -> tuple[ClosedJaxpr[Array], tuple[FwdRule, BwdRule]]:
            closed = _batch_to_front(self.call_jaxpr, axis, in_avals, dims)
            return closed, (_BatchedFwd(self.fwd, axis, arg_dims), _BatchedBwd(self.bwd, axis, None, arg_dims))

        closed, (fwd, bwd) = cached_transform(key, make)
        num_consts = len(closed.consts) + self.num_consts
        prim = CustomVJPCall(consts_as_invars(closed.jaxpr), fwd, bwd, num_consts, self.fun_name)
        outs = bind(prim, *closed.consts, *args)
        return outs, (0,) * len(outs)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        consts = (("num_consts", self.num_consts),) if self.num_consts else ()
        return (
            ("name", self.fun_name), ("bwd", self.bwd), ("call_jaxpr", self.call_jaxpr), ("fwd", self.fwd),
            *consts, ("symbolic_zeros", self.bwd.symbolic_zeros),
        )  # fmt: skip


def _forward_mode_error(fun_name: str) -> JaxtypedTypeError:
    return JaxtypedTypeError(
        f"can't apply forward-mode autodiff (jvp) to a custom_vjp function ({fun_name}): its "
        "rules define reverse mode only (grad, vjp, jacrev); define a custom_jvp rule to support jvp, "
        "jacfwd and linearize"
    )


@final
@dataclass(frozen=True, slots=True)
class CustomLin(Primitive):
    """The linear map of a ``custom_vjp`` function at a point (JAX's
    ``custom_lin``): operands are the residuals followed by the non-zero
    input tangents; its transpose calls ``bwd``. It has no forward
    evaluation: reaching one means forward-mode differentiation.

    Attributes:
        bwd: the flat backward rule.
        res_tree: the residuals' tree structure, rebuilt for ``bwd``.
        res_avals: the residuals' types.
        in_avals: the tangent types of every differentiable input leaf.
        in_nonzero: which of those inputs have a (non-zero) tangent operand.
        out_avals: the tangent types of the outputs.
        fun_name: the custom_vjp function's name, for errors.
    """

    name: ClassVar[str] = "custom_lin"
    several_results = True
    bwd: BwdRule
    res_tree: PyTreeDef
    res_avals: tuple[ShapedArray, ...]
    in_avals: tuple[ShapedArray, ...]
    in_nonzero: tuple[bool, ...]
    out_avals: tuple[ShapedArray, ...]
    fun_name: str

    @property
    def num_res(self) -> int:
        """How many leading operands are residuals."""
        return len(self.res_avals)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        expected = self.res_avals + tuple(a for a, nz in zip(self.in_avals, self.in_nonzero) if nz)
        if len(avals) != len(expected) or not all(a.same_type(e) for a, e in zip(avals, expected)):
            got = ", ".join(a.str_short() for a in avals)
            want = ", ".join(a.str_short() for a in expected)
            raise JaxtypedTypeError(f"custom_lin of {self.fun_name}: operands ({got}), expected ({want})")
        return self.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        raise _forward_mode_error(self.fun_name)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise _forward_mode_error(self.fun_name)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        raise _forward_mode_error(self.fun_name)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        res: list[Array] = []
        for r in args[: self.num_res]:
            assert not isinstance(r, UndefinedPrimal), "custom_lin: a residual is linear"
            res.append(r)
        if self.bwd.symbolic_zeros:
            out_cts = tuple(_as_symbolic(ct) for ct in cts)
        else:
            out_cts = tuple(instantiate(ct) for ct in cts)
        arg_cts = self.bwd(self.res_tree, tuple(res), out_cts)
        results: list[Tangent | None] = [None] * self.num_res
        operands = iter(args[self.num_res :])
        for ct, nonzero in zip(arg_cts, self.in_nonzero, strict=True):
            if nonzero:
                results.append(ct if isinstance(next(operands), UndefinedPrimal) else None)
        return tuple(results)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        tangent_dims = iter(dims[self.num_res :])
        arg_dims = tuple(next(tangent_dims) if nz else None for nz in self.in_nonzero)
        tangent_avals = iter(a.aval for a in args[self.num_res :])
        lin = CustomLin(
            bwd=_BatchedBwd(self.bwd, axis, dims[: self.num_res], arg_dims),
            res_tree=self.res_tree,
            res_avals=tuple(a.aval for a in args[: self.num_res]),
            in_avals=tuple(next(tangent_avals) if nz else a for a, nz in zip(self.in_avals, self.in_nonzero)),
            in_nonzero=self.in_nonzero,
            out_avals=tuple(_batched_aval(a, 0, axis.size) for a in self.out_avals),
            fun_name=self.fun_name,
        )
        outs = bind(lin, *args)
        return outs, (0,) * len(outs)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (
            ("bwd", self.bwd), ("in_zeros", [not nz for nz in self.in_nonzero]), ("num_res", self.num_res),
            ("symbolic_zeros", self.bwd.symbolic_zeros),
        )  # fmt: skip

    @override
    def format_param(self, name: str, value: object) -> str:
        if isinstance(value, BwdRule):
            return value.name
        return Primitive.format_param(self, name, value)
