"""Rematerialization policies and ``checkpoint_name`` (layer L4).

A *policy* decides, for one first-order equation inside a
``checkpoint``-ed function, whether its outputs may be saved for the
backward pass (True) or must be recomputed there (False). It is called as
JAX calls its policies: ``policy(prim, *in_avals, **params)``, where
``prim`` is the equation's :class:`Primitive` (``prim.name`` is JAX's name
of it, e.g. ``"dot_general"``), ``in_avals`` are the operands'
:class:`ShapedArray`\\ s and ``params`` the primitive's static parameters
by name (``dimension_numbers`` for a dot). Any callable of that shape is a
policy; the ones here are JAX's ``jax.checkpoint_policies``.

The built-in policies are frozen dataclasses (hashable and compared by
value, so a checkpoint's transformed jaxprs are cached across calls with an
equal policy) and print as JAX prints them
(``DotsSaveable(only_if_no_batch_dims=False)``).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, TypeVar, final, overload

from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, to_array
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.lax.dot import DotGeneral
from jaxtyped._src.tree_util import tree_map

__all__ = [
    "Policy",
    "Name",
    "checkpoint_name",
    "everything_saveable",
    "nothing_saveable",
    "DotsSaveable",
    "dots_saveable",
    "checkpoint_dots",
    "dots_with_no_batch_dims_saveable",
    "checkpoint_dots_with_no_batch_dims",
    "SaveOnlyTheseNames",
    "SaveAnyNamesButThese",
    "SaveAnythingExceptTheseNames",
    "SaveFromBothPolicies",
    "save_only_these_names",
    "save_any_names_but_these",
    "save_anything_except_these_names",
    "save_from_both_policies",
]

# A rematerialization policy: ``policy(prim, *in_avals, **params) -> bool``
# (JAX's type for it; the parameters differ per primitive, hence ``...``).
Policy = Callable[..., bool]

T = TypeVar("T")


# === the ``name`` primitive ===


@final
@dataclass(frozen=True, slots=True)
class Name(Primitive):
    """Identity that tags a value with a name for checkpoint policies
    (JAX's ``name`` primitive, printed ``name[name=foo]``).

    The field is ``label`` because ``name`` is every primitive's class-level
    name; :meth:`params` exposes it as ``name``, the key policies read.
    """

    name: ClassVar[str] = "name"
    label: str

    @override
    def params(self) -> tuple[tuple[str, object], ...]:
        return (("name", self.label),)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) != 1:
            raise JaxtypedTypeError(f"name expects 1 operand, got {len(avals)}")
        return avals

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return args

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        return args  # an identity: no copy, no round trip through the host

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Only the primal is named: policies choose among forward values.
        return (bind1(self, *primals),), tangents

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        return cts

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return (bind1(self, *args),), dims

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return args


@overload
def checkpoint_name(x: ArrayLike, name: str) -> Array: ...
@overload
def checkpoint_name(x: T, name: str) -> T: ...
def checkpoint_name(x: object, name: str) -> object:
    """Tag ``x`` (an array or a pytree of arrays) with ``name`` for
    checkpoint policies such as :func:`save_only_these_names`; an identity
    on values (JAX's ``jax.ad_checkpoint.checkpoint_name``).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped.ad_checkpoint import checkpoint_name
        >>> print(jt.make_jaxpr(lambda x: checkpoint_name(jnp.sin(x), "s"))(1.0))
        { lambda ; a:f32[]. let b:f32[] = sin a; c:f32[] = name[name=s] b in (c,) }
    """
    if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"checkpoint_name: name must be a str, got {type(name).__name__} {name!r}")
    prim = Name(name)

    def tag(leaf: ArrayLike) -> Array:
        return bind1(prim, to_array(leaf, f"checkpoint_name({name!r})"))

    result: object = tree_map(tag, x)
    return result


# === policies ===


def everything_saveable(*_: object, **__: object) -> bool:
    """Save every value: differentiation behaves as without checkpoint."""
    return True


def nothing_saveable(*_: object, **__: object) -> bool:
    """Save nothing but the inputs: recompute every intermediate (what a
    checkpoint without a policy does)."""
    return False


def _batch_dims_empty(params: dict[str, object]) -> bool:
    numbers = params.get("dimension_numbers")
    if not isinstance(numbers, tuple) or len(numbers) != 2:  # pyright: ignore[reportUnknownArgumentType]  # a user primitive's params are untyped
        return False
    batch = numbers[1]  # pyright: ignore[reportUnknownVariableType]  # ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))
    return isinstance(batch, tuple) and all(not dims for dims in batch)  # pyright: ignore[reportUnknownVariableType]  # see above


@final
@dataclass(frozen=True)
class DotsSaveable:
    """Save the results of matrix multiplications (``dot_general``,
    ``conv_general_dilated``) and recompute everything else; with
    ``only_if_no_batch_dims``, only dots without batch dimensions."""

    only_if_no_batch_dims: bool

    def __call__(self, prim: Primitive, *avals: ShapedArray, **params: object) -> bool:
        if self.only_if_no_batch_dims:
            return isinstance(prim, DotGeneral) and _batch_dims_empty(params)
        return isinstance(prim, DotGeneral) or prim.name == "conv_general_dilated"


dots_saveable: Final[DotsSaveable] = DotsSaveable(False)
checkpoint_dots: Final[DotsSaveable] = dots_saveable
dots_with_no_batch_dims_saveable: Final[DotsSaveable] = DotsSaveable(True)
checkpoint_dots_with_no_batch_dims: Final[DotsSaveable] = dots_with_no_batch_dims_saveable


@final
@dataclass(frozen=True)
class SaveOnlyTheseNames:
    """Save only values tagged by :func:`checkpoint_name` with one of
    ``saveable_names``."""

    saveable_names: frozenset[str]

    def __call__(self, prim: Primitive, *avals: ShapedArray, **params: object) -> bool:
        return isinstance(prim, Name) and prim.label in self.saveable_names


@final
@dataclass(frozen=True)
class SaveAnyNamesButThese:
    """Save only named values, except those named in ``names``."""

    names: frozenset[str]

    def __call__(self, prim: Primitive, *avals: ShapedArray, **params: object) -> bool:
        return isinstance(prim, Name) and prim.label not in self.names


@final
@dataclass(frozen=True)
class SaveAnythingExceptTheseNames:
    """Save every value (named or not) except those named in ``names``."""

    names: frozenset[str]

    def __call__(self, prim: Primitive, *avals: ShapedArray, **params: object) -> bool:
        return not (isinstance(prim, Name) and prim.label in self.names)


@final
@dataclass(frozen=True)
class SaveFromBothPolicies:
    """Save a value when either policy saves it (a logical or)."""

    policy_1: Policy
    policy_2: Policy

    def __call__(self, prim: Primitive, *avals: ShapedArray, **params: object) -> bool:
        first = self.policy_1(prim, *avals, **params)
        second = self.policy_2(prim, *avals, **params)
        for result in (first, second):
            if not isinstance(result, bool):  # pyright: ignore[reportUnnecessaryIsInstance]  # user policies may return anything
                raise JaxtypedTypeError(
                    f"save_from_both_policies: a policy returned {type(result).__name__} {result!r}; "
                    "both policies must return a bool"
                )
        return first or second


def _names(names: tuple[str, ...], where: str) -> frozenset[str]:
    for name in names:
        if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedTypeError(f"{where}: names must be str, got {type(name).__name__} {name!r}")
    return frozenset(names)


def save_only_these_names(*names: str) -> SaveOnlyTheseNames:
    """The policy saving only values named (by :func:`checkpoint_name`)
    with one of ``names``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped.ad_checkpoint import checkpoint_name, print_saved_residuals
        >>> def f(x):
        ...     return jnp.sin(checkpoint_name(jnp.sin(x), "a"))
        >>> policy = jt.checkpoint_policies.save_only_these_names("a")
        >>> print_saved_residuals(jt.checkpoint(f, policy=policy), 1.0)
        f32[] from the argument x
        f32[] named 'a'
    """
    return SaveOnlyTheseNames(_names(names, "save_only_these_names"))


def save_any_names_but_these(*names: str) -> SaveAnyNamesButThese:
    """The policy saving only named values, except those with one of
    ``names``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped.ad_checkpoint import checkpoint_name, print_saved_residuals
        >>> def f(x):
        ...     y = checkpoint_name(jnp.sin(x), "a")
        ...     return jnp.sin(checkpoint_name(jnp.sin(y), "b"))
        >>> policy = jt.checkpoint_policies.save_any_names_but_these("a")
        >>> print_saved_residuals(jt.checkpoint(f, policy=policy), 1.0)
        f32[] from the argument x
        f32[] named 'b'
    """
    return SaveAnyNamesButThese(_names(names, "save_any_names_but_these"))


def save_anything_except_these_names(*names: str) -> SaveAnythingExceptTheseNames:
    """The policy saving every value except those named with one of
    ``names`` (as JAX documents it; JAX 0.10's version saves everything).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped.ad_checkpoint import checkpoint_name, print_saved_residuals
        >>> def f(x):
        ...     return jnp.sin(checkpoint_name(jnp.sin(x), "a"))
        >>> policy = jt.checkpoint_policies.save_anything_except_these_names("a")
        >>> print_saved_residuals(jt.checkpoint(f, policy=policy), 1.0)
        f32[] output of cos
        f32[] output of cos
    """
    return SaveAnythingExceptTheseNames(_names(names, "save_anything_except_these_names"))


def save_from_both_policies(policy_1: Policy, policy_2: Policy) -> SaveFromBothPolicies:
    """The policy saving what either ``policy_1`` or ``policy_2`` saves.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped.ad_checkpoint import checkpoint_name, print_saved_residuals
        >>> cp = jt.checkpoint_policies
        >>> def f(w, x):
        ...     return jnp.sin(checkpoint_name(jnp.sin(w @ x), "a"))
        >>> policy = cp.save_from_both_policies(cp.dots_saveable, cp.save_only_these_names("a"))
        >>> print_saved_residuals(jt.checkpoint(f, policy=policy), jnp.ones((2, 2)), jnp.ones(2))
        f32[2,2] from the argument w
        f32[2] from the argument x
        f32[2] output of dot_general
        f32[2] named 'a'
    """
    for policy in (policy_1, policy_2):
        if not callable(policy):
            raise JaxtypedTypeError(f"save_from_both_policies: a policy must be callable, got {type(policy).__name__}")
    return SaveFromBothPolicies(policy_1, policy_2)
