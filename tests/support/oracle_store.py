"""JAX's results of the case tables, kept for the suite's second run.

``tools/test.sh`` runs the suite twice, the second time under the debug
mode (``JAXTYPED_DEBUG=1``), both runs sharing one scratch directory
(``JAXTYPED_TEST_CACHE_DIR``). JAX's answers do not depend on the debug
mode, so the first run writes each :class:`oracle.CaseTable`'s JAX results
there and the second loads them instead of tracing, lowering and running
JAX again (about a sixth of a run with warm compilation caches). Only
jaxtyped's side of each comparison runs twice.

A stored table is found by its name, its x64 setting, its case ids, the
JAX and jaxlib versions, and a digest of every Python source under
``src/`` and ``tests/``: a result is never read by code other than the
code that wrote it. Without ``JAXTYPED_TEST_CACHE_DIR`` (a plain
``pytest``) nothing is stored or read. Results that do not pickle (a
table whose JAX results hold something pickle cannot carry) are simply
not stored: the second run computes them again. (``CaseTable`` stores
JAX's errors as plain ones of the kind they are compared by: JAX's own
error classes need arguments, a tracer, that pickle cannot carry.)
"""

import functools
import hashlib
import importlib.metadata
import os
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["load", "save"]

_ROOT = Path(__file__).resolve().parents[2]  # the repository: tests/support/oracle_store.py


def _directory() -> Path | None:
    shared = os.environ.get("JAXTYPED_TEST_CACHE_DIR")
    return Path(shared) / "oracle" if shared else None


@functools.cache
def _code_digest() -> str:
    """The versions and the sources every stored result depends on."""
    digest = hashlib.sha256()
    for package in ("jax", "jaxlib"):
        digest.update(f"{package}={importlib.metadata.version(package)};".encode())
    digest.update(os.environ.get("JAXTYPED_TEST_DEVICES", "").encode())
    for top in ("src", "tests"):
        for path in sorted((_ROOT / top).rglob("*.py")):
            digest.update(str(path.relative_to(_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _path(name: str, x64: bool, case_ids: Sequence[str]) -> Path | None:
    directory = _directory()
    if directory is None:
        return None
    key = hashlib.sha256(f"{_code_digest()}\n{name}\n{x64}\n{'|'.join(case_ids)}".encode()).hexdigest()[:32]
    return directory / f"{name}-{key}.pickle"


def load(name: str, x64: bool, case_ids: Sequence[str]) -> dict[str, Any] | None:
    """The stored results of this table, if the first run stored them."""
    path = _path(name, x64, case_ids)
    if path is None or not path.exists():
        return None
    with path.open("rb") as stored:
        results: dict[str, Any] = pickle.load(stored)
    return results


def save(name: str, x64: bool, case_ids: Sequence[str], results: dict[str, Any]) -> None:
    """Store a table's results for the second run (atomically: the other
    xdist worker may store the same table at the same time)."""
    path = _path(name, x64, case_ids)
    if path is None:
        return
    try:
        payload = pickle.dumps(results)
    except Exception:  # noqa: BLE001 - not storable: the second run recomputes it
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(payload)
    partial.replace(path)
