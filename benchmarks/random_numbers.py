"""PRNG keys beside JAX's: ``python benchmarks/random_numbers.py``.

(Not ``random.py``: a script of that name shadows the standard library's
``random`` module, which NumPy imports, for everything in its directory.)

Interleaving the two libraries run by run (medians, ratio jaxtyped / JAX):

- ``split(key, 10_000)`` under ``jit`` (seed to key data, so the result is
  a plain uint32 array): first call (trace + lower + compile + run, caches
  cleared) and compiled steady state;
- eager ``split(key)`` per call (a typed key in, two typed keys out; JAX's
  result waited for with ``block_until_ready``), and eager ``fold_in``.

Results are checked against JAX bit for bit before anything is timed.
- ``normal(key, (1_000_000,))``, ``uniform(key, (1_000_000,))`` and
  ``permutation(key, 1_000_000)`` under ``jit`` (seed in, float32 samples /
  int32 permutation out): first call and compiled steady state.

``--only`` picks sections.
"""

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
from side_by_side import benchmark_parser, block, compare, compare_jitted, import_jax

SECTIONS = (
    "split_jit", "split_eager",
    # --- distribution rows (R5) ---
    "normal", "uniform", "permutation",
)  # fmt: skip


def _split_many(library: Any) -> Callable[[Any], Any]:
    """``seed -> key_data(split(key(seed), 10_000))`` as a new function."""

    def f(seed: Any) -> Any:
        return library.random.key_data(library.random.split(library.random.key(seed), 10_000))

    return f


def _exact(ours: np.ndarray[Any, Any], theirs: np.ndarray[Any, Any]) -> bool:
    return bool(np.array_equal(ours, theirs))


def split_eager(jax: Any, repeat: int) -> None:
    """Eager ``split`` and ``fold_in`` of one typed key, per call."""
    print("== eager, per call (one typed key) ==")
    ours_key = jt.random.key(0)
    theirs_split: Callable[[], object] | None = None
    theirs_fold: Callable[[], object] | None = None
    if jax is not None:
        jax_key = jax.random.key(0)
        got = np.asarray(jt.random.key_data(jt.random.split(ours_key)))
        assert np.array_equal(got, np.asarray(jax.random.key_data(jax.random.split(jax_key))))

        def theirs_split_run() -> object:
            return jax.random.split(jax_key).block_until_ready()

        def theirs_fold_run() -> object:
            return jax.random.fold_in(jax_key, 3).block_until_ready()

        theirs_split, theirs_fold = theirs_split_run, theirs_fold_run

    def ours_split() -> None:
        block(jt.random.split(ours_key))

    def ours_fold() -> None:
        block(jt.random.fold_in(ours_key, 3))

    compare("split(key)", ours_split, theirs_split, number=500, repeat=repeat, unit="us")
    compare("fold_in(key, 3)", ours_fold, theirs_fold, number=500, repeat=repeat, unit="us")


def main() -> None:
    args = benchmark_parser(__doc__, SECTIONS).parse_args()
    jax = import_jax()
    sections = args.only.split(",")
    if "split_jit" in sections:
        seed = np.array(0, np.int32)
        compare_jitted(jax, "split(key, 10_000) (jit)", _split_many, (seed,), _exact, repeat=args.repeat, number=50)
    if "split_eager" in sections:
        split_eager(jax, args.repeat)
    # --- distribution rows (R5) ---
    million = 1_000_000
    for name, title, number in (
        ("normal", f"normal(key, ({million:_},)) (jit)", 20),
        ("uniform", f"uniform(key, ({million:_},)) (jit)", 20),
        ("permutation", f"permutation(key, {million:_}) (jit)", 2),  # about a second a call
    ):
        if name in sections:
            seed = np.array(0, np.int32)
            compare_jitted(jax, title, _sampler(name, million), (seed,), _exact, repeat=args.repeat, number=number)


# --- distribution rows (R5) ---


def _sampler(name: str, n: int) -> Callable[[Any], Callable[[Any], Any]]:
    """``library -> (seed -> random.<name>(key(seed), ...))``, a new function
    each call: ``normal``/``uniform`` of shape ``(n,)``, ``permutation`` of ``n``."""

    def make(library: Any) -> Callable[[Any], Any]:
        def f(seed: Any) -> Any:
            key = library.random.key(seed)
            if name == "permutation":
                return library.random.permutation(key, n)
            return getattr(library.random, name)(key, (n,))

        return f

    return make


if __name__ == "__main__":
    main()
