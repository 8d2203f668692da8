"""dtype promotion, weak types and broadcasting of ``jaxtyped.numpy``'s
binary functions and of ``Array``'s operators, with real JAX as the oracle.

Every pair of operand kinds (strong arrays of several dtypes and the four
kinds of Python scalar) goes through every binary operator and function;
the result's dtype and weak type must equal JAX's, and where JAX raises a
``TypeError`` we must too. The JAX side is computed abstractly
(``jax.eval_shape``), so no XLA compilation happens.
"""

import functools
import itertools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import ShapeMismatchError

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")
# JAX filters the traceback of every error it raises, which costs ~10 ms an
# error; the oracle turns that off while it probes.
jax_config: Any = pytest.importorskip("jax._src.config")

# === operand kinds ===

ARRAY_KINDS: tuple[str, ...] = (
    "bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64",
)  # fmt: skip
X64_ARRAY_KINDS: tuple[str, ...] = (*ARRAY_KINDS, "int64", "uint32", "float64", "complex128")
SCALARS: dict[str, bool | int | float | complex] = {
    "py_bool": True, "py_int": 1, "py_float": 1.0, "py_complex": 1j,
}  # fmt: skip


def np_dtype(kind: str) -> np.dtype[Any]:
    """The NumPy dtype named ``kind`` (bfloat16 included)."""
    return jnp.dtype(kind)


def host_value(kind: str) -> np.ndarray[Any, Any]:
    """A small strictly positive array of dtype ``kind`` (safe for every op)."""
    if kind == "bool":
        return np.array([True, False, True])
    return np.array([1, 2, 3]).astype(np_dtype(kind))


def ours(kind: str) -> Any:
    """Our operand of kind ``kind``: a strong array or a Python scalar."""
    if kind in SCALARS:
        return SCALARS[kind]
    return jnp.asarray(host_value(kind))


# === the operations ===

Binary = Callable[[Any, Any], Any]

OPERATORS: dict[str, Binary] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "//": lambda a, b: a // b, "%": lambda a, b: a % b,
    "**": lambda a, b: a**b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b, "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}  # fmt: skip
# Functions without an operator: checked against JAX directly.
FUNCTIONS: tuple[str, ...] = (
    "fmod", "maximum", "minimum", "arctan2", "hypot", "logaddexp", "logical_and",
    "logical_or", "logical_xor",
)  # fmt: skip
# Functions with an operator twin (JAX's operators call these very
# functions): checked to agree with the operator, which is checked against JAX.
TWINS: dict[str, str] = {
    "add": "+", "subtract": "-", "multiply": "*", "divide": "/", "true_divide": "/",
    "floor_divide": "//", "remainder": "%", "mod": "%", "power": "**", "pow": "**",
    "equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=", "greater": ">",
    "greater_equal": ">=", "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^",
    "left_shift": "<<", "right_shift": ">>",
}  # fmt: skip
OP_NAMES: tuple[str, ...] = (*OPERATORS, *FUNCTIONS)
# Complex support of these in JAX is idiosyncratic; only real operands here.
REAL_ONLY: frozenset[str] = frozenset({"arctan2", "hypot", "logaddexp"})


def our_op(name: str) -> Binary:
    if name in OPERATORS:
        return OPERATORS[name]
    fun: Binary = getattr(jnp, name)
    return fun


def jax_op(name: str) -> Binary:
    if name in OPERATORS:
        return OPERATORS[name]
    fun: Binary = getattr(jax_numpy, name)
    return fun


# === results ===

# ("ok", dtype name, weak type), or ("TypeError", "", False).
Outcome = tuple[str, str, bool]
ERROR: Outcome = ("TypeError", "", False)


def describe(result: Any) -> Outcome:
    return ("ok", str(np.dtype(result.dtype)), bool(result.weak_type))


def our_result(name: str, a: str, b: str) -> Any:
    """Our ``op(a, b)``, or the name of the exception it raises
    (``"TypeError"`` for every TypeError, as JAX's are compared by kind)."""
    try:
        result = our_op(name)(ours(a), ours(b))
    except TypeError:
        return ERROR[0]
    except Exception as error:  # noqa: BLE001 - reported as a mismatch
        return type(error).__name__
    assert isinstance(result, jt.Array), f"{name}({a}, {b}) returned {type(result).__name__}"
    return result


def widen(x: Any) -> np.ndarray[Any, Any]:
    """``x``'s values as float64 (complex128 for complex), for comparisons
    NumPy can do (bfloat16 NaNs do not compare equal otherwise)."""
    value = np.asarray(x)
    return value.astype(np.complex128 if value.dtype.kind == "c" else np.float64)


def our_outcome(name: str, a: str, b: str) -> Outcome:
    result = our_result(name, a, b)
    return (result, "", False) if isinstance(result, str) else describe(result)


def pairs(kinds: tuple[str, ...], name: str) -> tuple[tuple[str, str], ...]:
    """Every (left, right) pair with at least one array operand."""
    everything = (*kinds, *SCALARS)
    out = [(a, b) for a, b in itertools.product(everything, everything) if a in kinds or b in kinds]
    if name in REAL_ONLY:
        out = [(a, b) for a, b in out if "complex" not in a + b]
    return tuple(out)


@functools.cache
def jax_table(name: str, kinds: tuple[str, ...], x64: bool) -> dict[tuple[str, str], Outcome]:
    """JAX's result type for ``op(a, b)`` for every pair, traced abstractly in
    one ``jax.eval_shape`` (no compilation)."""
    del x64  # part of the cache key only: JAX reads its flag at trace time
    fun = jax_op(name)
    table: dict[tuple[str, str], Outcome] = {}

    def trace(specs: dict[str, Any]) -> None:
        for a, b in pairs(kinds, name):
            try:
                result = fun(*(SCALARS[k] if k in SCALARS else specs[k] for k in (a, b)))
            except TypeError:
                table[a, b] = ERROR
            else:
                table[a, b] = ("ok", str(np.dtype(result.dtype)), bool(result.aval.weak_type))

    with jax_config.traceback_filtering("off"):
        jax.eval_shape(trace, {k: jax.ShapeDtypeStruct((3,), np_dtype(k)) for k in kinds})
    return table


def mismatches(name: str, kinds: tuple[str, ...], x64: bool) -> list[str]:
    """The pairs where we differ from JAX."""
    table = jax_table(name, kinds, x64)
    out: list[str] = []
    for a, b in pairs(kinds, name):
        got = our_outcome(name, a, b)
        if got != table[a, b]:
            out.append(f"{a} {name} {b}: ours {got}, JAX {table[a, b]}")
    return out


def expect_none(problems: list[str]) -> None:
    """Fail with a short report of the first few mismatches."""
    if problems:
        shown = "\n  ".join(problems[:8])
        pytest.fail(f"{len(problems)} mismatch(es) with JAX:\n  {shown}", pytrace=False)


# === tests: result types ===


@pytest.mark.parametrize("name", OP_NAMES)
def test_result_type_matches_jax(name: str) -> None:
    expect_none(mismatches(name, ARRAY_KINDS, x64=False))


X64_OPS = ("+", "/", "//", "**", "<", "&", "maximum")
X64_KINDS = ("bool", "int8", "uint8", "int32", "int64", "uint32", "float16", "float32", "float64", "complex128")


@pytest.mark.parametrize("name", X64_OPS)
def test_result_type_matches_jax_x64(x64: None, name: str) -> None:
    expect_none(mismatches(name, X64_KINDS, x64=True))


@pytest.mark.parametrize("name", TWINS)
def test_function_agrees_with_operator(name: str) -> None:
    """``jnp.add(a, b)`` is ``a + b`` for every pair of operand kinds (type,
    weak type and values); the operator is checked against JAX above."""
    twin = TWINS[name]
    for a, b in pairs(ARRAY_KINDS, twin):
        by_function = our_result(name, a, b)
        by_operator = our_result(twin, a, b)
        if isinstance(by_function, str) or isinstance(by_operator, str):
            assert by_function == by_operator, (name, a, b)
            continue
        assert describe(by_function) == describe(by_operator), (name, a, b)
        np.testing.assert_array_equal(widen(by_function), widen(by_operator))


def test_x64_scalars_default_to_64_bit(x64: None) -> None:
    x = jnp.asarray(np.arange(3, dtype=np.int64))
    assert (x + 1).dtype == np.int64 and (x + 1).weak_type is False
    assert (x * 1.0).dtype == np.float64
    assert jnp.asarray(1.0).dtype == np.float64 and jnp.asarray(1.0).weak_type
    assert (jnp.ones(3, jnp.float32) + 1.0).dtype == np.float32
    assert (jnp.ones(3, jnp.float32) + np.float64(1.0)).dtype == np.float64


# === NumPy operands (reflected operators, __array_priority__) ===

NUMPY_OPERANDS: dict[str, Any] = {
    "np.float64[3]": np.ones(3),
    "np.int64[3]": np.ones(3, dtype=np.int64),
    "np.uint8[3]": np.ones(3, dtype=np.uint8),
    "np.bool[3]": np.ones(3, dtype=bool),
    "np.float32()": np.float32(2.0),
    "np.int8()": np.int8(2),
    "np.float64()": np.float64(2.0),
}
NUMPY_OPS = ("+", "-", "*", "/", "**", "<", "==", "&")
NUMPY_PARTNERS = ("bool", "uint8", "int32", "float16", "float32")


def numpy_cases() -> list[Any]:
    return [
        pytest.param(np_kind, name, left, id=f"{'numpy-left' if left else 'numpy-right'}-{np_kind}-{name}")
        for left, np_kind, name in itertools.product((True, False), NUMPY_OPERANDS, NUMPY_OPS)
    ]


@pytest.mark.parametrize(("np_kind", "name", "left"), numpy_cases())
def test_numpy_operands(np_kind: str, name: str, left: bool) -> None:
    """``np_value op x`` and ``x op np_value`` give jaxtyped Arrays typed as
    JAX types them (NumPy values are strongly typed, 64-bit canonicalised),
    with NumPy's values."""
    fun = OPERATORS[name]
    value = NUMPY_OPERANDS[np_kind]

    def apply(other: Any) -> Any:
        return fun(value, other) if left else fun(other, value)

    for kind in NUMPY_PARTNERS:
        try:
            with jax_config.traceback_filtering("off"):
                expected = describe(jax.eval_shape(apply, jax.ShapeDtypeStruct((3,), np_dtype(kind))))
        except TypeError:
            with pytest.raises(TypeError):
                apply(jnp.asarray(host_value(kind)))
            continue
        result = apply(jnp.asarray(host_value(kind)))
        assert isinstance(result, jt.Array), f"{np_kind} {name} {kind} gave {type(result).__name__}"
        assert describe(result) == expected, f"{np_kind} {name} {kind}"
        # NumPy's values, computed in JAX's promoted operand dtype.
        promoted = np.dtype(jax.dtypes.result_type(value, jax.ShapeDtypeStruct((3,), np_dtype(kind))))
        with np.errstate(all="ignore"):
            mine, theirs = np.asarray(value).astype(promoted), host_value(kind).astype(promoted)
            reference = np.asarray(fun(mine, theirs) if left else fun(theirs, mine))
        np.testing.assert_allclose(widen(result), widen(reference), rtol=1e-3)


def test_ndarray_plus_array_is_array() -> None:
    result: object = np.ones(3) + jnp.arange(3.0)  # statically NumPy's operator answers
    assert isinstance(result, jt.Array)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(result), [1.0, 2.0, 3.0])
    assert isinstance(np.arange(3) * jnp.ones(3, jnp.int8), jt.Array)


def jax_types(fun: Callable[..., Any], *specs: Any) -> Any:
    """The dtype/weak-type description(s) of JAX's ``fun(*specs)``, traced
    abstractly."""
    with jax_config.traceback_filtering("off"):
        out = jax.eval_shape(fun, *specs)
    if isinstance(out, (tuple, list)):
        parts: list[Any] = list(out)  # pyright: ignore[reportUnknownArgumentType]  # eval_shape returns Any
        return [describe(o) for o in parts]
    return describe(out)


@pytest.mark.parametrize("scalar", [True, 2, 2.5, 1j], ids=repr)
def test_python_scalar_on_the_left_values(scalar: bool | int | float | complex) -> None:
    """``scalar op x`` goes through the reflected operators: JAX's types,
    NumPy's values."""
    host = np.array([1.0, 2.0, 4.0], dtype=np.float32)
    x = jnp.asarray(host)
    spec = jax.ShapeDtypeStruct((3,), np.dtype(np.float32))
    for name in ("+", "-", "*", "/", "//", "%", "**", "<", ">=", "==", "!="):
        fun = OPERATORS[name]
        if type(scalar) is complex and name in ("//", "%"):
            continue  # JAX has no complex floor division or remainder

        def reflected(y: Any) -> Any:
            return fun(scalar, y)  # noqa: B023 - called right away

        result = reflected(x)
        assert describe(result) == jax_types(reflected, spec), name
        np.testing.assert_allclose(widen(result), widen(fun(scalar, host.astype(np.float64))), rtol=1e-6)


def test_weak_array_operands() -> None:
    """Weakly typed arrays (``jnp.asarray(2.0)``) promote like Python scalars."""
    w = jnp.asarray(2.0)
    assert w.weak_type
    x = jnp.ones(3, jnp.float16)
    assert describe(x * w) == ("ok", "float16", False)
    assert describe(w * w) == ("ok", "float32", True)
    i = jnp.asarray(3)
    assert describe(i + w) == ("ok", "float32", True)
    assert describe(jnp.ones(2, jnp.int8) + i) == ("ok", "int8", False)
    assert describe(i * 2) == ("ok", "int32", True)


# === broadcasting ===

BROADCASTABLE: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
    ((3,), ()), ((), (2, 3)), ((2, 1), (3,)), ((2, 3), (3,)), ((1, 3), (2, 1)),
    ((4, 1, 3), (2, 1)), ((0,), (1,)), ((0, 3), (1, 3)), ((2, 0), (2, 1)), ((1,), (5, 1, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("shape_a", "shape_b"), BROADCASTABLE, ids=str)
@pytest.mark.parametrize("name", ["+", "*", "<", "maximum", "where"])
def test_broadcasting_like_numpy(shape_a: tuple[int, ...], shape_b: tuple[int, ...], name: str) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape_a).astype(np.float32)
    b = rng.standard_normal(shape_b).astype(np.float32)
    for left, right in ((a, b), (b, a)):
        if name == "where":
            result = jnp.where(jnp.asarray(left) > 0, jnp.asarray(left), jnp.asarray(right))
            expected = np.where(left > 0, left, right)
        elif name == "maximum":
            result = jnp.maximum(jnp.asarray(left), jnp.asarray(right))
            expected = np.maximum(left, right)
        else:
            result = OPERATORS[name](jnp.asarray(left), jnp.asarray(right))
            expected = OPERATORS[name](left, right)
        assert result.shape == np.shape(expected)
        np.testing.assert_array_equal(np.asarray(result), expected)


INCOMPATIBLE: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
    ((3,), (4,)), ((2, 3), (3, 2)), ((2,), (3, 1, 3)), ((0,), (2,)),
]


@pytest.mark.parametrize(("shape_a", "shape_b"), INCOMPATIBLE, ids=str)
def test_incompatible_shapes_raise(shape_a: tuple[int, ...], shape_b: tuple[int, ...]) -> None:
    x, y = jnp.zeros(shape_a), jnp.zeros(shape_b)
    # JAX raises a TypeError (a ValueError where ranks differ); ours is always
    # a ShapeMismatchError, which is a TypeError.
    with pytest.raises((TypeError, ValueError)):
        jax_types(operator.add, jax.ShapeDtypeStruct(shape_a, np.float32), jax.ShapeDtypeStruct(shape_b, np.float32))
    funs: tuple[Binary, ...] = (OPERATORS["+"], jnp.add, OPERATORS["<"], jnp.maximum, OPERATORS["/"])
    for fun in funs:
        with pytest.raises(ShapeMismatchError):
            fun(x, y)


def test_shape_mismatch_message_names_op_and_types() -> None:
    with pytest.raises(ShapeMismatchError, match=r"add") as info:
        _ = jnp.zeros(3) + jnp.zeros(4)
    assert "f32[3] vs f32[4]" in str(info.value)
    assert isinstance(info.value, TypeError)
    with pytest.raises(ShapeMismatchError) as info2:
        jnp.multiply(jnp.zeros((2, 3), jnp.int32), jnp.zeros((3, 2), jnp.int8))
    message = str(info2.value)
    assert "multiply" in message and "i32[2,3]" in message
    with pytest.raises(ShapeMismatchError, match=r"where"):
        jnp.where(jnp.zeros(3) > 0, jnp.zeros(4), 1.0)


# === jnp.result_type and jnp.promote_types ===

DTYPE_NAMES: tuple[str, ...] = (
    "bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "bfloat16",
    "float32", "complex64",
)  # fmt: skip


def test_promote_types_matches_jax() -> None:
    for a, b in itertools.product(DTYPE_NAMES, DTYPE_NAMES):
        expected = np.dtype(jax_numpy.promote_types(a, b))
        assert jnp.promote_types(a, b) == expected, (a, b)
        assert jnp.promote_types(np_dtype(a), np_dtype(b)) == expected, (a, b)


def test_promote_types_x64(x64: None) -> None:
    for a, b in itertools.product(("int64", "uint64", "float64", "int8", "uint32", "complex128", "bfloat16"), repeat=2):
        assert jnp.promote_types(a, b) == np.dtype(jax_numpy.promote_types(a, b)), (a, b)


def result_type_cases() -> list[tuple[str, tuple[Any, ...], tuple[Any, ...]]]:
    """(label, our args, JAX args) for jnp.result_type."""
    cases: list[tuple[str, tuple[Any, ...], tuple[Any, ...]]] = []
    for a, b in itertools.product(("bool", "int8", "uint8", "float16", "bfloat16", "float32"), SCALARS):
        ours_arg = jnp.asarray(host_value(a))
        jax_arg = jax_numpy.asarray(host_value(a))
        cases.append((f"{a}[3],{b}", (ours_arg, SCALARS[b]), (jax_arg, SCALARS[b])))
        cases.append((f"dtype {a},{b}", (np_dtype(a), SCALARS[b]), (np_dtype(a), SCALARS[b])))
    for name in SCALARS:
        cases.append((name, (SCALARS[name],), (SCALARS[name],)))
    cases += [
        ("str dtypes", ("int8", "uint8"), ("int8", "uint8")),
        ("scalar types", (jnp.float16, jnp.int32), (jax_numpy.float16, jax_numpy.int32)),
        ("python types", (int, float), (int, float)),
        ("numpy array", (np.ones(2), 1), (np.ones(2), 1)),
        ("numpy scalar", (np.int8(1), 1.0), (np.int8(1), 1.0)),
        ("weak array", (jnp.asarray(1.0), jnp.asarray(1)), (jax_numpy.asarray(1.0), jax_numpy.asarray(1))),
        ("three", (np.int8, np.uint8, 1.0), (np.int8, np.uint8, 1.0)),
    ]
    return cases


@pytest.mark.parametrize(("label", "args", "jax_args"), result_type_cases(), ids=[c[0] for c in result_type_cases()])
def test_result_type_function_matches_jax(label: str, args: tuple[Any, ...], jax_args: tuple[Any, ...]) -> None:
    assert jnp.result_type(*args) == np.dtype(jax_numpy.result_type(*jax_args)), label


def test_result_type_function_x64(x64: None) -> None:
    assert jnp.result_type(1) == np.dtype(jax_numpy.result_type(1)) == np.int64
    assert jnp.result_type(np.int64, 1.0) == np.dtype(jax_numpy.result_type(np.int64, 1.0))
    assert jnp.result_type(np.ones(2)) == np.float64


def test_result_type_errors() -> None:
    with pytest.raises(TypeError):
        jnp.result_type()


# === divmod (tuple result) ===


@pytest.mark.parametrize(
    "kind",
    [
        "int8", "int32", "float16", "float32", "py_int", "py_float",
    ],
)  # fmt: skip
def test_divmod_types(kind: str) -> None:
    host = np.array([7, -7, 3], dtype=np.int32)
    x = jnp.asarray(host)
    y = ours(kind)
    spec = jax.ShapeDtypeStruct((3,), np.dtype(np.int32))
    if kind in SCALARS:

        def by_scalar(a: Any) -> Any:
            return jax_numpy.divmod(a, SCALARS[kind])

        expected = jax_types(by_scalar, spec)
        y_host: Any = SCALARS[kind]
    else:
        y_spec = jax.ShapeDtypeStruct((3,), np_dtype(kind))
        expected = jax_types(jax_numpy.divmod, spec, y_spec)
        y_host = host_value(kind)
    for got in (divmod(x, y), jnp.divmod(x, y)):
        assert [describe(r) for r in got] == expected
        for ours_part, reference in zip(got, divmod(host.astype(np.float64), np.asarray(y_host, dtype=np.float64))):
            np.testing.assert_allclose(widen(ours_part), reference)


PRODUCTS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "matmul": lambda L, w, x: x @ w,
    "dot": lambda L, w, x: L.dot(x, w),
    "tensordot": lambda L, w, x: L.tensordot(x, w, 1),
    "inner": lambda L, w, x: L.inner(x, w.T),
    "vdot": lambda L, w, x: L.vdot(w, w),
    "outer": lambda L, w, x: L.outer(w, x),
    "einsum": lambda L, w, x: L.einsum("ij,jk->ik", x, w),
}


@pytest.mark.parametrize("name", list(PRODUCTS))
def test_products_of_a_weak_operand_and_their_gradients_as_jax(name: str) -> None:
    # A weakly typed parameter (jnp.full(shape, 0.5)) times a float32 array:
    # JAX's dot_general takes the weak operand as it is, so the gradient is
    # not weakly typed (an elementwise product's is: outer is one).
    results: list[tuple[bool, bool]] = []
    for L, grad in ((jnp, jt.grad), (jax.numpy, jax.grad)):
        w, x = L.full((3, 2), 0.5), L.arange(6.0, dtype=L.float32).reshape(2, 3)
        f = PRODUCTS[name]

        def loss(w: Any, L: Any = L, x: Any = x) -> Any:
            return f(L, w, x).sum()

        results.append((bool(f(L, w, x).weak_type), bool(grad(loss)(w).weak_type)))
    assert results[0] == results[1]
