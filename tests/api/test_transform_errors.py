"""Errors raised by the transformations: each has a ``jaxtyped.errors``
class, derives from the builtin JAX raises (so ``except TypeError`` code
ported from JAX keeps working), and its message names the transformation,
the user's function or argument, and short types (``f32[3]``)."""

import contextlib
import re
from collections.abc import Callable, Generator, Iterator
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors
from lambdas import F1, fn1, fn2


@contextlib.contextmanager
def raises_mistyped(cls: type[Exception], match: str) -> Generator[None, None, None]:
    """For calls that are statically ill-typed: the block raises ``cls``
    matching ``match``, or, under JAXTYPED_DEBUG=1, beartype may reject the
    argument first (with a DebugTypeError)."""
    with pytest.raises(Exception) as info:
        yield
    if jt.DEBUG and isinstance(info.value, errors.DebugTypeError):
        return
    assert isinstance(info.value, cls), repr(info.value)
    assert re.search(match, str(info.value)), str(info.value)


# The user functions take Any: they are called with Python scalars, arrays
# and tracers (make_jaxpr and vmap keep the signature).
def branch_on_value(x: Any) -> Any:
    if x > 0:
        return x
    return -x


def to_int(x: Any) -> int:
    return int(x)


def to_float(x: Any) -> float:
    return float(x)


def to_numpy(x: Any) -> Any:
    return np.asarray(x)


def as_index(n: Any) -> list[int]:
    return list(range(n))  # range() calls __index__


def branch_on_second(x: Any, y: Any) -> Any:
    z = y * 2.0
    if z > 0:
        return x
    return -x


def branch_on_leaf(params: dict[str, list[Any]]) -> Any:
    if params["w"][1] > 0:
        return params["w"][0]
    return params["w"][0] * 2.0


# === concretization ===


def test_bool_in_make_jaxpr_names_function_and_argument() -> None:
    with pytest.raises(
        errors.TracerBoolConversionError,
        match=r"(?s)bool\[\].*branch_on_value at .*test_transform_errors\.py:\d+ for make_jaxpr.*argument x",
    ):
        jt.make_jaxpr(branch_on_value)(1.0)


def test_bool_error_is_a_concretization_type_error() -> None:
    with pytest.raises(errors.ConcretizationTypeError):
        jt.make_jaxpr(branch_on_value)(1.0)
    with pytest.raises(TypeError):  # JAX's builtin base
        jt.make_jaxpr(branch_on_value)(1.0)


def test_bool_in_make_jaxpr_names_only_the_argument_it_depends_on() -> None:
    with pytest.raises(errors.TracerBoolConversionError, match=r"argument y\b") as info:
        jt.make_jaxpr(branch_on_second)(1.0, 2.0)
    assert "argument x" not in str(info.value)


def test_bool_in_make_jaxpr_names_the_pytree_path() -> None:
    with pytest.raises(errors.TracerBoolConversionError, match=re.escape("argument params['w'][1]")):
        jt.make_jaxpr(branch_on_leaf)({"w": [1.0, 2.0]})


def test_bool_in_vmap_names_function() -> None:
    with pytest.raises(
        errors.TracerBoolConversionError, match=r"(?s)bool\[\].*branch_on_value at .*:\d+ for vmap"
    ):
        jt.vmap(branch_on_value)(jnp.arange(3.0))


def test_int_in_make_jaxpr() -> None:
    # int() is a ConcretizationTypeError (as in JAX); operator.index() is a
    # TracerIntegerConversionError.
    with pytest.raises(
        errors.ConcretizationTypeError, match=r"(?s)int\(\).*f32\[\].*to_int .*make_jaxpr.*argument x"
    ):
        jt.make_jaxpr(to_int)(1.0)


def test_int_in_make_jaxpr_is_a_concretization_error_like_jax() -> None:
    with pytest.raises(errors.ConcretizationTypeError):
        jt.make_jaxpr(to_int)(1.0)


def test_int_in_vmap() -> None:
    with pytest.raises(errors.ConcretizationTypeError, match=r"(?s)to_int .*vmap"):
        jt.vmap(to_int)(jnp.arange(3.0))


def test_float_in_make_jaxpr() -> None:
    with pytest.raises(
        errors.ConcretizationTypeError, match=r"(?s)float\(\).*f32\[\].*to_float .*make_jaxpr.*argument x"
    ):
        jt.make_jaxpr(to_float)(1.0)


def test_float_in_vmap() -> None:
    with pytest.raises(errors.ConcretizationTypeError, match=r"(?s)float\(\).*to_float .*vmap"):
        jt.vmap(to_float)(jnp.arange(3.0))


def test_index_in_make_jaxpr() -> None:
    with pytest.raises(errors.TracerIntegerConversionError, match=r"(?s)i32\[\].*as_index .*argument n"):
        jt.make_jaxpr(as_index)(3)


def test_concrete_values_under_jvp() -> None:
    # jvp does not make values abstract: no error, as in JAX.
    # float(x) is a constant: d/dx (x * 3.0) = 3.0.
    assert float(jt.jvp(fn1(lambda x: x * to_float(x)), (3.0,), (1.0,))[1]) == 3.0
    assert float(jt.jvp(branch_on_value, (-2.0,), (1.0,))[1]) == -1.0


# (transformation name, apply it to a function of one argument)
APPLY: list[tuple[str, Callable[[F1], object]]] = [
    ("make_jaxpr", lambda f: jt.make_jaxpr(f)(1.0)),
    ("vmap", lambda f: jt.vmap(f)(jnp.ones(3))),
    ("jvp", lambda f: jt.jvp(f, (1.0,), (1.0,))),
]


@pytest.mark.parametrize(("name", "transform"), APPLY, ids=[n for n, _ in APPLY])
def test_numpy_conversion_of_tracer(name: str, transform: Callable[[F1], object]) -> None:
    with pytest.raises(errors.TracerArrayConversionError, match=rf"(?s)__array__.*f32\[\].*{name} of to_numpy"):
        transform(to_numpy)


# === leaked tracers ===


@pytest.fixture
def leak() -> Iterator[list[Any]]:
    store: list[Any] = []
    yield store
    store.clear()


def leaker(store: list[Any]) -> F1:
    def leaky_function(x: Any) -> Any:
        store.append(x)
        return x

    return leaky_function


USES: list[tuple[str, F1]] = [
    ("add", lambda t: t + 1.0),
    ("sin", lambda t: jnp.sin(t)),
    ("bool", lambda t: bool(t)),
    ("float", lambda t: float(t)),
    ("in-make_jaxpr", lambda t: jt.make_jaxpr(fn1(lambda x: x + t))(1.0)),
    ("in-jvp", lambda t: jt.jvp(fn1(lambda x: x * t), (1.0,), (1.0,))),
    ("in-vmap", lambda t: jt.vmap(fn1(lambda x: x * t))(jnp.ones(2))),
]


@pytest.mark.parametrize(("transformation", "run"), APPLY, ids=[n for n, _ in APPLY])
@pytest.mark.parametrize(("use_name", "use"), USES, ids=[n for n, _ in USES])
def test_leaked_tracer_raises_when_used(
    leak: list[Any], transformation: str, run: Callable[[F1], object], use_name: str, use: F1
) -> None:
    run(leaker(leak))
    (tracer,) = leak
    with pytest.raises(
        errors.UnexpectedTracerError,
        match=rf"(?s)unexpected tracer f32\[\] created by {transformation} of .*leaky_function at .*:\d+.*already finished",
    ):
        use(tracer)


# === jvp arguments ===


def test_jvp_mismatched_structure() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"(?s)jvp.*primals\[0\].*tuple.*tangents\[0\].*list"):
        jt.jvp(fn1(lambda x: x), ((1.0, 2.0),), ([1.0, 2.0],))
    with pytest.raises(errors.JaxtypedTypeError, match=r"(?s)jvp.*\['a'\].*\['b'\]"):
        jt.jvp(fn1(lambda x: x), ({"a": 1.0},), ({"b": 1.0},))


def test_jvp_mismatched_structure_is_a_type_error_like_jax() -> None:
    with pytest.raises(TypeError):
        jt.jvp(fn1(lambda x: x), ((1.0, 2.0),), ([1.0, 2.0],))


def test_jvp_mismatched_shapes() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"jvp.*shapes at x: primal f32\[3\], tangent f32\[4\]"):
        jt.jvp(fn1(lambda x: x), (jnp.ones(3),), (jnp.ones(4),))


@pytest.mark.parametrize(
    ("primal", "tangent", "shown"),
    [
        (np.ones(3, np.float32), np.ones(3, np.int32), r"primal f32\[3\] and tangent i32\[3\]"),
        (np.ones(3, np.float32), np.ones(3, np.float16), r"primal f32\[3\] and tangent f16\[3\]"),
        (np.arange(3, dtype=np.int32), np.ones(3, np.float32), r"primal i32\[3\] and tangent f32\[3\]"),
        (np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32), r"float0"),
    ],
    ids=["float-int", "f32-f16", "int-float", "int-int"],
)
def test_jvp_mismatched_dtypes(primal: Any, tangent: Any, shown: str) -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=rf"(?s)jvp.*at x.*{shown}"):
        jt.jvp(fn1(lambda x: x), (primal,), (tangent,))


ONE_TANGENT: Any = (1.0,)  # Any: jvp's signature rejects the mismatch statically


def test_jvp_wrong_number_of_tangents() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"jvp: got 2 primal argument\(s\) but 1 tangent\(s\)"):
        jt.jvp(fn2(lambda x, y: x), (1.0, 2.0), ONE_TANGENT)


def test_jvp_wrong_number_of_tangents_is_a_type_error_like_jax() -> None:
    with pytest.raises(TypeError):
        jt.jvp(fn2(lambda x, y: x), (1.0, 2.0), ONE_TANGENT)


def test_jvp_primals_not_a_tuple() -> None:
    bad: Any = 1.0
    with pytest.raises(errors.JaxtypedTypeError, match=r"jvp: primals must be a tuple or list.*got float"):
        jt.jvp(fn1(lambda x: x), bad, bad)


def test_jvp_has_aux_without_a_pair() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"jvp with has_aux=True requires .* pair"):
        jt.jvp(fn1(lambda x: x), (1.0,), (1.0,), has_aux=True)


NOT_CALLABLE: list[tuple[str, Callable[[Any], object]]] = [
    ("jvp", lambda f: jt.jvp(f, (1.0,), (1.0,))),
    ("vmap", lambda f: jt.vmap(f)),
    ("jacfwd", lambda f: jt.jacfwd(f)),
    ("make_jaxpr", lambda f: jt.make_jaxpr(f)),
]


@pytest.mark.parametrize(("name", "transform"), NOT_CALLABLE, ids=[n for n, _ in NOT_CALLABLE])
def test_non_callable_fun(name: str, transform: Callable[[Any], object]) -> None:
    with raises_mistyped(errors.JaxtypedTypeError, rf"{name}: expected a callable as its first argument, got int 3"):
        transform(3)


# === vmap arguments ===


def test_vmap_inconsistent_axis_sizes_lists_args_and_sizes() -> None:
    with pytest.raises(
        errors.JaxtypedValueError,
        match=re.escape(
            "vmap got inconsistent sizes for array axes to be mapped: "
            "args[0] of type f32[3] has size 3 along axis 0, args[1] of type f32[4] has size 4 along axis 0"
        ),
    ):
        jt.vmap(fn2(lambda x, y: x + y))(jnp.ones(3), jnp.ones(4))


def add_first_row(d: dict[str, Any], y: Any) -> Any:
    return d["a"][0] + y


def test_vmap_inconsistent_axis_sizes_with_keyword_and_pytree() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"args\[0\]\['a'\] of type f32\[2,3\] has size 3 along axis 1.*y of type f32\[4\]"):
        jt.vmap(add_first_row, in_axes=({"a": 1},))({"a": jnp.ones((2, 3))}, y=jnp.ones(4))


def test_vmap_inconsistent_with_axis_size() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"has size 3 along axis 0; axis_size=4"):
        jt.vmap(fn1(lambda x: x), axis_size=4)(jnp.ones(3))


@pytest.mark.parametrize(("axis", "needed"), [(2, 3), (-3, 3)])
def test_vmap_in_axes_out_of_range(axis: int, needed: int) -> None:
    with pytest.raises(
        errors.JaxtypedValueError,
        match=rf"map its argument args\[0\] along axis {axis}, which implies that its rank should be at least {needed}, but it is f32\[3,4\]",
    ):
        jt.vmap(fn1(lambda x: x), in_axes=axis)(jnp.ones((3, 4)))


def test_vmap_mapping_a_scalar() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"rank should be at least 1, but it is f32\[\]"):
        jt.vmap(fn1(lambda x: x))(1.0)


def test_vmap_in_axes_tuple_of_wrong_length() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"len\(in_axes\)=1, len\(args\)=2"):
        jt.vmap(fn2(lambda x, y: x), in_axes=(0,))(jnp.ones(3), jnp.ones(3))


def test_vmap_in_axes_not_a_prefix() -> None:
    with pytest.raises(errors.PyTreeStructureError, match=r"vmap: in_axes\[0\]\[0\] is a dict .* must be a tree prefix"):
        jt.vmap(fn1(lambda x: x), in_axes=({"a": 0},))(jnp.ones(3))


def test_vmap_in_axes_of_wrong_type() -> None:
    with raises_mistyped(errors.JaxtypedTypeError, r"vmap in_axes for args\[0\] must be an int or None, got 'a'"):
        jt.vmap(fn1(lambda x: x), in_axes="a")(jnp.ones(3))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test


def test_vmap_out_axes_none_for_batched_output() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"out_axes=None for output\[1\], but that output is batched"):
        jt.vmap(fn1(lambda x: (1.0, x)), out_axes=None)(jnp.ones(3))


def test_vmap_out_axes_out_of_range() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"out_axes=3 is out of range for output of rank 1"):
        jt.vmap(fn1(lambda x: x), out_axes=3)(jnp.ones(3))


def test_vmap_all_none_in_axes_without_axis_size() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"at least one non-None value in in_axes or axis_size"):
        jt.vmap(fn1(lambda x: x), in_axes=None)(jnp.ones(3))


# === jacfwd arguments ===


@pytest.mark.parametrize("x", [np.arange(3, dtype=np.int32), 1, np.bool_(True)], ids=["i32[3]", "int", "bool"])
def test_jacfwd_of_integer_inputs(x: Any) -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"jacfwd requires real-valued floating inputs, but got (i32|bool)\["):
        jt.jacfwd(fn1(lambda x: x))(x)


def test_jacfwd_argnums_out_of_range() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"jacfwd: argnums=3 is out of range for a call with 1 positional"):
        jt.jacfwd(fn1(lambda x: x), argnums=3)(1.0)


# === non-array leaves ===


@pytest.mark.parametrize(("name", "transform"), APPLY, ids=[n for n, _ in APPLY])
def test_string_output_leaf(name: str, transform: Callable[[F1], object]) -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=rf"{name}: output\['s'\] has type str, which is not a valid"):
        transform(fn1(lambda x: {"a": x, "s": "hi"}))


def test_string_output_leaf_under_jacfwd_names_jacfwd() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"jacfwd.*has type str"):
        jt.jacfwd(fn1(lambda x: "hi"))(1.0)


STRING_INPUT: list[tuple[str, str, Callable[[F1], object]]] = [
    ("jvp", "x", lambda f: jt.jvp(f, ("a",), ("b",))),
    ("vmap", r"args\[0\]", lambda f: jt.vmap(f)("a")),
    ("make_jaxpr", "x", lambda f: jt.make_jaxpr(f)("a")),
    ("jacfwd", r"args\[0\]", lambda f: jt.jacfwd(f)("a")),
]


@pytest.mark.parametrize(("name", "path", "transform"), STRING_INPUT, ids=[n for n, _, _ in STRING_INPUT])
def test_string_input_leaf(name: str, path: str, transform: Callable[[F1], object]) -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=rf"{name}: {path} has type str, which is not a valid"):
        transform(fn1(lambda x: x))


# === every error is a jaxtyped error ===


def test_error_hierarchy_matches_jax_builtins() -> None:
    assert issubclass(errors.JaxtypedTypeError, TypeError)
    assert issubclass(errors.JaxtypedValueError, ValueError)
    for cls in (
        errors.ConcretizationTypeError,
        errors.TracerBoolConversionError,
        errors.TracerIntegerConversionError,
        errors.TracerArrayConversionError,
    ):
        assert issubclass(cls, TypeError) and issubclass(cls, errors.JaxtypedError)
    assert issubclass(errors.TracerBoolConversionError, errors.ConcretizationTypeError)
    assert issubclass(errors.UnexpectedTracerError, errors.JaxtypedError)
    assert issubclass(errors.JaxprTypeError, TypeError)
    assert errors.UnexpectedTracerError.__module__ == "jaxtyped.errors"
