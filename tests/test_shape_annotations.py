"""Shape-and-dtype annotations (``Float[Array, "batch n"]``): parsing,
``isinstance``, checking a whole call (named dimensions consistent across the
arguments and the result), ``jit``'s trace-time check (once per trace,
nothing in the compiled program) and ``typechecked`` (debug mode only)."""

import functools
import re
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.core.shape_annotations import FixedDim, NamedDim, VariadicDims, checker_for, parse_dims
from jaxtyped.errors import AnnotationMismatchError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped.typing import (
    Array,
    ArrayLike,
    BFloat16,
    Bool,
    Complex,
    Float,
    Float32,
    Float64,
    Inexact,
    Int,
    Int32,
    Integer,
    Num,
    Shaped,
    UInt,
    UInt8,
    typechecked,
)

# === parsing ===


def subscript(kind: object, base: object, text: object) -> object:
    """``kind[base, text]`` built at run time (as the annotation's class)."""
    return cast(Any, kind)[base, text]


def test_parse_every_kind_of_dimension() -> None:
    assert parse_dims("batch 3 _ *rest", "t") == (NamedDim("batch"), FixedDim(3), NamedDim(None), VariadicDims("rest"))
    assert parse_dims("... n", "t") == (VariadicDims(None), NamedDim("n"))
    assert parse_dims("", "t") == ()


@pytest.mark.parametrize("text", ["n!", "3n", "*", "n-1"])
def test_parse_rejects_bad_tokens(text: str) -> None:
    with pytest.raises(JaxtypedValueError, match=re.escape(repr(text.split()[-1]))):
        parse_dims(text, "Float[Array, ...]")


def test_parse_rejects_two_variadics() -> None:
    with pytest.raises(JaxtypedValueError, match="at most one"):
        parse_dims("*a n ...", "Float[Array, '*a n ...']")


def test_bad_annotation_arguments_are_typed_errors() -> None:
    with pytest.raises(JaxtypedTypeError, match="first argument must be Array or ArrayLike"):
        subscript(Float, int, "n")
    with pytest.raises(JaxtypedTypeError, match="shape must be a string"):
        subscript(Float, Array, 3)
    with pytest.raises(JaxtypedTypeError, match="takes two arguments"):
        cast(Any, Float)[Array]
    with pytest.raises(JaxtypedValueError, match="dimension 'n!'"):
        subscript(Float, Array, "n!")


def test_same_annotation_is_the_same_class() -> None:
    assert Float[Array, "b n"] is Float[Array, "b n"]
    assert Float[Array, "b n"] is not Int[Array, "b n"]
    assert cast(type, Float[Array, "b n"]).__name__ == "Float[Array, 'b n']"


# === isinstance: dtype kinds, ranks, fixed sizes ===


def is_instance(value: object, annotation: object) -> bool:
    """isinstance with an annotation, which is a class only at run time."""
    return isinstance(value, cast(type, annotation))


DTYPE_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
FLOATS = {"float16", "bfloat16", "float32", "float64"}
COMPLEX = {"complex64", "complex128"}
SIGNED = {"int8", "int16", "int32", "int64"}
UNSIGNED = {"uint8", "uint16", "uint32", "uint64"}
KINDS: dict[str, tuple[object, set[str]]] = {
    "Shaped": (Shaped, set(DTYPE_NAMES)),
    "Bool": (Bool, {"bool"}),
    "Num": (Num, set(DTYPE_NAMES) - {"bool"}),
    "Inexact": (Inexact, FLOATS | COMPLEX),
    "Float": (Float, FLOATS),
    "Complex": (Complex, COMPLEX),
    "Integer": (Integer, SIGNED | UNSIGNED),
    "Int": (Int, SIGNED),
    "UInt": (UInt, UNSIGNED),
    "Float32": (Float32, {"float32"}),
    "Float64": (Float64, {"float64"}),
    "BFloat16": (BFloat16, {"bfloat16"}),
    "Int32": (Int32, {"int32"}),
    "UInt8": (UInt8, {"uint8"}),
}


@pytest.mark.usefixtures("x64")
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_dtype_kinds_accept_exactly_their_dtypes(kind: str) -> None:
    annotation, expected = KINDS[kind]
    cls = subscript(annotation, Array, "n")
    accepted = {name for name in DTYPE_NAMES if is_instance(jnp.zeros((2,), name), cls)}
    assert accepted == expected


def test_isinstance_checks_rank_fixed_sizes_and_repeated_names() -> None:
    x = jnp.ones((2, 3))
    assert is_instance(x, Float[Array, "a b"])
    assert is_instance(x, Float[Array, "2 _"])
    assert is_instance(x, Float[Array, "..."])
    assert is_instance(x, Float[Array, "*batch 3"])
    assert not is_instance(x, Float[Array, "n"])
    assert not is_instance(x, Float[Array, "3 _"])
    assert not is_instance(x, Float[Array, "n n"])
    assert is_instance(jnp.ones((3, 3)), Float[Array, "n n"])
    assert not is_instance(np.ones(3, np.float32), Float[Array, "n"])
    assert is_instance(np.ones(3, np.float32), Float[ArrayLike, "n"])
    assert is_instance(2.0, Float[ArrayLike, ""])
    assert not is_instance(2, Float[ArrayLike, ""])
    assert not is_instance("2.0", Float[ArrayLike, ""])


# === checking a call under jit ===


def matvec(a: Float[Array, "m n"], x: Float[Array, "n"]) -> Float[Array, "m"]:
    return a @ x


def mismatch(call: Callable[[], object]) -> str:
    with pytest.raises(AnnotationMismatchError) as info:
        call()
    return str(info.value)


def test_jit_checks_named_dimensions_across_arguments() -> None:
    f = jt.jit(matvec)
    np.testing.assert_allclose(np.asarray(f(jnp.ones((2, 3)), jnp.ones(3))), [3.0, 3.0])
    message = mismatch(lambda: f(jnp.ones((2, 3)), jnp.ones(4)))
    assert message.startswith("matvec at ")
    assert "argument 'x' has type f32[4]" in message
    assert "Float[Array, 'n']" in message
    assert "dimension n is 4 here but 3 in argument 'a' (f32[2,3])" in message


def test_jit_reports_dtype_and_rank() -> None:
    f = jt.jit(matvec)
    message = mismatch(lambda: f(jnp.ones((2, 3), jnp.int32), jnp.ones(3)))
    assert "argument 'a' has type i32[2,3]" in message and "dtype int32 is not a floating dtype" in message
    message = mismatch(lambda: f(jnp.ones(3), jnp.ones(3)))
    assert "the annotation has 2 dimension(s), the value 1" in message


def test_jit_checks_the_result_with_the_arguments_sizes() -> None:
    def transpose_wrong(a: Float[Array, "m n"]) -> Float[Array, "m n"]:
        return a.T

    message = mismatch(lambda: jt.jit(transpose_wrong)(jnp.ones((2, 3))))
    assert "the result has type f32[3,2]" in message
    assert "dimension m is 3 here but 2 in argument 'a' (f32[2,3])" in message
    square = jt.jit(transpose_wrong)(jnp.ones((2, 2)))
    assert square.shape == (2, 2)


def test_jit_checks_once_per_trace_and_compiles_nothing_extra() -> None:
    calls: list[int] = []

    def body(a: Float[Array, "m n"], x: Float[Array, "n"]) -> Float[Array, "m"]:
        calls.append(1)
        return a @ x

    def plain(a: Array, x: Array) -> Array:
        return a @ x

    f = jt.jit(body)
    a, x = jnp.ones((2, 3)), jnp.ones(3)
    for _ in range(3):
        f(a, x)
    assert len(calls) == 1 and f.cache_info().hits == 2
    # The check leaves no trace in the program: same jaxpr text as without annotations.
    assert str(jt.make_jaxpr(jt.jit(body))(a, x)) == str(jt.make_jaxpr(jt.jit(plain))(a, x)).replace("plain", "body")


def test_variadic_named_dimensions_must_agree() -> None:
    def add(x: Float[Array, "*batch n"], y: Float[Array, "*batch n"]) -> Float[Array, "*batch n"]:
        return x + y

    f = jt.jit(add)
    assert f(jnp.ones((4, 5, 2)), jnp.ones((4, 5, 2))).shape == (4, 5, 2)
    message = mismatch(lambda: f(jnp.ones((4, 5, 2)), jnp.ones((5, 2))))
    assert "dimensions batch is 5 here but 4x5 in argument 'x' (f32[4,5,2])" in message


def test_pytrees_optional_and_static_arguments() -> None:
    def model(params: dict[str, Float[Array, "n"]], xs: tuple[Float[Array, "b n"], ...], scale: int,
              bias: Float[Array, "n"] | None = None) -> Float[Array, "b"]:
        out = sum((x @ params["w"] for x in xs), start=jnp.zeros(xs[0].shape[0]))
        return out * scale if bias is None else out * scale + bias.sum()

    f = jt.jit(model, static_argnums=2)
    params = {"w": jnp.ones(3)}
    assert f(params, (jnp.ones((2, 3)),), 2).shape == (2,)
    assert f(params, (jnp.ones((2, 3)),), 2, jnp.ones(3)).shape == (2,)
    message = mismatch(lambda: f(params, (jnp.ones((2, 3)), jnp.ones((2, 4))), 2))
    assert "argument 'xs'[1] has type f32[2,4]" in message and "dimension n is 4 here but 3" in message
    message = mismatch(lambda: f({"w": jnp.ones(4)}, (jnp.ones((2, 3)),), 2))
    assert "argument 'params'['w'] has type f32[4]" not in message  # params is checked first: it binds n=4
    assert "argument 'xs'[0] has type f32[2,3]" in message
    message = mismatch(lambda: f(params, (jnp.ones((2, 3)),), 2, jnp.ones(2)))
    assert "argument 'bias' has type f32[2]" in message


def test_methods_and_keyword_arguments() -> None:
    class Layer:
        @functools.partial(jt.jit, static_argnums=0)
        def apply(self, x: Float[Array, "b n"], *, w: Float[Array, "n k"]) -> Float[Array, "b k"]:
            return x @ w

    layer = Layer()
    assert layer.apply(jnp.ones((2, 3)), w=jnp.ones((3, 4))).shape == (2, 4)
    message = mismatch(lambda: layer.apply(jnp.ones((2, 3)), w=jnp.ones((2, 4))))
    assert "argument 'w' has type f32[2,4]" in message


def test_functions_without_shape_annotations_have_no_checker() -> None:
    def plain(x: Array) -> Array:
        return x

    def unresolvable(x: Array) -> Array:
        return x

    unresolvable.__annotations__["x"] = "NotAName"  # a user annotation we cannot resolve

    assert checker_for(plain) is None
    assert checker_for(lambda x: x) is None  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    assert checker_for(unresolvable) is None
    assert checker_for(matvec) is not None
    assert jt.jit(unresolvable)(jnp.ones(2)).shape == (2,)


def test_checked_under_vmap_and_grad_inside_jit() -> None:
    def loss(w: Float[Array, "n"], x: Float[Array, "n"]) -> Float[Array, ""]:
        return jnp.sum(jnp.sin(w * x))

    # The jitted loss sees per-example JVP tracers of batch tracers.
    per_example = jt.jit(jt.vmap(jt.grad(jt.jit(loss)), in_axes=(None, 0)))
    out = per_example(jnp.ones(3), jnp.ones((5, 3)))
    np.testing.assert_allclose(np.asarray(out), np.cos(np.ones((5, 3))), rtol=1e-6)
    message = mismatch(lambda: jt.grad(jt.jit(loss))(jnp.ones(3), jnp.ones(2)))
    assert "argument 'x' has type f32[2]" in message


# === typechecked: every call in debug mode, the identity otherwise ===


def test_typechecked_is_the_identity_without_debug_mode() -> None:
    if jt.DEBUG:
        pytest.skip("debug mode wraps")
    assert typechecked(matvec) is matvec


def test_typechecked_checks_every_eager_call_in_debug_mode() -> None:
    if not jt.DEBUG:
        pytest.skip("typechecked checks only in debug mode")
    checked = typechecked(matvec)
    assert checked is not matvec and checked.__wrapped__ is matvec  # type: ignore[attr-defined]  # set by functools.wraps  # pyright: ignore[reportFunctionMemberAccess]
    np.testing.assert_allclose(np.asarray(checked(jnp.ones((2, 3)), jnp.ones(3))), [3.0, 3.0])
    message = mismatch(lambda: checked(jnp.ones((2, 3)), jnp.ones(4)))
    assert "argument 'x' has type f32[4]" in message
    message = mismatch(lambda: checked("abc", jnp.ones(3)))  # type: ignore[arg-type]  # the misuse under test  # pyright: ignore[reportArgumentType]
    assert "argument 'a' has type str" in message and "expected an Array" in message

    def untyped_result(x: Float[Array, "n"], k: int) -> Float[Array, "n"]:
        return jnp.ones(k)

    bad_result = typechecked(untyped_result)
    message = mismatch(lambda: bad_result(jnp.ones(2), 3))
    assert "the result has type f32[3]" in message
    # beartype still checks the other parameters' types.
    with pytest.raises(jt.errors.DebugTypeError, match="k"):
        bad_result(jnp.ones(2), "3")  # type: ignore[arg-type]  # the misuse under test  # pyright: ignore[reportArgumentType]
    # A typechecked function under jit is checked once, by the wrapper.
    assert checker_for(checked) is None
    assert jt.jit(checked)(jnp.ones((2, 3)), jnp.ones(3)).shape == (2,)
