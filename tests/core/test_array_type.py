"""``jaxtyped.Array``: one abstract base class for concrete arrays and every
array tracer (JEP 12049, Option 4), and the Python protocol of arrays
(conversions, hashing, immutability, pickling, NumPy interop), with JAX as
the oracle where JAX defines the behaviour."""

import abc
import copy
import functools
import inspect
import operator
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.typing as jtt
from jaxtyped.errors import (
    ConcretizationTypeError,
    JaxtypedIndexError,
    JaxtypedTypeError,
    JaxtypedValueError,
    TracerArrayConversionError,
    TracerBoolConversionError,
)

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")


# === capturing values of every kind ===

Capture = list[tuple[str, Any]]


def capture_all() -> Capture:
    """A concrete array and the tracers that each transformation (and
    nestings of them) passes to the user's function."""
    seen: Capture = []

    def grab(label: str) -> Callable[[jt.Array], jt.Array]:
        def f(x: jt.Array) -> jt.Array:
            seen.append((label, x))
            return x * 2.0

        return f

    x = jnp.ones(3)
    grab("concrete")(x)
    jt.jvp(grab("jvp"), (x,), (x,))
    jt.vmap(grab("vmap"))(jnp.ones((2, 3)))
    jt.make_jaxpr(grab("make_jaxpr"))(x)
    jt.jacfwd(grab("jacfwd"))(x)
    def tangent_of(a: jt.Array) -> jt.Array:
        return jt.jvp(grab("vmap-of-jvp"), (a,), (a,))[1]

    jt.vmap(tangent_of)(jnp.ones((2, 3)))
    def batched(a: jt.Array) -> jt.Array:
        return jt.vmap(grab("make_jaxpr-of-vmap"))(a)

    jt.make_jaxpr(batched)(jnp.ones((2, 3)))
    return seen


LABELS = ["concrete", "jvp", "vmap", "make_jaxpr", "jacfwd", "vmap-of-jvp", "make_jaxpr-of-vmap"]


@functools.cache
def captured_values() -> tuple[tuple[str, Any], ...]:
    # Captured lazily (not at import), so a broken transformation fails the
    # tests that need it instead of the collection of the whole module.
    return tuple(capture_all())


def captured(label: str) -> Any:
    return next(value for name, value in captured_values() if name == label)


def test_every_transformation_was_captured() -> None:
    assert [label for label, _ in captured_values()] == LABELS


# === the ABC ===


def test_array_is_an_abstract_base_class() -> None:
    assert issubclass(jt.Array, abc.ABC)
    assert inspect.isabstract(jt.Array)
    with pytest.raises(TypeError):
        jt.Array()  # type: ignore[abstract]  # deliberately
    assert jnp.ndarray is jt.Array and jtt.Array is jt.Array


@pytest.mark.parametrize("label", LABELS)
def test_isinstance_and_issubclass(label: str) -> None:
    value = captured(label)
    assert isinstance(value, jt.Array)
    assert issubclass(type(value), jt.Array)
    assert value.shape == (3,) and value.dtype == np.float32
    assert value.ndim == 1 and value.size == 3 and value.weak_type is False


@pytest.mark.parametrize("value", [np.ones(3), np.float32(1), 1.0, 1, True, [1.0], None, jax_numpy.ones(3)], ids=repr)
def test_non_arrays_are_not_arrays(value: object) -> None:
    assert not isinstance(value, jt.Array)
    assert not issubclass(type(value), jt.Array)


@functools.singledispatch
def kind_of(value: object) -> str:
    return "other"


@kind_of.register
def _(value: jt.Array) -> str:
    return "array"


@kind_of.register
def _(value: np.ndarray) -> str:
    return "numpy"


@pytest.mark.parametrize("label", LABELS)
def test_singledispatch_on_array(label: str) -> None:
    assert kind_of(captured(label)) == "array"


def test_singledispatch_others() -> None:
    assert kind_of(np.ones(2)) == "numpy"
    assert kind_of(1.0) == "other"


@pytest.mark.parametrize("label", LABELS)
def test_only_concrete_arrays_have_device_methods(label: str) -> None:
    value = captured(label)
    if label == "concrete":
        assert value.block_until_ready() is value
    else:
        assert not hasattr(value, "block_until_ready")
    assert not hasattr(jt.Array, "block_until_ready")


@pytest.mark.parametrize("label", LABELS)
def test_arrays_and_tracers_are_unhashable(label: str) -> None:
    with pytest.raises(TypeError):
        hash(captured(label))


def test_typing_exports() -> None:
    assert set(jtt.__all__) >= {"Array", "ArrayLike", "DType", "DTypeLike", "Shape", "ShapeLike"}
    for name in ("Array", "ArrayLike", "DType", "DTypeLike", "Shape", "ShapeLike"):
        assert getattr(jtt, name) is not None
    assert jtt.Shape == tuple[int, ...]
    assert jnp.ones((2, 3)).shape.__class__ is tuple
    assert isinstance(jnp.ones(2).dtype, np.dtype)


def takes_array_like(x: jtt.ArrayLike, dtype: jtt.DTypeLike, shape: jtt.ShapeLike) -> jtt.Array:
    return jnp.broadcast_to(jnp.asarray(x, dtype=dtype), shape)


def test_typing_aliases_annotate_user_code() -> None:
    result: jtt.Array = takes_array_like(np.float32(1.0), jnp.float16, (2,))
    shape: jtt.Shape = result.shape
    dtype: jtt.DType = result.dtype
    assert shape == (2,) and dtype == np.float16
    for value in (jnp.ones(2), np.ones(2), np.float32(1), True, 1, 1.0):
        assert isinstance(takes_array_like(value, "float32", 2), jt.Array)
    # A complex scalar needs a complex dtype (JAX too raises TypeError for float32).
    assert isinstance(takes_array_like(1j, "complex64", 2), jt.Array)


# === immutability ===


def test_no_item_assignment() -> None:
    x = jnp.zeros(3)
    with pytest.raises(TypeError):
        x[0] = 1.0  # type: ignore[index]  # pyright: ignore[reportIndexIssue]  # deliberately
    with pytest.raises(TypeError):
        del x[0]  # type: ignore[attr-defined]  # pyright: ignore[reportIndexIssue]  # deliberately
    np.testing.assert_array_equal(np.asarray(x), [0.0, 0.0, 0.0])


def test_host_buffer_is_read_only_and_private() -> None:
    source = np.arange(3.0, dtype=np.float32)
    x = jnp.asarray(source)
    source[0] = 99.0  # the array took a copy
    assert float(x[0]) == 0.0
    view = np.asarray(x)
    with pytest.raises(ValueError):
        view[0] = 5.0
    assert float(x[0]) == 0.0


def test_no_new_attributes() -> None:
    x = jnp.zeros(3)
    with pytest.raises(AttributeError):
        x.foo = 1  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]  # deliberately


# === len, iteration and conversions of concrete arrays, against JAX ===


def test_len_and_iteration() -> None:
    x = jnp.arange(6).reshape(3, 2)
    assert len(x) == 3 == len(jax_numpy.arange(6).reshape(3, 2))
    rows = list(x)
    assert all(r.shape == (2,) for r in rows)
    assert all(type(r).__name__ == "ArrayImpl" for r in rows)
    np.testing.assert_array_equal(np.stack([np.asarray(r) for r in rows]), np.arange(6).reshape(3, 2))
    assert list(jnp.zeros((0, 2))) == []
    with pytest.raises(TypeError):
        len(jnp.array(1.0))
    with pytest.raises(TypeError):
        iter(jnp.array(1.0)).__next__()
    it: Iterator[jt.Array] = iter(jnp.arange(2))
    assert int(next(it)) == 0


Conversion = Callable[[Any], object]
CONVERSIONS: dict[str, Conversion] = {
    "bool": bool, "int": int, "float": float, "complex": complex, "index": operator.index,
    "item": lambda a: a.item(), "tolist": lambda a: a.tolist(),
}  # fmt: skip
CONVERSION_INPUTS: dict[str, Callable[[Any], Any]] = {
    "f32-0d": lambda L: L.array(2.5),
    "i32-0d": lambda L: L.array(-3),
    "bool-0d": lambda L: L.array(True),
    "c64-0d": lambda L: L.array(1 + 2j),
    "bf16-0d": lambda L: L.array(1.5, dtype=L.bfloat16),
    "u8-0d": lambda L: L.array(200, dtype=L.uint8),
    "f32-3": lambda L: L.arange(3.0),
    "i32-1": lambda L: L.array([7]),
    "f32-empty": lambda L: L.zeros((0,)),
    "i32-2x2": lambda L: L.arange(4).reshape(2, 2),
}  # fmt: skip


def outcome(fn: Conversion, value: Any) -> tuple[str, object]:
    try:
        result = fn(value)
    except TypeError:
        return ("TypeError", None)
    except ValueError:
        return ("ValueError", None)
    except OverflowError:
        return ("OverflowError", None)
    return (type(result).__name__, result)


@pytest.mark.parametrize(
    ("source", "conversion"),
    [pytest.param(s, c, id=f"{c}-{s}") for s in CONVERSION_INPUTS for c in CONVERSIONS],
)
def test_conversions_match_jax(source: str, conversion: str) -> None:
    """bool/int/float/complex/operator.index/item/tolist of concrete arrays:
    the same value and Python type as JAX, or the same kind of error."""
    ours = outcome(CONVERSIONS[conversion], CONVERSION_INPUTS[source](jnp))
    theirs = outcome(CONVERSIONS[conversion], CONVERSION_INPUTS[source](jax_numpy))
    assert ours == theirs


def test_conversion_error_messages() -> None:
    with pytest.raises(ValueError, match="ambiguous"):
        bool(jnp.arange(3.0))
    with pytest.raises(TypeError, match="integer"):
        operator.index(jnp.array(1.5))
    with pytest.raises(TypeError):
        [1, 2, 3][jnp.array(1.0)]
    assert [1, 2, 3][jnp.array(1)] == 2
    assert range(5)[jnp.array(-1, dtype=jnp.int8)] == 4


def test_bool_of_empty_array_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        bool(jnp.zeros((0,)))


# === conversions of tracers ===


def convert_inside(transform: str, conversion: Conversion) -> None:
    """Apply ``conversion`` to a traced scalar inside ``transform``."""

    def fun(x: jt.Array) -> jt.Array:
        conversion(x[0])
        return x

    x = jnp.asarray(np.array([1.0, 2.0], dtype=np.float32))
    if transform == "vmap":
        jt.vmap(fun)(x[:, None])
    elif transform == "make_jaxpr":
        jt.make_jaxpr(fun)(x)
    else:
        jt.jvp(fun, (x,), (x,))


@pytest.mark.parametrize("transform", ["vmap", "make_jaxpr"])
def test_tracer_conversions_raise_concretization_errors(transform: str) -> None:
    with pytest.raises(TracerBoolConversionError):
        convert_inside(transform, bool)
    conversions: list[Conversion] = [int, float, complex, CONVERSIONS["item"], CONVERSIONS["tolist"]]
    for conversion in conversions:
        with pytest.raises(ConcretizationTypeError):
            convert_inside(transform, conversion)
    with pytest.raises(TracerArrayConversionError):
        convert_inside(transform, np.asarray)
    with pytest.raises(TypeError):
        convert_inside(transform, operator.index)  # a float tracer is no index either way
    assert issubclass(TracerBoolConversionError, TypeError) and issubclass(ConcretizationTypeError, TypeError)


@pytest.mark.parametrize("conversion", ["bool", "int"])
def test_jvp_tracers_of_concrete_primals_convert(conversion: str) -> None:
    """JAX's jvp tracers over concrete primals are concrete: Python control
    flow on them works (``jax.jvp(lambda x: x if x > 0 else -x, ...)``)."""
    fn = CONVERSIONS[conversion]

    def f(x: Any) -> Any:
        return x * 2.0 if fn(x) else x

    try:
        expected = jax.jvp(f, (jax_numpy.asarray(np.float32(1.5)),), (jax_numpy.asarray(np.float32(1.0)),))
    except jax.errors.ConcretizationTypeError:  # JAX refuses float() of a jvp tracer
        with pytest.raises(ConcretizationTypeError):
            jt.jvp(f, (jnp.asarray(np.float32(1.5)),), (jnp.asarray(np.float32(1.0)),))
        return
    got = jt.jvp(f, (jnp.asarray(np.float32(1.5)),), (jnp.asarray(np.float32(1.0)),))
    assert [float(v) for v in got] == [float(v) for v in expected]


@pytest.mark.parametrize("label", [label for label in LABELS if label != "concrete"])
def test_tracer_len_iteration_and_repr(label: str) -> None:
    value = captured(label)
    assert len(value) == 3
    assert "f32[3]" in repr(value)


# === NumPy interop, pickling, copying ===


def test_np_asarray_gives_the_values() -> None:
    x = jnp.asarray(np.arange(6, dtype=np.int8).reshape(2, 3))
    host = np.asarray(x)
    assert host.dtype == np.int8 and host.shape == (2, 3)
    np.testing.assert_array_equal(host, np.arange(6).reshape(2, 3))
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    assert np.array(x).flags.writeable  # np.array copies
    bf16 = jnp.asarray(np.array([1.5], dtype=jnp.dtype("bfloat16")))
    assert np.asarray(bf16).dtype == jnp.dtype("bfloat16")


def test_numpy_functions_accept_arrays() -> None:
    x = jnp.arange(4.0)
    assert float(np.sum(np.asarray(x))) == 6.0
    np.testing.assert_array_equal(np.sin(np.asarray(x)), np.sin(np.arange(4.0, dtype=np.float32)))
    # Directly too, through NumPy's conversion protocol (__array__), as with JAX.
    assert float(np.sum(x)) == 6.0
    np.testing.assert_allclose(np.sin(x), np.sin(np.arange(4.0, dtype=np.float32)))
    assert np.stack([x, x]).shape == (2, 4)


def test_array_priority_makes_numpy_defer() -> None:
    x = jnp.arange(3.0)
    # Statically NumPy's operators answer (an ndarray: Array has __array__).
    results: tuple[object, ...] = (np.ones(3) + x, np.ones(3) * x, np.ones(3) - x, np.ones(3) < x, np.ones((3, 3)) @ x)
    for result in results:
        assert isinstance(result, jt.Array)
    assert jt.Array.__array_priority__ > np.ones(1).__array_priority__
    np.testing.assert_array_equal(np.asarray(np.ones(3) - x), [1.0, 0.0, -1.0])


@pytest.mark.parametrize(
    "make",
    [
        lambda: jnp.arange(6.0).reshape(2, 3),
        lambda: jnp.array(2.0),
        lambda: jnp.array([True, False]),
        lambda: jnp.array([1.5], dtype=jnp.bfloat16),
        lambda: jnp.zeros((0, 3), jnp.int8),
        lambda: jnp.array(1 + 2j),
    ],
    ids=["f32-2d", "weak-0d", "bool", "bf16", "empty-int8", "complex"],
)
def test_pickle_and_copy_round_trip(make: Callable[[], jt.Array]) -> None:
    x = make()
    for y in (pickle.loads(pickle.dumps(x)), copy.deepcopy(x), copy.copy(x)):
        assert isinstance(y, jt.Array)
        assert (y.shape, y.dtype, y.weak_type) == (x.shape, x.dtype, x.weak_type)
        np.testing.assert_array_equal(np.asarray(y), np.asarray(x))
        with pytest.raises(ValueError):
            np.asarray(y)[...] = 0
        assert isinstance(y + 1, jt.Array)


def test_item_and_tolist() -> None:
    assert jnp.array(2.5).item() == 2.5 and isinstance(jnp.array(2.5).item(), float)
    assert jnp.array(3).item() == 3 and isinstance(jnp.array(3).item(), int)
    assert jnp.array(True).item() is True
    assert jnp.array(1.5, dtype=jnp.bfloat16).item() == 1.5
    assert jnp.arange(4).reshape(2, 2).tolist() == [[0, 1], [2, 3]]
    assert jnp.array(3).tolist() == 3
    assert jnp.array([1.5, 2.0]).tolist() == jax_numpy.array([1.5, 2.0]).tolist()


@pytest.mark.parametrize("shape", [(6,), (2, 3), (2, 1, 3)])
def test_item_with_indices_matches_jax(shape: tuple[int, ...]) -> None:
    ours, theirs = jnp.arange(6.0).reshape(shape), jax_numpy.arange(6.0).reshape(shape)
    calls: list[tuple[Any, ...]] = [(0,), (5,), (-1,), (-6,), (np.int64(2),), (jnp.array(3),)]
    calls += [tuple(d - 1 for d in shape), tuple(-1 for _ in shape), (tuple(0 for _ in shape),)]
    for args in calls:
        value = ours.item(*args)
        assert value == theirs.item(*args) and type(value) is type(theirs.item(*args)), args
    assert jnp.array([7], dtype=jnp.int32).item(0) == 7 and isinstance(jnp.array([7]).item(0), int)
    assert jnp.array([1.5], dtype=jnp.bfloat16).item(-1) == 1.5


@pytest.mark.parametrize(
    ("args", "error", "jax_error", "message"),
    [
        ((6,), JaxtypedIndexError, IndexError, r"Array.item: flat index 6 is out of bounds for size 6 of f32\[2,3\]"),
        ((-7,), JaxtypedIndexError, IndexError, "flat index -7 is out of bounds"),
        ((1, 3), JaxtypedIndexError, IndexError, "index 3 on axis 1 is out of bounds for size 3"),
        # (in debug mode beartype refuses the float first: SupportsIndex)
        ((1.0,), JaxtypedTypeError, TypeError, r"indices must be integers, got 1.0 for f32\[2,3\]|violates type hint"),
        ((True,), JaxtypedTypeError, TypeError, "indices must be integers, got True"),
        ((1, 2, 3), JaxtypedValueError, ValueError, r"one index per dimension \(2\), got 3"),
    ],
)
def test_item_with_bad_indices(args: tuple[Any, ...], error: type[Exception], jax_error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        jnp.arange(6.0).reshape(2, 3).item(*args)
    with pytest.raises(jax_error):
        jax_numpy.arange(6.0).reshape(2, 3).item(*args)


def test_format_of_0d_arrays() -> None:
    for ours, theirs in ((jnp.array(2.5), jax_numpy.array(2.5)), (jnp.array(7), jax_numpy.array(7))):
        for spec in (".2f", "", ">8", "e"):
            if spec in (".2f", "e") and ours.dtype.kind == "i":
                continue
            assert format(ours, spec) == format(theirs, spec), spec
    assert f"{jnp.array(2.5):.2f}" == "2.50"
    assert f"{jnp.array(7):03d}" == "007"


def test_format_spec_on_non_scalar_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        format(jax_numpy.arange(3.0), ".2f")
    with pytest.raises(TypeError):
        format(jnp.arange(3.0), ".2f")


def _subclasses(cls: type) -> set[type]:
    found: set[type] = set()
    sub: type
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def test_no_array_subclass_shadows_a_public_array_member() -> None:
    """A tracer's or concrete array's own attribute must not hide a public
    member of ``Array`` (a staging tracer's ``var`` once hid ``x.var()``,
    so the variance method failed under jit only)."""
    from jaxtyped._src.interpreters.batching import BatchTracer
    from jaxtyped._src.interpreters.jvp import JVPTracer
    from jaxtyped._src.interpreters.staging import StagingTracer

    assert {BatchTracer, JVPTracer, StagingTracer} <= _subclasses(jt.Array)
    public = {name for name in dir(jt.Array) if not name.startswith("_")}
    clashes = sorted(
        f"{sub.__qualname__}.{name}"
        for sub in _subclasses(jt.Array)
        for name in getattr(sub, "__slots__", ())
        if name in public
    )
    assert clashes == []
    assert {"var", "std", "at", "sort"} <= public  # the census is not vacuous


def test_array_methods_work_on_every_kind_of_tracer() -> None:
    x = jnp.arange(6.0).reshape(2, 3)
    methods = ("var", "std", "ptp", "sum", "mean", "max", "min", "prod", "cumsum", "sort", "argsort", "ravel", "round")
    for name in methods:

        def method(a: jt.Array, name: str = name) -> jt.Array:
            result: jt.Array = getattr(a, name)()
            return result

        eager = method(x)
        staged = jt.jit(method)(x)
        batched = jt.vmap(method)(x[None])[0]
        np.testing.assert_allclose(np.asarray(staged), np.asarray(eager), rtol=1e-6, err_msg=name)
        np.testing.assert_allclose(np.asarray(batched), np.asarray(eager), rtol=1e-6, err_msg=name)
