"""Linear algebra beside JAX's: ``python benchmarks/linalg.py``.

Under ``jit``, interleaving the two libraries run by run (medians, ratio
jaxtyped / JAX):

- ``jnp.linalg.solve`` of a 512x512 system (one right-hand side);
- ``jnp.linalg.cholesky`` of a 1024x1024 symmetric positive-definite matrix;
- ``jnp.linalg.svd`` of a 256x256 matrix (``u``, ``s``, ``vh``);
- ``jnp.linalg.inv`` of a batch of 1000 8x8 matrices;
- ``jnp.linalg.eigh`` of a 256x256 symmetric matrix;
- ``scipy.linalg.expm`` of a 64x64 matrix (Pade approximant, squarings);

each as its first call (trace + lower + compile + run, caches cleared, a new
function) and its compiled steady state. Results are checked against JAX
before anything is timed (decompositions up to the sign of each singular
or eigen vector).

``--only solve,cholesky,svd,inv,eigh,expm`` runs a subset.
"""

import functools
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from side_by_side import Agree, benchmark_parser, compare_jitted, import_jax

CASES = ("solve", "cholesky", "svd", "inv", "eigh", "expm")


def _inputs(name: str) -> tuple[np.ndarray[Any, Any], ...]:
    rng = np.random.default_rng(0)
    if name == "solve":
        return rng.standard_normal((512, 512)).astype(np.float32), rng.standard_normal(512).astype(np.float32)
    if name == "cholesky":
        x = rng.standard_normal((1024, 1024)).astype(np.float32)
        return ((x @ x.T / 1024 + np.eye(1024)).astype(np.float32),)
    if name == "svd":
        return (rng.standard_normal((256, 256)).astype(np.float32),)
    if name == "inv":
        return ((rng.standard_normal((1000, 8, 8)) + 4 * np.eye(8)).astype(np.float32),)
    if name == "expm":
        return ((rng.standard_normal((64, 64)) / 4).astype(np.float32),)
    x = rng.standard_normal((256, 256)).astype(np.float32)
    return ((x + x.T).astype(np.float32),)


def _make(name: str, library: Any) -> Callable[..., Any]:
    """``library.numpy.linalg.<name>`` (``library.scipy.linalg.expm``) as a
    new function (``library``: ``jaxtyped`` or ``jax``), returning an array
    or a tuple of arrays."""

    def f(*args: Any) -> Any:
        if name == "expm":
            scipy_linalg: Any = importlib.import_module(f"{library.__name__}.scipy.linalg")
            return scipy_linalg.expm(args[0])
        out: Any = getattr(library.numpy.linalg, name)(*args)
        # Named tuples (svd, eigh) as plain tuples: both libraries' leaves.
        fields: int | None = getattr(out, "_fields", None) and len(out._fields)
        return tuple(out[i] for i in range(fields)) if fields else out

    return f


def _agree(name: str) -> Agree:
    """Values to float32 rounding; the vectors of svd and eigh up to sign."""
    tolerance = {"solve": 1e-2, "cholesky": 1e-3, "inv": 1e-3, "expm": 1e-3}.get(name, 2e-3)
    if name in ("svd", "eigh"):
        return lambda ours, theirs: bool(np.allclose(np.abs(ours), np.abs(theirs), rtol=tolerance, atol=tolerance))
    return lambda ours, theirs: bool(np.allclose(ours, theirs, rtol=tolerance, atol=tolerance))


TITLES = {
    "solve": "jnp.linalg.solve 512x512 (jit)",
    "cholesky": "jnp.linalg.cholesky 1024x1024 SPD (jit)",
    "svd": "jnp.linalg.svd 256x256 (jit)",
    "inv": "jnp.linalg.inv 1000x8x8 (jit)",
    "eigh": "jnp.linalg.eigh 256x256 (jit)",
    "expm": "scipy.linalg.expm 64x64 (jit)",
}


def main() -> None:
    args = benchmark_parser(__doc__, CASES).parse_args()
    jax = import_jax()
    for name in args.only.split(","):
        compare_jitted(
            jax, TITLES[name], functools.partial(_make, name), _inputs(name), _agree(name), repeat=args.repeat, number=5
        )


if __name__ == "__main__":
    main()
