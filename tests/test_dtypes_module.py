"""``jaxtyped.dtypes`` against ``jax.dtypes``: the extended dtypes in the
``issubdtype`` hierarchy (key arrays' ``key<fry>``), ``canonicalize_dtype``
with and without x64 and extended dtypes, ``result_type`` and its weak
type flag, ``itemsize_bits``, ``scalar_type_of``, the shared names, and
``TypePromotionError`` where JAX raises it."""

from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import dtypes
from jaxtyped.errors import JaxtypedTypeError, JaxtypedValueError, TypePromotionError
from oracle import error_kind, jax, jax_numpy

jax_dtypes: Any = pytest.importorskip("jax.dtypes")

DTYPE_NAMES = ["bool", "int4", "uint8", "int16", "int32", "int64", "bfloat16", "float16", "float32", "float64",
               "complex64", "float8_e4m3fn", "float4_e2m1fn", "int2"]  # fmt: skip
CATEGORIES = ["floating", "integer", "signedinteger", "number", "inexact", "generic"]


@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")  # JAX's dtype() of int64 without x64
def test_canonicalize_itemsize_and_scalar_type_as_jax(name: str) -> None:
    assert dtypes.canonicalize_dtype(name) == jax_dtypes.canonicalize_dtype(name)
    with jt.enable_x64(True), jax.enable_x64(True):
        assert dtypes.canonicalize_dtype(name) == jax_dtypes.canonicalize_dtype(name)
    assert dtypes.itemsize_bits(name) == jax_dtypes.itemsize_bits(name)
    assert dtypes.scalar_type_of(jnp.dtype(name)) is jax_dtypes.scalar_type_of(jnp.dtype(name))
    canonical = str(dtypes.canonicalize_dtype(name))
    assert dtypes.scalar_type_of(jnp.zeros(2, canonical)) is jax_dtypes.scalar_type_of(jax_numpy.zeros(2, canonical))


@pytest.mark.parametrize("category", CATEGORIES)
def test_key_dtypes_sit_under_prng_key_and_extended(category: str) -> None:
    ours, theirs = jt.random.key(0).dtype, jax.random.key(0).dtype
    for ours_cat, theirs_cat in ((dtypes.prng_key, jax_dtypes.prng_key), (dtypes.extended, jax_dtypes.extended)):
        assert dtypes.issubdtype(ours, ours_cat) is jax_dtypes.issubdtype(theirs, theirs_cat) is True
        assert dtypes.issubdtype(np.float32, ours_cat) is jax_dtypes.issubdtype(np.float32, theirs_cat) is False
    # A tree of parameters and keys filtered by dtype, as optimizers do: no error, keys are no numbers.
    assert jnp.issubdtype(ours, getattr(np, category)) == jax_numpy.issubdtype(theirs, getattr(np, category))
    assert jnp.issubdtype(ours, "float32") == jax_numpy.issubdtype(theirs, "float32") == False  # noqa: E712


def test_canonicalize_dtype_of_an_extended_dtype() -> None:
    ours, theirs = jt.random.key(0).dtype, jax.random.key(0).dtype
    assert str(dtypes.canonicalize_dtype(ours, allow_extended_dtype=True)) == str(
        jax_dtypes.canonicalize_dtype(theirs, allow_extended_dtype=True)
    )
    with pytest.raises(ValueError):
        jax_dtypes.canonicalize_dtype(theirs)
    with pytest.raises(JaxtypedValueError, match="key<fry> is an extended dtype; pass allow_extended_dtype=True"):
        dtypes.canonicalize_dtype(ours)


@pytest.mark.parametrize(
    "args",
    [(1.0,), (1,), (True,), ("int8", 1), ("int8", 1.0), ("float16", 2), ("bfloat16", "float16"), ("uint8", "int8"), (1, 2.0j)],
)
def test_result_type_and_its_weak_flag_as_jax(args: tuple[Any, ...]) -> None:
    ours_args = [jnp.dtype(a) if isinstance(a, str) else a for a in args]
    theirs_args = [jax_numpy.dtype(a) if isinstance(a, str) else a for a in args]
    assert dtypes.result_type(*ours_args) == jax_dtypes.result_type(*theirs_args)
    assert dtypes.result_type(*ours_args, return_weak_type_flag=True) == jax_dtypes.result_type(
        *theirs_args, return_weak_type_flag=True
    )
    x, y = jnp.ones(2, "int8"), jax_numpy.ones(2, "int8")
    assert dtypes.result_type(x, 1.0, return_weak_type_flag=True) == jax_dtypes.result_type(y, 1.0, return_weak_type_flag=True)


def test_scalar_type_of_python_scalars_and_errors() -> None:
    for value in (True, 3, 2.5, 1j):
        assert dtypes.scalar_type_of(value) is jax_dtypes.scalar_type_of(value)
    with pytest.raises(TypeError):
        jax_dtypes.scalar_type_of(jax.random.key(0))
    with pytest.raises(JaxtypedTypeError, match=r"dtypes.scalar_type_of: invalid scalar value of dtype key<fry>"):
        dtypes.scalar_type_of(jt.random.key(0))
    with pytest.raises(JaxtypedTypeError, match="'foo'"):
        dtypes.canonicalize_dtype("foo")
    with pytest.raises(TypeError):
        jax_dtypes.canonicalize_dtype("foo")


def test_type_promotion_error_where_jax_raises_it() -> None:
    with pytest.raises(jax_dtypes.TypePromotionError) as theirs:
        _ = jax_numpy.ones(2, "float8_e4m3fn") + jax_numpy.ones(2, "bfloat16")
    with pytest.raises(TypePromotionError, match="no implicit dtype promotion path"):
        _ = jnp.ones(2, "float8_e4m3fn") + jnp.ones(2, "bfloat16")
    assert issubclass(TypePromotionError, error_kind(theirs.value))


def test_shared_names_are_jaxtyped_numpy_s() -> None:
    assert dtypes.bfloat16 is jax_dtypes.bfloat16 and dtypes.float0 == jnp.float0 == jax_dtypes.float0
    assert dtypes.finfo("bfloat16").eps == jax_dtypes.finfo("bfloat16").eps
    assert dtypes.iinfo("int16").max == jax_dtypes.iinfo(np.int16).max
    assert jt.dtypes is dtypes
