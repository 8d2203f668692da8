"""Signal processing: convolution, FFT power spectrum, moving averages with cumsum."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def moving_average(x, n):
    c = jnp.cumsum(jnp.concatenate([jnp.zeros(1), x]))
    return (c[n:] - c[:-n]) / n


t = jnp.linspace(0.0, 1.0, 64, endpoint=False)
signal = jnp.sin(2 * jnp.pi * 5 * t) + 0.5 * jnp.sin(2 * jnp.pi * 12 * t)
spectrum = jnp.abs(jnp.fft.rfft(signal)) ** 2
peak = jnp.argmax(spectrum)
assert int(peak) == 5
smooth = jnp.convolve(signal, jnp.ones(5) / 5, mode="same")
assert smooth.shape == signal.shape
ma = moving_average(signal, 4)
assert ma.shape == (61,)
energy = jt.jit(lambda s: jnp.sum(jnp.abs(jnp.fft.fft(s)) ** 2) / s.shape[0])(signal)
assert jnp.allclose(energy, jnp.sum(signal**2), rtol=1e-4)
d_energy = jt.grad(lambda s: jnp.sum(jnp.convolve(s, jnp.array([1.0, -1.0]), mode="valid") ** 2))(signal)
assert d_energy.shape == (64,)
reveal_type(spectrum)
reveal_type(smooth)
reveal_type(energy)
