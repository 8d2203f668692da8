"""Misuses of the FFT family both checkers reject: strings where sizes or
axes are expected, a bare int where a sequence of lengths or sizes is
expected, unknown keywords, and results used at the wrong type."""

import jaxtyped.numpy as jnp
from jaxtyped import lax

x = jnp.ones((2, 4))

jnp.fft.fft(x, n="4")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.ifft(x, axis=(0, 1))  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.rfft("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.irfft(x, norm=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.hfft(x, s=(4,))  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.fft.ihfft(x, 4, 0, "ortho", 1)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.fft.fft2(x, s=4)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.ifft2(x, axes=0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.rfft2(x, n=4)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.fft.irfft2(x, norm=None, axis=0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.fft.fftn(x, axes="01")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.ifftn(x, s=3.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.rfftn(x, keepdims=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.fft.irfftn()  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.fft.fftfreq(4, 1.0, "float32")  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.fft.rfftfreq("8")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.fftshift(x, axes="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fft.ifftshift(x).shape = (4, 2)  # expect: mypy[misc] pyright[reportAttributeAccessIssue]
lax.fft(x, "fft", 4)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.fft(x, 0, (4,))  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.fft(x, fft_lengths=(4,))  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.FftType.DFT  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
