"""Image resampling (layer L5), JAX's ``jax.image``: :func:`resize`,
:func:`scale_and_translate` and :class:`ResizeMethod`.

Every method but ``nearest`` is separable: for each resampled dimension an
``(in, out)`` weight matrix is built from a kernel, the scale and the
translation, and contracted with the image (one ``dot_general``), one
dimension at a time. Pixel ``j`` has its centre at ``j + 0.5``; output pixel
``i`` samples the input at ``(i + 0.5) / scale - translation / scale``.
When downsampling with ``antialias`` the kernel is widened by ``1 / scale``
so that it averages every input pixel it covers. Each output's weights are
normalised to sum to 1, and an output whose sample point falls outside the
input is 0 (JAX's rules, including its cutoff for a near-zero weight sum).
``nearest`` picks input pixels with a gather. No primitive of its own:
derivatives, ``vmap`` and ``jit`` are those of the operations used.
"""

import enum
import functools
import operator
from collections.abc import Sequence
from typing import Any, Final, SupportsIndex, cast

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.core.interpreter import compile_time_eval
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, ShapeMismatchError
from jaxtyped._src.lax.convenience import index_in_dim
from jaxtyped._src.lax.dot import Precision, PrecisionLike, canonicalize_precision, dot_general
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import broadcasted_iota, reshape, transpose
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.manipulation_util import take_static
from jaxtyped._src.numpy.promotion import asarray_operand, promote_args_inexact, to_inexact_dtype
from jaxtyped._src.util import canonicalize_axes

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]


class ResizeMethod(enum.Enum):
    """The resampling methods of :func:`resize` and :func:`scale_and_translate`
    (JAX's ``jax.image.ResizeMethod``, same members and values)."""

    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str) -> "ResizeMethod":
        """The method named ``s``: one of JAX's lower-case names and aliases
        (``"bilinear"``, ``"trilinear"`` and ``"triangle"`` are LINEAR,
        ``"bicubic"`` and ``"tricubic"`` CUBIC, ``"cubic-pytorch"`` and
        ``"bicubic-pytorch"`` CUBIC_PYTORCH)."""
        method = _NAMES.get(s)
        if method is None:
            raise JaxtypedValueError(f'Unknown resize method "{s}"; the names are {", ".join(sorted(_NAMES))}')
        return method


_NAMES: Final[dict[str, ResizeMethod]] = {
    "nearest": ResizeMethod.NEAREST,
    "linear": ResizeMethod.LINEAR,
    "bilinear": ResizeMethod.LINEAR,
    "trilinear": ResizeMethod.LINEAR,
    "triangle": ResizeMethod.LINEAR,
    "lanczos3": ResizeMethod.LANCZOS3,
    "lanczos5": ResizeMethod.LANCZOS5,
    "cubic": ResizeMethod.CUBIC,
    "bicubic": ResizeMethod.CUBIC,
    "tricubic": ResizeMethod.CUBIC,
    "cubic-pytorch": ResizeMethod.CUBIC_PYTORCH,
    "bicubic-pytorch": ResizeMethod.CUBIC_PYTORCH,
    "area": ResizeMethod.AREA,
}

# An output whose weights sum to less than this (in magnitude) is 0, not the
# division of rounding noise by rounding noise. JAX's cutoff: 1000 float32
# epsilons, whatever dtype the weights are computed in.
_MIN_WEIGHT_SUM: Final = 1000 * float(np.finfo(np.float32).eps)
# Edge padding of CUBIC_PYTORCH without antialiasing: its kernel's radius.
_PYTORCH_PAD: Final = 2

_Precision = tuple[Precision, Precision] | None


# === arguments ===


def _method(fn: str, method: object) -> ResizeMethod:
    if isinstance(method, ResizeMethod):
        return method
    if isinstance(method, str):
        if method not in _NAMES:
            raise JaxtypedValueError(f'{fn}: Unknown resize method "{method}"; the names are {", ".join(sorted(_NAMES))}')
        return _NAMES[method]
    raise JaxtypedTypeError(
        f"{fn}: method must be a jaxtyped.image.ResizeMethod or one of its names "
        f"({', '.join(sorted(_NAMES))}), got {method!r}"
    )


def _index(fn: str, shape: object, size: object) -> int:
    if not isinstance(size, SupportsIndex):
        raise JaxtypedTypeError(f"{fn}: shape must be a sequence of ints, got {shape!r}")
    return operator.index(size)


def _shape(fn: str, image: Array, shape: ShapeLike) -> tuple[int, ...]:
    """``shape`` as a tuple of ints, one per dimension of ``image``."""
    given: object = shape
    items: list[object]
    if isinstance(given, (np.ndarray, Array)) and given.ndim == 1:
        # (cast: isinstance leaves the ndarray's type arguments unknown)
        concrete = cast("np.ndarray[Any, np.dtype[Any]] | Array", given)
        items = cast("list[object]", np.asarray(concrete).tolist())  # a concrete integer array, as JAX accepts
    elif isinstance(given, Sequence):
        items = list(cast("Sequence[object]", given))
    else:
        items = [given]
    sizes = tuple(_index(fn, shape, d) for d in items)
    if len(sizes) != image.ndim:
        raise JaxtypedValueError(
            f"{fn}: shape {sizes} must have one size per dimension of image {image.aval.str_short()} "
            f"(length {image.ndim}), got length {len(sizes)}"
        )
    if any(n < 0 for n in sizes):
        raise JaxtypedValueError(f"{fn}: shape {sizes} has a negative size (image {image.aval.str_short()})")
    return sizes


def _image(fn: str, image: ArrayLike) -> Array:
    return asarray_operand(fn, image)


def _weight_dtype(image_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype :func:`resize` computes weights in: float64 for (complex)
    float64 images, float32 for every other one (half-precision ones
    included, as in JAX); the weights are rounded to the image's dtype
    before the contraction."""
    real = dtypes.finfo(image_dtype).dtype
    return np.dtype(np.float64) if real == np.float64 else np.dtype(np.float32)


# === kernels: weights of a pixel at distance x >= 0 (in pixels, after widening) ===


def _keys_cubic(x: Array, a: float) -> Array:
    """Keys' cubic convolution kernel with parameter ``a`` (-0.5 for CUBIC,
    -0.75 for CUBIC_PYTORCH without antialiasing, as PyTorch)."""
    near = ju.add(ju.multiply(ju.multiply(ju.subtract(ju.multiply(a + 2, x), a + 3), x), x), 1.0)
    far = ju.subtract(ju.multiply(ju.add(ju.multiply(ju.subtract(ju.multiply(a, x), 5 * a), x), 8 * a), x), 4 * a)
    return ju.where(ju.greater_equal(x, 2.0), 0.0, ju.where(ju.greater_equal(x, 1.0), far, near))


def _lanczos(x: Array, radius: int) -> Array:
    # sinc's own derivative rule at 0 keeps gradients finite at a pixel centre.
    y = ju.multiply(ju.sinc(x), ju.sinc(ju.divide(x, float(radius))))
    return ju.where(ju.greater(x, float(radius)), 0.0, y)


def _kernel(method: ResizeMethod, x: Array, pytorch_edges: bool) -> Array:
    if method is ResizeMethod.LINEAR:
        return ju.maximum(0.0, ju.subtract(1.0, x))
    if method is ResizeMethod.CUBIC or (method is ResizeMethod.CUBIC_PYTORCH and not pytorch_edges):
        return _keys_cubic(x, -0.5)  # with antialiasing CUBIC_PYTORCH is CUBIC
    if method is ResizeMethod.CUBIC_PYTORCH:
        return _keys_cubic(x, -0.75)
    if method is ResizeMethod.LANCZOS3:
        return _lanczos(x, 3)
    assert method is ResizeMethod.LANCZOS5, method
    return _lanczos(x, 5)


# === weight matrices ===


def _normalised(weights: Array) -> Array:
    """Each column divided by its sum; columns of (near) zero sum are 0."""
    total = jr.sum(weights, axis=0, keepdims=True)
    # The inner where keeps the division finite where the outer one drops it
    # (a NaN there would poison the gradient).
    safe = ju.where(ju.not_equal(total, 0.0), total, 1.0)
    return ju.where(ju.greater(ju.abs(total), _MIN_WEIGHT_SUM), ju.divide(weights, safe), 0.0)


def _inside(sample: Array, in_size: int) -> Array:
    """Whether each sample point (in pixel-index coordinates) is on the input."""
    return ju.logical_and(ju.greater_equal(sample, -0.5), ju.less_equal(sample, in_size - 0.5))


def _edge_fold(in_size: int, pad: int, dtype: np.dtype[Any]) -> Array:
    """The ``(in, in + 2 pad)`` 0/1 matrix that adds the weights of the
    padding positions onto the edge pixels they copy (edge padding)."""
    source = np.clip(np.arange(in_size + 2 * pad) - pad, 0, in_size - 1)
    return asarray((np.arange(in_size)[:, None] == source[None, :]).astype(dtype))


def _weight_matrix(
    method: ResizeMethod,
    in_size: int,
    out_size: int,
    inv_scale: Array,
    offset: Array,
    kernel_scale: Array | None,
) -> Array:
    """The ``(in_size, out_size)`` weights of one resampled dimension.

    ``inv_scale`` is ``1 / scale``, ``offset`` is ``translation / scale``
    and ``kernel_scale`` the kernel's widening (None: not widened); all
    three are scalars of the dtype the weights are computed in.
    """
    dtype = inv_scale.dtype
    out_index = broadcasted_iota(dtype, (1, out_size), 1)
    # Where output pixel i samples the input, in pixel-index coordinates
    # (input pixel j at j).
    sample = ju.subtract(ju.subtract(ju.multiply(ju.add(out_index, 0.5), inv_scale), offset), 0.5)
    if method is ResizeMethod.AREA:
        # The fraction of the output pixel's footprint [lo, hi) each input
        # pixel [j, j + 1) covers.
        lo = ju.subtract(ju.multiply(out_index, inv_scale), offset)
        hi = ju.add(lo, inv_scale)
        left = broadcasted_iota(dtype, (in_size, 1), 0)
        overlap = ju.subtract(ju.minimum(hi, ju.add(left, 1.0)), ju.maximum(lo, left))
        return ju.where(_inside(sample, in_size), _normalised(ju.maximum(0.0, overlap)), 0.0)
    # PyTorch's bicubic without antialiasing reads past the edges as copies
    # of the edge pixels, and keeps every output (no zeroing outside).
    pytorch_edges = method is ResizeMethod.CUBIC_PYTORCH and kernel_scale is None
    pad = _PYTORCH_PAD if pytorch_edges else 0
    position = ju.subtract(broadcasted_iota(dtype, (in_size + 2 * pad, 1), 0), float(pad))
    distance = ju.abs(ju.subtract(sample, position))
    if kernel_scale is not None:
        distance = ju.divide(distance, kernel_scale)
    weights = _kernel(method, distance, pytorch_edges)
    if pytorch_edges:
        fold = _edge_fold(in_size, pad, dtype)
        # Exact bookkeeping, not the user's product: always full precision.
        weights = dot_general(fold, weights, (((1,), (0,)), ((), ())), precision=Precision.HIGHEST)
        return _normalised(weights)
    return ju.where(_inside(sample, in_size), _normalised(weights), 0.0)


def _contract(image: Array, weights: Array, dim: int, precision: _Precision) -> Array:
    """``image`` with dimension ``dim`` replaced by its product with ``weights``."""
    w = convert_to(weights, image.dtype, weak_type=False)
    out = dot_general(image, w, (((dim,), (0,)), ((), ())), precision=precision, preferred_element_type=image.dtype)
    last = image.ndim - 1
    if dim == last:
        return out
    return transpose(out, (*range(dim), last, *range(dim, last)))


def _as_inexact(image: Array) -> Array:
    target = to_inexact_dtype(image.dtype)
    # A weakly typed integer image stays weak (JAX's conversion).
    return image if target == image.dtype else convert_to(image, target, weak_type=image.weak_type)


def _nearest_indices(in_size: int, out_size: int) -> "np.ndarray[Any, np.dtype[np.int64]]":
    """The input pixel nearest each output pixel's centre: the floor of
    ``(i + 0.5) * in / out``, computed in float32 as JAX's compiled program
    does (one multiplier, ``in * (1 / out)``), so that exact ties (the
    centre on a pixel boundary) pick the same pixel."""
    if out_size == 0:
        return np.zeros(0, np.int64)
    step = np.float32(in_size) * (np.float32(1.0) / np.float32(out_size))
    position = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * step
    indices: "np.ndarray[Any, np.dtype[np.int64]]" = np.minimum(np.floor(position).astype(np.int64), in_size - 1)
    return indices


# === resize ===


@functools.lru_cache(maxsize=256)
def _resize_weights(
    method: ResizeMethod, in_size: int, out_size: int, antialias: bool, dtype: np.dtype[Any]
) -> "np.ndarray[Any, np.dtype[Any]]":
    """:func:`resize`'s weights for one dimension, computed once on the host
    (constants: a program holds the matrix, not its derivation)."""
    if out_size == 0:
        return np.zeros((in_size, 0), dtype)
    # The inverse scale as a Python float (JAX's constant), rounded once to
    # the weights' dtype.
    inv = 1.0 / (out_size / in_size)
    with compile_time_eval():
        widen = asarray(np.asarray(max(inv, 1.0), dtype)) if antialias else None
        zero = asarray(np.zeros((), dtype))
        weights = _weight_matrix(method, in_size, out_size, asarray(np.asarray(inv, dtype)), zero, widen)
        host = np.array(weights)
    host.setflags(write=False)  # shared by every call through the cache
    return host


def _resize_impl(
    image: Array, shape: tuple[int, ...], method: ResizeMethod, antialias: bool, precision: _Precision
) -> Array:
    # Dimensions whose size does not change are left alone.
    changed = [d for d in range(image.ndim) if image.shape[d] != shape[d]]
    if method is ResizeMethod.NEAREST:
        out = image
        for d in changed:
            out = take_static(out, _nearest_indices(image.shape[d], shape[d]), d)
        return out
    out = _as_inexact(image)
    dtype = _weight_dtype(out.dtype)
    for d in changed:
        weights = asarray(_resize_weights(method, image.shape[d], shape[d], antialias, dtype))
        out = _contract(out, weights, d, precision)
    return out


def resize(
    image: ArrayLike,
    shape: ShapeLike,
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: PrecisionLike = Precision.HIGHEST,
) -> Array:
    """``image`` resampled to ``shape`` (JAX's ``jax.image.resize``).

    ``shape`` has one size per dimension of ``image``; dimensions whose size
    does not change (batch, channels) are left alone. ``method`` is a
    :class:`ResizeMethod` or one of its names (``"linear"``, ``"bilinear"``,
    ``"cubic"``, ``"lanczos3"``, ``"nearest"``, ...). With ``antialias``
    (the default) downsampling widens the kernel so that it averages the
    pixels it covers. ``nearest`` keeps the image's dtype; every other method
    gives a floating result (integer and boolean images become float32,
    64-bit integer ones float64). ``precision`` is that of the products.
    """
    fn = "image.resize"
    x = _image(fn, image)
    sizes = _shape(fn, x, shape)
    kind = _method(fn, method)
    for d, (n_in, n_out) in enumerate(zip(x.shape, sizes)):
        if n_in == 0 and n_out != 0:
            raise JaxtypedValueError(
                f"{fn}: dimension {d} of image {x.aval.str_short()} is empty and cannot be resized to {n_out}"
            )
    return _resize_impl(x, sizes, kind, bool(antialias), canonicalize_precision(precision, fn))


# === scale_and_translate ===


def _per_dim(fn: str, name: str, value: ArrayLike, count: int) -> Array:
    """``scale`` or ``translation``: one value per spatial dimension."""
    a = asarray_operand(fn, value)
    if a.ndim == 0 or a.shape[0] != count or a.size != count:
        raise ShapeMismatchError(
            f"{fn}: {name} {a.aval.str_short()} must hold one value per spatial dimension, "
            f"shape ({count},), for spatial_dims of length {count}"
        )
    if dtypes.is_complex(a.dtype):
        raise JaxtypedTypeError(f"{fn}: {name} must be real, got {a.aval.str_short()}")
    return a if a.ndim == 1 else reshape(a, (count,))


def _sat_impl(
    image: Array,
    scale: Array,
    translation: Array,
    shape: tuple[int, ...],
    spatial_dims: tuple[int, ...],
    method: ResizeMethod,
    antialias: bool,
    precision: _Precision,
) -> Array:
    out = _as_inexact(image)
    for k, d in enumerate(spatial_dims):
        # Concrete scale and translation give constant weights even under
        # jit; traced ones (derivatives with respect to them) are staged.
        with compile_time_eval():
            s = index_in_dim(scale, k, keepdims=False)
            t = index_in_dim(translation, k, keepdims=False)
            inv = ju.divide(1.0, s)
            widen = ju.maximum(inv, 1.0) if antialias else None
            weights = _weight_matrix(method, out.shape[d], shape[d], inv, ju.multiply(t, inv), widen)
        out = _contract(out, weights, d, precision)
    return out


def scale_and_translate(
    image: ArrayLike,
    shape: ShapeLike,
    spatial_dims: Sequence[int],
    scale: ArrayLike,
    translation: ArrayLike,
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: PrecisionLike = Precision.HIGHEST,
) -> Array:
    """``image`` scaled and translated along ``spatial_dims`` (JAX's
    ``jax.image.scale_and_translate``).

    An input location ``x`` (pixel ``j`` centred at ``j + 0.5``) of
    dimension ``spatial_dims[k]`` moves to ``x * scale[k] + translation[k]``;
    the output, of size ``shape[spatial_dims[k]]`` there, samples the input
    at the inverse map, and an output whose sample point is off the input is
    0. ``scale`` and ``translation`` are arrays with one value per spatial
    dimension (traceable: derivatives with respect to them are defined);
    the weights are computed in their promoted floating dtype. The other
    entries of ``shape`` are ignored, as in JAX. Every method but
    ``nearest`` is supported; see :func:`resize` for dtypes and
    ``antialias``.
    """
    fn = "image.scale_and_translate"
    x = _image(fn, image)
    sizes = _shape(fn, x, shape)
    kind = _method(fn, method)
    if kind is ResizeMethod.NEAREST:
        raise JaxtypedValueError(f"{fn}: nearest-neighbour resampling is not supported (as in JAX); use resize")
    if not isinstance(cast(object, spatial_dims), Sequence):  # an int, as JAX's TypeError
        raise JaxtypedTypeError(f"{fn}: spatial_dims must be a sequence of ints, got {spatial_dims!r}")
    # A repeated dimension is an error (JAX multiplies the two weight
    # matrices elementwise, an einsum artefact).
    dims = canonicalize_axes(spatial_dims, x.ndim, where=f"{fn} spatial_dims (image {x.aval.str_short()})")
    s, t = promote_args_inexact(
        fn, _per_dim(fn, "scale", scale, len(dims)), _per_dim(fn, "translation", translation, len(dims))
    )
    out_shape = list(x.shape)
    for d in dims:
        out_shape[d] = sizes[d]
    return _sat_impl(x, s, t, tuple(out_shape), dims, kind, bool(antialias), canonicalize_precision(precision, fn))

