"""Discrete Fourier transforms with JAX's ``jax.numpy.fft`` names,
signatures and semantics."""

__all__: list[str] = []
