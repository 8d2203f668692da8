"""Return types of the FFT family: every transform and helper returns an
Array whatever array-like it is given; lax.FftType(3) is an FftType."""

from typing import Any

import numpy as np
from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, n: "np.ndarray[Any, np.dtype[np.float32]]") -> None:
    assert_type(jnp.fft.fft(x), Array)
    assert_type(jnp.fft.ifft(a, 4), Array)
    assert_type(jnp.fft.rfft(n, axis=0), Array)
    assert_type(jnp.fft.irfft(x, norm="ortho"), Array)
    assert_type(jnp.fft.hfft(a), Array)
    assert_type(jnp.fft.ihfft(n), Array)
    assert_type(jnp.fft.fft2(x), Array)
    assert_type(jnp.fft.ifft2(a, s=(2, 2)), Array)
    assert_type(jnp.fft.rfft2(n), Array)
    assert_type(jnp.fft.irfft2(x, axes=(0, 1)), Array)
    assert_type(jnp.fft.fftn(a), Array)
    assert_type(jnp.fft.ifftn(x, norm="forward"), Array)
    assert_type(jnp.fft.rfftn(n, s=[4]), Array)
    assert_type(jnp.fft.irfftn(x), Array)
    assert_type(jnp.fft.fftfreq(4), Array)
    assert_type(jnp.fft.rfftfreq(5, 0.1, dtype=jnp.float32), Array)
    assert_type(jnp.fft.fftshift(a), Array)
    assert_type(jnp.fft.ifftshift(x, axes=(0,)), Array)
    assert_type(lax.fft(x, "fft", (4,)), Array)
    assert_type(lax.fft(n, lax.FftType.RFFT, [4]), Array)
    assert_type(lax.FftType(3), lax.FftType)
