"""Gradients at the special points, against ``jax.grad`` and ``jax.jvp``.

Every differentiable function of ``jaxtyped.numpy``, ``jaxtyped.nn`` and
``jaxtyped.scipy.special`` is differentiated at 0 (both signs), at ties of
binary functions (``x1 == x2``), at the edges of its domain and at ±inf,
and the derivative must equal JAX's there: the same finite value, the same
inf, nan where JAX gives nan. Functions that JAX gives their own derivative
rule (``logaddexp``, ``relu``, ``xlogy``, ...) are where a composition of
primitives would differ, so they are the point of this census.

The census (last test) requires each public function of those namespaces
to be listed here: as unary or binary (differentiated at the points), as
``OTHER`` (a program of its own), or in ``NOT_DIFFERENTIABLE`` with a reason.
"""

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt

from oracle import jax

INF = float("inf")
UNARY_POINTS: tuple[float, ...] = (0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e-30, 30.0, -30.0, INF, -INF)
BINARY_POINTS: tuple[tuple[float, float], ...] = (
    (0.0, 0.0), (1.0, 1.0), (-1.0, -1.0), (2.0, 2.0), (0.5, 0.5), (-0.0, 0.0), (0.0, -0.0),
    (0.0, 1.0), (1.0, 0.0), (-2.0, 0.5), (0.0, -1.0), (3.0, -2.0),
    (INF, INF), (INF, 1.0), (1.0, INF), (-INF, -INF), (-INF, 1.0), (1.0, -INF),
)  # fmt: skip


# Vectors for functions of a whole array: ties (max, sort, median), zeros
# (prod, cumprod), infinities and signed zeros.
VECTOR_POINTS: tuple[tuple[float, ...], ...] = (
    (0.0, 0.0, 0.0), (1.0, 1.0, 0.0), (2.0, 2.0, 2.0), (-1.0, -1.0, 3.0), (0.0, -0.0, 0.0), (0.0, 2.0, 3.0),
    (1.0, 0.0, 0.0), (INF, 1.0, 0.0), (-INF, -INF, 0.0), (INF, -INF, 1.0), (-2.0, 0.5, 1e-30), (3.0, -2.0, 3.0),
)  # fmt: skip


@dataclass(frozen=True)
class Fn:
    """One function to differentiate: ``namespace.name`` applied to the
    point(s), with extra keyword arguments; ``points`` replaces the default
    points (domain edges)."""

    namespace: str
    name: str
    arity: int = 1  # 0: a function of one vector (a reduction, a scan), at VECTOR_POINTS
    kwargs: Mapping[str, object] = field(default_factory=dict[str, object])
    extra_points: tuple[Any, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.namespace}.{self.name}"


def _ours(namespace: str) -> Any:
    return importlib.import_module(f"jaxtyped.{namespace}")


def _theirs(namespace: str) -> Any:
    return importlib.import_module(f"jax.{namespace}")


# Domain edges: where a function's derivative is infinite or one-sided.
# (Not subnormals: XLA on CPU flushes them to zero, NumPy does not.)
EDGES: dict[str, tuple[float, ...]] = {
    "arcsin": (1.0 - 1e-7, -1.0 + 1e-7), "arccos": (1.0 - 1e-7, -1.0 + 1e-7), "arctanh": (1.0 - 1e-7,),
    "arccosh": (1.0 + 1e-6, 1.5), "log": (2e-38,), "log2": (2e-38,), "log10": (2e-38,), "log1p": (-1.0 + 1e-7,),
    "sqrt": (2e-38,), "cbrt": (2e-38, -2e-38),
}  # fmt: skip

UNARY_NUMPY = (
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "reciprocal",
    "deg2rad", "rad2deg", "radians", "degrees", "negative", "positive", "abs", "absolute", "sign",
    "square", "floor", "ceil", "trunc", "rint", "round", "around", "real", "imag", "conj", "conjugate",
)  # fmt: skip
BINARY_NUMPY = (
    "add", "subtract", "multiply", "divide", "true_divide", "power", "pow", "maximum", "minimum",
    "arctan2", "hypot", "logaddexp", "fmod", "remainder", "mod", "floor_divide",
)  # fmt: skip

# Kinks and saturation of jaxtyped.nn's functions (einsum family).
NN_EDGES: dict[str, tuple[float, ...]] = {
    "relu6": (6.0, 3.0), "hard_sigmoid": (3.0, -3.0), "hard_silu": (3.0, -3.0), "hard_swish": (3.0, -3.0),
    "sparse_plus": (1.0, -1.0), "sparse_sigmoid": (1.0, -1.0), "log1mexp": (0.6931472, 100.0),
}  # fmt: skip

FUNCTIONS: list[Fn] = [
    *(Fn("numpy", name, extra_points=EDGES.get(name, ())) for name in UNARY_NUMPY),
    *(Fn("numpy", name, arity=2) for name in BINARY_NUMPY),
]

# special-function family: jaxtyped.scipy.special and jaxtyped.scipy.stats.norm
# (betaln and zeta differ from JAX only at points where their values are inf
# or NaN; tests/scipy/test_scipy_special.py differentiates them elsewhere).
FUNCTIONS.extend([
    *(Fn("scipy.special", name) for name in (
        "erf", "erfc", "erfinv", "expit", "logit", "gammaln", "gamma", "gammasgn", "digamma", "i0e", "i1e",
        "i0", "i1", "entr", "ndtr", "ndtri", "log_ndtr", "factorial", "logsumexp", "softmax", "log_softmax",
    )),
    *(Fn("scipy.special", name, arity=2) for name in ("xlogy", "xlog1py", "gammainc", "gammaincc")),
    *(Fn("scipy.stats.norm", name) for name in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")),
])  # fmt: skip

# Public functions of the namespaces that are not differentiated here, and why.
NOT_DIFFERENTIABLE: dict[str, str] = {}

# einsum family: logaddexp2 (JAX's own derivative rule) and every
# elementwise function of jaxtyped.nn here; the others (sinc, einsum, the
# vector-valued nn functions) are differentiated against JAX in
# tests/numpy/test_jnp_custom_derivatives.py, tests/numpy/test_jnp_einsum.py
# and tests/nn/test_nn_functions.py.
UNARY_NN = (
    "relu", "relu6", "gelu", "silu", "swish", "sigmoid", "log_sigmoid", "softplus", "soft_sign",
    "sparse_plus", "sparse_sigmoid", "elu", "selu", "celu", "leaky_relu", "hard_tanh", "hard_sigmoid",
    "hard_silu", "hard_swish", "mish", "squareplus", "tanh", "identity", "log1mexp",
)  # fmt: skip
FUNCTIONS.extend([
    Fn("numpy", "logaddexp2", arity=2),
    Fn("nn", "gelu", kwargs={"approximate": False}),
    *(Fn("nn", name, extra_points=NN_EDGES.get(name, ())) for name in UNARY_NN),
])
NOT_DIFFERENTIABLE.update({
    "numpy.einsum": "a contraction, not elementwise: grads in tests/numpy/test_jnp_einsum.py",
    "numpy.einsum_path": "returns a contraction path, not an array",
    "numpy.sinc": (
        "at 1e-30 the quotient rule's float32 y**-2 underflows (JAX's compiled slope is -inf, the true one ~0): "
        "sinc's own rule is compared at 0, -0, +-inf and to order 4 in tests/numpy/test_jnp_custom_derivatives.py"
    ),
    "nn.glu": "splits an axis in two halves: grads in tests/nn/test_nn_functions.py",
    "nn.softmax": "vector-valued: grads (where masks included) in tests/nn/test_nn_functions.py",
    "nn.log_softmax": "vector-valued: grads (where masks included) in tests/nn/test_nn_functions.py",
    "nn.logsumexp": "a reduction: grads (ties, -inf, where) in tests/nn/test_nn_functions.py",
    "nn.logmeanexp": "a reduction: grads (where) in tests/nn/test_nn_functions.py",
    "nn.standardize": "a normalisation over an axis: grads in tests/nn/test_nn_functions.py",
    "nn.one_hot": "integer labels in, constant out",
    "nn.dot_product_attention": "attention over (B, T, N, H) arrays: grads in tests/nn/test_nn_functions.py",
})


# math, statistics, logic, set and polynomial functions family: the
# elementwise differentiable ones here; the others' derivatives (where they
# have any) are compared with JAX in tests/numpy/test_jnp_math_extra.py,
# test_jnp_statistics.py and test_jnp_setops_poly_io.py.
_MATH_EDGES: dict[str, tuple[float, ...]] = {
    "asin": (1.0 - 1e-7, -1.0 + 1e-7), "acos": (1.0 - 1e-7, -1.0 + 1e-7), "atanh": (1.0 - 1e-7,), "acosh": (1.0 + 1e-6, 1.5),
}  # fmt: skip
FUNCTIONS.extend([
    *(Fn("numpy", name, extra_points=_MATH_EDGES.get(name, ())) for name in (
        "fabs", "i0", "nan_to_num", "angle", "acos", "acosh", "asin", "asinh", "atan", "atanh",
    )),
    *(Fn("numpy", name, arity=2) for name in ("heaviside", "copysign", "fmax", "fmin", "float_power", "atan2")),
])
_MATH_ELSEWHERE = "grads against JAX in tests/numpy/test_jnp_{}.py"
NOT_DIFFERENTIABLE.update({
    **{f"numpy.{name}": "boolean result" for name in (
        "allclose", "isclose", "array_equal", "array_equiv", "isneginf", "isposinf", "isreal", "iscomplex",
        "signbit", "isin",
    )},
    **{f"numpy.{name}": "a Python value about types or objects, not an array" for name in (
        "isrealobj", "iscomplexobj", "isscalar", "iterable", "can_cast", "isdtype", "get_printoptions",
        "set_printoptions", "printoptions", "array_repr", "array_str", "save", "savez", "load",
    )},
    **{f"numpy.{name}": "integer operands and results" for name in (
        "gcd", "lcm", "bitwise_count", "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift",
        "count_nonzero", "bincount", "nanargmax", "nanargmin",
    )},
    **{f"numpy.{name}": "tuple-valued or integer-exponent: " + _MATH_ELSEWHERE.format("math_extra") for name in (
        "frexp", "modf", "ldexp",
    )},
    **{f"numpy.{name}": "not elementwise: " + _MATH_ELSEWHERE.format("math_extra") for name in (
        "interp", "diff", "ediff1d", "gradient", "trapezoid", "unwrap",
    )},
    **{f"numpy.{name}": "a reduction or statistic: " + _MATH_ELSEWHERE.format("statistics") for name in (
        "var", "std", "median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile", "average",
        "ptp", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin", "cov", "corrcoef",
        "histogram", "histogram_bin_edges", "histogram2d", "histogramdd",
    )},
    **{f"numpy.{name}": "sorted unique values whose count depends on the data" for name in (
        "union1d", "intersect1d", "setdiff1d", "setxor1d",
    )},
    **{f"numpy.{name}": "polynomial coefficients, not elementwise: " + _MATH_ELSEWHERE.format("setops_poly_io") for name in (
        "poly", "polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint", "polyfit",
    )},
    "numpy.roots": "not elementwise (eigenvalues of the companion matrix): grads with strip_zeros=False (leading "
    "zeros, complex pairs) against JAX in tests/numpy/test_jnp_setops_poly_io.py; at a repeated root the "
    "derivative is infinite (ours inf/NaN, JAX's solve gives finite values)",
    "numpy.nextafter": "JAX defines no derivative for nextafter (NotImplementedError)",
    "numpy.spacing": "built on nextafter, which JAX does not differentiate",
    "numpy.frompyfunc": "builds a ufunc from a Python function",
    **{f"numpy.{name}": "a dtype (callable only to build an array of it)" for name in (
        "bool", "float_", "int_", "uint", "complex_", "double", "single", "cdouble", "csingle", "float8_e4m3fn",
        "float8_e5m2", "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e3m4", "float8_e4m3",
        "float8_e8m0fnu", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "int4", "uint4", "int2", "uint2",
        "int1", "uint1",
    )},
})


def _points(fn: Fn) -> tuple[np.ndarray[Any, Any], ...]:
    if fn.arity == 0:
        return (np.asarray(VECTOR_POINTS + tuple(fn.extra_points), np.float32),)
    if fn.arity == 1:
        return (np.asarray(UNARY_POINTS + tuple(fn.extra_points), np.float32),)
    pairs = BINARY_POINTS + tuple(fn.extra_points)
    return tuple(np.asarray([p[i] for p in pairs], np.float32) for i in range(fn.arity))


def _derivatives(lib: Any, namespace: Any, fn: Fn, points: tuple[np.ndarray[Any, Any], ...]) -> tuple[Any, ...]:
    """Per-point gradients in every argument (vmap of grad) and the jvp
    along ones, from ``lib`` (jaxtyped or jax)."""
    f: Callable[..., Any] = getattr(namespace, fn.name)

    def scalar(*xs: Any) -> Any:
        return f(*xs, **fn.kwargs)

    if fn.arity == 0:
        (vectors,) = points

        def weighted(v: Any) -> Any:
            # Distinct weights per output element, so no tie cancels out.
            out = f(v, **fn.kwargs)
            weights = lib.numpy.arange(1.0, out.size + 1.0, dtype=out.dtype).reshape(out.shape)
            return lib.numpy.sum(out * weights)

        grads = lib.vmap(lib.grad(weighted))(vectors)
        _, tangent = lib.jvp(lib.vmap(scalar), (vectors,), (np.ones_like(vectors),))
        return (grads, tangent)

    argnums = tuple(range(fn.arity))
    grads = lib.vmap(lib.grad(scalar, argnums=argnums))(*points)
    ones = tuple(np.ones_like(p) for p in points)
    _, tangent = lib.jvp(lib.vmap(scalar), points, ones)
    return (*grads, tangent)


def _describe(points: tuple[np.ndarray[Any, Any], ...], i: int, fn: Fn, size: int) -> str:
    if fn.arity == 0:
        (vectors,) = points
        per_row = size // vectors.shape[0]
        return f"{[float(v) for v in vectors[i // per_row]]}[{i % per_row}]"
    return "(" + ", ".join(repr(float(p[i])) for p in points) + ")"


def _fn_id(fn: object) -> str:
    return fn.id if isinstance(fn, Fn) else str(fn)


# FUNCTIONS grows below (one block per family); pytest reads it at collection.
@pytest.mark.parametrize("fn", FUNCTIONS, ids=_fn_id)
def test_derivatives_at_special_points_match_jax(fn: Fn) -> None:
    points = _points(fn)
    with np.errstate(all="ignore"):
        ours = _derivatives(jt, _ours(fn.namespace), fn, points)
        theirs = _derivatives(jax, _theirs(fn.namespace), fn, points)
    problems: list[str] = []
    for k, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        what = f"d/dx{k}" if k < max(fn.arity, 1) else "jvp"
        got, want = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
        close = np.isclose(got, want, rtol=2e-5, atol=1e-6, equal_nan=True) | (got == want)
        for i in np.flatnonzero(~close):
            problems.append(f"{what} at {_describe(points, int(i), fn, got.size)}: {got[i]} != JAX's {want[i]}")
    assert not problems, f"{fn.id}:\n" + "\n".join(problems)


def _public_functions(namespace: str) -> list[str]:
    module = _ours(namespace)
    names: list[str] = list(getattr(module, "__all__", dir(module)))
    return [n for n in names if not n.startswith("_") and callable(getattr(module, n)) and not inspect.isclass(getattr(module, n))]


def test_every_public_function_is_accounted_for() -> None:
    listed = {fn.id for fn in FUNCTIONS}
    assert not listed & set(NOT_DIFFERENTIABLE), "a function is both differentiated and listed as not"
    assert {"numpy.logaddexp", "numpy.sin", "numpy.maximum"} <= listed  # the census cannot pass vacuously
    missing: list[str] = []
    for namespace in ("numpy", "nn", "scipy.special"):
        for name in _public_functions(namespace):
            if f"{namespace}.{name}" not in listed and f"{namespace}.{name}" not in NOT_DIFFERENTIABLE:
                missing.append(f"{namespace}.{name}")
    assert not missing, f"differentiate these at special points or say why not: {missing}"


# advanced indexing family: selections and index builders, none elementwise
# in one float; their gradients (gathers, scatters, selections) are compared
# with JAX in tests/numpy/test_jnp_index_functions.py, test_jnp_at.py and
# test_jnp_advanced_indexing.py.
_INDEXING_ELSEWHERE = "a selection (gather/scatter/select): grads against JAX in tests/numpy/test_jnp_{}.py"
NOT_DIFFERENTIABLE.update({
    **{f"numpy.{name}": _INDEXING_ELSEWHERE.format("index_functions") for name in (
        "take", "take_along_axis", "put", "put_along_axis", "choose", "compress", "extract", "place", "select",
        "piecewise", "fill_diagonal", "where",
    )},
    **{f"numpy.{name}": "integer indices out, from shapes or values" for name in (
        "nonzero", "flatnonzero", "argwhere", "ix_", "indices", "ravel_multi_index", "unravel_index",
        "diag_indices", "diag_indices_from", "tril_indices", "triu_indices", "tril_indices_from",
        "triu_indices_from", "mask_indices",
    )},
})


# Reductions, scans and sorts: functions of a whole vector, at VECTOR_POINTS
# (ties, zeros, infinities). Binary products and clip at their own points.
VECTOR_NUMPY = (
    "sum", "prod", "max", "min", "amax", "amin", "mean", "cumsum", "cumprod", "cumulative_sum",
    "cumulative_prod", "nancumsum", "nancumprod", "sort",
)  # fmt: skip
FUNCTIONS.extend([
    *(Fn("numpy", name, arity=0) for name in VECTOR_NUMPY),
    Fn("numpy", "clip", arity=2),  # clip(x, min): ties x == min and infinities
    *(Fn("numpy", name, arity=2) for name in ("dot", "inner", "vdot")),
])

_LINEAR = "linear (a structural or constant map): its derivative is the same map at every point"
NOT_DIFFERENTIABLE.update({
    **{f"numpy.{name}": "boolean or integer result" for name in (
        "all", "any", "argmax", "argmin", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
        "isfinite", "isinf", "isnan", "logical_and", "logical_not", "logical_or", "logical_xor", "argsort",
        "argpartition", "lexsort", "searchsorted", "digitize", "bitwise_and", "bitwise_not", "bitwise_or",
        "bitwise_xor", "invert", "left_shift", "right_shift", "packbits", "unpackbits",
    )},
    **{f"numpy.{name}": "returns a dtype, a shape or a Python value" for name in (
        "finfo", "iinfo", "issubdtype", "promote_types", "result_type", "ndim", "shape", "size", "broadcast_shapes",
    )},
    **{f"numpy.{name}": "a dtype (callable only to build an array of it)" for name in (
        "bfloat16", "bool_", "complex64", "complex128", "float16", "float32", "float64", "int8", "int16", "int32",
        "int64", "uint8", "uint16", "uint32", "uint64",
    )},
    **{f"numpy.{name}": "builds a constant array: no differentiable input" for name in (
        "arange", "empty", "eye", "identity", "ones", "zeros", "tri", "bartlett", "blackman", "hamming", "hanning",
        "frombuffer", "fromstring", "fromfile", "fromiter", "from_dlpack",
    )},
    **{f"numpy.{name}": "the result does not depend on the values (constant in x)" for name in (
        "empty_like", "ones_like", "zeros_like",
    )},
    **{f"numpy.{name}": _LINEAR for name in (
        "array", "asarray", "astype", "broadcast_to", "concatenate", "concat", "expand_dims", "moveaxis", "ravel",
        "reshape", "squeeze", "stack", "swapaxes", "transpose", "append", "array_split", "atleast_1d", "atleast_2d",
        "atleast_3d", "block", "broadcast_arrays", "column_stack", "copy", "delete", "diag", "diagflat", "diagonal",
        "dsplit", "dstack", "flip", "fliplr", "flipud", "hsplit", "hstack", "insert", "matrix_transpose", "meshgrid",
        "permute_dims", "repeat", "resize", "roll", "rollaxis", "rot90", "split", "tile", "trace", "tril", "triu",
        "unstack", "vsplit", "vstack", "full", "full_like",
    )},
    **{f"numpy.{name}": "bilinear products: grads under jit/vmap against JAX in tests/numpy/test_jnp_functions.py "
       "and test_jnp_manipulation.py" for name in ("tensordot", "matmul", "outer", "cross", "kron", "matvec", "vecmat", "vecdot")},
    "numpy.convolve": "bilinear: grads in both operands against JAX in tests/numpy/test_jnp_convolve.py",
    "numpy.correlate": "bilinear: grads in both operands against JAX in tests/numpy/test_jnp_convolve.py",
    "numpy.linspace": "linear in its endpoints: grads against JAX in tests/numpy/test_jnp_manipulation.py",
    "numpy.logspace": "exp of linspace: grads against JAX in tests/numpy/test_jnp_manipulation.py",
    "numpy.geomspace": "grads against JAX in tests/numpy/test_jnp_manipulation.py (zero endpoints raise)",
    "numpy.vander": "powers of x with integer exponents: grads in tests/numpy/test_jnp_manipulation.py",
    "numpy.kaiser": "a window of beta: grads against JAX in tests/numpy/test_jnp_manipulation.py",
    "numpy.pad": "linear for constant modes, a selection otherwise: grads at ties in tests/numpy/test_jnp_manipulation.py",
    "numpy.trim_zeros": "the length of the result depends on the values",
    "numpy.apply_along_axis": "applies a user function: its derivative is the function's",
    "numpy.apply_over_axes": "applies a user function: its derivative is the function's",
    "numpy.fromfunction": "applies a user function to index grids: no differentiable input",
    "numpy.divmod": "tuple of floor_divide and remainder, both differentiated above",
    "numpy.partition": "a partial sort: grads against JAX in tests/numpy/test_jnp_sorting.py",
    "numpy.sort_complex": "complex result: grads in tests/numpy/test_jnp_sorting.py",
    **{f"numpy.{name}": "sorted unique values whose count depends on the data" for name in (
        "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
    )},
})

# Special functions with integer or non-differentiable arguments: the
# float argument is differentiated against JAX in tests/scipy/test_scipy_special.py
# (betaln and zeta only where their values are finite: at poles JAX's slopes
# are nan where the value is inf, an artefact of its formulas).
NOT_DIFFERENTIABLE.update({
    "scipy.special.betainc": "JAX differentiates only in x (a and b raise): grads at x = 0, 1 in tests/lax/test_lax_special.py",
    "scipy.special.betaln": "grads at finite points in tests/scipy/test_scipy_special.py (poles: see above)",
    "scipy.special.zeta": "grads at finite points in tests/scipy/test_scipy_special.py (poles: see above)",
    "scipy.special.polygamma": "its first argument is an integer order: grads in x in tests/lax/test_lax_special.py",
})
# The breadth additions: differentiated against JAX at their special points
# (poch at m = 0, beta at a negative argument, rel_entr and kl_div at x = 0,
# boxcox at lambda = 0, erfcx across its series switch) in their own table.
NOT_DIFFERENTIABLE.update({
    **{f"scipy.special.{name}": "grads at special points against JAX in tests/scipy/test_special_more.py" for name in (
        "beta", "boxcox", "boxcox1p", "comb", "kl_div", "loggamma", "poch", "rel_entr", "erfcx",
    )},
    "scipy.special.bernoulli": "its argument is an integer count",
    # the integrals and hypergeometric functions: against JAX's custom_jvp rules at their branch switches and
    # edges, and against finite differences in float64, in their own tables
    **{f"scipy.special.{name}": "grads at branch switches and edges in tests/scipy/test_special_integrals.py" for name in (
        "exp1", "expi", "expn", "spence", "sici", "dawsn", "fresnel", "owens_t",
    )},
    **{f"scipy.special.{name}": "grads at special points in tests/scipy/test_special_hyper.py" for name in (
        "bessel_jn", "hyp1f1", "hyp2f1", "wofz", "sph_harm_y",
    )},
})
FUNCTIONS.append(Fn("scipy.special", "multigammaln", kwargs={"d": 2}, extra_points=(0.5 + 1e-6, 0.75)))
