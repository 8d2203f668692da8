"""Printing and file I/O of ``jaxtyped.numpy`` (layer L5): NumPy's print
options (which our ``Array`` repr follows, since it formats through
``np.array2string``), ``array_repr``/``array_str``, and ``save``/``savez``/
``load`` in NumPy's ``.npy``/``.npz`` formats.
"""

import contextlib
import os
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy.creation import asarray

__all__ = ["printoptions", "set_printoptions", "get_printoptions", "array_repr", "array_str", "save", "savez", "load"]

FileLike = str | os.PathLike[str] | IO[bytes]


@contextlib.contextmanager
def printoptions(
    *,
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    suppress: bool | None = None,
    nanstr: str | None = None,
    infstr: str | None = None,
    sign: str | None = None,
    floatmode: str | None = None,
    legacy: str | bool | None = None,
) -> Iterator[dict[str, Any]]:
    """Within the ``with`` block, print arrays with these options (NumPy's
    ``np.printoptions``; jaxtyped Arrays follow them)."""
    given = {k: v for k, v in locals().items() if v is not None}
    with np.printoptions(**given) as options:
        yield options


def set_printoptions(
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    suppress: bool | None = None,
    nanstr: str | None = None,
    infstr: str | None = None,
    formatter: dict[str, Any] | None = None,
    sign: str | None = None,
    floatmode: str | None = None,
    *,
    legacy: str | bool | None = None,
    override_repr: object = None,
) -> None:
    """Set the print options of arrays, NumPy's and jaxtyped's alike
    (``np.set_printoptions``)."""
    np.set_printoptions(
        precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth, suppress=suppress,
        nanstr=nanstr, infstr=infstr, formatter=formatter, sign=sign, floatmode=floatmode,
        legacy=legacy,  # type: ignore[arg-type]  # NumPy's stub narrows legacy to literals
        override_repr=override_repr,  # type: ignore[arg-type]  # a callable or None, as NumPy takes it
    )  # fmt: skip


def get_printoptions() -> dict[str, Any]:
    """The current print options (``np.get_printoptions``)."""
    return dict(np.get_printoptions())


def array_repr(
    arr: ArrayLike, max_line_width: int | None = None, precision: int | None = None, suppress_small: bool | None = None
) -> str:
    """``repr`` of ``arr`` as a jaxtyped Array, with these print options."""
    options = {
        k: v for k, v in {"linewidth": max_line_width, "precision": precision, "suppress": suppress_small}.items() if v is not None
    }
    with np.printoptions(**options):
        return repr(asarray(arr))


def array_str(a: ArrayLike, max_line_width: int | None = None, precision: int | None = None, suppress_small: bool | None = None) -> str:
    """``str`` of ``a``'s values, with these print options."""
    return np.array_str(np.asarray(asarray(a)), max_line_width=max_line_width, precision=precision, suppress_small=suppress_small)


def save(file: FileLike, arr: ArrayLike, allow_pickle: bool = True) -> None:
    """Write ``arr`` to ``file`` in NumPy's ``.npy`` format."""
    np.save(file, np.asarray(arr), allow_pickle=allow_pickle)


def savez(file: FileLike, *args: ArrayLike, allow_pickle: bool = True, **kwds: ArrayLike) -> None:
    """Write several arrays to ``file`` in NumPy's uncompressed ``.npz``
    format (``arr_0``, ... for positional ones)."""
    np.savez(file, *[np.asarray(a) for a in args], allow_pickle=allow_pickle, **{k: np.asarray(v) for k, v in kwds.items()})


def load(
    file: FileLike,
    mmap_mode: str | None = None,
    allow_pickle: bool = False,
    fix_imports: bool = True,
    encoding: str = "ASCII",
) -> Array:
    """Read an array saved in NumPy's ``.npy`` format as a jaxtyped Array
    (bfloat16, which ``.npy`` stores as 2-byte voids, is restored). For
    ``.npz`` archives use ``np.load``."""
    value: object = np.load(
        file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports, encoding=encoding  # type: ignore[arg-type]  # NumPy's stub narrows mmap_mode to literals
    )
    if not isinstance(value, np.ndarray):
        raise TypeError(f"jnp.load: {file!r} is not a single .npy array (got {type(value).__name__}); use np.load for .npz archives")
    host: np.ndarray[Any, np.dtype[Any]] = value
    if host.dtype == np.dtype("V2"):
        host = host.view(dtypes.bfloat16)
    return asarray(host)
