"""A ``numpy``-compatible namespace (JAX's ``jax.numpy``), typed.

Functions promote dtypes along JAX's lattice (32-bit by default, Python
scalars weakly typed) and broadcast like NumPy; every result is a
``jaxtyped.Array``.

Example:
    >>> import jaxtyped.numpy as jnp
    >>> jnp.sum(jnp.arange(4.0) * 2)
    Array(12., dtype=float32)
"""

import numpy as _np

from jaxtyped._src.core.array import Array
from jaxtyped._src.dtypes import finfo, iinfo, issubdtype, promote_types
from numpy import dtype as dtype  # jnp.dtype is NumPy's (jnp.dtype(float) is float64)
from jaxtyped._src.numpy import array_methods as _array_methods
from jaxtyped._src.numpy.creation import (
    ScalarType,
    arange,
    array,
    asarray,
    bfloat16,
    bool_,
    complex64,
    complex128,
    empty,
    empty_like,
    eye,
    float0,
    float16,
    float32,
    float64,
    full,
    full_like,
    identity,
    int8,
    int16,
    int32,
    int64,
    linspace,
    ones,
    ones_like,
    uint8,
    uint16,
    uint32,
    uint64,
    zeros,
    zeros_like,
)
from jaxtyped._src.numpy.promotion import result_type
# array manipulation family
from jaxtyped._src.numpy.creation import (
    bartlett,
    blackman,
    from_dlpack,
    frombuffer,
    fromfunction,
    fromiter,
    fromstring,
    geomspace,
    hamming,
    hanning,
    kaiser,
    logspace,
    tri,
)
from jaxtyped._src.numpy.manipulation import (
    append,
    apply_along_axis,
    apply_over_axes,
    array_split,
    astype,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block,
    broadcast_arrays,
    broadcast_shapes,
    column_stack,
    concat,
    copy,
    delete,
    diag,
    diagflat,
    diagonal,
    dsplit,
    dstack,
    flip,
    fliplr,
    flipud,
    hsplit,
    hstack,
    insert,
    matrix_transpose,
    meshgrid,
    packbits,
    permute_dims,
    repeat,
    resize,
    roll,
    rollaxis,
    rot90,
    split,
    tile,
    trace,
    tril,
    trim_zeros,
    triu,
    unpackbits,
    unstack,
    vsplit,
    vstack,
)
from jaxtyped._src.numpy.padding import pad
from jaxtyped._src.numpy.vector_products import (
    cross,
    kron,
    matvec,
    vander,
    vecdot,
    vecmat,
)
from jaxtyped._src.numpy.reductions import all, amax, amin, any, argmax, argmin, max, mean, min, prod, sum
from jaxtyped._src.numpy.shape_ops import (
    broadcast_to,
    concatenate,
    dot,
    expand_dims,
    inner,
    matmul,
    moveaxis,
    ndim,
    outer,
    ravel,
    reshape,
    shape,
    size,
    squeeze,
    stack,
    swapaxes,
    tensordot,
    transpose,
    vdot,
)
from jaxtyped._src.numpy.ufuncs import (
    abs,
    absolute,
    add,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    around,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    cbrt,
    ceil,
    clip,
    conj,
    conjugate,
    cos,
    cosh,
    deg2rad,
    degrees,
    divide,
    divmod,
    equal,
    exp,
    exp2,
    expm1,
    floor,
    floor_divide,
    fmod,
    greater,
    greater_equal,
    hypot,
    imag,
    invert,
    isfinite,
    isinf,
    isnan,
    left_shift,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    positive,
    pow,
    power,
    rad2deg,
    radians,
    real,
    reciprocal,
    remainder,
    right_shift,
    rint,
    round,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    true_divide,
    trunc,
)
# advanced indexing family (where: the one-argument form too)
from jaxtyped._src.numpy.index_functions import (
    argwhere,
    c_,
    choose,
    compress,
    diag_indices,
    diag_indices_from,
    extract,
    fill_diagonal,
    flatnonzero,
    index_exp,
    indices,
    ix_,
    mask_indices,
    mgrid,
    nonzero,
    ogrid,
    piecewise,
    place,
    put,
    put_along_axis,
    r_,
    ravel_multi_index,
    s_,
    select,
    take,
    take_along_axis,
    tril_indices,
    tril_indices_from,
    triu_indices,
    triu_indices_from,
    unravel_index,
    where,
)

_array_methods.install()

ndarray = Array  # JAX's alias: every jaxtyped array is an Array

# Abstract scalar kinds, for issubdtype (NumPy's, as in JAX).
generic = _np.generic
number = _np.number
inexact = _np.inexact
floating = _np.floating
complexfloating = _np.complexfloating
integer = _np.integer
signedinteger = _np.signedinteger
unsignedinteger = _np.unsignedinteger

# einsum family (einsum, custom-derivative ufuncs)
from jaxtyped._src.numpy.einsum import einsum, einsum_path
from jaxtyped._src.numpy.ufuncs import logaddexp2, sinc

# sorting family (sorting, searching, cumulative and set functions)
from jaxtyped._src.numpy.sorting import (
    argpartition,
    argsort,
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    digitize,
    lexsort,
    nancumprod,
    nancumsum,
    partition,
    searchsorted,
    sort,
    sort_complex,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)

# windowed reductions and convolutions family
from jaxtyped._src.numpy.convolve import convolve, correlate

# math, statistics, logic, set and polynomial functions, dtype names, printing and I/O family
from jaxtyped._src.numpy.calculus import diff, ediff1d, gradient, interp, trapezoid, unwrap
from jaxtyped._src.numpy.histograms import bincount, histogram, histogram2d, histogram_bin_edges, histogramdd
from jaxtyped._src.numpy.io import array_repr, array_str, get_printoptions, load, printoptions, save, savez, set_printoptions
from jaxtyped._src.numpy.logic import (
    allclose,
    array_equal,
    array_equiv,
    can_cast,
    iscomplex,
    iscomplexobj,
    isclose,
    isdtype,
    isneginf,
    isposinf,
    isreal,
    isrealobj,
    isscalar,
    iterable,
    signbit,
)
from jaxtyped._src.numpy.math_extra import (
    acos,
    acosh,
    angle,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_count,
    bitwise_invert,
    bitwise_left_shift,
    bitwise_right_shift,
    copysign,
    fabs,
    float_power,
    fmax,
    fmin,
    frexp,
    gcd,
    heaviside,
    i0,
    lcm,
    ldexp,
    modf,
    nan_to_num,
    nextafter,
    spacing,
)
from jaxtyped._src.numpy.polynomial import (
    poly,
    polyadd,
    polyder,
    polydiv,
    polyfit,
    polyint,
    polymul,
    polysub,
    polyval,
    roots,
)
from jaxtyped._src.numpy.scalar_types import bool_scalar as bool
from jaxtyped._src.numpy.scalar_types import (
    ComplexWarning,
    cdouble,
    character,
    complex_,
    csingle,
    double,
    flexible,
    float_,
    frompyfunc,
    int_,
    object_,
    single,
    ufunc,
    uint,
)
from jaxtyped._src.numpy.setops import intersect1d, isin, setdiff1d, setxor1d, union1d
from jaxtyped._src.numpy.statistics import (
    average,
    corrcoef,
    count_nonzero,
    cov,
    median,
    nanargmax,
    nanargmin,
    nanmax,
    nanmean,
    nanmedian,
    nanmin,
    nanpercentile,
    nanprod,
    nanquantile,
    nanstd,
    nansum,
    nanvar,
    percentile,
    ptp,
    quantile,
    std,
    var,
)
from jaxtyped._src.numpy.vectorize import vectorize

pi: float = _np.pi
e: float = _np.e
inf: float = _np.inf
nan: float = _np.nan
euler_gamma: float = _np.euler_gamma
newaxis: None = None


__all__ = [
    "Array", "ScalarType", "abs", "absolute", "add", "all", "amax", "amin", "any", "arange",
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax",
    "argmin", "around", "array", "asarray", "bfloat16", "bitwise_and", "bitwise_not",
    "bitwise_or", "bitwise_xor", "bool_", "broadcast_to", "cbrt", "ceil", "clip", "complex64",
    "complex128", "complexfloating", "concatenate", "conj", "conjugate", "cos", "cosh", "deg2rad", "degrees",
    "divide", "divmod", "dot", "dtype", "e", "empty", "empty_like", "equal", "euler_gamma",
    "exp", "exp2", "expand_dims", "expm1", "eye", "finfo", "float0", "float16", "float32",
    "float64", "floating", "floor", "floor_divide", "fmod", "full", "full_like", "generic",
    "greater", "greater_equal", "hypot", "identity", "iinfo", "imag", "inexact", "inf", "inner",
    "int8", "int16", "int32", "int64", "integer", "invert", "isfinite", "isinf", "isnan",
    "issubdtype", "left_shift", "less", "less_equal", "linspace", "log", "log1p", "log2",
    "log10", "logaddexp", "logical_and", "logical_not", "logical_or", "logical_xor",
    "matmul", "max", "maximum", "mean", "min", "minimum", "mod", "moveaxis", "multiply",
    "nan", "ndarray", "ndim", "negative", "newaxis", "not_equal", "number", "ones",
    "ones_like", "outer", "pi", "positive", "pow", "power", "prod", "promote_types",
    "rad2deg", "radians", "ravel", "real", "reciprocal", "remainder", "reshape", "result_type",
    "right_shift", "rint", "round", "shape", "sign", "signedinteger", "sin", "sinh", "size",
    "sqrt", "square", "squeeze", "stack", "subtract", "sum", "swapaxes", "tan", "tanh",
    "tensordot", "transpose", "true_divide", "trunc", "uint8", "uint16", "uint32", "uint64",
    "unsignedinteger", "vdot", "where", "zeros", "zeros_like",
    # einsum family (einsum, custom-derivative ufuncs)
    "einsum", "einsum_path", "logaddexp2", "sinc",
    # array manipulation family
    "append", "apply_along_axis", "apply_over_axes", "array_split", "astype", "atleast_1d",
    "atleast_2d", "atleast_3d", "bartlett", "blackman", "block", "broadcast_arrays",
    "broadcast_shapes", "column_stack", "concat", "copy", "cross", "delete", "diag", "diagflat",
    "diagonal", "dsplit", "dstack", "flip", "fliplr", "flipud", "from_dlpack", "frombuffer",
    "fromfunction", "fromiter", "fromstring", "geomspace", "hamming", "hanning", "hsplit",
    "hstack", "insert", "kaiser", "kron", "logspace", "matrix_transpose", "matvec", "meshgrid",
    "packbits", "pad", "permute_dims", "repeat", "resize", "roll", "rollaxis", "rot90", "split",
    "tile", "trace", "tri", "tril", "trim_zeros", "triu", "unpackbits", "unstack", "vander",
    "vecdot", "vecmat", "vsplit", "vstack",
    # sorting family (sorting, searching, cumulative and set functions)
    "argpartition", "argsort", "cumprod", "cumsum", "cumulative_prod", "cumulative_sum",
    "digitize", "lexsort", "nancumprod", "nancumsum", "partition", "searchsorted", "sort",
    "sort_complex", "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
    # windowed reductions and convolutions family
    "convolve", "correlate",
    # math, statistics, logic, set and polynomial functions, dtype names, printing and I/O family
    "ComplexWarning", "acos", "acosh", "allclose", "angle", "array_equal", "array_equiv",
    "array_repr", "array_str", "asin", "asinh", "atan", "atan2", "atanh", "average", "bincount",
    "bitwise_count", "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift", "bool",
    "can_cast", "cdouble", "character", "complex_", "copysign", "corrcoef", "count_nonzero",
    "cov", "csingle", "diff", "double", "ediff1d", "fabs", "flexible", "float_", "float_power",
    "fmax", "fmin", "frexp", "frompyfunc", "gcd", "get_printoptions", "gradient", "heaviside",
    "histogram", "histogram2d", "histogram_bin_edges", "histogramdd", "i0", "int_", "interp",
    "intersect1d", "iscomplex", "iscomplexobj", "isclose", "isdtype", "isin", "isneginf",
    "isposinf", "isreal", "isrealobj", "isscalar", "iterable", "lcm", "ldexp", "load", "median",
    "modf", "nan_to_num", "nanargmax", "nanargmin", "nanmax", "nanmean", "nanmedian", "nanmin",
    "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar", "nextafter",
    "object_", "percentile", "poly", "polyadd", "polyder", "polydiv", "polyfit", "polyint",
    "polymul", "polysub", "polyval", "printoptions", "ptp", "quantile", "roots", "save", "savez",
    "set_printoptions", "setdiff1d", "setxor1d", "signbit", "single", "spacing", "std",
    "trapezoid", "ufunc", "uint", "union1d", "unwrap", "var", "vectorize",
    # advanced indexing family
    "argwhere", "c_", "choose", "compress", "diag_indices", "diag_indices_from", "extract",
    "fill_diagonal", "flatnonzero", "index_exp", "indices", "ix_", "mask_indices", "mgrid",
    "nonzero", "ogrid", "piecewise", "place", "put", "put_along_axis", "r_", "ravel_multi_index",
    "s_", "select", "take", "take_along_axis", "tril_indices", "tril_indices_from", "triu_indices",
    "triu_indices_from", "unravel_index",
]
