"""``jaxtyped.numpy.vectorize`` (layer L5): NumPy's ``vectorize`` with
JAX's semantics, built on ``vmap``: one ``vmap`` per broadcast (loop)
dimension, so an argument of size 1 along a loop dimension is not
batched there; a ``signature`` such as ``'(n,m),(m)->(n)'`` names core
dimensions the function sees whole.
"""

import functools
import re
from collections.abc import Callable, Collection
from typing import Any, Generic, TypeVar, cast

import numpy as np
import numpy.typing as npt

from jaxtyped._src.api import vmap
from jaxtyped._src.core.array import Array
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import broadcast_shapes

__all__ = ["vectorize"]

R = TypeVar("R")
CoreDims = tuple[str, ...]

_DIMENSION = r"\w+"
_ARGUMENT = rf"\((?:{_DIMENSION}(?:,{_DIMENSION})*)?\)"
_ARGUMENTS = rf"{_ARGUMENT}(?:,{_ARGUMENT})*"
_SIGNATURE = re.compile(rf"^{_ARGUMENTS}->{_ARGUMENTS}$")


def parse_signature(signature: str) -> tuple[list[CoreDims], list[CoreDims]]:
    """The core dimensions of each input and output of a gufunc
    ``signature`` such as ``'(m,n),(n)->(m)'``."""
    compact = re.sub(r"\s+", "", signature)
    if not _SIGNATURE.match(compact):
        raise JaxtypedValueError(f"jnp.vectorize: not a valid gufunc signature: {signature!r}")
    inputs, outputs = compact.split("->")

    def parts(side: str) -> list[CoreDims]:
        return [tuple(re.findall(_DIMENSION, arg)) for arg in re.findall(_ARGUMENT, side)]

    return parts(inputs), parts(outputs)


def _record(sizes: dict[str, int], shape: tuple[int, ...], dims: CoreDims, context: str, *, what: str) -> None:
    if len(shape) < len(dims):
        raise JaxtypedValueError(
            f"jnp.vectorize: {what} with shape {shape} has fewer dimensions than its core dimensions {dims} {context}"
        )
    for dim, size in zip(dims, shape[len(shape) - len(dims) :]):
        known = sizes.setdefault(dim, size)
        if known != size:
            raise JaxtypedValueError(f"jnp.vectorize: inconsistent size for core dimension {dim!r}: {size} vs {known} {context}")


class vectorize(Generic[R]):  # noqa: N801 - NumPy's and JAX's name
    """``pyfunc`` applied elementwise (or over ``signature``'s core
    dimensions) to broadcast array arguments, through ``vmap``.

    Arguments at positions or keywords in ``excluded`` are passed through
    unchanged; other keyword arguments are passed through unbatched too
    (JAX drops them silently).
    """

    pyfunc: Callable[..., R]
    excluded: frozenset[int | str]
    signature: str | None

    def __init__(self, pyfunc: Callable[..., R], *, excluded: Collection[int | str] = frozenset(), signature: str | None = None) -> None:
        self.pyfunc = pyfunc
        self.excluded = frozenset(excluded)
        self.signature = signature
        functools.update_wrapper(self, pyfunc)

    def __call__(self, *args: object, **kwargs: object) -> R:
        context = f"on vectorized function with excluded={set(self.excluded) or 'frozenset()'} and signature={self.signature!r}"
        kept = [i for i in range(len(args)) if i not in self.excluded]
        output_dims: list[CoreDims] | None = None
        if self.signature is not None:
            input_dims, output_dims = parse_signature(self.signature)
            if len(input_dims) != len(kept):
                raise JaxtypedTypeError(
                    f"jnp.vectorize: wrong number of positional arguments: expected {len(input_dims)}, got {len(kept)} {context}"
                )
        else:
            input_dims = [()] * len(kept)
        dims_of = dict(zip(kept, input_dims))
        for i in kept:
            if args[i] is None and dims_of[i]:
                raise JaxtypedValueError(f"jnp.vectorize: cannot pass None at position {i} with signature={self.signature!r}")
        static = {i: a for i, a in enumerate(args) if i in self.excluded or a is None}
        dynamic = [args[i] for i in kept if i not in static]
        core = [dims_of[i] for i in kept if i not in static]
        arrays = [asarray(a) for a in dynamic]
        sizes: dict[str, int] = {}
        for array, dims in zip(arrays, core):
            _record(sizes, array.shape, dims, context, what="an input")
        loop_shapes = [a.shape[: a.ndim - len(d)] for a, d in zip(arrays, core)]
        loop = broadcast_shapes("jnp.vectorize", *loop_shapes)

        def call(*dynamic_args: Array) -> R:
            merged: list[object] = list(dynamic_args)
            for i in sorted(static):
                merged.insert(i, static[i])
            out = self.pyfunc(*merged, **kwargs)
            produced: object = out
            if output_dims is not None:
                several = isinstance(produced, tuple)
                outputs = cast("tuple[object, ...]", produced) if several else (produced,)
                if len(output_dims) > 1 and not several:
                    raise JaxtypedTypeError(f"jnp.vectorize: the output must be a tuple when several outputs are expected {context}")
                if len(outputs) != len(output_dims):
                    raise JaxtypedTypeError(
                        f"jnp.vectorize: wrong number of outputs: expected {len(output_dims)}, got {len(outputs)} {context}"
                    )
                checked = dict(sizes)
                for value, dims in zip(outputs, output_dims):
                    _record(checked, tuple(np.shape(cast("npt.ArrayLike", value))), dims, context, what="an output")
            return out

        squeezed: list[Array] = []
        filled: list[tuple[int, ...]] = []
        for array, shape in zip(arrays, loop_shapes):
            squeezed.append(sh.squeeze(array, tuple(i for i, s in enumerate(shape) if s == 1)) if 1 in shape else array)
            filled.append((1,) * (len(loop) - len(shape)) + shape)
        function: Callable[..., Any] = call
        unbatched: list[int] = []
        # Innermost loop dimension first: each vmap adds one leading axis.
        for position in range(len(loop) - 1, -1, -1):
            in_axes = tuple(None if shape[position] == 1 else 0 for shape in filled)
            if all(axis is None for axis in in_axes):
                unbatched.append(position)
            else:
                function = vmap(function, in_axes=in_axes)
        result: object = function(*squeezed)
        if unbatched:
            axes = sorted(unbatched)
            if isinstance(result, tuple):
                parts = cast("tuple[Array, ...]", result)
                result = tuple(sh.expand_dims(r, axes) for r in parts)
            else:
                result = sh.expand_dims(cast(Array, result), axes)
        return cast(R, result)  # the structure pyfunc returned, batched
