"""FFTs beside JAX's: ``python benchmarks/fft.py``.

Under ``jit``, interleaving the two libraries run by run (medians, ratio
jaxtyped / JAX):

- ``jnp.fft.fft`` of 2**20 complex64 values;
- ``jnp.fft.rfft2`` of a 1024x1024 float32 image;

each as its first call (trace + lower + compile + run, caches cleared) and
its compiled steady state. Both lower to one ``stablehlo.fft``, so the
steady state should match JAX's. Results are checked against JAX before
anything is timed (to float32 rounding).
"""

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from side_by_side import benchmark_parser, compare_jitted, import_jax

CASES = ("fft", "rfft2")


def _make(name: str, library: Any) -> Callable[[Any], Any]:
    """``library.numpy.fft.<name>`` as a new function (``library``: ``jaxtyped`` or ``jax``)."""

    def f(x: Any) -> Any:
        return getattr(library.numpy.fft, name)(x)

    return f


def _agree(ours: np.ndarray[Any, Any], theirs: np.ndarray[Any, Any]) -> bool:
    scale = float(np.abs(theirs).max())
    return bool(np.allclose(ours, theirs, rtol=1e-4, atol=1e-5 * scale))


def main() -> None:
    args = benchmark_parser(__doc__, CASES).parse_args()
    jax = import_jax()
    rng = np.random.default_rng(0)
    inputs = {
        "fft": (rng.standard_normal(2**20) + 1j * rng.standard_normal(2**20)).astype(np.complex64),
        "rfft2": rng.standard_normal((1024, 1024)).astype(np.float32),
    }
    titles = {"fft": "jnp.fft.fft of 2**20 complex64 (jit)", "rfft2": "jnp.fft.rfft2 of 1024x1024 float32 (jit)"}
    for name in args.only.split(","):
        compare_jitted(jax, titles[name], functools.partial(_make, name), (inputs[name],), _agree, repeat=args.repeat, number=10)


if __name__ == "__main__":
    main()
