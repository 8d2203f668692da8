"""NumPy's other dtype names in ``jaxtyped.numpy`` (layer L5): ``bool``,
``float_``, ``int_``, ``uint``, ``complex_``, ``double``, ``single``,
``cdouble``, ``csingle`` (callable scalar types, canonicalised as JAX
does: ``float_`` is float64, so float32 unless x64 is on), NumPy's abstract
``object_``/``flexible``/``character``, ``ComplexWarning``, and a minimal
``ufunc``/``frompyfunc``.
"""

from collections.abc import Callable
from typing import Final

import ml_dtypes
import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy.creation import ScalarType, asarray
from jaxtyped._src.numpy.vectorize import vectorize
from jaxtyped._src.util import canonicalize_axis

__all__ = [
    "bool_scalar", "float_", "int_", "uint", "complex_", "double", "single", "cdouble", "csingle",
    "object_", "flexible", "character", "ComplexWarning", "ufunc", "frompyfunc",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e3m4",
    "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "int4", "uint4", "int2",
    "uint2", "int1", "uint1",
]  # fmt: skip

# Exported as ``jnp.bool`` (NumPy 2's name); not named ``bool`` here so that
# the builtin stays visible to this module's annotations.
bool_scalar: Final[ScalarType] = ScalarType(np.dtype(np.bool_))
float_: Final[ScalarType] = ScalarType(np.dtype(np.float64))
int_: Final[ScalarType] = ScalarType(np.dtype(np.int64))
uint: Final[ScalarType] = ScalarType(np.dtype(np.uint64))
complex_: Final[ScalarType] = ScalarType(np.dtype(np.complex128))
double: Final[ScalarType] = ScalarType(np.dtype(np.float64))
single: Final[ScalarType] = ScalarType(np.dtype(np.float32))
cdouble: Final[ScalarType] = ScalarType(np.dtype(np.complex128))
csingle: Final[ScalarType] = ScalarType(np.dtype(np.complex64))

# ml_dtypes' narrow types: arrays of them are created, converted, printed
# and computed with (under jit too, but for float6_*, int1 and uint1); they
# promote only with Python scalars, as in JAX.
float8_e4m3fn: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e4m3fn))
float8_e5m2: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e5m2))
float8_e4m3b11fnuz: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e4m3b11fnuz))
float8_e4m3fnuz: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e4m3fnuz))
float8_e5m2fnuz: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e5m2fnuz))
float8_e3m4: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e3m4))
float8_e4m3: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e4m3))
float8_e8m0fnu: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float8_e8m0fnu))
float4_e2m1fn: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float4_e2m1fn))
float6_e2m3fn: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float6_e2m3fn))
float6_e3m2fn: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.float6_e3m2fn))
int4: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.int4))
uint4: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.uint4))
int2: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.int2))
uint2: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.uint2))
int1: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.int1))
uint1: Final[ScalarType] = ScalarType(np.dtype(ml_dtypes.uint1))

object_ = np.object_
flexible = np.flexible
character = np.character
ComplexWarning = np.exceptions.ComplexWarning


class ufunc:  # noqa: N801 - NumPy's and JAX's name
    """A universal function made of a Python function of ``nin`` scalars
    returning ``nout`` scalars: called elementwise (through
    :class:`vectorize`), with ``outer``, and with ``reduce``/``accumulate``
    folding along an axis from its first element (``at``/``reduceat`` are
    not provided)."""

    nin: int
    nout: int
    nargs: int
    identity: object
    __name__: str

    def __init__(
        self,
        func: Callable[..., Array],
        /,
        nin: int,
        nout: int,
        *,
        name: str | None = None,
        nargs: int | None = None,
        identity: object = None,
        call: Callable[..., Array] | None = None,
        reduce: Callable[..., Array] | None = None,
        accumulate: Callable[..., Array] | None = None,
    ) -> None:
        self._func = func
        self.nin = int(nin)
        self.nout = int(nout)
        self.nargs = nin if nargs is None else int(nargs)
        self.identity = identity
        self.__name__ = name or str(getattr(func, "__name__", "ufunc"))
        self._call = call or vectorize(func)
        self._reduce = reduce
        self._accumulate = accumulate

    def __repr__(self) -> str:
        return f"<jnp.ufunc '{self.__name__}'>"

    def __call__(self, *args: ArrayLike) -> Array:
        if len(args) != self.nin:
            raise JaxtypedTypeError(f"{self!r}: expected {self.nin} arguments, got {len(args)}")
        return self._call(*args)

    def outer(self, A: ArrayLike, B: ArrayLike, /) -> Array:  # noqa: N803 - NumPy's names
        """``self(a, b)`` for every pair of elements of ``A`` and ``B``."""
        if self.nin != 2:
            raise JaxtypedValueError(f"{self!r}.outer: only binary ufuncs have an outer product")
        a, b = asarray(A), asarray(B)
        return self(sh.reshape(a, (*a.shape, *(1,) * b.ndim)), b)

    def _binary(self, what: str) -> None:
        if self.nin != 2 or self.nout != 1:
            raise JaxtypedValueError(f"{self!r}.{what}: only binary ufuncs with one output can {what}")

    def reduce(self, a: ArrayLike, axis: int | None = 0, keepdims: bool = False) -> Array:
        """Fold ``self`` along ``axis`` (the flattened array for None)."""
        self._binary("reduce")
        if self._reduce is not None:
            return self._reduce(a, axis=axis, keepdims=keepdims)
        x = asarray(a)
        if axis is None:
            x, ax = sh.ravel(x), 0
        else:
            ax = canonicalize_axis(axis, x.ndim, where=f"{self!r}.reduce axis")
        if x.shape[ax] == 0:
            raise JaxtypedValueError(f"{self!r}.reduce: zero-size axis with no identity")
        total = sh.squeeze(slice_in_dim(x, 0, 1, axis=ax), ax)
        for i in range(1, x.shape[ax]):
            total = self(total, sh.squeeze(slice_in_dim(x, i, i + 1, axis=ax), ax))
        if keepdims:
            total = sh.expand_dims(total, tuple(range(asarray(a).ndim)) if axis is None else ax)
        return total

    def accumulate(self, a: ArrayLike, axis: int = 0) -> Array:
        """The running fold of ``self`` along ``axis``."""
        self._binary("accumulate")
        if self._accumulate is not None:
            return self._accumulate(a, axis=axis)
        x = asarray(a)
        ax = canonicalize_axis(axis, x.ndim, where=f"{self!r}.accumulate axis")
        running = sh.squeeze(slice_in_dim(x, 0, 1, axis=ax), ax)
        steps = [running]
        for i in range(1, x.shape[ax]):
            running = self(running, sh.squeeze(slice_in_dim(x, i, i + 1, axis=ax), ax))
            steps.append(running)
        return sh.stack(steps, axis=ax)


def frompyfunc(func: Callable[..., Array], /, nin: int, nout: int, *, identity: object = None) -> ufunc:
    """A :class:`ufunc` applying ``func`` elementwise."""
    return ufunc(func, nin, nout, identity=identity)
