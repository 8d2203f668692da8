"""User-defined batching rules: ``custom_vmap`` and ``sequential_vmap``
(JAX's ``jax.custom_batching``; layer L4).

Calling a ``custom_vmap`` function traces it to a jaxpr (cached per
signature) and binds ``custom_vmap_call``, which holds that jaxpr and the
user's rule, with the values the function closes over as leading operands.
Evaluation runs the jaxpr op by op and lowering inlines it; ``vmap`` calls
the rule instead of batching the jaxpr: ``rule(axis_size, in_batched,
*args)``, batched arguments with their batch axis first, returning
``(out, out_batched)``.

``jvp`` of ``custom_vmap_call`` is another ``custom_vmap_call``, of the jvp
of the jaxpr, whose rule is the jvp of the user's rule: so ``vmap`` of a
``jvp`` still batches with the user's rule. Where JAX batches an argument
whose primal is batched but whose tangent is not (or the other way round)
with a plain ``vmap`` around the rule, this module broadcasts the other one
and calls the rule with both batched: JAX's way gives an output with two
batch axes when the rule also sees a batched argument (JAX 0.10.2 returns
shape ``(3, 3)`` for ``vmap(lambda x, y: jvp(f, (x, y), (x, 0.)))`` of
``(3,)`` inputs), this way gives JAX's values with the right shape.

Reverse mode is refused, as in JAX: the primal outputs of a linearized
``custom_vmap_call`` would be unknown (JAX: "Linearization failed to
produce known values for all output primals").
"""

import functools
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Generic, TypeVar, cast, final

from typing_extensions import ParamSpec, override

from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, shared_numpy_constants
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, Zero
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import PartialEvalSplit, Tangent
from jaxtyped._src.custom_derivatives import resolve_args, rule_name, signature_of
from jaxtyped._src.custom_derivatives_primitives import CustomCall
from jaxtyped._src.errors import JaxtypedAttributeError, JaxtypedTypeError, JaxtypedValueError, UnexpectedTracerError
from jaxtyped._src.interpreters.jvp import JVPInterpreter
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.control_flow.scan import map as lax_map
from jaxtyped._src.lax.structural import bdim_to_front, instantiate
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.pjit import cached_transform, consts_as_invars, jvp_jaxpr
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jaxtyped._src.util import arg_names, describe_function, is_list_or_tuple

__all__ = ["VmapRule", "CustomVmapCall", "custom_vmap", "sequential_vmap"]

P = ParamSpec("P")
R = TypeVar("R")
# A user's batching rule, returned unchanged by def_vmap (usable as a decorator).
RuleT = TypeVar("RuleT", bound=Callable[..., tuple[object, object]])

# Per-function bound on traced signatures (oldest evicted first).
_TRACE_CACHE_SIZE: Final = 1024


# === flat rules held by the primitive ===


class VmapRule(ABC):
    """A batching rule over flat arrays: ``(axis_size, in_batched, args)``
    -> ``(outs, out_batched)``; batched arguments and outputs have their
    batch axis first."""

    __slots__ = ()

    @property
    @abstractmethod
    def name(self) -> str:
        """How the rule is printed (``rule=f_vmap``)."""

    @abstractmethod
    def __call__(
        self, axis_size: int, in_batched: tuple[bool, ...], args: tuple[Array, ...]
    ) -> tuple[tuple[Array, ...], tuple[bool, ...]]: ...

    def __str__(self) -> str:
        return self.name


@final
class _UserVmapRule(VmapRule):
    """The user's rule, called on the arguments' pytrees; what it returns
    is checked against the function's output structure and types."""

    __slots__ = ("rule", "fun_desc", "in_tree", "out_tree", "out_avals", "_name")

    def __init__(
        self,
        rule: Callable[..., object],
        fun_desc: str,
        in_tree: PyTreeDef,
        out_tree: PyTreeDef,
        out_avals: tuple[ShapedArray, ...],
    ) -> None:
        self.rule, self.fun_desc, self.in_tree, self.out_tree, self.out_avals = rule, fun_desc, in_tree, out_tree, out_avals
        self._name = rule_name(rule)

    @property
    def name(self) -> str:
        return self._name

    def __call__(
        self, axis_size: int, in_batched: tuple[bool, ...], args: tuple[Array, ...]
    ) -> tuple[tuple[Array, ...], tuple[bool, ...]]:
        batched_trees: tuple[object, ...] = tree_unflatten(self.in_tree, in_batched)
        arg_trees: tuple[object, ...] = tree_unflatten(self.in_tree, args)
        where = f"custom vmap rule {self._name} of custom_vmap function {self.fun_desc}"
        result = self.rule(axis_size, list(batched_trees), *arg_trees)
        if not is_list_or_tuple(result) or len(result) != 2:
            raise JaxtypedTypeError(
                f"{where} must return a pair (output, out_batched), got a value of type {type(result).__name__}"
            )
        out, out_batched = result[0], result[1]
        out_leaves, out_names, out_tree = named_leaves(out, "output")
        flag_leaves, flag_tree = tree_flatten(out_batched)
        if flag_tree != out_tree:
            raise JaxtypedValueError(
                f"{where}: the structure of the output and of the output batching specification do not "
                f"match.\nOutput values: {out_tree}\nBatching spec: {flag_tree}"
            )
        if out_tree != self.out_tree:
            raise JaxtypedValueError(
                f"{where}: the output structure {out_tree} differs from the function's {self.out_tree}"
            )
        outs: list[Array] = []
        flags: list[bool] = []
        for leaf, name, flag, aval in zip(out_leaves, out_names, flag_leaves, self.out_avals, strict=True):
            if not isinstance(flag, bool):
                raise JaxtypedTypeError(f"{where}: out_batched for {name} must be a bool, got {flag!r}")
            value = leaf_as_array(leaf, f"{where}: {name}")
            want = (axis_size, *aval.shape) if flag else aval.shape
            if value.shape != want or value.dtype != aval.dtype:
                state = f"batched (axis size {axis_size})" if flag else "unbatched"
                raise JaxtypedTypeError(
                    f"{where}: {name} is declared {state}, so it must have shape {want} and dtype {aval.dtype}, "
                    f"got {value.aval.str_short()}"
                )
            outs.append(value)
            flags.append(flag)
        return tuple(outs), tuple(flags)


@final
class _JVPOfVmapRule(VmapRule):
    """The rule of the jvp of a ``custom_vmap_call``: its operands are the
    primals then the tangents of ``inner``'s; it runs ``inner`` under jvp,
    with every argument batched whose primal or tangent is (the other
    broadcast, see the module docstring)."""

    __slots__ = ("inner", "num_args")

    def __init__(self, inner: VmapRule, num_args: int) -> None:
        self.inner, self.num_args = inner, num_args

    @property
    def name(self) -> str:
        return f"jvp_of_{self.inner.name}"

    def __call__(
        self, axis_size: int, in_batched: tuple[bool, ...], args: tuple[Array, ...]
    ) -> tuple[tuple[Array, ...], tuple[bool, ...]]:
        n = self.num_args
        batched = tuple(p or t for p, t in zip(in_batched[:n], in_batched[n:], strict=True))
        lifted = [
            bdim_to_front(x, None, axis_size) if want and not have else x
            for x, want, have in zip(args, batched + batched, in_batched, strict=True)
        ]
        interp = JVPInterpreter(current_interpreter(), f"the vmap rule {self.inner.name}")
        with transformation_scope(interp):
            boxed = tuple(interp.box(p, t) for p, t in zip(lifted[:n], lifted[n:], strict=True))
            outs, out_batched = self.inner(axis_size, batched, boxed)
            pairs = [interp.unbox(o) for o in outs]
        primals = tuple(p for p, _ in pairs)
        # A tangent has its primal's shape, so its batching is its primal's.
        tangents = tuple(instantiate(t) for _, t in pairs)
        return primals + tangents, out_batched + out_batched


# === the primitive ===


@final
@dataclass(frozen=True, slots=True)
class CustomVmapCall(CustomCall):
    """Call of a ``custom_vmap`` function (JAX's ``custom_vmap_call``).

    Attributes:
        call_jaxpr: the function, without constvars; its first
            ``num_consts`` inputs are the values it closes over.
        rule: the batching rule over the operands after the closed-over
            values (printed ``rule=``).
        num_consts: how many leading operands are closed-over values.
        fun_name: the function's name, printed as ``name=``.
    """

    name: ClassVar[str] = "custom_vmap_call"
    several_results = True
    kind: ClassVar[str] = "custom_vmap"
    call_jaxpr: Jaxpr
    rule: VmapRule
    num_consts: int
    fun_name: str

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        if any(d is not None for d in dims[: self.num_consts]):
            # The rule sees the arguments only: it could not batch over a closed-over value.
            raise UnexpectedTracerError(
                f"custom_vmap function {self.fun_name} closes over a value that this vmap batches; its "
                f"rule {self.rule.name} cannot account for it. Pass the value as an argument instead."
            )
        arg_dims = dims[self.num_consts :]
        front = tuple(
            x if d is None else bdim_to_front(x, d, axis.size) for x, d in zip(args[self.num_consts :], arg_dims)
        )
        outs, out_batched = self.rule(axis.size, tuple(d is not None for d in arg_dims), front)
        return outs, tuple(0 if b else None for b in out_batched)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        nc = self.num_consts
        n_out = len(self.call_jaxpr.outvars)
        if any(not isinstance(t, Zero) for t in tangents[:nc]):
            # The rule cannot account for a closed-over value's tangent:
            # differentiate the function itself (a vmap of the result then
            # batches its operations, not the rule).
            nonzero = tuple(not isinstance(t, Zero) for t in tangents)
            closed, _ = cached_transform(
                ("custom_vmap jvp inline", self.call_jaxpr, nonzero),
                lambda: jvp_jaxpr(self.call_jaxpr, nonzero, instantiate=True),
            )
            outs = eval_jaxpr(closed.jaxpr, closed.consts, *primals, *(t for t in tangents if not isinstance(t, Zero)))
            return tuple(outs[:n_out]), tuple(outs[n_out:])
        num_args = len(primals) - nc
        nonzero = (False,) * nc + (True,) * num_args

        def make() -> tuple[ClosedJaxpr[Array], VmapRule]:
            closed, _ = jvp_jaxpr(self.call_jaxpr, nonzero, instantiate=True)
            return closed, _JVPOfVmapRule(self.rule, num_args)

        closed, rule = cached_transform(("custom_vmap jvp", self.call_jaxpr, self.rule), make)
        prim = CustomVmapCall(consts_as_invars(closed.jaxpr), rule, len(closed.consts) + nc, self.fun_name)
        outs = bind(prim, *closed.consts, *primals, *(instantiate(t) for t in tangents[nc:]))
        return outs[:n_out], outs[n_out:]

    @override
    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        raise JaxtypedValueError(
            f"custom_vmap function {self.fun_name}: reverse-mode differentiation (grad, vjp, linearize) "
            "of a custom_vmap function is not supported, as in JAX: linearizing it would leave its "
            "primal outputs unknown. Use jvp, or give the function a custom_jvp/custom_vjp rule inside."
        )

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        consts = (("num_consts", self.num_consts),) if self.num_consts else ()
        return (("name", self.fun_name), ("call", self.call_jaxpr), ("rule", self.rule), *consts)

    @override
    def format_param(self, name: str, value: object) -> str:
        if isinstance(value, VmapRule):
            return value.name
        return CustomCall.format_param(self, name, value)


# === the user-facing decorator ===


class _Entry:
    """One traced signature: the primitive to bind, the closed-over values
    to pass first and the output structure."""

    __slots__ = ("primitive", "consts", "out_tree", "cacheable")

    def __init__(self, primitive: CustomVmapCall, consts: tuple[Array, ...], out_tree: PyTreeDef, cacheable: bool) -> None:
        self.primitive, self.consts, self.out_tree, self.cacheable = primitive, consts, out_tree, cacheable


class custom_vmap(Generic[P, R]):  # noqa: N801  # JAX's name
    """A function with a user-defined batching rule (JAX's
    ``jax.custom_batching.custom_vmap``).

    Define the rule with :meth:`def_vmap`; under ``vmap`` it is called as
    ``rule(axis_size, in_batched, *args)``, where ``in_batched`` is a list
    with one pytree of bools per argument (whether that leaf is batched)
    and batched leaves have the batch axis first. It returns ``(out,
    out_batched)``: the batched result and a pytree of bools of the same
    structure. Outside ``vmap`` the function runs as written; ``jvp``
    works (and ``vmap`` of a ``jvp`` uses the jvp of the rule);
    reverse mode is refused, as in JAX.

    Example::

        @custom_vmap
        def f(x, y):
            return x + y

        @f.def_vmap
        def f_vmap(axis_size, in_batched, xs, ys):
            return xs + ys, in_batched[0] or in_batched[1]
    """

    fun: Callable[P, R]
    vmap_rule: Callable[..., tuple[object, object]] | None
    # Set by functools.update_wrapper, as on a function the decorator wraps.
    __wrapped__: Callable[P, R]
    __name__: str
    __qualname__: str

    def __init__(self, fun: Callable[P, R]) -> None:
        if not callable(fun):
            raise JaxtypedTypeError(f"custom_vmap: expected a callable, got {type(fun).__name__} {fun!r}")
        self.fun = fun
        self.vmap_rule = None
        # Called with tracers, not P's static types.
        self._untyped_fun: Callable[..., object] = fun
        self._desc = describe_function(fun)
        self._name = rule_name(fun)
        self._signature = signature_of(fun)
        self._cache: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        functools.update_wrapper(self, fun, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=())

    def __repr__(self) -> str:
        return f"<custom_vmap {self._desc}>"

    def def_vmap(self, vmap_rule: RuleT) -> RuleT:
        """Set the batching rule (see the class docstring); returns it, so
        it can be used as a decorator."""
        if not callable(vmap_rule):
            raise JaxtypedTypeError(
                f"custom_vmap function {self._desc}: def_vmap expects a callable, got {type(vmap_rule).__name__}"
            )
        with self._lock:
            self.vmap_rule = vmap_rule
            self._cache.clear()  # entries hold primitives made with the old rule
        return vmap_rule

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        rule = self.vmap_rule
        if rule is None:
            raise JaxtypedAttributeError(
                f"No batching rule defined for custom_vmap function {self._desc} using def_vmap."
            )
        where = f"custom_vmap function {self._desc}"
        full = resolve_args(self._signature, args, kwargs, where)
        leaves, in_tree = tree_flatten(tuple(full))
        if all(isinstance(leaf, Array) for leaf in leaves):
            arrays: list[Array] = leaves
        else:
            leaf_names = self._leaf_names(full)
            arrays = [leaf_as_array(x, f"{where}: argument {n}") for x, n in zip(leaves, leaf_names)]
        avals = tuple(a.aval for a in arrays)
        key = (in_tree, avals, config.trace_state())
        entry = self._cache.get(key)
        if entry is None:
            entry = self._trace(full, in_tree, avals, rule)
            if entry.cacheable:
                with self._lock:
                    self._cache[key] = entry
                    while len(self._cache) > _TRACE_CACHE_SIZE:
                        self._cache.popitem(last=False)
        outs = bind(entry.primitive, *entry.consts, *arrays)
        result: R = tree_unflatten(entry.out_tree, outs)
        return result

    def _leaf_names(self, full: Sequence[object]) -> list[str]:
        """Names of the arguments' leaves (``x``, ``params['w']``), for
        errors and the traced jaxpr; not needed on a cache hit."""
        names = arg_names(self.fun, len(full))
        return [n for a, name in zip(full, names) for n in named_leaves(a, name)[1]]

    def _trace(
        self,
        full: Sequence[object],
        in_tree: PyTreeDef,
        avals: tuple[ShapedArray, ...],
        rule: Callable[..., object],
    ) -> _Entry:
        interp = StagingInterpreter(current_interpreter(), self._desc, "custom_vmap")
        leaf_names = self._leaf_names(full)
        with transformation_scope(interp), shared_numpy_constants():
            params = [interp.new_arg(aval, name) for aval, name in zip(avals, leaf_names)]
            out = self._untyped_fun(*tree_unflatten(in_tree, params))
            out_leaves, out_names, out_tree = named_leaves(out, "output")
            outs = [leaf_as_array(x, f"custom_vmap function {self._desc}: {n}") for x, n in zip(out_leaves, out_names)]
            closed = interp.build(outs)
        maybe_check_jaxpr(closed)
        user_rule = _UserVmapRule(rule, self._desc, in_tree, out_tree, closed.jaxpr.out_avals)
        primitive = CustomVmapCall(consts_as_invars(closed.jaxpr), user_rule, len(closed.consts), self._name)
        return _Entry(primitive, closed.consts, out_tree, all(type(c) is ArrayImpl for c in closed.consts))


def sequential_vmap(f: Callable[P, R]) -> custom_vmap[P, R]:
    """``f`` as a ``custom_vmap`` function whose batching rule loops over
    the batch with ``lax.map``, calling ``f`` once per element (JAX's
    ``jax.custom_batching.sequential_vmap``): for functions whose batched
    form would cost too much memory, or that have none."""
    fun = custom_vmap(f)
    # Called with the rebuilt per-element arguments, not P's static types.
    call = cast(Callable[..., object], fun)

    def rule(axis_size: int, in_batched: list[object], *args: object) -> tuple[object, object]:
        del axis_size
        flags, _ = tree_flatten(in_batched)
        leaves, tree = tree_flatten(list(args))
        mapped = [x for x, b in zip(leaves, flags, strict=True) if b]

        def one(xs: list[object]) -> object:
            it = iter(xs)
            merged = [next(it) if b else x for x, b in zip(leaves, flags, strict=True)]
            return call(*tree_unflatten(tree, merged))

        out = lax_map(one, mapped)
        out_leaves, out_tree = tree_flatten(out)
        return out, tree_unflatten(out_tree, [True] * len(out_leaves))

    fun.def_vmap(rule)
    return fun
