"""``lax.composite`` against JAX's: values eagerly and under ``jit``, the
printed jaxpr, the lowered ``stablehlo.composite`` op (its line compared
with JAX's for every kind of attribute) and its decomposition function,
nested composites, pytrees, and the errors.

JAX has no jvp, transpose or batching rule for a composite (it raises);
jaxtyped differentiates, transposes and batches the decomposition (Note [a
composite survives only on its own operands]), so those are compared with
JAX's transformations of the decomposition itself and with float64 finite
differences, and the tests check that JAX still raises.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownVariableType=false, reportUnknownMemberType=false
# (programs written once for both libraries take the library as an untyped parameter)

import inspect
import re
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from oracle import assert_same, debug_violations, jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, lax
from jaxtyped.test_util import check_grads

X = np.array([0.1, -0.7, 1.2], np.float32)
Program = Callable[[Any, Any], Any]  # program(lib, x) for lib in (jaxtyped, jax)


def _tangent(lib: Any, x: Any) -> Any:
    return lib.lax.composite(lambda v: lib.lax.sin(v) / lib.lax.cos(v), "my.tangent")(x)


def _two_outputs(lib: Any, x: Any) -> Any:
    def decomposition(v: Any, n: Any) -> Any:
        return v * n, n * 2

    return lib.lax.composite(decomposition, "my.two", version=2)(x, np.arange(3, dtype=np.int32))


def _pytrees(lib: Any, x: Any) -> Any:
    def decomposition(tree: Any) -> Any:
        return {"prod": tree["a"] * tree["b"][0], "sum": (tree["a"] + tree["b"][1],)}

    return lib.lax.composite(decomposition, "my.tree")({"a": x, "b": (x * 2, 1.5)})


def _closes_over_numpy(lib: Any, x: Any) -> Any:
    weights = np.array([1.0, 2.0, 3.0], np.float32)
    return lib.lax.composite(lambda v: v * weights, "my.scale")(x)


def _nested(lib: Any, x: Any) -> Any:
    inner = lib.lax.composite(lambda v: lib.numpy.tanh(v) * 2, "my.inner")
    return lib.lax.composite(lambda v: inner(v) + lib.numpy.exp(v), "my.outer")(x)


def _attributes(lib: Any, x: Any) -> Any:
    def decomposition(v: Any, *, scale: float, name: str, table: Any, flag: bool, axis: int, skip: None) -> Any:
        return v * scale if flag else v

    return lib.lax.composite(decomposition, "my.attrs", version=3)(
        x, scale=2.5, name="s", table=np.arange(3, dtype=np.int32), flag=True, axis=-1, skip=None
    )


def _weak_scalar(lib: Any, x: Any) -> Any:
    return lib.lax.composite(lambda v: v * 2, "my.double")(2.0)


PROGRAMS: dict[str, Program] = {
    "tangent": _tangent,
    "two_outputs": _two_outputs,
    "pytrees": _pytrees,
    "closes_over_numpy": _closes_over_numpy,
    "nested": _nested,
    "attributes": _attributes,
    "weak_scalar": _weak_scalar,
}


# === values ===


@pytest.mark.parametrize("program", PROGRAMS.values(), ids=PROGRAMS.keys())
def test_values_eager_and_jit_equal_jax(program: Program) -> None:
    theirs = program(jax, jax.numpy.asarray(X))
    eager = program(jt, jnp.asarray(X))
    jitted = jt.jit(lambda x: program(jt, x))(jnp.asarray(X))
    assert_same(eager, theirs, rtol=1e-6, tree=True)
    assert_same(jitted, theirs, rtol=1e-6, tree=True)


def test_eager_values_are_the_decompositions() -> None:
    """Eagerly the decomposition runs op by op: bit for bit its own values."""
    decomposition: Callable[[jt.Array], jt.Array] = lambda v: jnp.sin(v) / jnp.cos(v)  # noqa: E731
    got = lax.composite(decomposition, "my.tangent")(jnp.asarray(X))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(decomposition(jnp.asarray(X))))


def test_the_wrapper_keeps_the_decompositions_name_and_docstring() -> None:
    def my_op(x: jt.Array) -> jt.Array:
        """Doubles."""
        return x * 2

    ours, theirs = lax.composite(my_op, "my.op"), jax.lax.composite(my_op, "my.op")
    assert (ours.__name__, ours.__doc__) == (theirs.__name__, theirs.__doc__) == ("my_op", "Doubles.")
    assert inspect.unwrap(ours) is my_op


# === the staged equation ===


@pytest.mark.parametrize(
    "program",
    [_tangent, _two_outputs, _pytrees, _closes_over_numpy, _nested, _attributes],
    ids=["tangent", "two_outputs", "pytrees", "closes_over_numpy", "nested", "attributes"],
)
def test_printed_jaxpr_equals_jax(program: Program) -> None:
    ours = jt.make_jaxpr(lambda x: program(jt, x))(jnp.asarray(X))
    theirs = jax.make_jaxpr(lambda x: program(jax, x))(X)
    assert str(ours) == str(theirs)


def test_equation_params_have_jaxs_names() -> None:
    jaxpr = jt.make_jaxpr(lambda x: _attributes(jt, x))(jnp.asarray(X))
    (eqn,) = jaxpr.eqns
    params = eqn.params
    assert sorted(params) == ["attributes", "jaxpr", "name", "version"]
    assert (params["name"], params["version"]) == ("my.attrs", 3)


# === lowering ===


def _composite_lines(text: str) -> list[str]:
    """The ``stablehlo.composite`` lines, SSA value names normalised."""
    lines = [line.strip() for line in text.splitlines() if "stablehlo.composite" in line]
    return [re.sub(r"%[\w#]+", "%v", line) for line in lines]


@pytest.mark.parametrize("program", PROGRAMS.values(), ids=PROGRAMS.keys())
def test_composite_op_line_equals_jax(program: Program) -> None:
    ours = jt.jit(lambda x: program(jt, x)).lower(jnp.asarray(X)).as_text()
    theirs = jax.jit(lambda x: program(jax, x)).lower(X).as_text()
    assert _composite_lines(ours) == _composite_lines(theirs) != []


ATTRIBUTES: dict[str, object] = {
    "int": -5,
    "int64_min": np.int64(-(2**63)),
    "float": 2.5,
    "nan": float("nan"),
    "minus_zero": -0.0,
    "true": True,
    "str": 'a"b\\c\nd é',
    "bytes": b"xy",
    "f32": np.float32(1.5),
    "f16": np.float16(-0.25),
    "bf16": ml_dtypes.bfloat16(2.5),
    "i8": np.int8(-3),
    "u32": np.uint32(7),
    "np_bool": np.bool_(False),
    "array": np.arange(6, dtype=np.float32).reshape(2, 3),
    "array_0d": np.array(3.0),
    "array_bool": np.array([True, False]),
    "array_u8": np.array([255], np.uint8),
    "array_int4": np.array([1, -2], ml_dtypes.int4),
    "array_f8": np.array([1.5, -2.0], ml_dtypes.float8_e4m3fn),
    "array_complex": np.array([1 + 2j, 3j], np.complex64),
    "array_nan": np.array([np.nan, 1.0]),
    "array_splat": np.ones((2, 2), np.float32),
    "array_empty": np.zeros((0,)),
    "dtype": np.dtype(np.float32),
    "dtype_bf16": np.dtype(ml_dtypes.bfloat16),
    "list": [1, 2.0, "a"],
    "tuple_empty": (),
    "dict": {"k": 1, "my key": "x", "x.y": [True]},
    "nested": {"a": [1, {"b": 2}]},
    "none": None,
}


@pytest.mark.parametrize("value", ATTRIBUTES.values(), ids=ATTRIBUTES.keys())
def test_attribute_lowers_as_in_jax(value: object) -> None:
    def program(lib: Any, x: Any) -> Any:
        return lib.lax.composite(lambda v, *, attr: v * 2, "my.attr")(x, attr=value)

    ours = jt.jit(lambda x: program(jt, x)).lower(jnp.asarray(X)).as_text()
    theirs = jax.jit(lambda x: program(jax, x)).lower(X).as_text()
    assert _composite_lines(ours) == _composite_lines(theirs)


def test_the_decomposition_is_a_private_function_of_the_module() -> None:
    text = jt.jit(lambda x: _nested(jt, x)).lower(jnp.asarray(X)).as_text()
    assert "func.func private @my.outer(" in text and "func.func private @my.inner(" in text
    assert re.search(r"stablehlo\.composite \"my\.inner\" %\w+ \{decomposition = @my\.inner\}", text)


def test_two_decompositions_of_one_name_get_their_own_functions() -> None:
    def twice(v: jt.Array) -> jt.Array:
        return v * 2

    def thrice(v: jt.Array) -> jt.Array:
        return v * 3

    def f(x: jt.Array) -> jt.Array:
        return lax.composite(twice, "my.same")(x) + lax.composite(thrice, "my.same")(x)

    text = jt.jit(f).lower(jnp.asarray(X)).as_text()
    symbols = re.findall(r"decomposition = (@[\w.]+)", text)
    assert len(symbols) == 2 and len(set(symbols)) == 2
    np.testing.assert_allclose(np.asarray(jt.jit(f)(jnp.asarray(X))), 5 * X, rtol=1e-6)


def test_unordered_callbacks_run_inside_the_decomposition(capsys: pytest.CaptureFixture[str]) -> None:
    def decomposition(v: jt.Array) -> jt.Array:
        jt.debug.print("v={v}", v=v)
        return v * 2

    f = lax.composite(decomposition, "my.printing")
    f(jnp.arange(2.0))
    jt.jit(f)(jnp.arange(2.0))
    jt.effects_barrier()
    assert capsys.readouterr().out == "v=[0. 1.]\nv=[0. 1.]\n"


def test_ordered_effects_in_the_decomposition_do_not_lower() -> None:
    """JAX fails with a KeyError; jaxtyped names the composite."""

    def decomposition(v: jt.Array) -> jt.Array:
        jt.debug.print("v={v}", v=v, ordered=True)
        return v * 2

    with pytest.raises(errors.JaxtypedNotImplementedError, match="my.ordered"):
        jt.jit(lax.composite(decomposition, "my.ordered"))(jnp.arange(2.0))


# === derivatives, transposes, batching (JAX has no rules) ===


def test_jax_has_no_jvp_batching_or_transpose_rule() -> None:
    f = jax.lax.composite(lambda v: v * 2, "my.double")
    with pytest.raises(ValueError, match="JVP rule for composite"):
        jax.jvp(f, (X,), (X,))
    with pytest.raises(NotImplementedError, match="Batching rule"):
        jax.vmap(f)(np.stack([X, X]))
    with pytest.raises(ValueError, match="Transpose rule"):
        jax.linear_transpose(f, X)(X)


DECOMPOSITIONS: dict[str, Callable[[Any, Any], Any]] = {
    "tangent": lambda lib, v: lib.lax.sin(v) / lib.lax.cos(v),
    "softplus": lambda lib, v: lib.numpy.logaddexp(v, 0.0),
    "sq_norm": lambda lib, v: lib.numpy.sum(v * v) * v,
}


@pytest.mark.parametrize("decomposition", DECOMPOSITIONS.values(), ids=DECOMPOSITIONS.keys())
def test_jvp_and_grad_equal_jaxs_of_the_decomposition(decomposition: Callable[[Any, Any], Any]) -> None:
    ours = lax.composite(lambda v: decomposition(jt, v), "my.op")

    def theirs(v: Any) -> Any:
        return decomposition(jax, v)

    tangent = np.array([0.3, 1.0, -2.0], np.float32)
    for got, want in zip(jt.jvp(ours, (X,), (tangent,)), jax.jvp(theirs, (X,), (tangent,)), strict=True):
        assert_same(got, want, rtol=1e-5)
    assert_same(jt.grad(lambda v: jnp.sum(ours(v) * tangent))(X), jax.grad(lambda v: jax.numpy.sum(theirs(v) * tangent))(X))
    assert_same(jt.jit(jt.hessian(lambda v: jnp.sum(ours(v))))(X), jax.hessian(lambda v: jax.numpy.sum(theirs(v)))(X), rtol=1e-5)


@pytest.mark.usefixtures("x64")
@pytest.mark.parametrize("decomposition", DECOMPOSITIONS.values(), ids=DECOMPOSITIONS.keys())
def test_derivatives_match_finite_differences_in_float64(decomposition: Callable[[Any, Any], Any]) -> None:
    f = lax.composite(lambda v: decomposition(jt, v), "my.op")
    check_grads(f, (X.astype(np.float64),), order=2, modes=("fwd", "rev"))
    check_grads(jt.jit(f), (X.astype(np.float64),), order=1, modes=("fwd", "rev"))


@pytest.mark.parametrize(
    ("fn", "at"),
    [
        (lambda lib, v: lib.numpy.abs(v), 0.0),
        (lambda lib, v: lib.nn.relu(v), 0.0),
        (lambda lib, v: lib.numpy.maximum(v, 1.0), 1.0),
        (lambda lib, v: lib.numpy.logaddexp(v, v), -np.inf),
        (lambda lib, v: lib.numpy.where(v > 0, v, 0.0), 0.0),
    ],
    ids=["abs", "relu", "maximum_tie", "logaddexp_inf", "where"],
)
def test_grad_at_special_points_equals_jaxs_of_the_decomposition(fn: Callable[[Any, Any], Any], at: float) -> None:
    x = np.float32(at)
    ours = jt.grad(lax.composite(lambda v: fn(jt, v), "my.kink"))(x)
    assert_same(ours, jax.grad(lambda v: fn(jax, v))(x))


def test_jvp_keeps_the_composite_for_the_primal() -> None:
    """Note [a composite survives only on its own operands]: the primal
    output is the composite's; the tangent is computed outside it."""
    f = lax.composite(lambda v: jnp.sin(v) * v, "my.op")
    jaxpr = jt.make_jaxpr(lambda x, t: jt.jvp(f, (x,), (t,)))(X, X)
    assert [e.primitive.name for e in jaxpr.eqns].count("composite") == 1
    primal_eqn = next(e for e in jaxpr.eqns if e.primitive.name == "composite")
    assert jaxpr.jaxpr.outvars[0] in primal_eqn.outvars
    text = jt.jit(lambda x: jt.value_and_grad(lambda v: jnp.sum(f(v)))(x)).lower(X).as_text()
    assert _composite_lines(text) == ['%v = stablehlo.composite "my.op" %v {decomposition = @my.op} : (tensor<3xf32>) -> tensor<3xf32>']


def test_integer_operands_get_float0_tangents() -> None:
    f = lax.composite(lambda v, n: (v * n, n * 2), "my.mixed")
    n = np.arange(3, dtype=np.int32)
    (y, m), (dy, dm) = jt.jvp(lambda v: f(v, n), (X,), (np.ones(3, np.float32),))
    np.testing.assert_allclose(np.asarray(dy), n.astype(np.float32))
    assert m.dtype == np.int32 and dm.dtype == jnp.float0 and y.shape == (3,)


@pytest.mark.parametrize(("in_axes", "out_axes"), [(0, 0), (1, 0), (1, 1), ((0, None), 0)])
def test_vmap_equals_a_loop_and_jaxs_vmap_of_the_decomposition(in_axes: Any, out_axes: int) -> None:
    def decomposition(lib: Any, v: Any, w: Any) -> Any:
        return lib.numpy.sin(v) * w + lib.numpy.sum(v)

    xs = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    w = np.linspace(-1, 1, 4 if in_axes in (0, (0, None)) else 3).astype(np.float32)
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes, in_axes)
    ws = w if axes[1] is None else (np.stack([w, 2 * w, 3 * w], axes[1]) if axes[0] == 0 else np.stack([w] * 4, axes[1]))
    ours = lax.composite(lambda v, u: decomposition(jt, v, u), "my.op")
    got = jt.vmap(ours, in_axes=in_axes, out_axes=out_axes)(xs, ws)
    want = jax.vmap(lambda v, u: decomposition(jax, v, u), in_axes=in_axes, out_axes=out_axes)(xs, ws)
    assert_same(got, want, rtol=1e-5)
    jitted = jt.jit(jt.vmap(ours, in_axes=in_axes, out_axes=out_axes))(xs, ws)
    assert_same(jitted, want, rtol=1e-5)


def test_vmap_inlines_the_decomposition() -> None:
    """A batched operand is not the operand the attributes describe."""
    f = lax.composite(lambda v, *, axis: jnp.sum(v, axis=axis), "my.sum")
    jaxpr = jt.make_jaxpr(jt.vmap(lambda v: f(v, axis=0)))(np.ones((2, 3), np.float32))
    assert [e.primitive.name for e in jaxpr.eqns] == ["reduce_sum"]


def test_linear_transpose_equals_jaxs_of_the_decomposition() -> None:
    def decomposition(lib: Any, v: Any, w: Any) -> Any:
        return 2 * v - w, lib.numpy.cumsum(w)

    def ours_decomposition(v: jt.Array, w: jt.Array) -> Any:
        return decomposition(jt, v, w)

    ours = jt.linear_transpose(lax.composite(ours_decomposition, "my.linear"), X, X)((X, X))
    theirs = jax.linear_transpose(lambda v, w: decomposition(jax, v, w), X, X)((X, X))
    assert_same(ours, theirs, rtol=1e-6)


def test_checkpointed_and_scanned_composites_differentiate() -> None:
    def program(lib: Any, composite: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def body(c: Any, y: Any) -> Any:
            return composite(c) + y, c

        return lambda v: lib.numpy.sum(lib.lax.scan(lib.checkpoint(body), v, lib.numpy.ones((2, 3)))[0])

    ours = jt.grad(program(jt, lax.composite(lambda v: jnp.sin(v) * v, "my.op")))(X)
    theirs = jax.grad(program(jax, lambda v: jax.numpy.sin(v) * v))(X)
    assert_same(ours, theirs, rtol=1e-5)


# === errors ===


def test_a_closed_over_tracer_is_refused_as_in_jax() -> None:
    with pytest.raises(jax.errors.UnexpectedTracerError):
        jax.jit(lambda y: jax.lax.composite(lambda v: v * y, "my.op")(X))(X)
    with pytest.raises(errors.UnexpectedTracerError, match="my.op"):
        jt.jit(lambda y: lax.composite(lambda v: v * y, "my.op")(X))(X)


def test_a_traced_attribute_is_refused_as_in_jax() -> None:
    with pytest.raises(jax.errors.UnexpectedTracerError):
        jax.jit(lambda y: jax.lax.composite(lambda v, *, a: v, "my.op")(X, a=y))(X)
    with pytest.raises(errors.UnexpectedTracerError, match="attribute a"):
        jt.jit(lambda y: lax.composite(lambda v, *, a: v, "my.op")(X, a=y))(X)


BAD_ATTRIBUTES: dict[str, object] = {
    "object": object(),
    "complex": 1 + 2j,
    "complex_scalar": np.complex64(1j),
    "none_inside": [None, 1],
    "int_key": {1: 2},
    "huge_int": 2**70,
    "str_array": np.array(["a"]),
}


@pytest.mark.parametrize("value", BAD_ATTRIBUTES.values(), ids=BAD_ATTRIBUTES.keys())
def test_attributes_that_do_not_lower_are_refused_when_called(value: object) -> None:
    """JAX raises when lowering (a TypeError, or OverflowError or a
    RuntimeError); jaxtyped raises JaxtypedTypeError at the call."""
    with pytest.raises(Exception):  # noqa: B017, PT011 - JAX's kinds vary; it must raise
        jax.jit(lambda x: jax.lax.composite(lambda v, *, a: v, "my.op")(x, a=value)).lower(X)
    with pytest.raises(errors.JaxtypedTypeError, match="composite 'my.op': attribute a"):
        lax.composite(lambda v, *, a: v, "my.op")(jnp.asarray(X), a=value)


def test_an_empty_dict_key_is_refused() -> None:
    """JAX builds the attribute, but MLIR's text form (the module jaxtyped
    compiles) has no empty attribute name."""
    with pytest.raises(errors.JaxtypedTypeError, match="non-empty string keys"):
        lax.composite(lambda v, *, a: v, "my.op")(jnp.asarray(X), a={"": 1})


def test_a_jaxtyped_array_attribute_asks_for_a_numpy_array() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match="pass a NumPy array"):
        lax.composite(lambda v, *, a: v, "my.op")(jnp.asarray(X), a=jnp.arange(3))


@pytest.mark.parametrize("name", ["tangent", "my tangent", "", "1a.b", "a.", "main"])
def test_names_must_be_namespaced_as_stablehlo_requires(name: str) -> None:
    with pytest.raises(ValueError, match="namespaced op name"):
        jax.jit(jax.lax.composite(lambda v: v * 2, name)).lower(X)
    with pytest.raises(errors.JaxtypedValueError, match="namespaced op name"):
        lax.composite(lambda v: v * 2, name)


def test_ill_typed_construction_is_refused() -> None:
    bad: Any = 3
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="(?i)callable"):
        lax.composite(bad, "my.op")
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations())):
        lax.composite(lambda v: v, bad)
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations())):
        lax.composite(lambda v: v, "my.op", version=str(bad))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # ill-typed on purpose
    with pytest.raises(errors.JaxtypedTypeError, match="version must be an int"):
        lax.composite(lambda v: v, "my.op", version=True)
    with pytest.raises(errors.JaxtypedValueError, match="int32"):
        lax.composite(lambda v: v, "my.op", version=2**40)


def test_bad_operands_and_outputs_raise_type_errors_as_in_jax() -> None:
    with pytest.raises(TypeError):
        jax.lax.composite(lambda v: v, "my.op")("s")
    with pytest.raises(errors.JaxtypedTypeError, match="argument v has type str"):
        lax.composite(lambda v: v, "my.op")("s")
    with pytest.raises(TypeError):
        jax.lax.composite(lambda v: "s", "my.op")(X)
    with pytest.raises(errors.JaxtypedTypeError, match="composite 'my.op'.*output has type str"):
        lax.composite(lambda v: "s", "my.op")(X)
