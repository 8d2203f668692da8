"""Interpreters, tracers and ``bind`` (layer L1).

Note [context-based dispatch] (Autodidax2): one ``ContextVar`` holds the
current interpreter and ``bind(prim, *args)`` hands every primitive
application to it. A transformation is an interpreter object; it boxes the
values it owns in tracers that point back to it, and treats anything it
does not own (concrete arrays, tracers of enclosing transformations) as a
constant. That ownership test is what makes perturbation confusion
impossible. An interpreter runs its rules with its *parent* (the
interpreter that was current when it was created) installed, so
transformations nest in any order.

Note [the evaluating interpreter is the default]: the bottom interpreter,
which evaluates on concrete arrays, is the ContextVar's default value rather
than something installed at import. A new thread starts with an empty
context and sees only the default, so eager code works on every thread.
"""

from abc import ABC, abstractmethod
from collections.abc import Callable, Generator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final, final

import numpy as np
from typing_extensions import CapsuleType

from jaxtyped._src.config import TraceState, config
from jaxtyped._src.core.array import Array, Conversion
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.primitive import NDArray, Primitive
from jaxtyped._src.errors import (
    ConcretizationTypeError,
    JaxtypedTypeError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)

__all__ = [
    "Interpreter",
    "EvalInterpreter",
    "Tracer",
    "ArrayTracer",
    "bind",
    "bind1",
    "current_interpreter",
    "CURRENT_INTERPRETER",
    "interpreting",
    "transformation_scope",
    "compile_time_eval",
    "concretization_error",
    "unexpected_tracer_error",
    "set_sharded_evaluator",
]


class Interpreter(ABC):
    """One meaning for primitive applications: evaluation or a
    transformation.

    Attributes:
        parent: the interpreter that was current when this one was created;
            rules run with it installed. ``None`` only for evaluation.
        transformation: the user-facing name (``"jvp"``, ``"vmap"``, ...),
            used in error messages.
        fun_desc: the user function being transformed (name and
            ``file:line``), used in error messages.
        active: False once the transformation has returned; tracers of an
            inactive interpreter have leaked.
    """

    parent: "Interpreter | None"
    transformation: str
    fun_desc: str
    active: bool

    def __init__(self, parent: "Interpreter | None", transformation: str, fun_desc: str) -> None:
        self.parent = parent
        self.transformation = transformation
        self.fun_desc = fun_desc
        self.active = True

    @abstractmethod
    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        """Apply ``prim`` to ``args`` under this interpreter's meaning."""

    def concretize(self, tracer: "ArrayTracer", conversion: Conversion) -> NDArray:
        """The concrete value of one of this interpreter's tracers, or a
        concretization error (the default: values are abstract)."""
        raise concretization_error(tracer, conversion, "")

    def require_parent(self) -> "Interpreter":
        """The parent interpreter (every transformation has one)."""
        if self.parent is None:
            raise AssertionError(f"{self.transformation} has no parent interpreter")
        return self.parent

    def describe(self) -> str:
        """``"<transformation> of <function>"`` for error messages."""
        return f"{self.transformation} of {self.fun_desc}"

    def is_ancestor_of(self, other: "Interpreter") -> bool:
        """Whether this interpreter is ``other`` or one of its parents."""
        node: Interpreter | None = other
        while node is not None:
            if node is self:
                return True
            node = node.parent
        return False


class Tracer:
    """Base of every tracer: a value owned by an interpreter.

    Only array-valued tracers (:class:`ArrayTracer`) are ``Array``\\ s.
    """

    __slots__ = ("_interpreter",)

    _interpreter: Interpreter

    def __init__(self, interpreter: Interpreter) -> None:
        self._interpreter = interpreter

    @property
    def interpreter(self) -> Interpreter:
        """The interpreter that owns this tracer."""
        return self._interpreter


class ArrayTracer(Tracer, Array):
    """Base of array-valued tracers: a real ``Array`` subclass."""

    __slots__ = ()

    def _require_concrete(self, conversion: Conversion) -> NDArray:
        interpreter = self._interpreter
        if not interpreter.active:
            raise unexpected_tracer_error(self)
        return interpreter.concretize(self, conversion)

    def __array__(self, dtype: np.dtype[Any] | None = None, copy: bool | None = None) -> NDArray:
        raise TracerArrayConversionError(
            f"The numpy.ndarray conversion method __array__() was called on a traced "
            f"array {self.aval.str_short()} inside {self._interpreter.describe()}. "
            "NumPy functions cannot operate on traced values; use jaxtyped.numpy instead."
        )

    def __dlpack__(
        self,
        *,
        stream: object = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> CapsuleType:
        raise TracerArrayConversionError(
            f"The DLPack export method __dlpack__() was called on a traced array {self.aval.str_short()} "
            f"inside {self._interpreter.describe()}. A traced array has no buffer to share; return it from "
            "the transformed function and export the result."
        )

    def __repr__(self) -> str:
        return f"Traced<{self.aval.str_short()}>with<{self._interpreter.transformation}>"


def concretization_error(
    tracer: ArrayTracer, conversion: Conversion, detail: str
) -> ConcretizationTypeError | TracerIntegerConversionError:
    """The error for converting an abstract tracer to a Python value.

    Args:
        tracer: the tracer being converted.
        conversion: what the user asked for (``bool``, ``int``, ...).
        detail: extra sentences from the interpreter (for example which
            arguments the value depends on).
    """
    interpreter = tracer.interpreter
    where = (
        f"The error occurred while tracing the function {interpreter.fun_desc} "
        f"for {interpreter.transformation}."
    )
    short = tracer.aval.str_short()
    suffix = f" {detail}" if detail else ""
    if conversion == "bool":
        return TracerBoolConversionError(
            f"Attempted boolean conversion of traced array {short}. {where}{suffix} "
            "Python control flow (if/while/and/or) cannot depend on traced values; "
            "use jnp.where or lax.cond instead."
        )
    if conversion == "index":
        return TracerIntegerConversionError(
            f"The {conversion}() method was called on traced array {short}. {where}{suffix} "
            "A traced value cannot be used as a Python integer (an index, a shape); "
            "use lax.dynamic_slice for traced indices or make the argument static."
        )
    return ConcretizationTypeError(
        f"Abstract tracer value encountered where a concrete value is expected: "
        f"{conversion}() of traced array {short}. {where}{suffix}"
    )


def unexpected_tracer_error(tracer: Tracer) -> UnexpectedTracerError:
    """The error for a tracer used outside the transformation that made it."""
    interpreter = tracer.interpreter
    aval = tracer.aval.str_short() if isinstance(tracer, Array) else type(tracer).__name__
    state = "which has already finished" if not interpreter.active else "which is not active here"
    return UnexpectedTracerError(
        f"Encountered an unexpected tracer {aval} created by {interpreter.describe()}, "
        f"{state}. A traced value escaped its transformation (stored in a global, "
        "a list or an attribute that outlived the call); return it from the "
        "transformed function instead."
    )


@final
class EvalInterpreter(Interpreter):
    """The bottom interpreter: evaluates primitives on concrete arrays.

    It type-checks every application through ``abstract_eval`` before
    running ``impl``, so eager code reports the same errors as traced code
    and no NumPy broadcasting silently changes a result's shape.
    """

    def __init__(self) -> None:
        super().__init__(None, "eager evaluation", "<top level>")

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        avals_list: list[ShapedArray] = []
        sharded = False
        for arg in args:
            if type(arg) is not ArrayImpl:
                if isinstance(arg, Tracer):
                    raise unexpected_tracer_error(arg)
                # An Array of another kind (a typed PRNG key array, dtype key<fry>) names its dtype.
                raise JaxtypedTypeError(f"{prim.name}: bind expects Arrays, got {type(arg).__name__} (dtype {getattr(arg, 'dtype', None)})")
            avals_list.append(arg._aval)  # pyright: ignore[reportPrivateUsage]  # an ArrayImpl, checked
            sharded = sharded or arg._sharding is not None  # pyright: ignore[reportPrivateUsage]  # set only for multi-device arrays
        avals = tuple(avals_list)
        if sharded and _sharded_evaluator is not None:
            # An operand spans several devices: run there, as JAX does (issue 17).
            outs = _sharded_evaluator(prim, args)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # all ArrayImpl, checked above
            if outs is not None:
                return outs
        if prim.memoize_abstract_eval:
            key = (prim, avals, config.trace_state())
            out_avals = _abstract_eval_memo.get(key)
            if out_avals is None:
                out_avals = prim.abstract_eval(avals)
                if len(_abstract_eval_memo) >= _ABSTRACT_EVAL_MEMO_SIZE:
                    _abstract_eval_memo.clear()
                _abstract_eval_memo[key] = out_avals
        else:
            out_avals = prim.abstract_eval(avals)
        return prim.evaluate(args, out_avals)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # all ArrayImpl, checked above


# sharding family (issue 17): runs a primitive with an operand spanning
# several devices as a program over them (None: evaluate on the host, as for
# primitives with effects). Registered by the SPMD layer (api_sharding).
_sharded_evaluator: "Callable[[Primitive, tuple[ArrayImpl, ...]], tuple[Array, ...] | None] | None" = None


def set_sharded_evaluator(run: "Callable[[Primitive, tuple[ArrayImpl, ...]], tuple[Array, ...] | None]") -> None:
    """Register how eager primitives on multi-device arrays run."""
    global _sharded_evaluator
    _sharded_evaluator = run


# Eager code applies the same primitive to the same types over and over;
# type-checking each application once per process saves most of bind's cost.
_ABSTRACT_EVAL_MEMO_SIZE: Final = 8192
_abstract_eval_memo: dict[tuple[Primitive, tuple[ShapedArray, ...], TraceState], tuple[ShapedArray, ...]] = {}

EVAL: Final = EvalInterpreter()

_current_interpreter: Final[ContextVar[Interpreter]] = ContextVar(
    "jaxtyped_current_interpreter", default=EVAL
)


# The variable itself, for callers on a hot path (jit's dispatch) that read
# it without the function call.
CURRENT_INTERPRETER: Final = _current_interpreter


def current_interpreter() -> Interpreter:
    """The interpreter that ``bind`` dispatches to right now."""
    return _current_interpreter.get()


@contextmanager
def interpreting(interpreter: Interpreter) -> Generator[None, None, None]:
    """Install ``interpreter`` as the current one for the block."""
    token = _current_interpreter.set(interpreter)
    try:
        yield
    finally:
        _current_interpreter.reset(token)


@contextmanager
def transformation_scope(interpreter: Interpreter) -> Generator[None, None, None]:
    """Install ``interpreter`` for the block and mark it finished after, so
    that its tracers are recognised as leaked if they are used later."""
    token = _current_interpreter.set(interpreter)
    try:
        yield
    finally:
        _current_interpreter.reset(token)
        interpreter.active = False


@final
class CompileTimeEvalInterpreter(Interpreter):
    """Evaluates applications whose operands are all concrete at once, and
    hands the others to the interpreter that was current before (JAX's
    ``ensure_compile_time_eval``): under ``jit``, ``jnp.sin(3.0)`` inside the
    block is a concrete array, while ``x + 1`` of a traced ``x`` is staged."""

    def __init__(self, parent: Interpreter) -> None:
        super().__init__(parent, parent.transformation, parent.fun_desc)

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        if all(type(arg) is ArrayImpl for arg in args):
            return EVAL.process(prim, args)
        return self.require_parent().process(prim, args)


@contextmanager
def compile_time_eval() -> Generator[None, None, None]:
    """Install a :class:`CompileTimeEvalInterpreter` over the current
    interpreter for the block (nothing to do at the top level)."""
    current = _current_interpreter.get()
    if current is EVAL:
        yield
        return
    with interpreting(CompileTimeEvalInterpreter(current)):
        yield


def bind(prim: Primitive, *args: Array) -> tuple[Array, ...]:
    """Apply ``prim`` to ``args`` under the current interpreter."""
    return _current_interpreter.get().process(prim, args)


def bind1(prim: Primitive, *args: Array) -> Array:
    """``bind`` for a primitive with exactly one output."""
    (out,) = _current_interpreter.get().process(prim, args)
    return out

