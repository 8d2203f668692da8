"""Golden tests of ``str(make_jaxpr(f)(...))``: JAX's jaxpr syntax and
layout. Where JAX stages the same program, its string is the oracle too.

Known, intended differences from JAX that no test here freezes: JAX prints
some parameters jaxtyped's primitives do not have (``out_sharding=None`` on
``reduce_sum``, ``sharding=None`` on ``reshape``/``iota``) and some
``jax.numpy`` functions stage differently (``jnp.where`` is a ``jit`` in JAX,
``matmul`` sets ``preferred_element_type``).
"""

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax

# The oracle, untyped and imported by name: JAX's annotations are partly
# unknown to pyright, and type checkers need not resolve JAX at all.
jx: Any = importlib.import_module("jax")

# Union by arity: gives lambdas' parameters a type (Any) for strict type checkers.
F = Callable[[], Any] | Callable[[Any], Any] | Callable[[Any, Any], Any]


def stage(fun: F, *args: Any) -> jt.core.ClosedJaxpr[jt.Array | jt.Ref[jt.Array]]:
    untyped: Callable[..., Any] = fun
    return jt.make_jaxpr(untyped)(*args)


def ours(fun: F, *args: Any) -> str:
    return str(stage(fun, *args))


def theirs(fun: F, *args: Any) -> str:
    return str(jx.make_jaxpr(fun)(*args))


def f32(*shape: int) -> np.ndarray[Any, Any]:
    return np.ones(shape, np.float32)


# === layout: one line when it fits in 80 columns ===


def sin_then_square(x: Any) -> Any:
    y = jnp.sin(x)
    return y * y


def sin_sin(x: Any) -> Any:
    return jnp.sin(jnp.sin(x))


def test_exactly_80_columns_is_one_line() -> None:
    text = ours(sin_then_square, f32(1000))
    assert text == "{ lambda ; a:f32[1000]. let b:f32[1000] = sin a; c:f32[1000] = mul b b in (c,) }"
    assert len(text) == 80

    def jax_sin_then_square(x: Any) -> Any:
        y = jx.numpy.sin(x)
        return y * y

    assert text == theirs(jax_sin_then_square, f32(1000))


def test_81_columns_breaks_one_equation_per_line() -> None:
    text = ours(sin_sin, f32(10, 20))
    assert text == (
        "{ lambda ; a:f32[10,20]. let\n"
        "    b:f32[10,20] = sin a\n"
        "    c:f32[10,20] = sin b\n"
        "  in (c,) }"
    )
    assert text == theirs(lambda x: jx.numpy.sin(jx.numpy.sin(x)), f32(10, 20))
    assert len(jt.make_jaxpr(sin_sin)(f32(10, 20)).pretty_print(width=10_000)) == 81


@pytest.mark.parametrize("width", [40, 60, 79, 80, 81, 120, 200])
def test_pretty_print_width_matches_jax(width: int) -> None:
    programs: list[tuple[F, F, tuple[Any, ...]]] = [
        (sin_sin, lambda x: jx.numpy.sin(jx.numpy.sin(x)), (f32(10, 20),)),
        (lambda x: lax.mul(x, lax.add(x, 3.0)), lambda x: jx.lax.mul(x, jx.lax.add(x, 3.0)), (2.0,)),
        (lambda x, y: (x * y, jnp.cos(x)), lambda x, y: (x * y, jx.numpy.cos(x)), (f32(3), f32(3))),
    ]
    for fun, jax_fun, args in programs:
        assert stage(fun, *args).pretty_print(width=width) == jx.make_jaxpr(jax_fun)(*args).pretty_print(width=width)
    assert str(jt.make_jaxpr(sin_sin)(f32(10, 20))) == jt.make_jaxpr(sin_sin)(f32(10, 20)).pretty_print(width=80)
    assert str(jt.make_jaxpr(sin_sin)(f32(10, 20)).jaxpr) == str(jt.make_jaxpr(sin_sin)(f32(10, 20)))


# === constvars ===

C3 = np.arange(3, dtype=np.float32)
D23 = np.ones((2, 3), np.float32)


def test_closing_over_a_numpy_array_gives_a_constvar() -> None:
    text = ours(lambda x: x + C3, f32(3))
    assert text == "{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = add b a in (c,) }"
    assert text == theirs(lambda x: x + C3, f32(3))


def test_several_constvars() -> None:
    text = ours(lambda x: (x + C3, jnp.sum(D23, 0) * x), f32(3))
    assert text == (
        "{ lambda a:f32[3] b:f32[2,3]; c:f32[3]. let\n"
        "    d:f32[3] = add c a\n"
        "    e:f32[3] = reduce_sum[axes=(0,)] b\n"
        "    f:f32[3] = mul e c\n"
        "  in (d, f) }"
    )
    assert stage(lambda x: x + C3, f32(3)).consts[0].shape == (3,)


def test_a_jaxtyped_array_used_twice_is_one_constvar() -> None:
    c = jnp.asarray(C3)
    expected = (
        "{ lambda a:f32[3]; b:f32[3]. let\n"
        "    c:f32[3] = mul b a\n"
        "    d:f32[3] = add c a\n"
        "  in (d,) }"
    )
    assert ours(lambda x: x * c + c, f32(3)) == expected
    cj = jx.numpy.asarray(C3)
    assert theirs(lambda x: x * cj + cj, f32(3)) == expected


def test_a_numpy_array_used_twice_is_one_constvar() -> None:
    assert ours(lambda x: x * C3 + C3, f32(3)) == theirs(lambda x: x * C3 + C3, f32(3))


def test_constant_only_computation() -> None:
    text = ours(lambda x: jnp.sin(C3), 1.0)
    assert text == "{ lambda a:f32[3]; b:f32[]. let c:f32[3] = sin a in (c,) }"
    assert text == theirs(lambda x: jx.numpy.sin(C3), 1.0)


# === literals ===


LITERALS: list[tuple[str, F, F, tuple[Any, ...], str]] = [
    ("f32", lambda x: x * 2.0, lambda x: x * 2.0, (1.0,), "{ lambda ; a:f32[]. let b:f32[] = mul a 2.0:f32[] in (b,) }"),
    (
        "f32-vector",
        lambda x: jnp.sin(x) * 2.0,
        lambda x: jx.numpy.sin(x) * 2.0,
        (f32(3),),
        "{ lambda ; a:f32[3]. let b:f32[3] = sin a; c:f32[3] = mul b 2.0:f32[] in (c,) }",
    ),
    ("i32", lambda x: x + 1, lambda x: x + 1, (np.int32(2),), "{ lambda ; a:i32[]. let b:i32[] = add a 1:i32[] in (b,) }"),
    (
        "negative-i32",
        lambda x: lax.mul(x, -3),
        lambda x: jx.lax.mul(x, -3),
        (np.int32(2),),
        "{ lambda ; a:i32[]. let b:i32[] = mul a -3:i32[] in (b,) }",
    ),
    (
        "bool",
        lambda x: lax.bitwise_and(x, True),
        lambda x: jx.lax.bitwise_and(x, True),
        (np.bool_(True),),
        "{ lambda ; a:bool[]. let b:bool[] = and a True:bool[] in (b,) }",
    ),
    (
        "bool-false",
        lambda x: lax.bitwise_or(x, False),
        lambda x: jx.lax.bitwise_or(x, False),
        (np.bool_(True),),
        "{ lambda ; a:bool[]. let b:bool[] = or a False:bool[] in (b,) }",
    ),
    ("f16", lambda x: x * 2.0, lambda x: x * 2.0, (np.float16(1),), "{ lambda ; a:f16[]. let b:f16[] = mul a 2.0:f16[] in (b,) }"),
    ("u8", lambda x: x * 2, lambda x: x * 2, (np.uint8(1),), "{ lambda ; a:u8[]. let b:u8[] = mul a 2:u8[] in (b,) }"),
    ("inf", lambda x: x * np.inf, lambda x: x * np.inf, (1.0,), "{ lambda ; a:f32[]. let b:f32[] = mul a inf:f32[] in (b,) }"),
    ("nan", lambda x: x * np.nan, lambda x: x * np.nan, (1.0,), "{ lambda ; a:f32[]. let b:f32[] = mul a nan:f32[] in (b,) }"),
    (
        "comparison",
        lambda x: x > 0.0,
        lambda x: x > 0.0,
        (1.0,),
        "{ lambda ; a:f32[]. let b:bool[] = gt a 0.0:f32[] in (b,) }",
    ),
]


@pytest.mark.parametrize(("fun", "jax_fun", "args", "expected"), [c[1:] for c in LITERALS], ids=[c[0] for c in LITERALS])
def test_literals(fun: F, jax_fun: F, args: tuple[Any, ...], expected: str) -> None:
    assert ours(fun, *args) == expected
    assert theirs(jax_fun, *args) == expected


def test_f64_literal_under_x64(x64: None) -> None:
    foo: F = lambda x: lax.mul(x, lax.add(x, 3.0))
    expected = "{ lambda ; a:f64[]. let b:f64[] = add a 3.0:f64[]; c:f64[] = mul a b in (c,) }"
    assert ours(foo, 2.0) == expected
    assert theirs(lambda x: jx.lax.mul(x, jx.lax.add(x, 3.0)), 2.0) == expected


def test_f32_literal_prints_its_shortest_float32_form() -> None:
    # Deliberate difference: against a strongly typed f32 operand JAX widens
    # the literal to float64 digits; jaxtyped prints every f32 literal in its
    # shortest round-tripping float32 form.
    assert ours(lambda x: x * 0.1, f32(3)) == "{ lambda ; a:f32[3]. let b:f32[3] = mul a 0.1:f32[] in (b,) }"
    assert theirs(lambda x: x * 0.1, f32(3)) == "{ lambda ; a:f32[3]. let b:f32[3] = mul a 0.10000000149011612:f32[] in (b,) }"


def test_weak_python_float_literal_prints_like_jax() -> None:
    assert ours(lambda x: x * 0.1, 1.0) == "{ lambda ; a:f32[]. let b:f32[] = mul a 0.1:f32[] in (b,) }"
    assert theirs(lambda x: x * 0.1, 1.0) == "{ lambda ; a:f32[]. let b:f32[] = mul a 0.1:f32[] in (b,) }"


# === outputs ===


def test_multiple_outputs() -> None:
    text = ours(lambda x: (jnp.sin(x), jnp.cos(x)), 1.0)
    assert text == "{ lambda ; a:f32[]. let b:f32[] = sin a; c:f32[] = cos a in (b, c) }"
    assert text == theirs(lambda x: (jx.numpy.sin(x), jx.numpy.cos(x)), 1.0)


def test_outputs_that_are_inputs_or_repeated() -> None:
    text = ours(lambda x, y: (x * y, jnp.sin(x) + y, x), 1.0, 2.0)
    assert text == (
        "{ lambda ; a:f32[] b:f32[]. let\n"
        "    c:f32[] = mul a b\n"
        "    d:f32[] = sin a\n"
        "    e:f32[] = add d b\n"
        "  in (c, e, a) }"
    )
    assert text == theirs(lambda x, y: (x * y, jx.numpy.sin(x) + y, x), 1.0, 2.0)


def test_pytree_outputs_are_flattened() -> None:
    # Equations in program order; outputs in pytree order (dict keys sorted).
    text = ours(lambda x: {"b": jnp.sin(x), "a": [x, x * 2.0]}, 1.0)
    assert text == (
        "{ lambda ; a:f32[]. let\n"
        "    b:f32[] = sin a\n"
        "    c:f32[] = mul a 2.0:f32[]\n"
        "  in (a, c, b) }"
    )
    assert text == theirs(lambda x: {"b": jx.numpy.sin(x), "a": [x, x * 2.0]}, 1.0)


def test_literal_output() -> None:
    assert ours(lambda x: (x, 1.0), 1.0) == "{ lambda ; a:f32[]. let  in (a, 1.0:f32[]) }"


def test_zero_outputs_and_zero_inputs() -> None:
    assert ours(lambda x: (), 1.0) == "{ lambda ; a:f32[]. let  in () }"
    assert ours(lambda: 1.0) == "{ lambda ; . let  in (1.0:f32[],) }"
    assert ours(lambda x, y: (y, x, x), 1.0, 2.0) == "{ lambda ; a:f32[] b:f32[]. let  in (b, a, a) }"


def test_empty_body_layout_matches_jax() -> None:
    assert ours(lambda x: (), 1.0) == theirs(lambda x: (), 1.0)
    assert ours(lambda: 1.0) == theirs(lambda: 1.0)


# === parameters ===


PARAMS: list[tuple[str, F, F, tuple[Any, ...], str]] = [
    (
        "reduce_max",
        lambda x: lax.reduce_max(x, (0,)),
        lambda x: jx.lax.reduce_max(x, (0,)),
        (f32(2, 3),),
        "{ lambda ; a:f32[2,3]. let b:f32[3] = reduce_max[axes=(0,)] a in (b,) }",
    ),
    (
        "transpose",
        lambda x: x.T,
        lambda x: x.T,
        (f32(2, 3),),
        "{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = transpose[permutation=(1, 0)] a\n  in (b,) }",
    ),
    (
        "integer_pow",
        lambda x: lax.integer_pow(x, 3),
        lambda x: jx.lax.integer_pow(x, 3),
        (1.0,),
        "{ lambda ; a:f32[]. let b:f32[] = integer_pow[y=3] a in (b,) }",
    ),
    (
        "convert_element_type",
        lambda x: lax.convert_element_type(x, np.int32),
        lambda x: jx.lax.convert_element_type(x, np.int32),
        (f32(3),),
        "{ lambda ; a:f32[3]. let\n    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a\n  in (b,) }",
    ),
    (
        "concatenate",
        lambda x: lax.concatenate([x, x], 0),
        lambda x: jx.lax.concatenate([x, x], 0),
        (f32(3),),
        "{ lambda ; a:f32[3]. let b:f32[6] = concatenate[dimension=0] a a in (b,) }",
    ),
    (
        "pad",
        lambda x: lax.pad(x, 0.0, [(1, 2, 0)]),
        lambda x: jx.lax.pad(x, 0.0, [(1, 2, 0)]),
        (f32(3),),
        "{ lambda ; a:f32[3]. let\n    b:f32[6] = pad[padding_config=((1, 2, 0),)] a 0.0:f32[]\n  in (b,) }",
    ),
    (
        "squeeze",
        lambda x: lax.squeeze(x, (0,)),
        lambda x: jx.lax.squeeze(x, (0,)),
        (f32(1, 3),),
        "{ lambda ; a:f32[1,3]. let b:f32[3] = squeeze[dimensions=(0,)] a in (b,) }",
    ),
    (
        "slice",
        lambda x: x[1:],
        lambda x: x[1:],
        (f32(3),),
        "{ lambda ; a:f32[3]. let\n    b:f32[2] = slice[limit_indices=(3,) start_indices=(1,) strides=None] a\n  in (b,) }",
    ),
    (
        "dot_general",
        lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ()))),
        lambda x, y: jx.lax.dot_general(x, y, (((1,), (0,)), ((), ()))),
        (f32(3, 4), f32(4, 5)),
        "{ lambda ; a:f32[3,4] b:f32[4,5]. let\n"
        "    c:f32[3,5] = dot_general[dimension_numbers=(([1], [0]), ([], []))] a b\n"
        "  in (c,) }",
    ),
    (
        "dot_general-broken",
        lambda x, y: lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,))), preferred_element_type=np.float32),
        lambda x, y: jx.lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,))), preferred_element_type=np.float32),
        (f32(2, 3, 4), f32(2, 4, 5)),
        "{ lambda ; a:f32[2,3,4] b:f32[2,4,5]. let\n"
        "    c:f32[2,3,5] = dot_general[\n"
        "      dimension_numbers=(([2], [1]), ([0], [0]))\n"
        "      preferred_element_type=float32\n"
        "    ] a b\n"
        "  in (c,) }",
    ),
]


@pytest.mark.parametrize(("fun", "jax_fun", "args", "expected"), [c[1:] for c in PARAMS], ids=[c[0] for c in PARAMS])
def test_params(fun: F, jax_fun: F, args: tuple[Any, ...], expected: str) -> None:
    assert ours(fun, *args) == expected
    assert theirs(jax_fun, *args) == expected


def test_reduce_sum_params() -> None:
    # JAX also prints out_sharding=None, a parameter jaxtyped does not have.
    assert ours(lambda x: lax.reduce_sum(x, (0,)), f32(3, 4)) == (
        "{ lambda ; a:f32[3,4]. let b:f32[4] = reduce_sum[axes=(0,)] a in (b,) }"
    )
    assert ours(lambda x: jnp.sum(x), f32(3, 4)) == (
        "{ lambda ; a:f32[3,4]. let b:f32[] = reduce_sum[axes=(0, 1)] a in (b,) }"
    )


def test_equation_params_broken_out_inside_a_long_jaxpr() -> None:
    def fun(x: Any, y: Any) -> Any:
        z = lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,))), preferred_element_type=np.float32)
        return jnp.sin(z)

    text = ours(fun, f32(2, 3, 4), f32(2, 4, 5))
    assert text == (
        "{ lambda ; a:f32[2,3,4] b:f32[2,4,5]. let\n"
        "    c:f32[2,3,5] = dot_general[\n"
        "      dimension_numbers=(([2], [1]), ([0], [0]))\n"
        "      preferred_element_type=float32\n"
        "    ] a b\n"
        "    d:f32[2,3,5] = sin c\n"
        "  in (d,) }"
    )


def test_long_argument_lists_wrap_like_jax() -> None:
    def concat(*xs: Any) -> Any:
        return lax.concatenate(xs, 0)

    def jax_concat(*xs: Any) -> Any:
        return jx.lax.concatenate(xs, 0)

    args = [f32(3)] * 30
    assert ours(concat, *args) == theirs(jax_concat, *args)


def _sort_many(N: Any) -> Callable[..., Any]:
    return lambda *xs: N.lax.sort(xs, num_keys=1)


def _double_each(N: Any) -> Callable[..., Any]:
    return lambda *xs: [x * 2 for x in xs]


def _add_many_consts(N: Any) -> Callable[..., Any]:
    consts = [np.full((2,), i, np.float32) for i in range(14)]

    def f(x: Any) -> Any:
        for c in consts:
            x = x + c
        return x

    return f


# H16d: binders (results, constvars, inputs) and outputs fill lines as JAX's.
WRAPPED: list[tuple[str, Callable[[Any], Callable[..., Any]], tuple[Any, ...]]] = [
    ("long-results-and-operands", _sort_many, (f32(3),) * 12),
    ("long-outputs", _double_each, (f32(3),) * 25),
    ("long-constvars", _add_many_consts, (f32(2),)),
]


@pytest.mark.parametrize(("make", "args"), [c[1:] for c in WRAPPED], ids=[c[0] for c in WRAPPED])
def test_long_lists_fill_lines_like_jax(make: Callable[[Any], Callable[..., Any]], args: tuple[Any, ...]) -> None:
    closed = jt.make_jaxpr(make(jt))(*args)
    text = str(closed)
    assert text == str(jx.make_jaxpr(make(jx))(*args))
    assert len(text.split("\n")) > len(closed.eqns) + 2  # some list was wrapped


# === variable naming ===


def sin_28_times(x: Any) -> Any:
    for _ in range(28):
        x = jnp.sin(x)
    return x


def test_names_past_26_variables() -> None:
    text = ours(sin_28_times, 1.0)
    lines = text.split("\n")
    assert lines[0] == "{ lambda ; a:f32[]. let"
    assert lines[1] == "    b:f32[] = sin a"
    assert lines[25] == "    z:f32[] = sin y"
    assert lines[26] == "    ba:f32[] = sin z"
    assert lines[27] == "    bb:f32[] = sin ba"
    assert lines[28] == "    bc:f32[] = sin bb"
    assert lines[29] == "  in (bc,) }"

    def jax_sin_28_times(x: Any) -> Any:
        for _ in range(28):
            x = jx.numpy.sin(x)
        return x

    assert text == theirs(jax_sin_28_times, 1.0)


def test_names_past_two_letters() -> None:
    # Variables 0-25 are a..z, 26-675 are ba..zz (25 * 26 names), 676 is baa.
    # Line i of the printout defines variable i (line 0 is the header).
    def chain(x: Any) -> Any:
        for _ in range(700):
            x = x + 1.0
        return x

    text = ours(chain, 1.0)
    lines = text.split("\n")
    assert lines[675] == "    zz:f32[] = add zy 1.0:f32[]"
    assert lines[676] == "    baa:f32[] = add zz 1.0:f32[]"
    assert lines[-1] == "  in (bay,) }"
    assert text == theirs(chain, 1.0)


def test_unused_variables_print_as_underscore() -> None:
    expected = "{ lambda ; a:f32[]. let _:f32[] = sin a; b:f32[] = cos a in (b,) }"
    assert theirs(lambda x: (jx.numpy.sin(x), jx.numpy.cos(x))[1], 1.0) == expected
    assert ours(lambda x: (jnp.sin(x), jnp.cos(x))[1], 1.0) == expected


# --- H16d: JAX's rule for "_", case by case: only results of the printed
# jaxpr's own equations that nothing reads (not inputs, not the results in
# inner jaxprs, which keep their names).


def _scan_body(N: Any) -> Callable[[Any, Any], Any]:
    def body(c: Any, x: Any) -> Any:
        N.numpy.sin(x)  # unused inside the body: named
        return c + x, N.numpy.cos(x)

    return body


def _swap_unused(lib: Any) -> Callable[[Any], Any]:
    x_ref = lib.new_ref(lib.numpy.zeros(3))

    def f(v: Any) -> Any:
        lib.ref.swap(x_ref, 1, v)  # the old value unused: printed as a write
        return v

    return f


def _custom_jvp_with_unused(lib: Any) -> Any:
    def body(x: Any) -> Any:
        lib.numpy.sin(x)
        return x * 2

    f = lib.custom_jvp(body)

    def rule(primals: Any, tangents: Any) -> Any:
        return f(primals[0]), tangents[0] * 2

    f.defjvp(rule)
    return f


def _while_with_unused(N: Any) -> Callable[[Any], Any]:
    def cond(c: Any) -> Any:
        N.numpy.sin(c)
        return c < 3

    def body(c: Any) -> Any:
        N.numpy.cos(c)
        return c + 1

    return lambda x: N.lax.while_loop(cond, body, x)


def _vmap_of_a_pair(N: Any) -> Callable[[Any], Any]:
    def pair(y: Any) -> Any:
        return N.numpy.exp(y), y * 2

    return lambda x: N.vmap(pair)(x)[1]


UNUSED: list[tuple[str, Callable[[Any], F], tuple[Any, ...]]] = [
    ("some-results-of-a-multi-output-eqn", lambda N: lambda x: N.lax.sort((x, x * 2), num_keys=1)[1], (f32(3),)),
    ("unused-inputs-keep-their-names", lambda N: lambda x, y: x, (1.0, 2.0)),
    ("scan-result-unused-body-names-kept", lambda N: lambda xs: N.lax.scan(_scan_body(N), 0.0, xs)[0], (f32(3),)),
    ("scan-all-used", lambda N: lambda xs: N.lax.scan(_scan_body(N), 0.0, xs), (f32(3),)),
    ("while-bodies-keep-names", _while_with_unused, (1.0,)),
    ("custom-jvp-body-keeps-names", _custom_jvp_with_unused, (1.0,)),
    ("swap-with-unused-result", _swap_unused, (1.0,)),
    ("unused-in-a-vmap-of-a-pair", _vmap_of_a_pair, (f32(3),)),
]


@pytest.mark.parametrize(("make", "args"), [c[1:] for c in UNUSED], ids=[c[0] for c in UNUSED])
def test_unused_results_match_jax(make: Callable[[Any], F], args: tuple[Any, ...]) -> None:
    assert ours(make(jt), *args) == theirs(make(jx), *args)


def test_an_unused_jit_result_prints_as_underscore() -> None:
    # The jit's jaxpr takes the equation's names, "_" included, as JAX's.
    def make(lib: Any) -> F:
        def pair(v: Any) -> Any:
            lib.numpy.sin(v)  # unused inside the jit: named
            return v * 3, v * 2

        h = lib.jit(pair)
        return lambda v: h(v)[1]

    text = ours(make(jt), 1.0)
    assert text == theirs(make(jx), 1.0)
    assert text.split("\n")[1] == "    _:f32[] b:f32[] = jit["
    assert "in (_, b) }" in text


# --- H16d: inner jaxprs laid out as JAX's printer does: a jaxpr parameter
# on one line when it fits, and an inner jaxpr used twice or of more than
# 10 equations printed once first ("let name = { ... } in").


def _sins(N: Any, n: int) -> Callable[[Any], Any]:
    def chain(x: Any) -> Any:
        for _ in range(n):
            x = N.numpy.sin(x)
        return x

    return chain


def _big_body(N: Any, op: str) -> Callable[[Any, Any], Any]:
    def body(c: Any, x: Any) -> Any:
        for _ in range(6):
            c = getattr(N.numpy, op)(c) + x
        return c, c

    return body


def _two_big_scans(N: Any) -> F:
    def f(xs: Any) -> Any:
        return N.lax.scan(_big_body(N, "sin"), 0.0, xs)[0], N.lax.scan(_big_body(N, "cos"), 1.0, xs)[0]

    return f


def _jit_twice(N: Any) -> F:
    def g(x: Any) -> Any:
        return N.lax.scan(_big_body(N, "sin"), 0.0, x)[0]

    h = N.jit(g)
    return lambda xs: h(xs) + h(xs * 2)


def _small_jit(N: Any) -> F:
    def double(a: Any) -> Any:
        return a * 2

    return lambda x: N.jit(double)(x)


def _small_while(N: Any) -> F:
    def cond(c: Any) -> Any:
        return c < 3.0

    def body(c: Any) -> Any:
        return c + 1.0

    return lambda x: N.lax.while_loop(cond, body, x)


def _big_while(N: Any) -> F:
    def cond(c: Any) -> Any:
        return c < 3.0

    return lambda x: N.lax.while_loop(cond, _sins(N, 11), x)


def _cond_with_a_big_branch(N: Any) -> F:
    def same(x: Any) -> Any:
        return x

    return lambda p, x: N.lax.cond(p, _sins(N, 11), same, x)


LAYOUT: list[tuple[str, Callable[[Any], F], tuple[Any, ...]]] = [
    ("small-jit-body-on-one-line", _small_jit, (1.0,)),
    ("small-while-bodies-on-one-line", _small_while, (1.0,)),
    ("big-while-body-shared", _big_while, (1.0,)),
    ("big-scan-bodies-named-jaxpr-jaxpr1", _two_big_scans, (f32(3),)),
    ("jit-used-twice-shared-by-name-vars-skip-it", _jit_twice, (f32(3),)),
    ("cond-branches-with-a-shared-name-on-one-line", _cond_with_a_big_branch, (True, 1.0)),
]


@pytest.mark.parametrize(("make", "args"), [c[1:] for c in LAYOUT], ids=[c[0] for c in LAYOUT])
def test_inner_jaxpr_layout_matches_jax(make: Callable[[Any], F], args: tuple[Any, ...]) -> None:
    assert ours(make(jt), *args) == theirs(make(jx), *args)


def test_shared_jaxpr_golden() -> None:
    text = ours(_jit_twice(jt), f32(3))
    assert text.startswith("let g = { lambda ; a:f32[3]. let\n")
    assert "\nlet jaxpr = { lambda ; d:f32[] e:f32[]. let\n" in text
    # "g" names the shared jaxpr, so no variable takes it.
    assert "    g:f32[]" not in text and "    h:f32[] = convert_element_type" in text
    assert text.endswith("    u:f32[] = jit[name=g jaxpr=g] t\n    v:f32[3] = mul t 2.0:f32[]\n"
                         "    w:f32[] = jit[name=g jaxpr=g] v\n    x:f32[] = add u w\n  in (x,) }")


# === programs JAX stages identically ===


CHAINS: list[tuple[str, F, F, tuple[Any, ...]]] = [
    ("seed-f", lambda x: -(jnp.sin(x) * 2.0) + x, lambda x: -(jx.numpy.sin(x) * 2.0) + x, (3.0,)),
    (
        "sin-cos-mul-neg-add",
        lambda x: -(jnp.sin(x) * jnp.cos(x)) + x,
        lambda x: -(jx.numpy.sin(x) * jx.numpy.cos(x)) + x,
        (1.0,),
    ),
    ("foo", lambda x: lax.mul(x, lax.add(x, 3.0)), lambda x: jx.lax.mul(x, jx.lax.add(x, 3.0)), (2.0,)),
    (
        "two-args",
        lambda x, y: jnp.sin(x * y) + -y,
        lambda x, y: jx.numpy.sin(x * y) + -y,
        (f32(2, 3), f32(2, 3)),
    ),
    ("vector-chain", lambda x: jnp.cos(-jnp.sin(x)) * x, lambda x: jx.numpy.cos(-jx.numpy.sin(x)) * x, (f32(7),)),
    (
        "jvp-of-sin",
        lambda x, t: jt.jvp(jnp.sin, (x,), (t,)),
        lambda x, t: jx.jvp(jx.numpy.sin, (x,), (t,)),
        (1.0, 1.0),
    ),
    ("vmap-of-sin", lambda x: jt.vmap(jnp.sin)(x), lambda x: jx.vmap(jx.numpy.sin)(x), (f32(3),)),
]


@pytest.mark.parametrize(("fun", "jax_fun", "args"), [c[1:] for c in CHAINS], ids=[c[0] for c in CHAINS])
def test_identical_to_jax(fun: F, jax_fun: F, args: tuple[Any, ...]) -> None:
    assert ours(fun, *args) == theirs(jax_fun, *args)


def test_seed_f_golden() -> None:
    assert ours(lambda x: -(jnp.sin(x) * 2.0) + x, 3.0) == (
        "{ lambda ; a:f32[]. let\n"
        "    b:f32[] = sin a\n"
        "    c:f32[] = mul b 2.0:f32[]\n"
        "    d:f32[] = neg c\n"
        "    e:f32[] = add d a\n"
        "  in (e,) }"
    )


# jnp's products stage one dot_general accumulating in the result dtype, and
# print it as JAX 0.10.2 does (preferred_element_type shown).
PRODUCTS: list[tuple[str, Callable[[Any], F], tuple[Any, ...]]] = [
    ("matmul", lambda np_: np_.matmul, (f32(3, 4), f32(4, 5))),
    ("matvec", lambda np_: np_.matmul, (f32(3, 4), f32(4))),
    ("vecmat", lambda np_: np_.matmul, (f32(4), f32(4, 5))),
    ("batched", lambda np_: np_.matmul, (f32(2, 3, 4), f32(2, 4, 5))),
    ("dot", lambda np_: np_.dot, (f32(3, 4), f32(4, 5))),
    ("tensordot", lambda np_: lambda x, y: np_.tensordot(x, y, axes=1), (f32(3, 4), f32(4, 5))),
    ("inner", lambda np_: np_.inner, (f32(4), f32(4))),
    ("vdot", lambda np_: np_.vdot, (f32(4), f32(4))),
    ("int32", lambda np_: np_.matmul, (np.ones((3, 4), np.int32), np.ones((4, 5), np.int32))),
    ("einsum", lambda np_: lambda x, y: np_.einsum("ij,jk->ik", x, y), (f32(3, 4), f32(4, 5))),
]


@pytest.mark.parametrize(("numpy_of", "args"), [c[1:] for c in PRODUCTS], ids=[c[0] for c in PRODUCTS])
def test_jnp_products_print_as_jax(numpy_of: Callable[[Any], F], args: tuple[Any, ...]) -> None:
    assert ours(numpy_of(jnp), *args) == theirs(numpy_of(jx.numpy), *args)


# broadcast_in_dim prints as JAX 0.10.2's: the shape is the binder's type,
# and a scalar operand's empty broadcast dimensions are left out.
BROADCASTS: list[tuple[str, Callable[[Any], F], tuple[Any, ...]]] = [
    ("scalar", lambda lib: lambda x: x + lib.numpy.ones(3), (f32(3),)),
    ("vector", lambda lib: lambda x: lib.numpy.broadcast_to(x, (4, 3)), (f32(3),)),
    ("lax", lambda lib: lambda x: lib.lax.broadcast_in_dim(x, (2, 3, 4), (1, 2)), (f32(3, 4),)),
]


@pytest.mark.parametrize(("program", "args"), [c[1:] for c in BROADCASTS], ids=[c[0] for c in BROADCASTS])
def test_broadcast_in_dim_prints_as_jax(program: Callable[[Any], F], args: tuple[Any, ...]) -> None:
    assert ours(program(jt), *args) == theirs(program(jx), *args)
