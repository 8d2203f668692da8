"""Tests of jaxtyped's dtypes and type promotion, with real JAX as the oracle."""

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import numpy as np
import pytest

from jaxtyped._src import dtypes
from jaxtyped._src.config import config
from jaxtyped._src.errors import DebugTypeError, JaxtypedTypeError, JaxtypedValueError

jax: Any = pytest.importorskip("jax")
jnp: Any = pytest.importorskip("jax.numpy")
jax_dtypes: Any = pytest.importorskip("jax._src.dtypes")  # defaults, short names

BF16 = np.dtype(dtypes.bfloat16)
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
I32 = np.dtype(np.int32)
I64 = np.dtype(np.int64)
U8 = np.dtype(np.uint8)
U32 = np.dtype(np.uint32)
U64 = np.dtype(np.uint64)

ALL_DTYPES: tuple[np.dtype[Any], ...] = tuple(
    np.dtype(name)
    for name in (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    )
)  # fmt: skip
PYTHON_SCALARS: tuple[bool | int | float | complex, ...] = (True, 1, 1.0, 1j)


@pytest.fixture(params=[False, True], ids=["x32", "x64"])
def x64(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Set JAX's and jaxtyped's x64 flag to the parameter, then restore both."""
    enabled = bool(request.param)
    old_jax = bool(jax.config.jax_enable_x64)
    old_ours = config.jax_enable_x64
    jax.config.update("jax_enable_x64", enabled)
    config.update("jax_enable_x64", enabled)
    try:
        yield enabled
    finally:
        jax.config.update("jax_enable_x64", old_jax)
        config.update("jax_enable_x64", old_ours)


def canonical_dtypes() -> list[np.dtype[Any]]:
    """The dtypes JAX arrays can have under the current x64 setting."""
    return [d for d in ALL_DTYPES if jax.dtypes.canonicalize_dtype(d) == d]


Operand = tuple[str, Any, tuple[np.dtype[Any], bool]]


def oracle_operands() -> list[Operand]:
    """(label, JAX value, our operand) for every kind of operand: strong
    arrays, weakly typed arrays, and Python scalars."""
    lax_internal = pytest.importorskip("jax._src.lax.lax")
    operands: list[Operand] = []
    for d in canonical_dtypes():
        operands.append((f"{d}", jnp.zeros((), d), (d, False)))
        weak = lax_internal._convert_element_type(jnp.zeros((), d), d, weak_type=True)
        assert weak.aval.weak_type
        operands.append((f"weak {d}", weak, (d, True)))
    for x in PYTHON_SCALARS:
        our = (dtypes.python_scalar_dtype(x), not isinstance(x, bool))
        operands.append((repr(x), x, our))
    return operands


def jax_result(values: Sequence[Any]) -> tuple[np.dtype[Any], bool]:
    dt, weak = jax.dtypes.result_type(*values, return_weak_type_flag=True)
    return np.dtype(dt), bool(weak)


def mismatches(combos: Sequence[Sequence[Operand]]) -> list[str]:
    """Each combination on which result_dtype and JAX disagree, described."""
    bad: list[str] = []
    for combo in combos:
        expected = jax_result([value for _, value, _ in combo])
        actual = dtypes.result_dtype(*(ours for _, _, ours in combo))
        if actual != expected:
            labels = ", ".join(label for label, _, _ in combo)
            bad.append(f"({labels}): ours {actual}, JAX {expected}")
    return bad


# --- result_dtype -------------------------------------------------------------


def test_result_dtype_single_operands_match_jax(x64: bool) -> None:
    assert mismatches([[op] for op in oracle_operands()]) == []


def test_result_dtype_all_pairs_match_jax(x64: bool) -> None:
    operands = oracle_operands()
    bad = mismatches(list(itertools.product(operands, repeat=2)))
    assert bad == [], "\n".join(bad[:30])


def test_result_dtype_sampled_triples_match_jax(x64: bool) -> None:
    operands = oracle_operands()
    rng = random.Random(0)
    triples = [[rng.choice(operands) for _ in range(3)] for _ in range(1500)]
    bad = mismatches(triples)
    assert bad == [], "\n".join(bad[:30])


def test_result_dtype_examples(x64: bool) -> None:
    weak_int = (dtypes.default_int_dtype(), True)
    weak_float = (dtypes.default_float_dtype(), True)
    assert dtypes.result_dtype((U8, False), weak_int) == (U8, False)
    assert dtypes.result_dtype(weak_int, weak_float) == (dtypes.default_float_dtype(), True)
    assert dtypes.result_dtype((BF16, False), (np.dtype(np.float16), False)) == (F32, False)
    assert dtypes.result_dtype((np.dtype(bool), True), (np.dtype(bool), True)) == (
        np.dtype(bool),
        False,
    )


def test_result_dtype_uint64_with_int64_is_weak_float(x64: bool) -> None:
    # JAX's lattice joins uint64 and int64 at the weak float node f*; without
    # x64 the operands canonicalize first, to uint32 and int32.
    expected = (F64, True) if x64 else (I32, False)
    assert dtypes.result_dtype((U64, False), (I64, False)) == expected
    if x64:
        assert jax_result([jnp.zeros((), U64), jnp.zeros((), I64)]) == expected


def test_result_dtype_canonicalizes_64_bit_operands_without_x64(x64: bool) -> None:
    for a, b in itertools.product(ALL_DTYPES, repeat=2):
        for weak_a, weak_b in itertools.product((False, True), repeat=2):
            expected = dtypes.result_dtype(
                (dtypes.canonicalize_dtype(a), weak_a), (dtypes.canonicalize_dtype(b), weak_b)
            )
            assert dtypes.result_dtype((a, weak_a), (b, weak_b)) == expected
            assert dtypes.canonicalize_dtype(expected[0]) == expected[0]


def test_result_dtype_reads_x64_at_call_time(x64: bool) -> None:
    assert dtypes.result_dtype((F64, False)) == ((F64 if x64 else F32), False)
    config.update("jax_enable_x64", not x64)
    assert dtypes.result_dtype((F64, False)) == ((F32 if x64 else F64), False)
    assert dtypes.result_dtype((I32, True)) == (dtypes.default_int_dtype(), True)


def test_result_dtype_float0() -> None:
    float0_op = (dtypes.float0, False)
    assert dtypes.result_dtype(float0_op, float0_op) == float0_op
    with pytest.raises(JaxtypedTypeError, match="dtype float0 does not take part"):
        dtypes.result_dtype(float0_op, (F32, False))


def test_result_dtype_errors() -> None:
    with pytest.raises(JaxtypedValueError, match="at least one operand"):
        dtypes.result_dtype()
    with pytest.raises(JaxtypedTypeError, match="object"):
        dtypes.result_dtype((np.dtype(object), False), (F32, False))
    with pytest.raises(JaxtypedTypeError, match="not supported"):
        dtypes.result_dtype((np.dtype(">f4"), False))
    raises_type_error(lambda: dtypes.result_dtype(cast(Any, (F32,))), "(dtype, is_weak) pair")
    raises_type_error(lambda: dtypes.result_dtype(cast(Any, ["f4", False])), "pair")


def raises_type_error(call: Callable[[], object], message: str) -> None:
    """``call`` raises JaxtypedTypeError naming ``message``, or, when the
    package runs under beartype (JAXTYPED_DEBUG=1), the DebugTypeError that
    rejects the mistyped argument first."""
    with pytest.raises(JaxtypedTypeError) as info:
        call()
    if isinstance(info.value, DebugTypeError):
        return
    assert message in str(info.value)


# --- promote_types ------------------------------------------------------------

PROMOTE_ARGS: tuple[Any, ...] = (*ALL_DTYPES, int, float, complex, bool)


def test_promote_types_all_pairs_match_jax(x64: bool) -> None:
    bad: list[str] = []
    for a, b in itertools.product(PROMOTE_ARGS, repeat=2):
        expected = np.dtype(jnp.promote_types(a, b))
        actual = dtypes.promote_types(a, b)
        if actual != expected:
            bad.append(f"promote_types({a}, {b}): ours {actual}, JAX {expected}")
    assert bad == [], "\n".join(bad[:30])


def test_promote_types_spellings(x64: bool) -> None:
    assert dtypes.promote_types("int32", "float32") == F32
    assert dtypes.promote_types(np.uint8, int) == U8
    assert dtypes.promote_types(int, float) == F64
    assert dtypes.promote_types("uint32", "int32") == (I64 if x64 else I32)
    assert dtypes.promote_types(jnp.zeros(2, np.int8), dtypes.bfloat16) == BF16


def test_promote_types_rejects_unpromotable() -> None:
    with pytest.raises(JaxtypedTypeError, match="float0 does not take part"):
        dtypes.promote_types(dtypes.float0, F32)
    with pytest.raises(JaxtypedTypeError, match="<U3 is not supported"):
        dtypes.promote_types("U3", F32)


# --- dtype, canonicalize_dtype, check_supported -----------------------------


class HasDType:
    """A stand-in for an array: only a ``.dtype`` attribute."""

    def __init__(self, d: np.dtype[Any]) -> None:
        self.dtype = d


class ScalarClass:
    """A jnp-style scalar class: the class itself carries the dtype."""

    dtype = np.dtype(np.int16)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("float32", F32),
        ("f4", F32),
        ("float64", F64),
        (np.float32, F32),
        (np.dtype(np.uint8), U8),
        (np.bool_, np.dtype(bool)),
        (dtypes.bfloat16, BF16),
        ("bfloat16", BF16),
        (np.complex128, np.dtype(np.complex128)),
        (dtypes.float0, dtypes.float0),
        (np.zeros(3, np.int8), np.dtype(np.int8)),
        (HasDType(BF16), BF16),
        (ScalarClass, np.dtype(np.int16)),
    ],
)
def test_dtype_accepts_specifiers(spec: dtypes.DTypeLike, expected: np.dtype[Any]) -> None:
    assert dtypes.dtype(spec) == expected


def test_dtype_accepts_jax_values() -> None:
    assert dtypes.dtype(jnp.float32) == F32
    assert dtypes.dtype(jnp.bfloat16) == BF16
    assert dtypes.dtype(jnp.zeros(2, jnp.int8)) == np.dtype(np.int8)


def test_dtype_of_python_types_is_the_canonical_default(x64: bool) -> None:
    assert dtypes.dtype(int) == (I64 if x64 else I32)
    assert dtypes.dtype(float) == (F64 if x64 else F32)
    assert dtypes.dtype(complex) == np.dtype(np.complex128 if x64 else np.complex64)
    assert dtypes.dtype(bool) == np.dtype(bool)
    assert dtypes.dtype("int64") == I64  # strings are taken as written


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("floot32", "cannot interpret 'floot32' as a dtype"),
        (object, "dtype object"),
        ("U5", "dtype <U5 is not supported"),
        (str, "is not supported"),
        ("datetime64[ns]", "datetime64[ns] is not supported"),
        ("V4", "V4 is not supported"),
        (np.floating, "cannot interpret <class 'numpy.floating'> as a dtype"),
        (np.dtype(">f4"), "byte order"),
        (HasDType(np.dtype(object)), "dtype object is not supported"),
    ],
)
def test_dtype_rejects_bad_specifiers(spec: dtypes.DTypeLike, message: str) -> None:
    with pytest.raises(JaxtypedTypeError) as info:
        dtypes.dtype(spec)
    assert message in str(info.value)


def test_narrow_ml_dtypes_are_accepted() -> None:
    # math/statistics family: ml_dtypes' narrow types (int4, float8_*) are
    # array dtypes, outside supported_dtypes() (see dtypes._NARROW_SUPPORTED).
    for name in ("int4", "uint4", "float8_e4m3fn", "float8_e5m2"):
        assert dtypes.dtype(name) == np.dtype(name)
        assert dtypes.canonicalize_dtype(name) == np.dtype(name)
        assert np.dtype(name) not in dtypes.supported_dtypes()


@pytest.mark.parametrize("value", [3, 1.5, None, [("a", "f4")]])
def test_dtype_rejects_non_specifiers(value: object) -> None:
    raises_type_error(lambda: dtypes.dtype(cast(Any, value)), "cannot interpret")


def test_canonicalize_dtype_matches_jax(x64: bool) -> None:
    for d in (*ALL_DTYPES, dtypes.float0):
        assert dtypes.canonicalize_dtype(d) == jax.dtypes.canonicalize_dtype(d)
    assert dtypes.canonicalize_dtype("float64") == (F64 if x64 else F32)
    assert dtypes.canonicalize_dtype(int) == dtypes.default_int_dtype()


def test_check_supported() -> None:
    for d in (*ALL_DTYPES, dtypes.float0):
        dtypes.check_supported(d, "test")
    with pytest.raises(JaxtypedTypeError, match=r"^asarray\(x\): dtype object"):
        dtypes.check_supported(np.dtype(object), "asarray(x)")


def test_supported_dtypes(x64: bool) -> None:
    assert dtypes.supported_dtypes() == ALL_DTYPES
    canonical = dtypes.supported_dtypes(canonical_only=True)
    assert list(canonical) == canonical_dtypes()
    assert len(canonical) == (15 if x64 else 11)


# --- defaults and Python scalars -----------------------------------------------


def test_default_dtypes_match_jax(x64: bool) -> None:
    assert dtypes.default_int_dtype() == jax_dtypes.default_int_dtype()
    assert dtypes.default_uint_dtype() == jax_dtypes.default_uint_dtype()
    assert dtypes.default_float_dtype() == jax_dtypes.default_float_dtype()
    assert dtypes.default_complex_dtype() == jax_dtypes.default_complex_dtype()


def test_python_scalar_dtype_matches_jax(x64: bool) -> None:
    for x in PYTHON_SCALARS:
        assert dtypes.python_scalar_dtype(x) == jnp.asarray(x).dtype


def test_python_scalar_dtype_rejects_numpy_scalars() -> None:
    with pytest.raises(JaxtypedTypeError, match="NumPy scalar"):
        dtypes.python_scalar_dtype(np.float64(1.0))


# --- kinds, issubdtype, finfo/iinfo, names ----------------------------------------

ABSTRACT_TYPES: tuple[type[np.generic], ...] = (
    np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger,
    np.inexact, np.floating, np.complexfloating, np.bool_, np.void,
)  # fmt: skip

PREDICATES: tuple[tuple[Callable[[np.dtype[Any]], bool], type[np.generic]], ...] = (
    (dtypes.is_bool, np.bool_),
    (dtypes.is_integer, np.integer),
    (dtypes.is_signed_integer, np.signedinteger),
    (dtypes.is_unsigned_integer, np.unsignedinteger),
    (dtypes.is_floating, np.floating),
    (dtypes.is_complex, np.complexfloating),
    (dtypes.is_inexact, np.inexact),
)


def test_issubdtype_table_matches_jax() -> None:
    firsts: tuple[Any, ...] = (
        *ALL_DTYPES, dtypes.float0, int, float, complex, bool, dtypes.bfloat16,
        "int4", "uint4", "float8_e4m3fn", "float32",
    )  # fmt: skip
    seconds: tuple[Any, ...] = (*ABSTRACT_TYPES, *ALL_DTYPES, int, float, complex, bool)
    bad = [
        f"issubdtype({a}, {b})"
        for a, b in itertools.product(firsts, seconds)
        if dtypes.issubdtype(a, b) != bool(jnp.issubdtype(a, b))
    ]
    assert bad == []
    assert dtypes.issubdtype(dtypes.bfloat16, np.floating)


def test_kind_predicates_match_issubdtype() -> None:
    for d in (*ALL_DTYPES, dtypes.float0, np.dtype("int4"), np.dtype("float8_e4m3fn")):
        for predicate, abstract in PREDICATES:
            assert predicate(d) == bool(jnp.issubdtype(d, abstract)), (predicate, d)
        assert dtypes.is_float0(d) == (d is dtypes.float0)


def test_finfo_and_iinfo_match_jax() -> None:
    for d in ALL_DTYPES:
        if dtypes.is_inexact(d):
            ours, theirs = dtypes.finfo(d), jnp.finfo(d)
            assert (ours.bits, ours.eps, ours.max) == (theirs.bits, theirs.eps, theirs.max)
        elif dtypes.is_integer(d):
            ours_i, theirs_i = dtypes.iinfo(d), jnp.iinfo(d)
            assert (ours_i.bits, ours_i.min, ours_i.max) == (theirs_i.bits, theirs_i.min, theirs_i.max)
    assert dtypes.finfo(dtypes.bfloat16).eps == 2.0**-7
    with pytest.raises(JaxtypedValueError, match="int32 is not a floating"):
        dtypes.finfo("int32")
    with pytest.raises(JaxtypedValueError, match="float32 is not an integer"):
        dtypes.iinfo(np.float32)


def test_short_dtype_names() -> None:
    names = [dtypes.short_dtype_name(d) for d in (*ALL_DTYPES, dtypes.float0)]
    assert names == [
        "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
        "f16", "bf16", "f32", "f64", "c64", "c128", "float0",
    ]  # fmt: skip
    for d in (*ALL_DTYPES, dtypes.float0, np.dtype("int4")):
        expected = jax_dtypes.short_dtype_name(d).replace("void", "float0")
        assert dtypes.short_dtype_name(d) == expected
