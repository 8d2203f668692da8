# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false
# (JAX-form rules are untyped lambdas, as JAX users write them.)
"""``jaxtyped.ffi``: a C function compiled here with the system C compiler
against the XLA FFI header jaxlib ships, registered and called eagerly,
under jit, under vmap (every vmap_method), from a JAX-form primitive
lowered with ``ffi_lowering``, and from JAX itself (the same library gives
the same numbers)."""

import ctypes
import functools
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from oracle import debug_violations, jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, ffi
from jaxtyped.extend import core
from jaxtyped.extend.interpreters import mlir

SOURCE = Path(__file__).with_name("scale_ffi.c")
X = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(2, 3)


@functools.cache
def library(tmp: Path) -> ctypes.CDLL:
    compiler = shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler (cc) on this machine: the FFI test builds a shared library")
    out = tmp / "libscale_ffi.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-I", ffi.include_dir(), "-o", str(out), str(SOURCE)], check=True)
    return ctypes.CDLL(str(out))


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> str:
    lib = library(tmp_path_factory.mktemp("ffi"))
    ffi.register_ffi_target("jaxtyped_test_scale_add", ffi.pycapsule(lib.scale_add_f32))
    return "jaxtyped_test_scale_add"


def scale_add(
    target: str, x: "np.ndarray[Any, np.dtype[np.float32]] | jt.Array", method: ffi.VmapMethod | None = "sequential", **attrs: object
) -> jt.Array:
    out = ffi.ffi_call(target, jt.ShapeDtypeStruct(x.shape, np.float32), vmap_method=method)(x, **attrs)
    assert isinstance(out, jt.Array)
    return out


def test_include_dir_has_the_ffi_headers() -> None:
    assert (Path(ffi.include_dir()) / "xla" / "ffi" / "api" / "c_api.h").is_file()


def test_eager_and_jit(target: str) -> None:
    expected = 2.5 * X + 3
    np.testing.assert_allclose(np.asarray(scale_add(target, X, factor=2.5, offset=3)), expected, rtol=1e-6)
    def f(x: "np.ndarray[Any, np.dtype[np.float32]] | jt.Array") -> jt.Array:
        return scale_add(target, x, factor=2.5, offset=3)

    jitted = jt.jit(f)
    np.testing.assert_allclose(np.asarray(jitted(X)), expected, rtol=1e-6)
    text = jitted.lower(X).as_text()
    assert 'stablehlo.custom_call @jaxtyped_test_scale_add' in text and "api_version = 4" in text
    assert "factor = 2.500000e+00 : f64" in text and "offset = 3 : i64" in text


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"])
def test_vmap_methods(target: str, method: ffi.VmapMethod) -> None:
    out = jt.vmap(lambda x: scale_add(target, x, method, factor=-1.0), in_axes=1)(X)
    np.testing.assert_allclose(np.asarray(out), -X.T, rtol=1e-6)
    jitted = jt.jit(jt.vmap(lambda x: scale_add(target, x, method, factor=2.0)))(X)
    np.testing.assert_allclose(np.asarray(jitted), 2 * X, rtol=1e-6)


def test_vmap_without_a_method_and_grad_are_errors(target: str) -> None:
    with pytest.raises(errors.JaxtypedNotImplementedError, match="vmap_method"):
        jt.vmap(lambda x: scale_add(target, x, None))(X)
    with pytest.raises(errors.MissingRuleError, match="ffi_call"):
        jt.grad(lambda x: jnp.sum(scale_add(target, jnp.asarray(x))))(X)
    with pytest.raises(errors.JaxtypedTypeError, match="ffi attribute factor"):
        scale_add(target, X, factor=[1.0])
    with pytest.raises((errors.JaxtypedValueError, *debug_violations()), match="vmap_method"):
        ffi.ffi_call(target, jt.ShapeDtypeStruct((2,), np.float32), vmap_method="loop")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse under test


def test_jax_form_primitive_lowered_with_ffi_lowering(target: str) -> None:
    p = core.Primitive("scale_add_ffi")
    p.def_abstract_eval(lambda x, *, factor: core.ShapedArray(x.shape, x.dtype))
    mlir.register_lowering(p, ffi.ffi_lowering(target))
    out = jt.jit(lambda x: p.bind(x, factor=4.0))(X)
    assert isinstance(out, jt.Array)
    np.testing.assert_allclose(np.asarray(out), 4 * X, rtol=1e-6)


def test_jax_calls_the_same_library_with_the_same_result(target: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    handle = ctypes.CDLL(next(Path(tmp_path_factory.getbasetemp()).glob("ffi*/libscale_ffi.so")).as_posix())
    jax.ffi.register_ffi_target("jaxtyped_test_scale_add_jax", jax.ffi.pycapsule(handle.scale_add_f32), platform="cpu")
    theirs = jax.ffi.ffi_call("jaxtyped_test_scale_add_jax", jax.ShapeDtypeStruct(X.shape, np.float32))(X, factor=1.5, offset=2)
    ours = scale_add(target, X, factor=1.5, offset=2)
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
