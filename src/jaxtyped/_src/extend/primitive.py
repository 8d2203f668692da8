"""JAX's form of a primitive, built on ours (DESIGN.md, "One form of
primitive").

A JAX library writes ``p = core.Primitive("mul_add")`` and then registers
rules in registries (``p.def_impl``, ``ad.primitive_jvps[p]``,
``mlir.register_lowering(p, ...)``). Here that object is a *family*: each
``p.bind(*args, **params)`` applies an ordinary primitive of ours, an
instance of a class made for ``p`` whose one field holds ``params`` and
whose rule methods look the registered callables up when they run. So the
interpreters, jaxprs, caches and error messages see nothing special, and a
rule registered after the first ``bind`` is still found.

The registered callables keep JAX's calling conventions (arguments spread,
``**params``); they are typed as loosely as JAX accepts them
(``Callable[..., object]``), and their results are checked at run time with
errors naming the primitive and the rule.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, cast

import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, to_array
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError

__all__ = [
    "JaxPrimitive",
    "JaxRule",
    "primitive_jvps",
    "primitive_transposes",
    "primitive_batchers",
    "lowering_rules",
    "LoweringRule",
    "sequence_of",
    "flat_values",
]

# A rule in JAX's calling convention: positional operands, then the
# primitive's parameters as keywords. JAX accepts any callable here.
JaxRule = Callable[..., object]
# A lowering rule: ``rule(ctx, *operand_values, **params)``.
LoweringRule = Callable[..., object]

# The JAX-form registries, keyed by the primitive (JAX's dict names).
primitive_jvps: Final[dict["JaxPrimitive", JaxRule]] = {}
primitive_transposes: Final[dict["JaxPrimitive", JaxRule]] = {}
primitive_batchers: Final[dict["JaxPrimitive", JaxRule]] = {}
# Lowering rules by (primitive, platform); platform None: every platform.
lowering_rules: Final[dict[tuple["JaxPrimitive", str | None], LoweringRule]] = {}


class JaxPrimitive:
    """A primitive in JAX's form (``jaxtyped.extend.core.Primitive``).

    Example:
        >>> p = JaxPrimitive("double")
        >>> _ = p.def_impl(lambda x: x * 2)
        >>> _ = p.def_abstract_eval(lambda x: x)
        >>> print(p.bind(3.0))
        6.0

    Attributes:
        name: the name printed in jaxprs and error messages.
        multiple_results: whether ``bind`` returns a list of arrays (and the
            rules a sequence of results) rather than one array.
    """

    name: str
    multiple_results: bool
    # JAX's flags for call and map primitives; always False here (higher-
    # order primitives are written in the native form).
    call_primitive: ClassVar[bool] = False
    map_primitive: ClassVar[bool] = False

    def __init__(self, name: str) -> None:
        self.name = name
        self.multiple_results = False
        self.impl_rule: JaxRule | None = None
        self.abstract_eval_rule: JaxRule | None = None
        family = self

        @dataclass(frozen=True, slots=True)
        class Application(_Application):
            __doc__ = f"An application of the extension primitive {name!r}."

            @property
            def family(self) -> "JaxPrimitive":
                return family

        Application.name = name
        Application.__qualname__ = Application.__name__ = f"{_class_name(name)}Primitive"
        self._application: type[_Application] = Application

    def __repr__(self) -> str:
        return self.name

    def def_impl(self, impl: JaxRule) -> JaxRule:
        """Register ``impl(*args, **params)``, the eager evaluation: it gets
        the operands as concrete arrays (as JAX's impl gets JAX arrays; NumPy
        functions accept them) and returns array-likes (a sequence of them
        if ``multiple_results``). Eager ``bind`` returns the impl's results
        as arrays of their own dtype and weak type, as ``jnp.asarray`` of
        JAX's (unconverted) results would be. Returns ``impl`` (usable as a
        decorator)."""
        self.impl_rule = impl
        return impl

    def def_abstract_eval(self, abstract_eval: JaxRule) -> JaxRule:
        """Register ``abstract_eval(*avals, **params)``: a ``ShapedArray``
        (a sequence of them if ``multiple_results``) for the given input
        ``ShapedArray``\\ s. Returns ``abstract_eval``."""
        self.abstract_eval_rule = abstract_eval
        return abstract_eval

    def application(self, **params: object) -> Primitive:
        """The primitive of ours that ``bind(..., **params)`` applies (what
        the equations of a jaxpr hold)."""
        items = tuple(sorted(params.items()))
        for key, value in items:
            try:
                hash(value)
            except TypeError:
                raise JaxtypedTypeError(
                    f"{self.name}: parameter {key}={value!r} is not hashable; primitive parameters "
                    "must be hashable (use tuples instead of lists)"
                ) from None
        return self._application(items)

    def bind(self, *args: ArrayLike, **params: object) -> Array | list[Array]:
        """Apply the primitive under the current transformation: one array,
        or a list of arrays if ``multiple_results``. Python and NumPy
        scalars and arrays are converted to arrays first."""
        arrays = tuple(to_array(arg, f"{self.name}.bind argument {i}") for i, arg in enumerate(args))
        outs = bind(self.application(**params), *arrays)
        if self.multiple_results:
            return list(outs)
        (out,) = outs
        return out


def _class_name(name: str) -> str:
    cleaned = "".join(part.capitalize() for part in name.replace("-", "_").split("_") if part.isidentifier())
    return cleaned or "Extension"


def _results(prim: JaxPrimitive, rule: str, value: object) -> list[object]:
    """A rule's results as a list, checking ``multiple_results``."""
    if not prim.multiple_results:
        return [value]
    values = sequence_of(value)
    if values is not None:
        return values
    raise JaxtypedTypeError(
        f"{rule} of primitive '{prim.name}' (multiple_results=True) must return a sequence, got {type(value).__name__}"
    )


def sequence_of(value: object) -> list[object] | None:
    """A user rule's list or tuple result as a list (None: neither)."""
    if isinstance(value, (list, tuple)):
        return list(cast("Sequence[object]", value))
    return None


def _pair(value: object, message: str) -> tuple[object, object]:
    """A user rule's result that must be a pair."""
    items = list(cast("tuple[object, ...]", value)) if isinstance(value, tuple) else []
    if len(items) != 2:
        raise JaxtypedTypeError(message)
    return items[0], items[1]


def _tangent(value: object, aval: ShapedArray, where: str) -> Tangent:
    if value is None:
        return Zero(aval.to_tangent_aval())
    if isinstance(value, Zero):
        return value
    return to_array(value, where)


@dataclass(frozen=True, slots=True)
class _Application(Primitive):
    """Base of the classes :class:`JaxPrimitive` makes: one application of
    a JAX-form primitive with its parameters; every rule dispatches to the
    callable registered for the family."""

    param_items: tuple[tuple[str, object], ...]

    @property
    def family(self) -> JaxPrimitive:
        """The JAX-form primitive this applies."""
        raise NotImplementedError

    @property
    def multiple_results(self) -> bool:
        return self.family.multiple_results

    def kwargs(self) -> dict[str, object]:
        """The parameters, as the rules receive them."""
        return dict(self.param_items)

    def params(self) -> tuple[tuple[str, object], ...]:
        return self.param_items

    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        fam = self.family
        if fam.abstract_eval_rule is None:
            raise JaxtypedTypeError(
                f"primitive '{fam.name}' has no abstract evaluation rule: register one with def_abstract_eval"
            )
        result = fam.abstract_eval_rule(*avals, **self.kwargs())
        outs: list[ShapedArray] = []
        for out in _results(fam, "abstract_eval", result):
            if isinstance(out, ShapedArray):
                outs.append(out)
                continue
            shape, dtype = getattr(out, "shape", None), getattr(out, "dtype", None)
            if not isinstance(shape, tuple) or dtype is None:
                raise JaxtypedTypeError(
                    f"abstract_eval of primitive '{fam.name}' returned {type(out).__name__}, not a ShapedArray"
                )
            outs.append(ShapedArray(tuple(int(d) for d in shape), np.dtype(dtype)))  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]  # duck-typed shape
        return tuple(outs)

    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        fam = self.family
        if fam.impl_rule is None:
            return Primitive.impl(self, args)
        result = fam.impl_rule(*args, **self.kwargs())
        return tuple(np.asarray(out) for out in _results(fam, "impl", result))

    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        """Eager ``bind``: the impl's results as arrays of *their own* dtype
        and weak type (a Python scalar gives a weak array), not
        ``abstract_eval``'s. JAX hands the impl's values back unconverted,
        so this is what ``jnp.asarray`` of JAX's result is; eager gradients
        then keep JAX's weak types too. Shapes must agree with
        ``abstract_eval``."""
        fam = self.family
        if fam.impl_rule is None:
            return Primitive.evaluate(self, args, out_avals)
        # The impl computes on arrays, as JAX's impl on JAX arrays and Python
        # scalars: weak operands give weak results.
        result = fam.impl_rule(*args, **self.kwargs())
        values = _results(fam, "impl", result)
        if len(values) != len(out_avals):
            raise JaxtypedTypeError(
                f"impl of primitive '{fam.name}' returned {len(values)} results, abstract_eval gives {len(out_avals)}"
            )
        outs: list[ArrayImpl] = []
        for value, aval in zip(values, out_avals):
            out = to_array(value, f"impl of primitive '{fam.name}'")
            if not isinstance(out, ArrayImpl) or out.shape != aval.shape:
                got = out.aval.str_short() if isinstance(out, ArrayImpl) else type(out).__name__
                raise JaxtypedTypeError(
                    f"impl of primitive '{fam.name}' returned {got}, abstract_eval gives {aval.str_short()}"
                )
            outs.append(out)
        return tuple(outs)

    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        fam = self.family
        rule = primitive_jvps.get(fam)
        if rule is None:
            return Primitive.jvp(self, primals, tangents)
        result = rule(primals, tangents, **self.kwargs())
        primal_out, tangent_out = _pair(result, f"the jvp rule of primitive '{fam.name}' must return (primal_out, tangent_out)")
        where = f"jvp rule of {fam.name}"
        outs = tuple(to_array(x, where) for x in _results(fam, "the jvp rule", primal_out))
        tangent_list = _results(fam, "the jvp rule", tangent_out)
        return outs, tuple(_tangent(t, o.aval, where) for t, o in zip(tangent_list, outs, strict=True))

    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        fam = self.family
        rule = primitive_transposes.get(fam)
        if rule is None:
            return Primitive.transpose(self, cts, args)
        ct_arg: object = list(cts) if fam.multiple_results else cts[0]
        result = rule(ct_arg, *args, **self.kwargs())
        cotangents = sequence_of(result)
        if cotangents is None or len(cotangents) != len(args):
            raise JaxtypedTypeError(
                f"the transpose rule of primitive '{fam.name}' must return one cotangent (or None) per operand "
                f"({len(args)})"
            )
        where = f"transpose rule of {fam.name}"
        out: list[Tangent | None] = []
        for ct, arg in zip(cotangents, args, strict=True):
            out.append(_tangent(ct, arg.aval, where) if isinstance(arg, UndefinedPrimal) else None)
        return tuple(out)

    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        fam = self.family
        rule = primitive_batchers.get(fam)
        if rule is None:
            return Primitive.batch(self, axis, args, dims)
        result = rule(args, dims, **self.kwargs())
        out, out_dim = _pair(result, f"the batching rule of primitive '{fam.name}' must return (out, out_dim)")
        where = f"batching rule of {fam.name}"
        outs = tuple(to_array(x, where) for x in _results(fam, "the batching rule", out))
        out_dims: list[BatchDim] = []
        for d in _results(fam, "the batching rule", out_dim):
            if d is not None and not isinstance(d, int):
                raise JaxtypedTypeError(f"the {where} returned batch dimension {d!r}, not an int or None")
            out_dims.append(d)
        return outs, tuple(out_dims)

    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        fam = self.family
        rule = lowering_rules.get((fam, "cpu")) or lowering_rules.get((fam, None))
        if rule is None:
            return Primitive.lower(self, ctx, args, out_avals)
        # Imported here: the op builders import this module's registries.
        from jaxtyped._src.extend.mlir import run_lowering_rule

        return run_lowering_rule(fam.name, rule, ctx, args, out_avals, self.kwargs())


def flat_values(values: Sequence[object]) -> list[object]:
    """Flatten one level of nesting (JAX's rules may return lists of lists)."""
    flat: list[object] = []
    for value in values:
        inner = sequence_of(value)
        if inner is None:
            flat.append(value)
        else:
            flat.extend(inner)
    return flat
