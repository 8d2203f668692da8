"""Effects in the IR (issue 16, item 5): effect values print as JAX's,
equations and jaxprs carry their effects (ref effects re-indexed to the
jaxpr's inputs), higher-order primitives report their inner jaxprs'
effects, check_jaxpr checks them, DCE keeps effectful equations and
partial evaluation stages them."""

from dataclasses import FrozenInstanceError, dataclass
from typing import Any, ClassVar, final

import numpy as np
import pytest
from typing_extensions import override

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import NDArray, HostValue
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr, partial_eval_jaxpr
from jaxtyped.core import (
    ORDERED_IO,
    UNORDERED_IO,
    AccumEffect,
    Effects,
    Eqn,
    IOEffect,
    Jaxpr,
    Primitive,
    ReadEffect,
    ShapedArray,
    WriteEffect,
    check_jaxpr,
    no_effects,
)
from jaxtyped.errors import JaxprTypeError
from jaxtyped.typing import Array


@final
@dataclass(frozen=True, slots=True)
class Emit(Primitive):
    """A stand-in for debug_print: no outputs, one IO effect."""

    name: ClassVar[str] = "emit"
    several_results: ClassVar[bool] = True  # no results
    ordered: bool

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return ()

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return ()

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return ()  # (the primitive census walks every Primitive subclass: test ones lower too)

    @override
    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return frozenset({ORDERED_IO if self.ordered else UNORDERED_IO})


@final
@dataclass(frozen=True, slots=True)
class Touch(Primitive):
    """A stand-in for a ref access: reads operand 0, writes operand 1."""

    name: ClassVar[str] = "touch"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return (avals[0],)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (args[0],)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return (args[0],)

    @override
    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return frozenset({ReadEffect(0), WriteEffect(1)})


def emit(x: Array, ordered: bool = True) -> None:
    bind(Emit(ordered), x)


def touch(read: Array, written: Array) -> Array:
    (out,) = bind(Touch(), read, written)
    return out


X = jnp.ones(3)
Y = jnp.zeros(3)


# === effect values ===


def test_effect_values_print_compare_and_hash_as_jax() -> None:
    from jax._src import callback as jax_callback
    from jax._src.state import types as jax_state

    assert str(ReadEffect(0)) == str(jax_state.ReadEffect(0)) == "Read<0>"
    assert str(WriteEffect(1)) == str(jax_state.WriteEffect(1)) == "Write<1>"
    assert str(AccumEffect(2)) == str(jax_state.AccumEffect(2)) == "Accum<2>"
    assert str(ORDERED_IO) == str(jax_callback._OrderedIOEffect) == "OrderedIO"  # pyright: ignore[reportPrivateUsage]
    assert str(UNORDERED_IO) == str(jax_callback._IOEffect) == "IO"  # pyright: ignore[reportPrivateUsage]
    assert ReadEffect(0) == ReadEffect(0) and hash(ReadEffect(0)) == hash(ReadEffect(0))
    effects: list[object] = [ReadEffect(0), WriteEffect(0), ReadEffect(1)]
    assert effects[0] != effects[1] and effects[0] != effects[2]
    assert IOEffect(ordered=True) == ORDERED_IO != UNORDERED_IO
    assert len({ReadEffect(0), WriteEffect(0), AccumEffect(0), ReadEffect(0)}) == 3
    with pytest.raises(FrozenInstanceError):
        ReadEffect(0).input_index = 1  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # frozen on purpose
    assert no_effects == frozenset()


# === equations and jaxprs ===


def test_staged_equations_and_jaxpr_carry_effects() -> None:
    def f(x: Array, y: Array) -> Array:
        out = touch(y, x)
        emit(out)
        return out * 2

    closed = jt.make_jaxpr(f)(X, Y)
    touch_eqn, emit_eqn, mul_eqn = closed.jaxpr.eqns
    assert touch_eqn.effects == {ReadEffect(0), WriteEffect(1)}
    assert emit_eqn.effects == {ORDERED_IO}
    assert mul_eqn.effects == no_effects
    # Re-indexed to the jaxpr's inputs: y is input 1 (read), x input 0 (written).
    assert closed.jaxpr.effects == {ReadEffect(1), WriteEffect(0), ORDERED_IO}
    assert closed.effects == closed.jaxpr.effects
    check_jaxpr(closed.jaxpr)
    # Effects are derived, so equality and hashing of jaxprs are unchanged.
    again = jt.make_jaxpr(f)(X, Y)
    assert again.jaxpr == closed.jaxpr and hash(again.jaxpr) == hash(closed.jaxpr)


def test_effects_on_consts_and_local_values() -> None:
    def f(x: Array) -> Array:
        local = x * 2
        touch(local, local)  # a value made inside: not in the jaxpr's type
        return touch(x, Y)  # Y is closed over: constvar 0

    closed = jt.make_jaxpr(f)(X)
    assert len(closed.jaxpr.constvars) == 1
    assert closed.jaxpr.eqns[1].effects == {ReadEffect(0), WriteEffect(1)}
    # constvars + invars: Y is index 0, x index 1.
    assert closed.jaxpr.effects == {ReadEffect(1), WriteEffect(0)}


def test_pure_jaxprs_have_no_effects() -> None:
    def f(x: Array) -> Array:
        return jnp.sin(x) * 2

    closed = jt.make_jaxpr(f)(X)
    assert closed.jaxpr.effects == no_effects
    assert all(eqn.effects == no_effects for eqn in closed.jaxpr.eqns)


def test_equation_without_outputs_prints_as_jax() -> None:
    def f(x: Array) -> Array:
        emit(x, ordered=False)
        return x

    assert str(jt.make_jaxpr(f)(X)) == "{ lambda ; a:f32[3]. let emit[ordered=False] a in (a,) }"


# === higher-order primitives report their inner effects ===


def _inner(x: Array, y: Array) -> Array:
    emit(x)
    return touch(x, y)


def test_jit_reports_inner_effects() -> None:
    def f(y: Array, x: Array) -> Array:
        return jt.jit(_inner)(x, y)

    closed = jt.make_jaxpr(f)(Y, X)
    (eqn,) = closed.jaxpr.eqns
    assert eqn.effects == {ORDERED_IO, ReadEffect(0), WriteEffect(1)}
    assert closed.jaxpr.effects == {ORDERED_IO, ReadEffect(1), WriteEffect(0)}
    check_jaxpr(closed.jaxpr)


def test_cond_reports_branch_effects_past_the_index() -> None:
    def f(p: Array, x: Array, y: Array) -> Array:
        return lax.cond(p, lambda x, y: x + y, _inner, x, y)

    closed = jt.make_jaxpr(f)(jnp.bool_(True), X, Y)
    cond_eqn = closed.jaxpr.eqns[-1]
    assert cond_eqn.primitive.name == "cond"
    # Operand 0 is the branch index: the branches' inputs start at operand 1.
    assert cond_eqn.effects == {ORDERED_IO, ReadEffect(1), WriteEffect(2)}
    assert closed.jaxpr.effects == {ORDERED_IO, ReadEffect(1), WriteEffect(2)}


def test_while_maps_cond_and_body_consts() -> None:
    def f(a: Array, b: Array, x: Array) -> Array:
        def cond(c: Array) -> Array:
            touch(a, a)  # a cond const
            return jnp.sum(c) < 3

        def body(c: Array) -> Array:
            return touch(c, b)  # reads the carry, writes a body const

        return lax.while_loop(cond, body, x)

    closed = jt.make_jaxpr(f)(X, Y, X)
    (eqn,) = [e for e in closed.jaxpr.eqns if e.primitive.name == "while"]
    # Operands: (cond const a, body const b, carry).
    assert eqn.effects == {ReadEffect(0), WriteEffect(0), ReadEffect(2), WriteEffect(1)}
    assert closed.jaxpr.effects == {ReadEffect(0), WriteEffect(0), ReadEffect(2), WriteEffect(1)}
    check_jaxpr(closed.jaxpr)


def test_scan_checkpoint_and_custom_jvp_report_effects() -> None:
    def scanned(y: Array, xs: Array) -> Array:
        def body(c: Array, x: Array) -> tuple[Array, Array]:
            emit(x, ordered=False)
            return touch(c, y), x

        return lax.scan(body, jnp.zeros(()), xs)[1]

    closed = jt.make_jaxpr(scanned)(jnp.zeros(()), X)
    (scan_eqn,) = [e for e in closed.jaxpr.eqns if e.primitive.name == "scan"]
    # Operands (consts y, carry init, xs): the read is of the carry.
    assert scan_eqn.effects == {UNORDERED_IO, ReadEffect(1), WriteEffect(0)}
    # The carry's initial value is made inside: only the write to y shows.
    assert closed.jaxpr.effects == {UNORDERED_IO, WriteEffect(0)}

    remat = jt.make_jaxpr(jt.checkpoint(_inner))(X, Y)
    assert remat.jaxpr.effects == {ORDERED_IO, ReadEffect(0), WriteEffect(1)}

    @jt.custom_jvp
    def g(x: Array) -> Array:
        emit(x)
        return x

    @g.defjvp
    def g_jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Array, Array]:
        return primals[0], tangents[0]

    assert jt.make_jaxpr(g)(X).jaxpr.effects == {ORDERED_IO}


# === check_jaxpr, DCE, partial evaluation ===


def test_check_jaxpr_rejects_wrong_effects() -> None:
    closed = jt.make_jaxpr(touch)(X, Y)
    (eqn,) = closed.jaxpr.eqns
    object.__setattr__(eqn, "effects", frozenset({ReadEffect(0)}))
    with pytest.raises(JaxprTypeError, match=r"records effects \{Read<0>\} but its primitive has effects \{Read<0>, Write<1>\}"):
        check_jaxpr(closed.jaxpr)
    object.__setattr__(eqn, "effects", frozenset({ReadEffect(0), WriteEffect(1)}))
    check_jaxpr(closed.jaxpr)


def test_dce_keeps_effectful_equations() -> None:
    def f(x: Array) -> Array:
        emit(x)
        touch(x, x)  # output unused
        jnp.sin(x)  # dead
        return x

    jaxpr = jt.make_jaxpr(f)(X).jaxpr
    pruned, used = dce_jaxpr(jaxpr, (True,))
    assert [e.primitive.name for e in pruned.eqns] == ["emit", "touch"]
    assert used == (True,)
    assert pruned.effects == jaxpr.effects


def test_partial_eval_keeps_effects_where_their_inputs_are() -> None:
    def f(x: Array, y: Array) -> tuple[Array, Array]:
        a = jnp.sin(x)
        emit(a)  # known operand: on the known side, as in JAX
        b = a * y
        emit(b, ordered=False)  # unknown operand: on the unknown side
        return a, b

    jaxpr = jt.make_jaxpr(f)(X, Y).jaxpr
    split = partial_eval_jaxpr(jaxpr, (False, True))
    assert [e.primitive.name for e in split.known.eqns] == ["sin", "emit"]
    assert split.known.effects == {ORDERED_IO}
    assert [e.primitive.name for e in split.unknown.eqns] == ["mul", "emit"]
    assert split.unknown.effects == {UNORDERED_IO}


def test_remat_policy_never_recomputes_an_effect() -> None:
    def f(x: Array, y: Array) -> Array:
        a = jnp.sin(x)
        (b,) = bind(Touch(), a, a)  # an effect on a known value, needed by the unknown side
        return b * y

    jaxpr = jt.make_jaxpr(f)(X, Y).jaxpr
    split = partial_eval_jaxpr(jaxpr, (False, True), saveable=lambda eqn: False)
    # Nothing is saveable, yet the effectful touch is not repeated on the unknown side: its output is saved.
    assert [e.primitive.name for e in split.known.eqns] == ["sin", "touch"]
    assert [e.primitive.name for e in split.unknown.eqns] == ["mul"]
    assert split.num_res == 1


def test_hand_built_eqn_computes_its_effects() -> None:
    closed = jt.make_jaxpr(touch)(X, Y)
    a, b = closed.jaxpr.invars
    (out,) = closed.jaxpr.eqns[0].outvars
    # Swapped operands: the effect indices follow the operands.
    eqn = Eqn(Touch(), (b, a), (out,))
    assert eqn.effects == {ReadEffect(0), WriteEffect(1)}
    jaxpr = Jaxpr((), (a, b), (out,), (eqn,))
    assert jaxpr.effects == {ReadEffect(1), WriteEffect(0)}
    assert np.asarray(jt.core.eval_jaxpr(jaxpr, (), X, Y)[0]).tolist() == [0.0, 0.0, 0.0]
