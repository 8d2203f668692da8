"""Lowering of ``real``, ``imag``, ``conj`` and ``complex``
(``lax/complex_ops.py``): ``jt.jit(f)(x)`` must equal eager ``f(x)`` bit
for bit (none of them rounds), NaN parts, infinities and signed zeros
included."""

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax

pytestmark = pytest.mark.usefixtures("x64")

NDArray = np.ndarray[Any, np.dtype[Any]]
Fn = Callable[..., jt.Array]
Unary = Callable[[jt.Array], jt.Array]
NAN, INF = float("nan"), float("inf")
COMPLEX: list[np.dtype[Any]] = [np.dtype(np.complex64), np.dtype(np.complex128)]
FLOATS: list[np.dtype[Any]] = [np.dtype(np.float32), np.dtype(np.float64)]
PART_SPECIALS = [NAN, INF, -INF, 0.0, -0.0, 1.0, -2.5]


def floats(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray:
    """Random floats with NaN, the infinities and signed zeros first."""
    out: NDArray = (rng.standard_normal(math.prod(shape)) * 3).astype(dtype)
    k = min(out.size, len(PART_SPECIALS))
    out[:k] = np.array(PART_SPECIALS[:k], dtype)
    return out.reshape(shape)


def complexes(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray:
    """Random complex numbers whose parts pair every special value."""
    part = np.dtype(np.float64) if dtype == np.complex128 else np.dtype(np.float32)
    re = floats(rng, shape, part)
    im = rng.permutation(floats(rng, shape, part).reshape(-1)).reshape(shape)
    out = np.empty(shape, dtype)
    out.real, out.imag = re, im  # not re + 1j * im, which turns infinities into NaN
    return out


def assert_identical(actual: object, expected: object) -> None:
    """Same dtype and shape, and the same bits up to NaN payloads."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.dtype, a.shape) == (e.dtype, e.shape)
    parts = (np.real, np.imag) if a.dtype.kind == "c" else (np.real,)
    for part in parts:
        pa, pe = part(a), part(e)
        np.testing.assert_array_equal(np.isnan(pa), np.isnan(pe), err_msg="NaN positions differ")
        ok = ~np.isnan(pa)
        np.testing.assert_array_equal(pa[ok], pe[ok])
        np.testing.assert_array_equal(np.signbit(pa[ok]), np.signbit(pe[ok]), err_msg="signs of zero differ")


def check(f: Fn, args: Sequence[NDArray]) -> None:
    """``jt.jit(f)`` and eager ``f`` agree exactly on ``args``."""
    arrays = [jtnp.asarray(a) for a in args]
    assert_identical(jt.jit(f)(*arrays), f(*arrays))


def check1(f: Unary, x: NDArray) -> None:
    """:func:`check` for a unary function."""
    check(f, [x])


UNARY: dict[str, Fn] = {"real": lax.real, "imag": lax.imag, "conj": lax.conj}


@pytest.mark.parametrize("shape", [(5, 7), (), (0,), (3, 0)])
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary(name: str, dtype: np.dtype[Any], shape: tuple[int, ...]) -> None:
    check(UNARY[name], [complexes(np.random.default_rng(0), shape, dtype)])


@pytest.mark.parametrize(
    ("x_shape", "y_shape"), [((5, 7), (5, 7)), ((), ()), ((0, 2), (0, 2)), ((4, 3), ()), ((), (4, 3))]
)
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_complex(dtype: np.dtype[Any], x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(1)
    check(lax.complex, [floats(rng, x_shape, dtype), floats(rng, y_shape, dtype)])


def test_complex_with_python_scalar() -> None:
    x = floats(np.random.default_rng(2), (2, 4), np.dtype(np.float32))
    check1(lambda a: lax.complex(a, -0.0), x)
    check1(lambda a: lax.complex(1.5, a), x)


def test_roundtrip_through_parts() -> None:
    z = complexes(np.random.default_rng(3), (4, 4), np.dtype(np.complex128))
    check1(lambda a: lax.complex(lax.real(a), lax.imag(lax.conj(a))), z)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_match_jax(dtype: np.dtype[Any]) -> None:
    jax: Any = pytest.importorskip("jax")
    z = complexes(np.random.default_rng(4), (3, 5), dtype)
    for name, fn in UNARY.items():
        assert_identical(jt.jit(fn)(jtnp.asarray(z)), jax.jit(getattr(jax.lax, name))(z))
    re, im = np.real(z), np.imag(z)
    assert_identical(jt.jit(lax.complex)(jtnp.asarray(re), jtnp.asarray(im)), jax.jit(jax.lax.complex)(re, im))


@pytest.mark.parametrize(
    ("fn", "needles"),
    [
        (lax.real, ("stablehlo.real",)),
        (lax.imag, ("stablehlo.imag",)),
        (lax.conj, ("stablehlo.real", "stablehlo.imag", "stablehlo.negate", "stablehlo.complex")),
    ],
)
def test_lowered_ops(fn: Fn, needles: tuple[str, ...]) -> None:
    text = jt.jit(fn).lower(jtnp.zeros((2,), np.complex64)).as_text()
    for needle in needles:
        assert needle in text


def test_complex_lowers_to_complex() -> None:
    x = jtnp.zeros((2,), np.float32)
    assert "stablehlo.complex" in jt.jit(lax.complex).lower(x, x).as_text()
