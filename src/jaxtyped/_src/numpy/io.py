"""Printing and file I/O of ``jaxtyped.numpy`` (layer L5): NumPy's print
options (which our ``Array`` repr follows, since it formats through
``np.array2string``), ``array_repr``/``array_str``, and ``save``/``savez``/
``load`` in NumPy's ``.npy``/``.npz`` formats.
"""

import os
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any, Literal, Protocol, cast, runtime_checkable

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.errors import JaxtypedTypeError

__all__ = ["printoptions", "set_printoptions", "get_printoptions", "array_repr", "array_str", "save", "savez", "load"]



@runtime_checkable
class Writable(Protocol):
    """A binary file open for writing (``io.BytesIO``, ``open(..., 'wb')``)."""

    def write(self, data: bytes, /) -> object:
        """Write ``data``."""
        ...


@runtime_checkable
class Readable(Protocol):
    """A binary file open for reading, with ``seek``."""

    def read(self, size: int = ..., /) -> bytes:
        """Read up to ``size`` bytes."""
        ...

    def seek(self, offset: int, whence: int = ..., /) -> int:
        """Move to ``offset``."""
        ...


PathLike = str | os.PathLike[str]


Sign = Literal["-", "+", " "]
FloatMode = Literal["fixed", "unique", "maxprec", "maxprec_equal"]
Legacy = Literal["1.13", "1.21", "1.25", "2.1", False]


def printoptions(
    *,
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    suppress: bool | None = None,
    nanstr: str | None = None,
    infstr: str | None = None,
    sign: Sign | None = None,
    floatmode: FloatMode | None = None,
    legacy: Legacy | None = None,
) -> AbstractContextManager[Mapping[str, object]]:
    """Within the ``with`` block, print arrays with these options (NumPy's
    ``np.printoptions``; jaxtyped Arrays follow them). None leaves an
    option as it is."""
    return np.printoptions(
        precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth, suppress=suppress,
        nanstr=nanstr, infstr=infstr, sign=sign, floatmode=floatmode, legacy=legacy,
    )  # fmt: skip


def set_printoptions(
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    suppress: bool | None = None,
    nanstr: str | None = None,
    infstr: str | None = None,
    formatter: Mapping[str, Callable[..., str]] | None = None,
    sign: Sign | None = None,
    floatmode: FloatMode | None = None,
    *,
    legacy: Legacy | None = None,
    override_repr: Callable[[np.ndarray[Any, np.dtype[Any]]], str] | None = None,
) -> None:
    """Set the print options of arrays, NumPy's and jaxtyped's alike
    (``np.set_printoptions``; None leaves an option as it is)."""
    np.set_printoptions(
        precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth, suppress=suppress,
        nanstr=nanstr, infstr=infstr,
        formatter=formatter,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # NumPy's stub wants its TypedDict of formatters
        sign=sign, floatmode=floatmode, legacy=legacy, override_repr=override_repr,
    )  # fmt: skip


def get_printoptions() -> dict[str, object]:
    """The current print options (``np.get_printoptions``)."""
    return dict(np.get_printoptions())


def array_repr(
    arr: ArrayLike, max_line_width: int | None = None, precision: int | None = None, suppress_small: bool | None = None
) -> str:
    """``repr`` of ``arr`` as a jaxtyped Array, with these print options."""
    with np.printoptions(linewidth=max_line_width, precision=precision, suppress=suppress_small):
        return repr(asarray(arr))


def array_str(a: ArrayLike, max_line_width: int | None = None, precision: int | None = None, suppress_small: bool | None = None) -> str:
    """``str`` of ``a``'s values, with these print options."""
    return np.array_str(np.asarray(asarray(a)), max_line_width=max_line_width, precision=precision, suppress_small=suppress_small)


def save(file: PathLike | Writable, arr: ArrayLike, allow_pickle: bool = True) -> None:
    """Write ``arr`` to ``file`` in NumPy's ``.npy`` format."""
    np.save(file, np.asarray(arr), allow_pickle=allow_pickle)


def savez(file: PathLike | Writable, *args: ArrayLike, allow_pickle: bool = True, **kwds: ArrayLike) -> None:
    """Write several arrays to ``file`` in NumPy's uncompressed ``.npz``
    format (``arr_0``, ... for positional ones)."""
    np.savez(file, *[np.asarray(a) for a in args], allow_pickle=allow_pickle, **{k: np.asarray(v) for k, v in kwds.items()})


def load(
    file: PathLike | Readable,
    mmap_mode: Literal["r+", "r", "w+", "c"] | None = None,
    allow_pickle: bool = False,
    fix_imports: bool = True,
    encoding: Literal["ASCII", "latin1", "bytes"] = "ASCII",
) -> Array:
    """Read an array saved in NumPy's ``.npy`` format as a jaxtyped Array
    (bfloat16, which ``.npy`` stores as 2-byte voids, is restored). For
    ``.npz`` archives use ``np.load``."""
    value: object = np.load(
        file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports, encoding=encoding
    )
    if not isinstance(value, np.ndarray):
        raise JaxtypedTypeError(f"jnp.load: {file!r} is not a single .npy array (got {type(value).__name__}); use np.load for .npz archives")
    host = cast("np.ndarray[Any, np.dtype[Any]]", value)
    if host.dtype == np.dtype("V2"):
        host = host.view(dtypes.bfloat16)
    return asarray(host)
