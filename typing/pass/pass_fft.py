"""The FFT family as users write it: the jnp.fft transforms with n/s,
axes and norm, the frequency and shift helpers, and lax.fft with a string
or an FftType; each result is annotated with its strict type and checked
with NumPy."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array

host = np.arange(12.0, dtype=np.float32).reshape(3, 4)
x = jnp.asarray(host)

spectrum: Array = jnp.fft.fft(x, n=6, axis=0, norm="ortho")
inverse: Array = jnp.fft.ifft(spectrum, n=3, axis=0, norm="ortho")
half: Array = jnp.fft.rfft(host)
real: Array = jnp.fft.irfft(half, n=4)
hermitian: Array = jnp.fft.hfft(half, 6)
inverse_hermitian: Array = jnp.fft.ihfft(host, axis=0)
assert spectrum.shape == (6, 4) and inverse.shape == (3, 4)
assert np.allclose(np.asarray(real), host, atol=1e-5)
assert hermitian.shape == (3, 6) and inverse_hermitian.shape == (2, 4)

planes: Array = jnp.fft.fft2(x, s=(4, 4))
planes_back: Array = jnp.fft.ifft2(planes, axes=(0, 1))
real_planes: Array = jnp.fft.rfft2(x, norm="forward")
real_back: Array = jnp.fft.irfft2(real_planes, s=(3, 4), norm="forward")
volume: Array = jnp.fft.fftn(jnp.ones((2, 2, 2, 2)))
volume_back: Array = jnp.fft.ifftn(volume, axes=[0, 1, 2, 3])
real_volume: Array = jnp.fft.rfftn(host, axes=(1, 0))
real_volume_back: Array = jnp.fft.irfftn(real_volume, s=(4, 3), axes=(1, 0))
assert planes.shape == planes_back.shape == (4, 4)
assert np.allclose(np.asarray(real_back), host, atol=1e-4) and np.allclose(np.asarray(real_volume_back), host, atol=1e-4)
assert volume.shape == volume_back.shape == (2, 2, 2, 2)

frequencies: Array = jnp.fft.fftfreq(8, 0.5)
real_frequencies: Array = jnp.fft.rfftfreq(8, d=jnp.asarray(0.5), dtype=jnp.float32)
on_device: Array = jnp.fft.fftfreq(4, device=jt.devices()[0])
centred: Array = jnp.fft.fftshift(frequencies)
uncentred: Array = jnp.fft.ifftshift(centred, axes=0)
assert np.allclose(np.asarray(uncentred), np.fft.fftfreq(8, 0.5))
assert real_frequencies.shape == (5,) and on_device.shape == (4,)

by_name: Array = lax.fft(x, "rfft", (3, 4))
by_type: Array = lax.fft(by_name, lax.FftType.IRFFT, [3, 4])
assert np.allclose(np.asarray(by_type), host, atol=1e-4)
kind: lax.FftType = lax.FftType.FFT
assert int(kind) == 0
