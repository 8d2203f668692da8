"""User-defined derivative rules: ``custom_jvp`` and ``custom_vjp`` (layer L4).

Note [custom derivatives as call primitives]: calling a ``custom_jvp`` or
``custom_vjp`` function traces it to a jaxpr (cached per signature) and
binds a higher-order primitive (:mod:`custom_derivatives_primitives`)
holding that jaxpr and the user's rules, with the values the function
closes over passed as leading operands (Note [consts are operands] in
``pjit.py``). Every interpreter then handles the call through the
primitive's rules:

- evaluation evaluates the jaxpr op by op and lowering inlines it, so a
  custom function costs what the plain function costs;
- ``jvp`` of ``custom_jvp_call`` calls the user's jvp rule; ``jvp`` of
  ``custom_vjp_call`` runs ``fwd`` now and binds ``custom_lin`` on the
  residuals and the tangents. ``custom_lin`` stands for the linear map whose
  transpose is ``bwd``: reverse mode stages it into the linear jaxpr (its
  tangent operands are unknown to the partial evaluator) and the transpose
  pass calls ``bwd``; evaluating it means forward mode, which a custom_vjp
  function does not support;
- ``vmap`` batches the jaxpr and wraps the rules to run batched.

The primitives hold flat rules (arrays in, arrays out). The ``_User*``
wrappers here rebuild the user's pytrees, call the user's function and
check what it returns (structure, shapes and dtypes, naming the rule and
the output path). Wrappers compare by identity and are made once per
traced signature, so repeated calls bind equal primitives.

Note [symbolic zeros in custom rules]: with ``symbolic_zeros=True`` the
rules see the interpreters' own knowledge of which tangents are zero. The
jvp interpreter (and partial evaluation, for ``grad``) already carries a
tangent that is known to be zero as an internal :class:`Zero`; the
primitives pass those through to the flat rules instead of instantiating
them, and the ``_User*`` wrappers here turn each into a public
:class:`SymbolicZero` (and a :class:`SymbolicZero` a rule returns back into
a ``Zero``). A ``custom_vjp`` fwd rule learns the same thing as
``CustomVJPPrimal.perturbed``; its bwd rule receives a :class:`SymbolicZero`
for each output cotangent the backward pass knows to be zero. Tangents of
integer inputs (``float0``) count as zero, as in JAX. Under vmap, a
symbolic zero carries the type of one batch element, as a rule sees its
values.

Non-differentiable arguments (``nondiff_argnums``, or by name
``nondiff_argnames``) reach the rules as they are, first and in position
order (as in JAX, whatever order the numbers are given in). Traced arrays among them (custom_jvp only; custom_vjp rejects them, as
JAX does) get no derivative and are passed as operands of the call, after
the closed-over values, so that vmap batches them in any nesting order.
"""

import dataclasses
import functools
import inspect
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, Literal, TypeVar, cast, final, overload

import numpy as np
from typing_extensions import Concatenate, ParamSpec, override

from jaxtyped._src import dtypes
from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, shared_numpy_constants
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.interpreter import Tracer, bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Jaxpr
from jaxtyped._src.core.primitive import Primitive, Tangent
from jaxtyped._src.custom_derivatives_primitives import BwdRule, CustomJVPCall, CustomVJPCall, FwdRule, JVPRule
from jaxtyped._src.errors import (
    JaxtypedNotImplementedError,
    JaxtypedTypeError,
    JaxtypedValueError,
    MissingRuleError,
    PyTreeStructureError,
    UnexpectedTracerError,
)
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.arithmetic import add, stop_gradient
from jaxtyped._src.lax.structural import zeros
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.pjit import consts_as_invars
from jaxtyped._src.state.types import is_ref
from jaxtyped._src.tree_util import (
    PyTreeDef,
    broadcast_prefix,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_unflatten,
)
from jaxtyped._src.util import check_argnames, describe_function, is_int, is_list_or_tuple, match_static, normalize_argnames

__all__ = [
    "custom_jvp", "custom_vjp", "resolve_args", "rule_name", "signature_of",
    "SymbolicZero", "CustomVJPPrimal", "zero_from_primal", "custom_vjp_primal_tree_values",
]  # fmt: skip

P = ParamSpec("P")
R = TypeVar("R")
P2 = ParamSpec("P2")
# A jvp rule's (primals, tangents) tuples, for typing lambda rules.
PrimalsT = TypeVar("PrimalsT", bound=tuple[Any, ...])
TangentsT = TypeVar("TangentsT", bound=tuple[Any, ...])
# A custom_vjp fwd rule's residuals, as its bwd rule receives them.
Res = TypeVar("Res")
# A symbolic_zeros jvp rule's tangent output (arrays and SymbolicZeros).
TangentOut = TypeVar("TangentOut")
T = TypeVar("T")
K = TypeVar("K")
T1 = TypeVar("T1")
T2 = TypeVar("T2")
T3 = TypeVar("T3")

# Per-function bound on traced signatures (oldest evicted first).
_TRACE_CACHE_SIZE: Final = 1024


# === symbolic zeros (see Note [symbolic zeros in custom rules]) ===


@final
class SymbolicZero:
    """A tangent or cotangent known to be zero, of type ``aval`` (JAX's
    ``jax.custom_derivatives.SymbolicZero``).

    Rules defined with ``symbolic_zeros=True`` receive one in place of
    each tangent (``custom_jvp``) or output cotangent (``custom_vjp``
    bwd) that is zero because nothing is differentiated through it, and
    may return one for a zero output tangent or input cotangent. It is not
    an array: test for it (``isinstance(t, SymbolicZero)``) before
    computing with a tangent.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped.custom_derivatives import SymbolicZero
        >>> @jt.custom_jvp
        ... def mul(x, y):
        ...     return x * y
        >>> def mul_jvp(primals, tangents):
        ...     (x, y), (tx, ty) = primals, tangents
        ...     print(isinstance(tx, SymbolicZero), isinstance(ty, SymbolicZero))
        ...     tx = 0.0 if isinstance(tx, SymbolicZero) else tx
        ...     ty = 0.0 if isinstance(ty, SymbolicZero) else ty
        ...     return x * y, tx * y + x * ty
        >>> _ = mul.defjvp(mul_jvp, symbolic_zeros=True)
        >>> jt.grad(mul, argnums=1)(2.0, 3.0)
        True False
        Array(2., dtype=float32, weak_type=True)
    """

    __slots__ = ("aval",)
    aval: ShapedArray

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return "SymbolicZero"

    @property
    def shape(self) -> tuple[int, ...]:
        """The zero's shape."""
        return self.aval.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        """The zero's dtype (``float0`` for the tangent of an integer)."""
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return self.aval.ndim

    @property
    def size(self) -> int:
        """Number of elements."""
        return self.aval.size

    @property
    def weak_type(self) -> bool:
        """Whether the zero is weakly typed."""
        return self.aval.weak_type

    @staticmethod
    def from_primal_value(val: ArrayLike) -> "SymbolicZero":
        """The symbolic zero tangent of the primal value ``val``."""
        return SymbolicZero(_primal_aval(val, "SymbolicZero.from_primal_value").to_tangent_aval())

    if not TYPE_CHECKING:
        # JAX forwards every other attribute to the aval; kept out of the
        # static type so that a typo is still a type error.
        def __getattr__(self, name: str) -> object:
            if name == "aval":  # not set yet (unpickling, copy)
                raise AttributeError(name)
            return getattr(self.aval, name)


def _primal_aval(val: object, where: str) -> ShapedArray:
    return val.aval if isinstance(val, Array) else leaf_as_array(val, f"{where}: the primal value").aval


@overload
def zero_from_primal(val: ArrayLike, symbolic_zeros: Literal[False] = False) -> Array: ...
@overload
def zero_from_primal(val: ArrayLike, symbolic_zeros: Literal[True]) -> SymbolicZero: ...
@overload
def zero_from_primal(val: ArrayLike, symbolic_zeros: bool) -> Array | SymbolicZero: ...
@overload
def zero_from_primal(val: T, symbolic_zeros: Literal[False] = False) -> T: ...
@overload
def zero_from_primal(val: object, symbolic_zeros: bool) -> object: ...
def zero_from_primal(val: object, symbolic_zeros: bool = False) -> object:
    """The zero tangent of each leaf of the pytree ``val`` (JAX's
    ``jax.custom_derivatives.zero_from_primal``): a :class:`SymbolicZero`
    with ``symbolic_zeros=True``, else an array of zeros of the leaf's
    tangent type (``float0`` for integers). A pytree comes back with the
    same structure: typed as ``val`` for array zeros (its leaves become
    arrays of the same type), ``object`` for symbolic ones (narrow the
    leaves with ``isinstance(leaf, SymbolicZero)``)."""

    def zero(x: object) -> Array | SymbolicZero:
        aval = _primal_aval(x, "zero_from_primal").to_tangent_aval()
        return SymbolicZero(aval) if symbolic_zeros else zeros(aval)

    result: object = tree_map(zero, val)
    return result


@final
@dataclass(slots=True)
class CustomVJPPrimal(Generic[T]):
    """One primal leaf as a ``custom_vjp`` fwd rule defined with
    ``symbolic_zeros=True`` receives it (JAX's
    ``jax.custom_derivatives.CustomVJPPrimal``): the ``value`` and whether
    it is ``perturbed`` (being differentiated; when False, the matching
    column of the Jacobian is zero and bwd may return None for it)."""

    value: T
    perturbed: bool


@overload
def custom_vjp_primal_tree_values(tree: CustomVJPPrimal[T]) -> T: ...
@overload
def custom_vjp_primal_tree_values(tree: tuple[CustomVJPPrimal[T1], CustomVJPPrimal[T2]]) -> tuple[T1, T2]: ...
@overload
def custom_vjp_primal_tree_values(
    tree: tuple[CustomVJPPrimal[T1], CustomVJPPrimal[T2], CustomVJPPrimal[T3]],
) -> tuple[T1, T2, T3]: ...
@overload
def custom_vjp_primal_tree_values(tree: tuple[CustomVJPPrimal[T], ...]) -> tuple[T, ...]: ...
@overload
def custom_vjp_primal_tree_values(tree: list[CustomVJPPrimal[T]]) -> list[T]: ...
@overload
def custom_vjp_primal_tree_values(tree: dict[K, CustomVJPPrimal[T]]) -> dict[K, T]: ...
@overload
def custom_vjp_primal_tree_values(tree: T) -> T: ...
def custom_vjp_primal_tree_values(tree: object) -> object:
    """``tree`` with each :class:`CustomVJPPrimal` leaf replaced by its
    ``value`` (JAX's ``jax.custom_derivatives.custom_vjp_primal_tree_values``):
    the arguments a ``symbolic_zeros=True`` fwd rule received, as the
    function itself would have received them. A pytree typed as its values
    (a module whose leaves the fwd rule got wrapped) keeps its type."""

    def value(leaf: object) -> object:
        if type(leaf) is not CustomVJPPrimal:
            raise JaxtypedTypeError(
                f"custom_vjp_primal_tree_values: unexpected leaf type {type(leaf).__name__}; every leaf "
                "must be a CustomVJPPrimal, as a custom_vjp fwd rule with symbolic_zeros=True receives them"
            )
        inner: object = cast(CustomVJPPrimal[object], leaf).value
        return inner

    result: object = tree_map(value, tree)
    return result


# === what a traced call knows about its arguments ===


@final
@dataclass(frozen=True, eq=False)
class _Static:
    """One non-differentiable argument: its leaves, of which those marked
    ``traced`` are operands of the call (the others are kept as they are)."""

    position: int
    value: object
    treedef: PyTreeDef
    leaves: tuple[object, ...]
    traced: tuple[bool, ...]

    def key(self) -> Hashable:
        """This argument in a cache key (traced leaves go in by type)."""
        leaves = tuple("traced" if t else _static_key(x) for x, t in zip(self.leaves, self.traced))
        return (self.position, self.treedef, leaves)

    def rebuild(self, operands: Iterator[object]) -> object:
        """The value the rules receive, traced leaves taken from ``operands``."""
        if not any(self.traced):
            return self.value
        return tree_unflatten(self.treedef, [next(operands) if t else x for x, t in zip(self.leaves, self.traced)])


def _static_key(value: object) -> object:
    """A static value in a cache key: by value when it is hashable, else
    by identity (the cache entry keeps the value alive)."""
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return (type(value), value)


@final
@dataclass(frozen=True, eq=False)
class _Signature:
    """One traced signature of a custom function.

    The call's operands (after the closed-over values) are the
    ``num_traced`` traced leaves of the non-differentiable arguments
    followed by the differentiable leaves, named ``in_names``; the
    differentiable arguments (named ``diff_names``) form the tuple
    ``in_tree`` describes.
    """

    fun_name: str
    nargs: int
    statics: tuple[_Static, ...]
    num_traced: int
    in_tree: PyTreeDef
    in_avals: tuple[ShapedArray, ...]
    in_names: tuple[str, ...]
    diff_names: tuple[str, ...]
    out_tree: PyTreeDef
    out_avals: tuple[ShapedArray, ...]

    def nondiff_values(self, traced: Sequence[object]) -> tuple[object, ...]:
        """The non-differentiable arguments, in position order."""
        operands = iter(traced)
        return tuple(s.rebuild(operands) for s in self.statics)

    def diff_args(self, leaves: Sequence[object]) -> tuple[Any, ...]:
        """The differentiable arguments rebuilt from their leaves."""
        args: tuple[Any, ...] = tree_unflatten(self.in_tree, leaves)
        return args

    def full_args(self, operands: Sequence[object]) -> list[object]:
        """Every positional argument, rebuilt from the call's operands (or
        from what stands for them, such as ``CustomVJPPrimal`` records)."""
        nondiff = dict(zip((s.position for s in self.statics), self.nondiff_values(operands[: self.num_traced])))
        diff = iter(self.diff_args(operands[self.num_traced :]))
        return [nondiff[i] if i in nondiff else next(diff) for i in range(self.nargs)]


def _describe(value: object) -> str:
    if isinstance(value, Array):
        return f"an array {value.aval.str_short()}"
    if is_list_or_tuple(value):
        return f"a {type(value).__name__} of length {len(value)}"
    return f"a value of type {type(value).__name__}"


def rule_name(rule: Callable[..., object]) -> str:
    """How a function is shown in a printed jaxpr (``jvp=f_jvp``)."""
    target: object = rule
    while isinstance(target, functools.partial):
        target = target.func
    name = getattr(target, "__name__", None)
    return name if isinstance(name, str) else type(target).__name__


# === checking what the user's rules return ===


def _pair(value: object, rule_desc: str, what: str) -> tuple[object, object]:
    """A rule's result that must be a pair (a tuple or list of length 2)."""
    if not is_list_or_tuple(value) or len(value) != 2:
        raise JaxtypedTypeError(
            f"{rule_desc} must return a pair {what} (a tuple or list of length two), got {_describe(value)}"
        )
    return value[0], value[1]


def _output_leaves(value: object, sig: _Signature, rule_desc: str, role: str) -> tuple[list[object], list[str]]:
    """The leaves of a rule's ``role`` output (``primal output``, ...) and
    their names, checked against the structure of the function's output."""
    leaves, names, treedef = named_leaves(value, "output")
    if treedef != sig.out_tree:
        raise JaxtypedTypeError(
            f"{rule_desc}: the {role} has structure {treedef}, but {sig.fun_name} returns {sig.out_tree}"
        )
    return leaves, names


def _check_outputs(value: object, sig: _Signature, rule_desc: str, role: str) -> tuple[Array, ...]:
    """The leaves of a rule's primal output, checked against the structure
    of the function's output and its types."""
    leaves, names = _output_leaves(value, sig, rule_desc, role)
    arrays: list[Array] = []
    for leaf, name, out_aval in zip(leaves, names, sig.out_avals, strict=True):
        x = leaf_as_array(leaf, f"{rule_desc}: the {role} at {name}")
        if not x.aval.same_type(out_aval):
            raise JaxtypedTypeError(
                f"{rule_desc}: the {role} at {name} has type {x.aval.str_short()}, but "
                f"{sig.fun_name}'s output there has type {out_aval.str_short()}"
            )
        arrays.append(x)
    return tuple(arrays)


def _check_tangent_outputs(value: object, sig: _Signature, rule_desc: str) -> tuple[Tangent, ...]:
    """The leaves of a jvp rule's tangent output, checked against the
    tangent types of the function's outputs; a :class:`SymbolicZero` leaf
    becomes a symbolic :class:`Zero` (as in JAX, whatever the rule's
    ``symbolic_zeros`` setting)."""
    role = "tangent output"
    leaves, names = _output_leaves(value, sig, rule_desc, role)
    tangents: list[Tangent] = []
    for leaf, name, out_aval in zip(leaves, names, sig.out_avals, strict=True):
        want = out_aval.to_tangent_aval()
        x: Tangent
        x = Zero(leaf.aval) if isinstance(leaf, SymbolicZero) else leaf_as_array(leaf, f"{rule_desc}: the {role} at {name}")
        if not x.aval.same_type(want):
            shown = f"SymbolicZero {x.aval.str_short()}" if isinstance(x, Zero) else x.aval.str_short()
            raise JaxtypedTypeError(
                f"{rule_desc}: the {role} at {name} has type {shown}, but "
                f"{sig.fun_name}'s output there has type {out_aval.str_short()}, whose tangent type is "
                f"{want.str_short()}"
            )
        tangents.append(Zero(want) if isinstance(x, Zero) else x)
    return tuple(tangents)


def _flat_cotangents(result: object, sig: _Signature, desc: str) -> tuple[Tangent, ...]:
    """One cotangent per differentiable leaf from a bwd rule's result: a
    tuple (or list, as JAX allows) with one entry per differentiable
    argument, of that argument's structure, ``None`` meaning zero (for a
    leaf or a whole subtree)."""
    template = sig.diff_args(range(len(sig.in_avals)))
    if not is_list_or_tuple(result) or len(result) != len(template):
        names = ", ".join(sig.diff_names) or "none"
        raise JaxtypedTypeError(
            f"{desc} must return a tuple with one cotangent per differentiable argument "
            f"({len(template)}: {names}), got {_describe(result)}"
        )
    cts: list[Tangent] = [Zero(aval.to_tangent_aval()) for aval in sig.in_avals]
    for ct_arg, arg, name in zip(result, template, sig.diff_names):
        for index, ct in _cover(ct_arg, arg, name, desc):
            cts[index] = _checked_cotangent(ct, sig, index, desc)
    return tuple(cts)


def _cover(ct_arg: object, arg: object, name: str, desc: str) -> list[tuple[int, object]]:
    """``(leaf index, cotangent)`` for the non-None leaves of the
    cotangent ``ct_arg`` of argument ``name``, whose structure ``arg`` is
    given with leaf indices as leaves."""
    ct_leaves, ct_def = tree_flatten(ct_arg, is_leaf=lambda x: x is None)
    positions = tree_unflatten(ct_def, range(len(ct_leaves)))
    try:
        covering = broadcast_prefix(positions, arg, what=desc, prefix_name="cotangent", full_name=name)
    except PyTreeStructureError as err:
        raise JaxtypedTypeError(f"{err} (None may stand for a whole zero subtree)") from None
    arg_leaves: list[int] = tree_leaves(arg)
    found: list[tuple[int, object]] = []
    for position, index in zip(covering, arg_leaves):
        ct = ct_leaves[position]
        if ct is None:
            continue
        if covering.count(position) > 1:
            raise JaxtypedTypeError(
                f"{desc}: the cotangent for {name} has {_describe(ct)} where {name} has a subtree of "
                f"{covering.count(position)} leaves; give one cotangent per leaf (or None for zero)"
            )
        found.append((index, ct))
    return found


def _checked_cotangent(ct: object, sig: _Signature, index: int, desc: str) -> Tangent:
    name, aval = sig.in_names[index], sig.in_avals[index]
    want = aval.to_tangent_aval()
    if dtypes.is_float0(want.dtype):
        # Integer inputs get float0 zeros whatever the rule returned (as in JAX).
        return Zero(want)
    if isinstance(ct, SymbolicZero):
        if not ct.aval.same_type(want):
            raise JaxtypedTypeError(
                f"{desc}: the cotangent for {name} is a SymbolicZero of type {ct.aval.str_short()}, but "
                f"{name} has type {aval.str_short()} (its cotangent type is {want.str_short()}); "
                "return None for a zero cotangent"
            )
        return Zero(want)
    x = leaf_as_array(ct, f"{desc}: the cotangent for {name}")
    if not x.aval.same_type(want):
        raise JaxtypedTypeError(
            f"{desc}: the cotangent for {name} has type {x.aval.str_short()}, but {name} has type "
            f"{aval.str_short()} (its cotangent type is {want.str_short()})"
        )
    return x


def _user_facing(t: Tangent) -> object:
    """A tangent as a symbolic_zeros rule receives it."""
    return SymbolicZero(t.aval) if isinstance(t, Zero) else t


# === the user's rules seen flat ===


@final
class _UserJVPRule(JVPRule):
    """The user's ``f_jvp(*nondiff, primals, tangents)`` seen flat."""

    __slots__ = ("rule", "sig", "desc", "_symbolic_zeros")

    def __init__(self, rule: Callable[..., object], sig: _Signature, symbolic_zeros: bool) -> None:
        self.rule = rule
        self.sig = sig
        self.desc = f"custom_jvp rule {describe_function(rule)} of {sig.fun_name}"
        self._symbolic_zeros = symbolic_zeros

    @property
    def name(self) -> str:
        return rule_name(self.rule)

    @property
    def symbolic_zeros(self) -> bool:
        return self._symbolic_zeros

    def __call__(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        sig, k = self.sig, self.sig.num_traced
        user_tangents = [_user_facing(t) for t in tangents[k:]]
        result = self.rule(*sig.nondiff_values(primals[:k]), sig.diff_args(primals[k:]), sig.diff_args(user_tangents))
        primal_out, tangent_out = _pair(result, self.desc, "(primal_out, tangent_out)")
        outs = _check_outputs(primal_out, sig, self.desc, "primal output")
        return outs, _check_tangent_outputs(tangent_out, sig, self.desc)


@final
class _UserFwd(FwdRule):
    """The user's ``fwd(*args) -> (out, residuals)`` seen flat."""

    __slots__ = ("rule", "sig", "desc", "_symbolic_zeros")

    def __init__(self, rule: Callable[..., object], sig: _Signature, symbolic_zeros: bool) -> None:
        self.rule = rule
        self.sig = sig
        self.desc = f"custom_vjp fwd rule {describe_function(rule)} of {sig.fun_name}"
        self._symbolic_zeros = symbolic_zeros

    @property
    def name(self) -> str:
        return rule_name(self.rule)

    @property
    def symbolic_zeros(self) -> bool:
        return self._symbolic_zeros

    def __call__(
        self, primals: tuple[Array, ...], perturbed: tuple[bool, ...]
    ) -> tuple[tuple[Array, ...], tuple[Array, ...], PyTreeDef]:
        sig = self.sig
        operands: Sequence[object] = primals
        if self._symbolic_zeros:
            operands = [CustomVJPPrimal(p, b) for p, b in zip(primals, perturbed, strict=True)]
        out, residuals = _pair(self.rule(*sig.full_args(operands)), self.desc, "(primal_out, residuals)")
        outs = _check_outputs(out, sig, self.desc, "primal output")
        leaves, names, res_tree = named_leaves(residuals, "residuals")
        res = tuple(leaf_as_array(leaf, f"{self.desc}: {name}") for leaf, name in zip(leaves, names))
        return outs, res, res_tree


@final
class _UserBwd(BwdRule):
    """The user's ``bwd(*nondiff, residuals, ct) -> cotangents`` seen flat."""

    __slots__ = ("rule", "sig", "desc", "_symbolic_zeros")

    def __init__(self, rule: Callable[..., object], sig: _Signature, symbolic_zeros: bool) -> None:
        self.rule = rule
        self.sig = sig
        self.desc = f"custom_vjp bwd rule {describe_function(rule)} of {sig.fun_name}"
        self._symbolic_zeros = symbolic_zeros

    @property
    def name(self) -> str:
        return rule_name(self.rule)

    @property
    def symbolic_zeros(self) -> bool:
        return self._symbolic_zeros

    def __call__(self, res_tree: PyTreeDef, res: tuple[Array, ...], cts: tuple[Tangent, ...]) -> tuple[Tangent, ...]:
        sig = self.sig
        user_cts = tree_unflatten(sig.out_tree, [_user_facing(ct) for ct in cts])
        result = self.rule(*sig.nondiff_values(()), tree_unflatten(res_tree, res), user_cts)
        return _flat_cotangents(result, sig, self.desc)


# === the decorators ===


@final
class _Entry:
    """One traced signature: the primitive to bind (holding the jaxpr and
    the flat rules) and the closed-over values to pass first."""

    __slots__ = ("primitive", "consts", "out_tree", "cacheable")

    def __init__(self, primitive: Primitive, consts: tuple[Array, ...], out_tree: PyTreeDef, cacheable: bool) -> None:
        self.primitive = primitive
        self.consts = consts
        self.out_tree = out_tree
        self.cacheable = cacheable


class _CustomFunction(Generic[P, R]):
    """What ``custom_jvp`` and ``custom_vjp`` share: argument handling and
    the per-signature trace cache (see Note [custom derivatives as call
    primitives])."""

    kind: ClassVar[str]
    fun: Callable[P, R]
    nondiff_argnums: tuple[int, ...]
    # Set by functools.update_wrapper, as on a function the decorator wraps.
    __wrapped__: Callable[P, R]
    __name__: str
    __qualname__: str

    def __init__(self, fun: Callable[P, R], nondiff_argnums: Sequence[int] = (), nondiff_argnames: Sequence[str] = ()) -> None:
        if not callable(fun):
            raise JaxtypedTypeError(f"{self.kind}: expected a callable, got {type(fun).__name__} {fun!r}")
        argnums = tuple(nondiff_argnums)
        if any(not is_int(i) or i < 0 for i in argnums):
            raise JaxtypedValueError(f"{self.kind}: nondiff_argnums must be non-negative ints, got {nondiff_argnums!r}")
        names = normalize_argnames(nondiff_argnames, self.kind, "nondiff_argnames")
        check_argnames(fun, names, self.kind, "nondiff_argnames")
        named_positions, _ = match_static(fun, (), names)
        self.fun = fun
        # Called with tracers and rebuilt arguments, not P's static types.
        self._untyped_fun: Callable[..., object] = fun
        # In position order, whatever order they were given in (JAX's rule:
        # the rules receive them so).
        self.nondiff_argnums = tuple(sorted({int(i) for i in argnums} | set(named_positions)))
        self._desc = describe_function(fun)
        self._name = rule_name(fun)
        self._signature = signature_of(fun)
        self._cache: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        functools.update_wrapper(self, fun, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=())

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        raise NotImplementedError  # supplied by custom_jvp and custom_vjp

    def __repr__(self) -> str:
        return f"<{self.kind} {self._desc}>"

    def _clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()

    def _make_primitive(self, jaxpr: Jaxpr, sig: _Signature, num_consts: int) -> Primitive:
        raise NotImplementedError  # supplied by custom_jvp and custom_vjp

    def _static(self, position: int, value: object) -> tuple[_Static, list[Array]]:
        """A non-differentiable argument and its traced leaves (operands)."""
        leaves, treedef = tree_flatten(value)
        return _Static(position, value, treedef, tuple(leaves), (False,) * len(leaves)), []

    def _call(self, args: tuple[object, ...], kwargs: dict[str, object]) -> Any:
        full = resolve_args(self._signature, args, kwargs, f"{self.kind} function {self._desc}")
        statics: list[_Static] = []
        traced: list[Array] = []
        for i in self.nondiff_argnums:
            if i >= len(full):
                raise JaxtypedValueError(
                    f"{self.kind} function {self._desc}: nondiff_argnums contains {i}, but it was called "
                    f"with {len(full)} positional argument(s)"
                )
            static, operands = self._static(i, full[i])
            statics.append(static)
            traced += operands
        positions = set(self.nondiff_argnums)
        leaves, in_tree = tree_flatten(tuple(a for i, a in enumerate(full) if i not in positions))
        if all(isinstance(leaf, Array) for leaf in leaves):
            arrays: list[Array] = leaves
        else:
            names = self._leaf_names(full)
            arrays = [leaf_as_array(x, f"{self.kind} function {self._desc}: argument {n}") for x, n in zip(leaves, names)]
        avals = tuple(a.aval for a in arrays)
        static_key = tuple(s.key() for s in statics)
        key = (len(full), in_tree, avals, static_key, tuple(t.aval for t in traced), config.trace_state())
        entry = self._cache.get(key)
        if entry is None:
            entry = self._trace(len(full), tuple(statics), tuple(traced), in_tree, avals, self._leaf_names(full))
            if entry.cacheable:
                with self._lock:
                    self._cache[key] = entry
                    while len(self._cache) > _TRACE_CACHE_SIZE:
                        self._cache.popitem(last=False)
        outs = bind(entry.primitive, *entry.consts, *traced, *arrays)
        return tree_unflatten(entry.out_tree, outs)

    def _arg_names(self, nargs: int) -> list[str]:
        names = [f"args[{i}]" for i in range(nargs)]
        if self._signature is not None:
            for i, param in enumerate(list(self._signature.parameters.values())[:nargs]):
                if param.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
                    names[i] = param.name
        return names

    def _leaf_names(self, full: Sequence[object]) -> list[str]:
        """Names of the differentiable leaves (``x``, ``params['w']``)."""
        names = self._arg_names(len(full))
        nondiff = set(self.nondiff_argnums)
        return [n for i, a in enumerate(full) if i not in nondiff for n in named_leaves(a, names[i])[1]]

    def _trace(
        self,
        nargs: int,
        statics: tuple[_Static, ...],
        traced: tuple[Array, ...],
        in_tree: PyTreeDef,
        avals: tuple[ShapedArray, ...],
        names: list[str],
    ) -> _Entry:
        interp = StagingInterpreter(current_interpreter(), self._desc, self.kind)
        arg_names = self._arg_names(nargs)
        with transformation_scope(interp), shared_numpy_constants():
            traced_args = [interp.new_arg(t.aval) for t in traced]
            diff_args = [interp.new_arg(aval, name) for aval, name in zip(avals, names)]
            sig = _Signature(
                fun_name=self._name,
                nargs=nargs,
                statics=statics,
                num_traced=len(traced),
                in_tree=in_tree,
                in_avals=avals,
                in_names=tuple(names),
                diff_names=tuple(n for i, n in enumerate(arg_names) if i not in self.nondiff_argnums),
                out_tree=in_tree,  # replaced below, once the output is known
                out_avals=(),
            )
            out = self._untyped_fun(*sig.full_args([*traced_args, *diff_args]))
            out_leaves, out_names, out_tree = named_leaves(out, "output")
            outs = [leaf_as_array(x, f"{self.kind} function {self._desc}: {n}") for x, n in zip(out_leaves, out_names)]
            closed = interp.build(outs)
        maybe_check_jaxpr(closed)
        sig = dataclasses.replace(sig, out_tree=out_tree, out_avals=closed.jaxpr.out_avals)
        primitive = self._make_primitive(consts_as_invars(closed.jaxpr), sig, len(closed.consts))
        cacheable = all(type(c) is ArrayImpl for c in closed.consts)
        return _Entry(primitive, closed.consts, out_tree, cacheable)


def signature_of(fun: Callable[..., object]) -> inspect.Signature | None:
    """``fun``'s signature for resolving keyword arguments; None when
    Python does not know it or ``fun`` is a ``functools.partial`` (opaque,
    as in JAX)."""
    if isinstance(fun, functools.partial):
        return None
    try:
        return inspect.signature(fun)
    except (TypeError, ValueError):
        return None


def resolve_args(
    signature: inspect.Signature | None, args: tuple[object, ...], kwargs: dict[str, object], where: str
) -> tuple[object, ...]:
    """The call's arguments as positional ones (defaults filled in), as
    JAX resolves them for custom derivative functions."""
    if signature is None:
        if kwargs:
            raise JaxtypedTypeError(f"{where}: keyword arguments {sorted(kwargs)} cannot be resolved to positions")
        return args
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as err:
        raise JaxtypedTypeError(f"{where}: {err}") from None
    bound.apply_defaults()
    passed = [k for k in bound.kwargs if k in kwargs]
    if passed:
        raise JaxtypedTypeError(
            f"{where}: keyword arguments {passed} could not be resolved to positions; the inputs of a "
            "custom_jvp/custom_vjp function must be positional (or positional-or-keyword) parameters"
        )
    return tuple(bound.args)


class custom_jvp(_CustomFunction[P, R]):  # noqa: N801  # JAX's name
    """A function with a user-defined forward-mode derivative rule (JAX's
    ``jax.custom_jvp``); reverse mode follows by transposing the rule.

    Decorate the function, then define the rule with :meth:`defjvp` (or
    one rule per argument with :meth:`defjvps`). Arguments listed in
    ``nondiff_argnums`` are passed to the rule first, as they are (use it
    for non-array arguments such as functions; arrays given there get no
    derivative).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> @jt.custom_jvp
        ... def log1pexp(x):
        ...     return jnp.log(1.0 + jnp.exp(x))
        >>> @log1pexp.defjvp
        ... def log1pexp_jvp(primals, tangents):
        ...     (x,), (t,) = primals, tangents
        ...     return log1pexp(x), t * (1.0 - 1.0 / (1.0 + jnp.exp(x)))
        >>> jt.grad(log1pexp)(100.0)
        Array(1., dtype=float32, weak_type=True)
    """

    kind: ClassVar[str] = "custom_jvp"
    jvp: Callable[..., tuple[R, R]] | None
    symbolic_zeros: bool

    def __init__(self, fun: Callable[P, R], nondiff_argnums: Sequence[int] = (), nondiff_argnames: Sequence[str] = ()) -> None:
        super().__init__(fun, nondiff_argnums, nondiff_argnames)
        self.jvp = None
        self.symbolic_zeros = False

    # Every overload returns the rule with its own parameter types. The
    # first of each pair also types a lambda rule's parameters (the bounds:
    # pyright strict rejects unknown ones); rules with nondiff_argnums take
    # the second. With symbolic_zeros the tangent output may hold
    # SymbolicZeros anywhere in the output's pytree, which no type of the
    # output can say: it is the rule's own type.
    @overload
    def defjvp(
        self, jvp: Callable[[PrimalsT, TangentsT], tuple[R, R]], symbolic_zeros: Literal[False] = False
    ) -> Callable[[PrimalsT, TangentsT], tuple[R, R]]: ...
    @overload
    def defjvp(
        self, jvp: Callable[P2, tuple[R, R]], symbolic_zeros: Literal[False] = False
    ) -> Callable[P2, tuple[R, R]]: ...
    @overload
    def defjvp(
        self, jvp: Callable[[PrimalsT, TangentsT], tuple[R, TangentOut]], symbolic_zeros: Literal[True]
    ) -> Callable[[PrimalsT, TangentsT], tuple[R, TangentOut]]: ...
    @overload
    def defjvp(
        self, jvp: Callable[P2, tuple[R, TangentOut]], symbolic_zeros: Literal[True]
    ) -> Callable[P2, tuple[R, TangentOut]]: ...
    @overload
    def defjvp(
        self, jvp: Callable[[PrimalsT, TangentsT], tuple[R, object]], symbolic_zeros: bool
    ) -> Callable[[PrimalsT, TangentsT], tuple[R, object]]: ...
    @overload
    def defjvp(self, jvp: Callable[..., tuple[R, object]], symbolic_zeros: bool) -> Callable[..., tuple[R, object]]: ...
    def defjvp(self, jvp: Callable[..., tuple[R, object]], symbolic_zeros: bool = False) -> Callable[..., tuple[R, object]]:
        """Define the rule ``jvp(*nondiff_args, primals, tangents) ->
        (primal_out, tangent_out)``, where ``primals`` and ``tangents`` are
        tuples of the differentiable arguments; returns ``jvp`` (so it can
        be used as a decorator).

        With ``symbolic_zeros=True`` the rule receives a
        :class:`~jaxtyped.custom_derivatives.SymbolicZero` for each tangent
        known to be zero (an argument not being differentiated), and may
        return one for a zero output tangent; otherwise it receives zeros
        as arrays.
        """
        if not callable(jvp):
            raise JaxtypedTypeError(
                f"custom_jvp function {self._desc}: defjvp expects a callable, got {type(jvp).__name__}"
            )
        # JAX's attribute type; a symbolic_zeros rule's tangent may also hold SymbolicZeros.
        self.jvp = cast(Callable[..., tuple[R, R]], jvp)
        self.symbolic_zeros = bool(symbolic_zeros)
        self._clear_cache()
        return jvp

    def defjvps(self, *jvps: Callable[Concatenate[Any, R, P], R] | None) -> None:
        """Define the rule by one function per differentiable argument,
        ``jvp_i(tangent_i, primal_out, *args)``, whose results are summed;
        ``None`` for an argument with zero derivative. (A lambda's ``primal_out``
        and ``args`` get the function's types; ``tangent_i`` is ``Any``, being
        the tangent of whichever argument it is.)"""
        if self.nondiff_argnums:
            raise JaxtypedTypeError(f"custom_jvp function {self._desc}: defjvps cannot be used with nondiff_argnums")
        self.defjvp(_sum_of_jvps(self, jvps))

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.jvp is None:
            raise MissingRuleError(
                f"No JVP rule defined for custom_jvp function {self._desc}: define one with "
                f"{self._name}.defjvp(...) or {self._name}.defjvps(...) before calling it"
            )
        result: R = self._call(args, kwargs)
        return result

    @override
    def _static(self, position: int, value: object) -> tuple[_Static, list[Array]]:
        leaves, treedef = tree_flatten(value)
        traced = tuple(isinstance(x, Tracer) and isinstance(x, Array) for x in leaves)
        if not any(traced):
            return _Static(position, value, treedef, tuple(leaves), traced), []
        # As in JAX, traced arrays passed as non-differentiable get no
        # derivative. They become operands; the entry keeps no tracer.
        operands = [stop_gradient(x) for x, t in zip(leaves, traced) if t and isinstance(x, Array)]
        kept = tuple(None if t else x for x, t in zip(leaves, traced))
        return _Static(position, None, treedef, kept, traced), operands

    @override
    def _make_primitive(self, jaxpr: Jaxpr, sig: _Signature, num_consts: int) -> Primitive:
        assert self.jvp is not None
        return CustomJVPCall(jaxpr, _UserJVPRule(self.jvp, sig, self.symbolic_zeros), num_consts, self._name)


def _sum_of_jvps(fun: Callable[..., Any], jvps: tuple[Callable[..., Any] | None, ...]) -> Callable[..., tuple[Any, Any]]:
    """The ``defjvp`` rule of ``defjvps``: the primal output and the sum
    of the per-argument rules' tangents."""

    def jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
        if len(jvps) != len(primals):
            raise JaxtypedTypeError(
                f"custom_jvp function {describe_function(fun)}: defjvps was given {len(jvps)} rule(s) for "
                f"{len(primals)} argument(s); pass None for arguments with zero derivative"
            )
        primal_out = fun(*primals)
        out_leaves, out_tree = tree_flatten(primal_out)
        total: list[Array | None] = [None] * len(out_leaves)
        for rule, t in zip(jvps, tangents):
            if rule is None:
                continue
            leaves, tree = tree_flatten(rule(t, primal_out, *primals))
            if tree != out_tree:
                raise JaxtypedTypeError(
                    f"custom_jvp rule {describe_function(rule)} of {describe_function(fun)}: the tangent has "
                    f"structure {tree}, but the function returns {out_tree}"
                )
            arrays = [leaf_as_array(x, f"custom_jvp rule {describe_function(rule)}: tangent") for x in leaves]
            total = [x if acc is None else add(acc, x) for acc, x in zip(total, arrays)]
        outs = [
            zeros(leaf_as_array(o, "output").aval.to_tangent_aval()) if t is None else t for o, t in zip(out_leaves, total)
        ]
        return primal_out, tree_unflatten(out_tree, outs)

    return jvp


class custom_vjp(_CustomFunction[P, R]):  # noqa: N801  # JAX's name
    """A function with a user-defined reverse-mode derivative rule (JAX's
    ``jax.custom_vjp``).

    Define the rule with :meth:`defvjp`: ``fwd`` computes the output and
    residuals, ``bwd`` maps residuals and the output cotangent to the
    inputs' cotangents. Forward mode (``jvp``, ``jacfwd``, ``linearize``)
    is not available for such a function, as in JAX.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> @jt.custom_vjp
        ... def clip_gradient(lo, hi, x):
        ...     return x
        >>> def fwd(lo, hi, x):
        ...     return x, (lo, hi)
        >>> def bwd(res, g):
        ...     lo, hi = res
        ...     return (None, None, jnp.clip(g, lo, hi))
        >>> clip_gradient.defvjp(fwd, bwd)
        >>> jt.grad(lambda x: clip_gradient(-0.75, 0.75, 3.0 * x))(1.0)
        Array(2.25, dtype=float32, weak_type=True)
    """

    kind: ClassVar[str] = "custom_vjp"
    fwd: Callable[..., tuple[R, object]] | None
    bwd: Callable[..., tuple[object, ...]] | None
    symbolic_zeros: bool
    optimize_remat: bool

    def __init__(self, fun: Callable[P, R], nondiff_argnums: Sequence[int] = (), nondiff_argnames: Sequence[str] = ()) -> None:
        super().__init__(fun, nondiff_argnums, nondiff_argnames)
        self.fwd = None
        self.bwd = None
        self.symbolic_zeros = False
        self.optimize_remat = False

    # The first overload gives fwd the function's parameters and ties bwd's
    # residual parameter to fwd's residuals (and so types a lambda fwd's and
    # bwd's parameters); a fwd whose parameters are named otherwise takes
    # the second; a bwd with nondiff_argnums first, or symbolic zeros (fwd
    # then receives CustomVJPPrimal records), the third.
    @overload
    def defvjp(
        self,
        fwd: Callable[P, tuple[R, Res]],
        bwd: Callable[[Res, R], tuple[object, ...]],
        symbolic_zeros: Literal[False] = False,
        optimize_remat: bool = False,
    ) -> None: ...
    @overload
    def defvjp(
        self,
        fwd: Callable[..., tuple[R, Res]],
        bwd: Callable[[Res, R], tuple[object, ...]],
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None: ...
    @overload
    def defvjp(
        self,
        fwd: Callable[..., tuple[R, object]],
        bwd: Callable[..., tuple[object, ...]],
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None: ...
    def defvjp(
        self,
        fwd: Callable[..., tuple[R, object]],
        bwd: Callable[..., tuple[object, ...]],
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None:
        """Define the rules: ``fwd(*args) -> (out, residuals)`` takes the
        function's arguments; ``bwd(*nondiff_args, residuals, ct_out)``
        returns a tuple with one cotangent per differentiable argument, of
        that argument's structure (``None`` for zero, also for a whole
        subtree).

        With ``symbolic_zeros=True``, ``fwd`` receives each leaf of the
        differentiable arguments as a
        :class:`~jaxtyped.custom_derivatives.CustomVJPPrimal` (its ``value``
        and whether it is ``perturbed``, i.e. differentiated), and ``bwd``
        receives a :class:`~jaxtyped.custom_derivatives.SymbolicZero` for
        each output cotangent known to be zero. ``optimize_remat`` is
        accepted and has no effect (JAX's rewrite of ``fwd`` for
        ``checkpoint`` is not done); as in JAX it cannot be combined with
        ``symbolic_zeros``.
        """
        if symbolic_zeros and optimize_remat:
            raise JaxtypedNotImplementedError(
                f"custom_vjp function {self._desc}: remat optimization for custom_vjp does not support "
                "symbolic zeros (optimize_remat=True with symbolic_zeros=True)"
            )
        for what, rule in (("fwd", fwd), ("bwd", bwd)):
            if not callable(rule):
                raise JaxtypedTypeError(
                    f"custom_vjp function {self._desc}: defvjp expects a callable {what}, got {type(rule).__name__}"
                )
        self.fwd, self.bwd = fwd, bwd
        self.symbolic_zeros, self.optimize_remat = bool(symbolic_zeros), bool(optimize_remat)
        self._clear_cache()

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.fwd is None:
            raise MissingRuleError(
                f"No VJP rule defined for custom_vjp function {self._desc}: define one with "
                f"{self._name}.defvjp(fwd, bwd) before calling it"
            )
        if self.bwd is not None and any(is_ref(leaf) for leaf in tree_leaves((args, kwargs))):
            # Refs as plumbing (issue 16).
            from jaxtyped._src.state.custom_vjp_refs import call_custom_vjp_with_refs

            return call_custom_vjp_with_refs(  # type: ignore[no-any-return]  # fun's result R
                lambda f: custom_vjp(f, self.nondiff_argnums), self.fun, self.fwd, self.bwd, args, kwargs,
                symbolic_zeros=self.symbolic_zeros,
            )
        result: R = self._call(args, kwargs)
        return result

    @override
    def _static(self, position: int, value: object) -> tuple[_Static, list[Array]]:
        for leaf in tree_leaves(value):
            if isinstance(leaf, Tracer):
                shown = leaf.aval.str_short() if isinstance(leaf, Array) else type(leaf).__name__
                raise UnexpectedTracerError(
                    f"custom_vjp function {self._desc}: argument {self._arg_names(position + 1)[position]} "
                    f"(position {position}, listed in nondiff_argnums) contains a traced value {shown} of "
                    f"{leaf.interpreter.describe()}. Non-differentiable arguments of a custom_vjp function "
                    "must not be traced values; pass arrays as ordinary arguments (bwd may return None "
                    "for them) and keep nondiff_argnums for values such as functions."
                )
        return super()._static(position, value)

    @override
    def _make_primitive(self, jaxpr: Jaxpr, sig: _Signature, num_consts: int) -> Primitive:
        assert self.fwd is not None and self.bwd is not None
        fwd, bwd = _UserFwd(self.fwd, sig, self.symbolic_zeros), _UserBwd(self.bwd, sig, self.symbolic_zeros)
        return CustomVJPCall(jaxpr, fwd, bwd, num_consts, self._name)
