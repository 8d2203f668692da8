"""``check_jaxpr``: hand-built ill-typed jaxprs are rejected with a
``JaxprTypeError`` naming the problem; staged jaxprs pass; jaxprs compare
and hash by value."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy
from jaxtyped._src.lax.arithmetic import Add, Mul, Neg
from jaxtyped._src.lax.reductions import ReduceSum
from jaxtyped._src.lax.transcendental import Cos, Sin
from jaxtyped.core import (
    ClosedJaxpr,
    Eqn,
    Jaxpr,
    JaxprBuilder,
    Literal,
    ShapedArray,
    Var,
    check_closed_jaxpr,
    check_jaxpr,
    eval_jaxpr,
)
from jaxtyped.errors import JaxprTypeError

F32 = ShapedArray((), np.dtype("float32"))
F32_3 = ShapedArray((3,), np.dtype("float32"))
F32_4 = ShapedArray((4,), np.dtype("float32"))
I32 = ShapedArray((), np.dtype("int32"))


def fn1(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    # Gives a lambda's parameter a type (Any) for strict type checkers.
    return f


def stage(fun: Callable[[Any], Any], arg: Any) -> ClosedJaxpr[jt.Array | jt.Ref[jt.Array]]:
    return jt.make_jaxpr(fun)(arg)


def concrete(value: Any) -> ArrayImpl:
    return array_from_numpy(np.asarray(value))


def scalar_literal(value: Any) -> Literal:
    return Literal.from_array(concrete(value))


def sin_cos_jaxpr() -> Jaxpr:
    """``{ lambda ; a:f32[]. let b = sin a; c = cos b; d = add b c in (d,) }``"""
    b = JaxprBuilder()
    x = b.new_var(F32)
    (s,) = b.add_eqn(Sin(), (x,), (F32,))
    (c,) = b.add_eqn(Cos(), (s,), (F32,))
    (out,) = b.add_eqn(Add(), (s, c), (F32,))
    return b.build([], [x], [out])


# === well-typed jaxprs ===


def test_hand_built_jaxpr_checks_prints_and_evaluates() -> None:
    jaxpr = sin_cos_jaxpr()
    check_jaxpr(jaxpr)
    assert str(jaxpr) == (
        "{ lambda ; a:f32[]. let\n"
        "    b:f32[] = sin a\n"
        "    c:f32[] = cos b\n"
        "    d:f32[] = add b c\n"
        "  in (d,) }"
    )
    (out,) = eval_jaxpr(jaxpr, (), jnp.asarray(np.float32(0.5)))
    np.testing.assert_allclose(float(out), np.sin(0.5) + np.cos(np.sin(0.5)), rtol=1e-6)


def test_hand_built_equals_staged() -> None:
    def program(x: Any) -> Any:
        s = jnp.sin(x)
        return s + jnp.cos(s)

    staged = jt.make_jaxpr(program)(np.float32(1.0))
    assert staged.jaxpr == sin_cos_jaxpr()
    assert hash(staged.jaxpr) == hash(sin_cos_jaxpr())


def test_hand_built_with_literal_and_params() -> None:
    b = JaxprBuilder()
    x = b.new_var(F32_3)
    (y,) = b.add_eqn(Mul(), (x, scalar_literal(np.float32(2.0))), (F32_3,))
    (z,) = b.add_eqn(ReduceSum(axes=(0,)), (y,), (F32,))
    jaxpr = b.build([], [x], [z])
    check_jaxpr(jaxpr)
    assert str(jaxpr) == (
        "{ lambda ; a:f32[3]. let\n    b:f32[3] = mul a 2.0:f32[]\n    c:f32[] = reduce_sum[axes=(0,)] b\n  in (c,) }"
    )
    assert jaxpr == stage(lambda v: jnp.sum(v * np.float32(2.0)), np.ones(3, np.float32)).jaxpr


def test_hand_built_closed_jaxpr_with_consts() -> None:
    b = JaxprBuilder()
    c = b.new_var(F32_3)
    x = b.new_var(F32_3)
    (y,) = b.add_eqn(Add(), (x, c), (F32_3,))
    closed = ClosedJaxpr(b.build([c], [x], [y]), (concrete(np.arange(3, dtype=np.float32)),))
    check_closed_jaxpr(closed)
    assert str(closed) == "{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = add b a in (c,) }"


STAGED: list[tuple[str, Callable[[Any], Any]]] = [
    ("elementwise", lambda x: -(jnp.sin(x) * 2.0) + x),
    ("consts", lambda x: x * np.arange(3, dtype=np.float32) + jnp.ones(3)),
    ("jvp", lambda x: jt.jvp(fn1(lambda y: jnp.sin(y) * y), (x,), (jnp.ones_like(x),))),
    ("vmap", lambda x: jt.vmap(fn1(lambda y: jnp.sin(y) * jnp.sum(x)))(x)),
    ("jacfwd", lambda x: jt.jacfwd(fn1(lambda y: jnp.tanh(y) * y[0]))(x)),
    ("hessian", lambda x: jt.jacfwd(jt.jacfwd(fn1(lambda y: jnp.sum(jnp.sin(y) * y))))(x)),
    ("reductions", lambda x: (jnp.max(x), jnp.sum(x * x), jnp.argmax(x))),
    ("indexing", lambda x: x[1:] * x[0] + x[::-1][:2]),
    ("dot", lambda x: jnp.outer(x, x) @ x),
    ("integers", lambda x: (jnp.arange(3) * 2 + 1).astype(np.float32) * x),
]


@pytest.mark.parametrize("fun", [f for _, f in STAGED], ids=[n for n, _ in STAGED])
def test_staged_jaxprs_pass(fun: Callable[[Any], Any]) -> None:
    closed = jt.make_jaxpr(fun)(np.array([0.5, -1.0, 2.0], np.float32))
    check_closed_jaxpr(closed)
    check_jaxpr(closed.jaxpr)


# === ill-typed jaxprs ===


def test_use_before_define() -> None:
    x = Var(0, F32)
    ghost = Var(7, F32)
    jaxpr = Jaxpr((), (x,), (Var(1, F32),), (Eqn(Add(), (x, ghost), (Var(1, F32),)),))
    with pytest.raises(
        JaxprTypeError, match=r"variable Var\(7:f32\[\]\) is used before it is defined \(equation 0: add\(f32\[\], f32\[\]\)"
    ):
        check_jaxpr(jaxpr)


def test_use_of_a_later_equations_output() -> None:
    x, y, z = Var(0, F32), Var(1, F32), Var(2, F32)
    eqns = (Eqn(Sin(), (y,), (z,)), Eqn(Cos(), (x,), (y,)))
    with pytest.raises(JaxprTypeError, match=r"Var\(1:f32\[\]\) is used before it is defined \(equation 0: sin"):
        check_jaxpr(Jaxpr((), (x,), (z,), eqns))


def test_undefined_output() -> None:
    x = Var(0, F32)
    with pytest.raises(JaxprTypeError, match=r"Var\(3:f32\[\]\) is used before it is defined \(outvars\)"):
        check_jaxpr(Jaxpr((), (x,), (Var(3, F32),), ()))


def test_double_definition_by_equations() -> None:
    x, y = Var(0, F32), Var(1, F32)
    eqns = (Eqn(Sin(), (x,), (y,)), Eqn(Cos(), (x,), (y,)))
    with pytest.raises(JaxprTypeError, match=r"variable Var\(1:f32\[\]\) is defined twice \(equation 1: cos"):
        check_jaxpr(Jaxpr((), (x,), (y,), eqns))


def test_double_definition_of_an_input() -> None:
    x = Var(0, F32)
    with pytest.raises(JaxprTypeError, match=r"is defined twice \(invars\)"):
        check_jaxpr(Jaxpr((), (x, x), (x,), ()))
    with pytest.raises(JaxprTypeError, match=r"is defined twice \(invars\)"):
        check_jaxpr(Jaxpr((x,), (x,), (x,), ()))
    with pytest.raises(JaxprTypeError, match=r"is defined twice \(equation 0: neg"):
        check_jaxpr(Jaxpr((), (x,), (x,), (Eqn(Neg(), (x,), (x,)),)))


@pytest.mark.parametrize(
    ("out_aval", "shown"),
    [(F32_3, r"f32\[3\]"), (I32, r"i32\[\]")],
    ids=["shape", "dtype"],
)
def test_wrong_outvar_aval(out_aval: ShapedArray, shown: str) -> None:
    x, y = Var(0, F32), Var(1, out_aval)
    with pytest.raises(
        JaxprTypeError,
        match=rf"equation 0: sin\(f32\[\]\) -> \({shown}\) has output types \({shown}\) but its primitive gives \(f32\[\]\)",
    ):
        check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(Sin(), (x,), (y,)),)))


def test_wrong_number_of_outvars() -> None:
    x, y, z = Var(0, F32), Var(1, F32), Var(2, F32)
    with pytest.raises(JaxprTypeError, match=r"has output types \(f32\[\], f32\[\]\) but its primitive gives \(f32\[\]\)"):
        check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(Sin(), (x,), (y, z)),)))


def test_weak_type_only_difference_is_accepted() -> None:
    x, y = Var(0, F32), Var(1, F32.update(weak_type=True))
    check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(Sin(), (x,), (y,)),)))


def test_ill_typed_inputs() -> None:
    x, i, y = Var(0, F32), Var(1, I32), Var(2, F32)
    with pytest.raises(JaxprTypeError, match=r"equation 0: add\(f32\[\], i32\[\]\) -> \(f32\[\]\) is ill-typed: .*add"):
        check_jaxpr(Jaxpr((), (x, i), (y,), (Eqn(Add(), (x, i), (y,)),)))


def test_incompatible_shapes() -> None:
    a, b, c = Var(0, F32_3), Var(1, F32_4), Var(2, F32_3)
    with pytest.raises(JaxprTypeError, match=r"add\(f32\[3\], f32\[4\]\) -> \(f32\[3\]\) is ill-typed"):
        check_jaxpr(Jaxpr((), (a, b), (c,), (Eqn(Add(), (a, b), (c,)),)))


def test_wrong_arity() -> None:
    x, y = Var(0, F32), Var(1, F32)
    with pytest.raises(JaxprTypeError, match=r"equation 0: sin\(f32\[\], f32\[\]\) -> \(f32\[\]\) is ill-typed"):
        check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(Sin(), (x, x), (y,)),)))


def test_bad_params() -> None:
    x, y = Var(0, F32_3), Var(1, F32)
    with pytest.raises(JaxprTypeError, match=r"reduce_sum\(f32\[3\]\) -> \(f32\[\]\) is ill-typed"):
        check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(ReduceSum(axes=(1,)), (x,), (y,)),)))


def test_non_scalar_literal() -> None:
    x, y = Var(0, F32_3), Var(1, F32_3)
    literal = Literal.from_array(concrete(np.ones(3, np.float32)))
    with pytest.raises(JaxprTypeError, match=r"literal 1.0:f32\[3\] is not a scalar \(equation 0: add"):
        check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(Add(), (x, literal), (y,)),)))


def test_non_scalar_literal_output() -> None:
    literal = Literal.from_array(concrete(np.ones(2, np.float32)))
    with pytest.raises(JaxprTypeError, match=r"literal 1.0:f32\[2\] is not a scalar \(outvars\)"):
        check_jaxpr(Jaxpr((), (), (literal,), ()))


def test_literal_of_the_wrong_type_for_its_equation() -> None:
    x, y = Var(0, F32), Var(1, F32)
    with pytest.raises(JaxprTypeError, match=r"add\(f32\[\], i32\[\]\) -> \(f32\[\]\) is ill-typed"):
        check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(Add(), (x, scalar_literal(np.int32(1))), (y,)),)))


def test_literal_value_must_match_its_annotation() -> None:
    value = concrete(np.int32(7))
    lying = Literal(np.int32(7), F32, value)  # claims f32[], holds an int32
    x, y = Var(0, F32), Var(1, F32)
    with pytest.raises(JaxprTypeError, match=r"[Ll]iteral"):
        check_jaxpr(Jaxpr((), (x,), (y,), (Eqn(Add(), (x, lying), (y,)),)))


def test_consts_constvars_count_mismatch() -> None:
    c, x, y = Var(0, F32_3), Var(1, F32_3), Var(2, F32_3)
    jaxpr = Jaxpr((c,), (x,), (y,), (Eqn(Add(), (x, c), (y,)),))
    check_jaxpr(jaxpr)  # the open jaxpr is fine
    with pytest.raises(JaxprTypeError, match=r"0 consts for 1 constvars"):
        check_closed_jaxpr(ClosedJaxpr(jaxpr, ()))
    two = (concrete(np.ones(3, np.float32)), concrete(np.ones(3, np.float32)))
    with pytest.raises(JaxprTypeError, match=r"2 consts for 1 constvars"):
        check_closed_jaxpr(ClosedJaxpr(jaxpr, two))


@pytest.mark.parametrize(
    ("const", "shown"),
    [(np.ones(4, np.float32), r"f32\[4\]"), (np.ones(3, np.int32), r"i32\[3\]")],
    ids=["shape", "dtype"],
)
def test_const_type_mismatch(const: Any, shown: str) -> None:
    c, x, y = Var(0, F32_3), Var(1, F32_3), Var(2, F32_3)
    jaxpr = Jaxpr((c,), (x,), (y,), (Eqn(Add(), (x, c), (y,)),))
    with pytest.raises(JaxprTypeError, match=rf"const of type {shown} bound to constvar of type f32\[3\]"):
        check_closed_jaxpr(ClosedJaxpr(jaxpr, (concrete(const),)))


def test_jaxpr_type_error_is_a_type_error() -> None:
    assert issubclass(JaxprTypeError, TypeError)
    assert issubclass(JaxprTypeError, jt.errors.JaxtypedError)


# === equality and hashing by value ===


def foo(x: Any) -> Any:
    return lax.mul(x, lax.add(x, 3.0))


def test_tracing_twice_gives_equal_jaxprs() -> None:
    first, second = jt.make_jaxpr(foo)(2.0), jt.make_jaxpr(foo)(2.0)
    assert first is not second
    assert first.jaxpr == second.jaxpr and hash(first.jaxpr) == hash(second.jaxpr)
    assert first == second and hash(first) == hash(second)
    assert first.eqns == second.eqns
    assert {first.jaxpr: "cached"}[second.jaxpr] == "cached"
    assert len({first, second}) == 1


def test_equal_jaxprs_from_different_spellings() -> None:
    # Operators and lax functions stage the same program.
    infix = stage(lambda x: x * (x + 3.0), jnp.asarray(2.0))
    assert infix == jt.make_jaxpr(foo)(2.0)


def test_transformed_jaxprs_compare_by_value() -> None:
    def jvp_of_foo(x: Any) -> Any:
        return jt.jvp(foo, (x,), (jnp.ones_like(x),))

    a = jt.make_jaxpr(jvp_of_foo)(2.0)
    b = jt.make_jaxpr(jvp_of_foo)(2.0)
    assert a == b and hash(a) == hash(b)
    assert a != jt.make_jaxpr(foo)(2.0)


DIFFERENT: list[tuple[str, Callable[[Any], Any], Any]] = [
    ("other-function", lambda x: lax.mul(x, lax.sub(x, 3.0)), 2.0),
    ("other-literal", lambda x: lax.mul(x, lax.add(x, 4.0)), 2.0),
    ("other-shape", foo, np.ones(3, np.float32)),
    ("other-dtype", foo, np.float16(2.0)),
    ("other-order", lambda x: lax.mul(lax.add(x, 3.0), x), 2.0),
    ("strong-input", foo, np.float32(2.0)),
]


@pytest.mark.parametrize(("fun", "arg"), [(f, a) for _, f, a in DIFFERENT], ids=[n for n, _, _ in DIFFERENT])
def test_different_programs_differ(fun: Callable[[Any], Any], arg: Any) -> None:
    reference = jt.make_jaxpr(foo)(2.0)
    other = jt.make_jaxpr(fun)(arg)
    assert other.jaxpr != reference.jaxpr
    assert other != reference


def test_params_take_part_in_equality() -> None:
    x = np.ones((2, 2), np.float32)
    a = stage(lambda v: jnp.sum(v, axis=0), x)
    b = stage(lambda v: jnp.sum(v, axis=1), x)
    assert a.jaxpr != b.jaxpr
    assert a.eqns[0].primitive == ReduceSum(axes=(0,))
    assert a.eqns[0].params == {"axes": (0,)}
    assert hash(ReduceSum(axes=(0,))) == hash(ReduceSum(axes=(0,)))


def test_consts_compare_by_identity() -> None:
    # A jaxtyped array closed over is the same object in both traces.
    c = jnp.arange(3.0)
    a = stage(lambda x: x + c, np.ones(3, np.float32))
    b = stage(lambda x: x + c, np.ones(3, np.float32))
    assert a == b and hash(a) == hash(b)
    # A NumPy array is converted afresh by each trace: equal programs, but
    # the closed jaxprs hold different const objects.
    n = np.arange(3, dtype=np.float32)
    p = stage(lambda x: x + n, np.ones(3, np.float32))
    q = stage(lambda x: x + n, np.ones(3, np.float32))
    assert p.jaxpr == q.jaxpr and hash(p.jaxpr) == hash(q.jaxpr)
    assert p.consts[0] is not q.consts[0]


def test_vars_and_literals_compare_by_value() -> None:
    assert Var(0, F32) == Var(0, F32) and hash(Var(0, F32)) == hash(Var(0, F32))
    assert Var(0, F32) != Var(1, F32)
    assert Var(0, F32) != Var(0, I32)
    assert scalar_literal(np.float32(2.0)) == scalar_literal(np.float32(2.0))
    assert scalar_literal(np.float32(2.0)) != scalar_literal(np.float32(3.0))
    assert Eqn(Sin(), (Var(0, F32),), (Var(1, F32),)) == Eqn(Sin(), (Var(0, F32),), (Var(1, F32),))
    assert Eqn(Sin(), (Var(0, F32),), (Var(1, F32),)) != Eqn(Cos(), (Var(0, F32),), (Var(1, F32),))


def test_jaxprs_are_immutable() -> None:
    jaxpr = sin_cos_jaxpr()
    with pytest.raises(AttributeError):
        jaxpr.eqns = ()  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # frozen: the error under test
    assert type(jaxpr.eqns) is tuple
