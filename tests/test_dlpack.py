"""DLPack interchange against JAX: ``np.from_dlpack`` of jaxtyped arrays
(eager and jitted results; zero-copy and read-only where the consumer
supports DLPack 1.0, a copy for a legacy consumer), ``__dlpack_device__``,
``jaxtyped.dlpack.from_dlpack`` of host tensors, ``is_supported_dtype``,
and the errors (traced arrays, non-CPU devices, ``copy=False``, dtypes
NumPy cannot carry)."""

from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import dlpack
from jaxtyped.errors import JaxtypedTypeError, TracerArrayConversionError
from oracle import assert_same, error_kind, jax, jax_numpy

jax_dlpack: Any = pytest.importorskip("jax.dlpack")

DTYPES = ["bool", "int8", "uint16", "int32", "float16", "float32", "complex64"]


def _values(dtype: str) -> np.ndarray[Any, Any]:
    return (np.arange(6).reshape(2, 3) % 3).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_reads_arrays_through_dlpack_as_from_jax(dtype: str) -> None:
    host = _values(dtype)
    ours, theirs = jnp.asarray(host), jax_numpy.asarray(host)
    got, want = np.from_dlpack(ours), np.from_dlpack(theirs)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    assert ours.__dlpack_device__() == tuple(theirs.__dlpack_device__()) == (1, 0)
    # A view of the array's own host buffer, which nobody may write to.
    assert np.shares_memory(got, np.asarray(ours)) and not got.flags.writeable


def test_jitted_results_and_legacy_consumers() -> None:
    def double(a: jt.Array) -> jt.Array:
        return a * 2

    out = jt.jit(double)(jnp.arange(4.0))
    np.testing.assert_array_equal(np.from_dlpack(out), [0.0, 2.0, 4.0, 6.0])
    # A pre-1.0 consumer cannot take a read-only view: it gets a copy, or an error with copy=False.
    assert str(out.__dlpack__()).startswith('<capsule object "dltensor"')
    with pytest.raises(BufferError, match=r"Array.__dlpack__ of f32\[4\]: Cannot export readonly array"):
        out.__dlpack__(copy=False)
    copied = np.from_dlpack(out, copy=True)
    assert copied.flags.writeable and not np.shares_memory(copied, np.asarray(out))


def test_from_dlpack_of_host_tensors_as_jax() -> None:
    for host in (_values("float32"), _values("int16"), np.array(2.5)):
        assert_same(dlpack.from_dlpack(host), jax_dlpack.from_dlpack(host))
    assert_same(dlpack.from_dlpack(jnp.arange(3)), jax_dlpack.from_dlpack(jax_numpy.arange(3)))
    with pytest.raises(TypeError):
        jax_dlpack.from_dlpack([1, 2])
    with pytest.raises(JaxtypedTypeError, match="does not implement the DLPack protocol"):
        dlpack.from_dlpack([1, 2])


def test_from_dlpack_onto_a_device_as_jax() -> None:
    # device= places the result (it used to be accepted and ignored).
    host = _values("float32")
    ours = [dlpack.from_dlpack(host, device=jt.devices()[1]), jnp.from_dlpack(host, device=jt.devices()[2])]
    theirs = [jax_dlpack.from_dlpack(host, device=jax.devices()[1]), jax_numpy.from_dlpack(host, device=jax.devices()[2])]
    for x, y, device in zip(ours, theirs, jt.devices()[1:3], strict=True):
        assert x.devices() == {device} and repr(x.sharding) == repr(y.sharding)
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


def test_is_supported_dtype_as_jax_but_bfloat16() -> None:
    for name in (*DTYPES, "int64", "uint8", "float64", "complex128", "float8_e4m3fn", "int4"):
        assert dlpack.is_supported_dtype(jnp.dtype(name)) == jax_dlpack.is_supported_dtype(jnp.dtype(name)), name
    # JAX exports bfloat16 from the device; jaxtyped's export goes through NumPy, which has no code for it.
    assert jax_dlpack.is_supported_dtype(jnp.bfloat16) and not dlpack.is_supported_dtype(jnp.bfloat16)
    with pytest.raises(BufferError, match=r"Array.__dlpack__ of bf16\[2\]: DLPack only supports"):
        np.from_dlpack(jnp.ones(2, "bfloat16"))


def _exported(a: jt.Array) -> np.ndarray[Any, Any]:
    return np.from_dlpack(a)


def test_traced_arrays_have_no_buffer_to_export() -> None:
    try:
        jax.jit(_exported)(jax_numpy.ones(2))
    except Exception as err:  # noqa: BLE001 - compared by kind
        kind = error_kind(err)
    else:
        pytest.fail("JAX exported a tracer")
    with pytest.raises(TracerArrayConversionError, match=r"__dlpack__\(\) was called on a traced array f32\[2\]"):
        jt.jit(_exported)(jnp.ones(2))
    assert issubclass(TracerArrayConversionError, kind)
    with pytest.raises(BufferError, match="arrays live on the CPU"):
        jnp.ones(2).__dlpack__(dl_device=(2, 0))
