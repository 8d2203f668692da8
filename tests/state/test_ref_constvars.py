"""Closed-over refs in ``make_jaxpr`` (issue 16 item 5): as in JAX 0.10.2,
a ref the function closes over is a ``Ref{...}``-typed constvar whose
const is the ``Ref`` itself, constvars in the order the trace first meets
them (refs and arrays interleaved); the printed text is compared with
JAX's. Evaluating such a closed jaxpr reads and updates the ref (eagerly
and under jit), and the misuses are clear errors."""

import dataclasses
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.check import check_closed_jaxpr
from jaxtyped._src.state.discharge import discharge_state
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.jaxpr import Var
from jaxtyped.errors import JaxprTypeError, JaxtypedTypeError, JaxtypedValueError

Lib = Any  # jaxtyped or jax: the same API by contract


def _refs_and_array(lib: Lib) -> tuple[Any, Any, Any]:
    return lib.new_ref(lib.numpy.zeros(3)), lib.new_ref(lib.numpy.ones(2, lib.numpy.int32)), lib.numpy.arange(4.0)


def _one_ref(lib: Lib) -> Any:
    x_ref, _, _ = _refs_and_array(lib)

    def f(v: Any) -> None:
        x_ref[1] = v

    return lib.make_jaxpr(f)(1.0)


def _refs_first_then_array(lib: Lib) -> Any:
    # First uses: y_ref, c, x_ref (JAX: a:Ref{i32[2]} b:f32[4] c:Ref{f32[3]}).
    x_ref, y_ref, c = _refs_and_array(lib)

    def g(v: Any) -> Any:
        y_ref[0] = 3
        x_ref[1] = v + c[0]
        return c * 2

    return lib.make_jaxpr(g)(1.0)


def _array_then_refs(lib: Lib) -> Any:
    x_ref, y_ref, c = _refs_and_array(lib)

    def g(v: Any) -> Any:
        a = c * 2
        x_ref[1] = v
        y_ref[0] = 3
        return a

    return lib.make_jaxpr(g)(1.0)


def _reads_only(lib: Lib) -> Any:
    x_ref, y_ref, _ = _refs_and_array(lib)

    def g(v: Any) -> Any:
        a = y_ref[...]
        x_ref[...] = x_ref[...] + v
        return a

    return lib.make_jaxpr(g)(1.0)


def _nested_make_jaxpr(lib: Lib) -> Any:
    # The inner make_jaxpr closes over the ref: the outer trace never sees it.
    x_ref, _, _ = _refs_and_array(lib)

    def inner(v: Any) -> None:
        x_ref[0] = v

    def outer(v: Any) -> Any:
        lib.make_jaxpr(inner)(v)
        return v

    return lib.make_jaxpr(outer)(1.0)


@pytest.mark.parametrize(
    "case", [_one_ref, _refs_first_then_array, _array_then_refs, _reads_only, _nested_make_jaxpr], ids=lambda c: c.__name__[1:]
)
def test_printed_text_is_jaxs(case: Any) -> None:
    assert str(case(jt)) == str(case(jax))


def test_consts_are_the_refs_themselves_and_untouched() -> None:
    x_ref, y_ref, c = _refs_and_array(jt)

    def g(v: Any) -> Any:
        y_ref[0] = 3
        x_ref[1] = v + c[0]
        return c * 2

    closed = jt.make_jaxpr(g)(1.0)
    assert closed.consts[0] is y_ref and closed.consts[2] is x_ref
    assert isinstance(closed.consts[1], jt.Array)
    assert [v.aval.str_short() for v in closed.jaxpr.constvars] == ["Ref{i32[2]}", "f32[4]", "Ref{f32[3]}"]
    check_closed_jaxpr(closed)
    # Tracing ran no write.
    assert repr(x_ref) == "Ref([0., 0., 0.], dtype=float32)" and repr(y_ref) == "Ref([1, 1], dtype=int32)"


def test_inner_jit_takes_the_constvar_as_its_ref_operand() -> None:
    # As JAX, the jit equation passes the ref on as an operand after the
    # arguments, and its jaxpr's inputs are named after the operands.
    def make(lib: Lib) -> Any:
        x_ref, _, _ = _refs_and_array(lib)

        def write(v: Any) -> Any:
            x_ref[0] = v
            return v

        h = lib.jit(write)

        def outer(v: Any) -> Any:
            x_ref[2] = v
            return h(v)

        return lib.make_jaxpr(outer)(1.0)

    ours, theirs = str(make(jt)), str(make(jax))
    assert ours == theirs
    assert "    ] b a" in ours


def test_inner_jit_with_a_passed_ref_keeps_the_operand_order() -> None:
    # A ref passed as the second argument stays the second operand, and a
    # closed-over one comes after the arguments (JAX's order).
    def make(lib: Lib) -> Any:
        x_ref, _, _ = _refs_and_array(lib)

        def write_both(v: Any, r: Any) -> Any:
            r[1] = v
            x_ref[0] = v
            return v

        inner = lib.jit(write_both)

        def outer(v: Any, r: Any) -> Any:
            return inner(v, r)

        return lib.make_jaxpr(outer)(1.0, lib.new_ref(lib.numpy.zeros(2)))

    ours, theirs = str(make(jt)), str(make(jax))
    assert ours == theirs
    eqn = make(jt).jaxpr.eqns[0]
    assert not any(eqn.params["donated_invars"])  # nothing donated in a staged call


def test_loop_and_branch_bodies_take_the_constvar() -> None:
    # The header (the ref a constvar) is JAX's; the bodies differ only by
    # JAX's forwarding of unchanged carries and operands.
    def scanned(lib: Lib) -> Any:
        x_ref, _, _ = _refs_and_array(lib)

        def body(c: Any, x: Any) -> Any:
            x_ref[0] = x_ref[0] + x
            return c, x

        def loop(xs: Any) -> Any:
            return lib.lax.scan(body, 0.0, xs)

        return lib.make_jaxpr(loop)(lib.numpy.ones(3))

    def branched(lib: Lib) -> Any:
        x_ref, _, _ = _refs_and_array(lib)

        def write(v: Any) -> Any:
            x_ref[2] = v
            return v

        def keep(v: Any) -> Any:
            return v

        def branch(p: Any, v: Any) -> Any:
            return lib.lax.cond(p, write, keep, v)

        return lib.make_jaxpr(branch)(True, 1.0)

    for make in (scanned, branched):
        ours, theirs = make(jt), make(jax)
        assert str(ours).split("\n")[0] == str(theirs).split("\n")[0]
        assert [type(c).__name__ for c in ours.consts] == ["Ref"]
        assert str(ours).count("Ref{f32[3]}") >= 2  # the constvar, and the body's ref operand


def test_make_jaxpr_inside_jit_keeps_the_ref_to_itself() -> None:
    # As JAX: the inner make_jaxpr closes over the ref; the jit around it
    # neither threads nor updates it.
    x_ref = jt.new_ref(jnp.zeros(3))
    made: list[Any] = []

    def write(v: Any) -> None:
        x_ref[0] = v

    def traced(v: Any) -> Any:
        made.append(jt.make_jaxpr(write)(v))
        return v + 1

    def plus_one(v: Any) -> Any:
        return v + 1

    assert_same(jt.jit(traced)(1.0), jax.jit(plus_one)(1.0))
    assert made[-1].consts == (x_ref,) and str(made[-1]).startswith("{ lambda a:Ref{f32[3]}; b:f32[]. let")
    np.testing.assert_array_equal(np.asarray(x_ref[...]), [0.0, 0.0, 0.0])


def test_a_ref_both_passed_and_closed_over_is_jaxs_value_error() -> None:
    def trace(lib: Lib) -> Any:
        x_ref, _, _ = _refs_and_array(lib)

        def f(r: Any, v: Any) -> Any:
            x_ref[0] = v
            return v

        return lib.make_jaxpr(f)(x_ref, 1.0)

    with pytest.raises(JaxtypedValueError, match=r"Ref\{float32\[3\]\} was both closed over and passed as the argument r"):
        trace(jt)
    with pytest.raises(ValueError, match="was both closed over and passed as the argument r"):
        trace(jax)


# === evaluating a closed jaxpr that holds refs ===


def _reader_writer(lib: Lib) -> tuple[Any, Any]:
    x_ref, _, _ = _refs_and_array(lib)

    def f(v: Any) -> Any:
        x_ref[1] = v
        return x_ref[...] * 2

    return x_ref, lib.make_jaxpr(f)(1.0)


def test_eval_jaxpr_reads_and_updates_the_ref_as_jax() -> None:
    (ref, closed), (jref, jclosed) = _reader_writer(jt), _reader_writer(jax)
    ours = jt.core.eval_jaxpr(closed.jaxpr, closed.consts, 5.0)
    theirs = jax.core.eval_jaxpr(jclosed.jaxpr, jclosed.consts, 5.0)
    assert_same(list(ours), list(theirs))
    assert_same(ref[...], jref[...])
    # jaxpr_as_fun, a second time: the ref's current value is read.
    assert_same(list(jt.core.jaxpr_as_fun(closed)(6.0)), list(jax.core.eval_jaxpr(jclosed.jaxpr, jclosed.consts, 6.0)))
    assert_same(ref[...], jref[...])


def test_eval_jaxpr_under_jit_threads_the_ref() -> None:
    (ref, closed), (jref, jclosed) = _reader_writer(jt), _reader_writer(jax)

    def run(v: Any) -> Any:
        return jt.core.eval_jaxpr(closed.jaxpr, closed.consts, v)

    def jax_run(v: Any) -> Any:
        return jax.core.eval_jaxpr(jclosed.jaxpr, jclosed.consts, v)

    ours, theirs = jt.jit(run)(7.0), jax.jit(jax_run)(7.0)
    assert_same(list(ours), list(theirs))
    assert_same(ref[...], jref[...])


def test_eval_jaxpr_of_a_write_under_jit_is_in_place() -> None:
    x_ref = jt.new_ref(jnp.zeros(3))

    def write(v: Any) -> None:
        x_ref[1] = v

    closed = jt.make_jaxpr(write)(1.0)

    def evaluate(v: Any) -> Any:
        return jt.core.eval_jaxpr(closed.jaxpr, closed.consts, v)

    run = jt.jit(evaluate)
    for value in (7.0, 8.0):
        before = x_ref.unsafe_buffer_pointer()
        run(value)
        assert x_ref.unsafe_buffer_pointer() == before
        np.testing.assert_array_equal(np.asarray(x_ref[...]), [0.0, value, 0.0])


def test_an_output_read_from_the_ref_does_not_share_its_buffer() -> None:
    x_ref = jt.new_ref(jnp.arange(3.0))

    def write_then_read(v: Any) -> Any:
        x_ref[...] = jnp.full(3, v)
        return x_ref[...]

    for closed in (jt.make_jaxpr(lambda: x_ref[...])(), jt.make_jaxpr(write_then_read)(1.0)):
        (out,) = jt.core.eval_jaxpr(closed.jaxpr, closed.consts, *([4.0] if closed.jaxpr.invars else []))
        assert isinstance(out, ArrayImpl) and out.unsafe_buffer_pointer() != x_ref.unsafe_buffer_pointer()
        expected = np.asarray(x_ref[...])
        x_ref[0] = 5.0
        np.testing.assert_array_equal(np.asarray(out), expected)


def test_eval_jaxpr_misuses_are_clear_errors() -> None:
    ref, closed = _reader_writer(jt)
    # An array for the ref (no ref given: the ordinary evaluation).
    with pytest.raises(TypeError, match=r"swap: the first operand must be a Ref, got f32\[3\]"):
        jt.core.eval_jaxpr(closed.jaxpr, (jnp.zeros(3),), 1.0)
    other = jt.new_ref(jnp.zeros(3))
    with pytest.raises(JaxtypedTypeError, match=r"the argument 0 has type f32\[\], but a Ref was given"):
        jt.core.eval_jaxpr(closed.jaxpr, closed.consts, other)
    # A ref given twice (as the const and as a ref argument).
    def copy_in(r: Any) -> None:
        r[0] = ref[0]

    closed_two = jt.make_jaxpr(copy_in)(other)
    with pytest.raises(JaxtypedValueError, match="already given for another input"):
        jt.core.eval_jaxpr(closed_two.jaxpr, closed_two.consts, ref)
    with pytest.raises(JaxtypedTypeError, match="discharge_state: the jaxpr closes over a mutable array reference"):
        discharge_state(closed)
    np.testing.assert_array_equal(np.asarray(ref[...]), [0.0, 0.0, 0.0])


def test_check_rejects_a_ref_const_of_another_type() -> None:
    # A ref const must be bound to a Ref{...} constvar of the referenced type.
    x_ref = jt.new_ref(jnp.zeros(3))

    def read() -> Any:
        return x_ref[0]

    closed = jt.make_jaxpr(read)()
    check_closed_jaxpr(closed)
    other = jt.new_ref(jnp.zeros(4))
    with pytest.raises(JaxprTypeError, match=r"reference to float32\[4\] bound to constvar of type Ref\{f32\[3\]\}"):
        check_closed_jaxpr(dataclasses.replace(closed, consts=(other,)))
    # A ref bound to an array-typed constvar.
    array_var = Var(99, ShapedArray((3,), np.dtype("float32")))
    as_array = dataclasses.replace(closed.jaxpr, constvars=(array_var,), eqns=(), outvars=(array_var,))
    with pytest.raises(JaxprTypeError, match=r"bound to constvar of type f32\[3\]"):
        check_closed_jaxpr(dataclasses.replace(closed, jaxpr=as_array))
