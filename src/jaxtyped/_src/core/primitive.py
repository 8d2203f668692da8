"""``Primitive``: the abstract base of every primitive operation (layer L1).

Each primitive is a ``@final @dataclass(frozen=True, slots=True)`` subclass
whose fields are its static parameters (``ReduceSum(axes=(0,))``), so
primitives, equations and jaxprs hash and compare by value. Each rule is a
method with a fixed, typed signature, tuples in and tuples out:

- ``abstract_eval``: output avals from input avals; raises the clear
  shape/dtype errors users see, eager or traced;
- ``impl``: evaluation on NumPy buffers;
- ``jvp``: forward-mode derivative, with symbolic :class:`Zero` tangents;
- ``batch``: the vectorisation rule used by ``vmap``;
- ``transpose``: for primitives linear in some operands, the cotangents of
  those operands (reverse mode);
- ``partial_eval_split``: for higher-order primitives, how to split one
  application into a known part and an unknown part (linearize, remat);
- ``lower``: StableHLO for ``jit`` (see :mod:`jaxtyped._src.core.hlo`);
- ``effects``: what an application does besides computing its outputs
  (:mod:`jaxtyped._src.core.effects`); none by default, and for
  higher-order primitives the effects of their inner jaxprs.

A rule a primitive lacks raises :class:`MissingRuleError` naming the
transformation and the primitive. Rules that bind other primitives run
with the parent interpreter installed, so they nest.
"""

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar, cast

import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer, to_array, wrap_buffer
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.effects import Effects, inner_effects, no_effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.errors import JaxtypedTypeError, MissingRuleError

__all__ = ["Primitive", "PartialEvalSplit", "Tangent", "LinearArg", "NDArray", "HostValue"]

# A tangent (or cotangent): an array, or a symbolic zero.
Tangent = Array | Zero
# An argument of a transpose rule: a known value, or the linear input whose
# cotangent the rule computes.
LinearArg = Array | UndefinedPrimal
# The host buffers ``impl`` rules compute on.
NDArray = np.ndarray[Any, np.dtype[Any]]
# What ``impl`` rules return: NumPy gives scalars, not 0-d arrays, for 0-d
# results; the evaluating interpreter turns both into arrays.
HostValue = np.ndarray[Any, np.dtype[Any]] | np.generic
T = TypeVar("T")


class Primitive(ABC):
    """Base class of primitives; subclasses are frozen dataclasses whose
    fields are the primitive's static parameters."""

    __slots__ = ()
    name: ClassVar[str]
    # Whether eager evaluation may memoize abstract_eval by (primitive, input
    # avals): true for every primitive whose parameters hash cheaply.
    memoize_abstract_eval: ClassVar[bool] = True
    # Whether a checkpoint's recomputation runs this equation again although
    # its inputs are known: JAX replays debug callbacks there, so that the
    # backward pass shows the values it recomputes.
    replayed_when_recomputed: ClassVar[bool] = False
    # Whether an application's results come as a list rather than as one
    # array (JAX's ``multiple_results``): true for every class whose
    # applications may have other than one result; check_jaxpr holds every
    # equation to it.
    several_results: ClassVar[bool] = False

    @abstractmethod
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        """Output avals for the given input avals.

        Raises:
            JaxtypedTypeError: the inputs' shapes or dtypes are invalid for
                this primitive; the message names the primitive and the
                inputs' short types.
        """

    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        """Evaluate on concrete NumPy buffers (already type-checked)."""
        raise MissingRuleError(f"eager evaluation needs an impl rule for primitive '{self.name}'")

    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        """Eager evaluation on concrete arrays of the (checked) types whose
        results ``out_avals`` describe: ``impl`` on their host buffers.
        Primitives that run on the device (a jit call) override this."""
        outs = self.impl(tuple([host_buffer(arg) for arg in args]))
        if len(outs) == 1 and len(out_avals) == 1:  # the common case, without zip's machinery
            return (wrap_buffer(outs[0], out_avals[0], self.name),)
        return tuple([wrap_buffer(out, aval, self.name) for out, aval in zip(outs, out_avals, strict=True)])

    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        """Emit StableHLO computing the outputs (of types ``out_avals``)
        from ``args`` into ``ctx``."""
        raise MissingRuleError(f"jit needs a lowering rule for primitive '{self.name}'")

    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        """Primal outputs and their tangents. Called with at least one
        non-zero tangent, under the parent interpreter."""
        raise MissingRuleError(f"jvp needs a differentiation rule for primitive '{self.name}'")

    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        """Batched outputs and their batch dimensions. ``dims[i]`` is the
        batch dimension of ``args[i]`` (``None``: not batched); called with at
        least one batched argument, under the parent interpreter."""
        raise MissingRuleError(f"vmap needs a batching rule for primitive '{self.name}'")

    def transpose(
        self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]
    ) -> tuple[Tangent | None, ...]:
        """Cotangents of the linear operands given the outputs' cotangents.

        ``args[i]`` is an :class:`UndefinedPrimal` for each linear operand
        and the value otherwise. Returns one entry per operand: a cotangent
        (possibly a symbolic :class:`Zero`) for linear operands, ``None`` for
        the others. Single-output primitives are never called with a zero
        cotangent. Runs under the current interpreter, so a transposed
        program can itself be staged, batched or differentiated.
        """
        raise MissingRuleError(f"grad needs a transpose rule for primitive '{self.name}'")

    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        """The effects of applying this primitive to operands of types
        ``avals``; ref effects are indexed by operand.

        The default: none for first-order primitives; for a primitive
        holding jaxprs (fields typed ``Jaxpr``), the union of their effects,
        with each inner jaxpr's inputs taken to be the *last* operands (true
        of jit calls, cond branches, scan, checkpoint and custom calls; a
        primitive laid out otherwise overrides this).
        """
        names = _jaxpr_fields(type(self))
        if not names:
            return no_effects
        return inner_effects(tuple(getattr(self, name) for name in names), len(avals))

    def format_eqn(self, outs: tuple[str, ...], args: tuple[str, ...]) -> str | None:
        """A primitive-specific printed form of one application (JAX prints
        ref accesses as ``b:f32[] <- a[0]``), given the printed binders
        ``outs`` and atoms ``args``; ``None``, the default, is the usual
        ``outs = name[params] args``."""
        return None

    def dce(self, used_outputs: tuple[bool, ...]) -> "tuple[Primitive, tuple[bool, ...], tuple[bool, ...]] | None":
        """Dead-code elimination inside a higher-order primitive: given which
        outputs are used, a primitive computing fewer of them, which
        operands it takes and which outputs it keeps (a superset of the
        used ones). ``None``, the default, keeps the application whole."""
        return None

    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> "PartialEvalSplit | None":
        """How to apply this primitive when the operands marked in
        ``unknowns`` are not known yet (partial evaluation). ``None``, the
        default, stages the whole application as unknown, which is right
        for first-order primitives; higher-order primitives split their
        jaxpr so that the known part runs now."""
        return None

    @property
    def multiple_results(self) -> bool:
        """Whether :meth:`bind` returns a list of arrays (JAX's
        ``Primitive.multiple_results``)."""
        return self.several_results

    def bind(self, *args: ArrayLike, **params: object) -> "Array | list[Array]":
        """Apply this primitive to ``args`` under the current
        transformation, as JAX's ``eqn.primitive.bind(*invals,
        **eqn.params)`` does in an interpreter walking a jaxpr: one array,
        or a list if :attr:`multiple_results`. ``params`` replace this
        application's parameters (``eqn.params`` are the same ones).

        Raises:
            JaxtypedTypeError: a parameter this primitive does not have.
        """
        from jaxtyped._src.core.interpreter import bind  # noqa: PLC0415 - the interpreter imports this module

        prim: Primitive = self
        if params and params != dict(self.params()):
            try:
                prim = _with_params(self, params)
            except TypeError as err:
                raise JaxtypedTypeError(f"{self.name}.bind: invalid parameters {sorted(params)}: {err}") from None
        arrays = tuple(to_array(arg, f"{self.name}.bind argument {i}") for i, arg in enumerate(args))
        outs = bind(prim, *arrays)
        if self.multiple_results:
            return list(outs)
        (out,) = outs
        return out

    def params(self) -> tuple[tuple[str, object], ...]:
        """The static parameters as ``(name, value)`` pairs, sorted by name."""
        fields = dataclasses.fields(self)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # concrete primitives are dataclasses
        return tuple(sorted((field.name, getattr(self, field.name)) for field in fields))

    def printed_params(self) -> tuple[tuple[str, object], ...]:
        """The parameters shown when a jaxpr is printed (default: all)."""
        return self.params()

    def format_param(self, name: str, value: object) -> str:
        """How a parameter value is printed in a jaxpr (JAX's syntax)."""
        if isinstance(value, np.dtype):
            return str(value.name)
        return str(value)

    def __str__(self) -> str:
        return self.name


def _with_params(prim: Primitive, params: dict[str, object]) -> Primitive:
    """A copy of ``prim`` with other parameters (concrete primitives are
    dataclasses whose fields are their parameters)."""
    replaced: object = dataclasses.replace(cast(Any, prim), **params)
    assert isinstance(replaced, Primitive)
    return replaced


_JAXPR_FIELDS: dict[type, tuple[str, ...]] = {}


def _jaxpr_fields(cls: type) -> tuple[str, ...]:
    """The names of ``cls``'s fields that hold jaxprs (by annotation), once
    per class: the effects of every new equation are computed, and most
    primitives hold none."""
    names = _JAXPR_FIELDS.get(cls)
    if names is None:
        fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
        names = tuple(f.name for f in fields if "Jaxpr" in str(f.type))
        _JAXPR_FIELDS[cls] = names
    return names


@dataclasses.dataclass(frozen=True, slots=True)
class PartialEvalSplit:
    """One application split by partial evaluation.

    ``known`` is applied to the known operands (in order) and returns the
    known outputs followed by ``num_res`` residuals; ``unknown`` is applied
    to the residuals followed by the unknown operands and returns the
    unknown outputs. ``out_unknowns`` says which outputs are unknown.

    ``forwarded`` lists known operands (by position among the known
    operands) that the unknown side needs as they are: they are handed to
    ``unknown`` before the residuals, instead of being passed through
    ``known`` (a loop cannot output a loop-invariant value per iteration).
    ``unknown_order``, when given, permutes the list ``forwarded +
    residuals + unknown operands`` into the operand order ``unknown``
    expects (entry ``i`` is the index in that list of operand ``i``).
    ``known_inputs``, when given, lists the known operands ``known`` is
    applied to (a loop's known initial carry that the loop makes unknown
    is only forwarded).
    """

    known: Primitive
    unknown: Primitive
    out_unknowns: tuple[bool, ...]
    num_res: int
    forwarded: tuple[int, ...] = ()
    unknown_order: tuple[int, ...] | None = None
    known_inputs: tuple[int, ...] | None = None

    def known_operands(self, known_operands: Sequence[T]) -> list[T]:
        """The operands of ``known``."""
        if self.known_inputs is None:
            return list(known_operands)
        return [known_operands[i] for i in self.known_inputs]

    def unknown_operands(self, known_operands: Sequence[T], residuals: Sequence[T], unknown_operands: Sequence[T]) -> list[T]:
        """The operands of ``unknown``, in its order."""
        listed = [known_operands[i] for i in self.forwarded] + list(residuals) + list(unknown_operands)
        if self.unknown_order is None:
            return listed
        return [listed[i] for i in self.unknown_order]
