"""Every public transformation, control-flow function, tree utility and a
representative set of ``jaxtyped.numpy`` functions has typing cases of all
three kinds under ``typing/``: used in a pass file (type-checks cleanly and
runs), inside an ``assert_type`` in a reveal file (its result type is
pinned) and on an ``# expect:`` line of a fail file (a misuse is rejected).

Uses are found with ``ast``: an attribute chain or a name whose root was
imported from ``jaxtyped`` (``jt.lax.scan``, ``jnp.sum``,
``tree_util.tree_map``, ``from jaxtyped.lax import scan``) resolves to a
dotted public name such as ``jaxtyped.lax.scan``. The helpers are unit-tested
on small synthetic sources below, so a missing name is known to fail."""

import ast
import inspect
import io
import re
import tokenize
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Literal

import pytest

import jaxtyped
from jaxtyped import lax, tree, tree_util
from jaxtyped import nn  # einsum family
from jaxtyped import numpy as jnp
from jaxtyped.scipy import special  # special-function family
from jaxtyped.scipy.stats import norm  # special-function family
from jaxtyped.numpy import fft as jnp_fft  # FFT family
from jaxtyped.scipy import linalg as scipy_linalg  # scipy.linalg family

Kind = Literal["pass", "reveal", "fail"]
KINDS: tuple[Kind, ...] = ("pass", "reveal", "fail")
TYPING_DIR = Path(__file__).resolve().parents[2] / "typing"
EXPECT_RE = re.compile(r"#\s*expect\s*:")  # the marker typecheck/run.py reads

TRANSFORMATIONS = (
    "jit", "grad", "value_and_grad", "jvp", "vjp", "linearize", "vmap", "jacfwd", "jacrev",
    "hessian", "checkpoint", "remat", "custom_jvp", "custom_vjp", "make_jaxpr", "eval_shape",
    "ensure_compile_time_eval",
)  # fmt: skip
CONTROL_FLOW = ("cond", "switch", "while_loop", "fori_loop", "scan", "map")
TREE = (
    "all", "flatten", "flatten_with_path", "leaves", "leaves_with_path", "map", "map_with_path",
    "reduce", "structure", "transpose", "unflatten",
)  # fmt: skip
NUMPY_FAMILIES: Mapping[str, tuple[str, ...]] = {
    "creation": (
        "zeros", "ones", "full", "empty", "arange", "linspace", "array", "asarray", "eye",
        "identity", "zeros_like", "ones_like", "full_like",
    ),
    "elementwise": (
        "sin", "cos", "tanh", "exp", "log", "sqrt", "abs", "sign", "floor", "round", "isnan",
        "add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "clip",
        "equal", "greater", "logical_and",
    ),
    "reductions": ("sum", "prod", "mean", "max", "min", "amax", "argmax", "argmin", "all", "any"),
    "shape": (
        "reshape", "transpose", "concatenate", "stack", "expand_dims", "squeeze", "moveaxis",
        "ravel", "broadcast_to", "swapaxes", "shape", "ndim", "size",
    ),
    "indexing": ("where",),
    "linalg": ("dot", "matmul", "tensordot", "inner", "outer", "vdot"),
    "dtypes": (
        "float32", "int32", "bool_", "bfloat16", "dtype", "promote_types", "result_type",
        "issubdtype", "finfo", "iinfo",
    ),
    # sorting family
    "sorting": (
        "sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition", "searchsorted",
        "digitize", "cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod",
        "unique", "unique_values", "unique_counts", "unique_inverse", "unique_all",
    ),
    # array manipulation family
    "manipulation": (
        "tile", "repeat", "pad", "split", "array_split", "hsplit", "vsplit", "dsplit", "flip",
        "fliplr", "flipud", "roll", "rot90", "rollaxis", "permute_dims", "matrix_transpose", "tril",
        "triu", "tri", "diag", "diagonal", "diagflat", "trace", "vstack", "hstack", "dstack",
        "column_stack", "block", "append", "concat", "unstack", "atleast_1d", "atleast_2d",
        "atleast_3d", "meshgrid", "broadcast_arrays", "broadcast_shapes", "copy", "astype", "delete",
        "insert", "resize", "trim_zeros", "apply_along_axis", "apply_over_axes", "logspace",
        "geomspace", "fromfunction", "frombuffer", "fromiter", "fromstring", "from_dlpack", "vander",
        "kron", "cross", "matvec", "vecmat", "vecdot", "packbits", "unpackbits", "bartlett",
        "blackman", "hamming", "hanning", "kaiser",
    ),
    # advanced indexing family
    "advanced_indexing": (
        "take", "take_along_axis", "put", "put_along_axis", "choose", "compress", "extract", "place",
        "nonzero", "flatnonzero", "argwhere", "select", "piecewise", "ix_", "indices",
        "ravel_multi_index", "unravel_index", "diag_indices", "diag_indices_from", "tril_indices",
        "triu_indices", "tril_indices_from", "triu_indices_from", "mask_indices", "fill_diagonal",
    ),
    # math, statistics, logic, set and polynomial functions, dtype names, printing and I/O family
    "math_stats": (
        "isclose", "allclose", "array_equal", "array_equiv", "isneginf", "isposinf", "isreal", "iscomplex",
        "isrealobj", "iscomplexobj", "isscalar", "iterable", "signbit", "can_cast", "isdtype", "heaviside",
        "copysign", "ldexp", "frexp", "modf", "gcd", "lcm", "fmax", "fmin", "fabs", "float_power", "spacing",
        "nextafter", "i0", "angle", "nan_to_num", "bitwise_count", "acos", "acosh", "asin", "asinh", "atan",
        "atanh", "atan2", "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift", "diff", "ediff1d",
        "gradient", "trapezoid", "unwrap", "interp", "var", "std", "median", "percentile", "quantile",
        "nanmedian", "nanpercentile", "nanquantile", "average", "ptp", "count_nonzero", "nansum", "nanprod",
        "nanmean", "nanvar", "nanstd", "nanmax", "nanmin", "nanargmax", "nanargmin", "corrcoef", "cov",
        "histogram", "histogram_bin_edges", "histogram2d", "histogramdd", "bincount", "isin", "union1d",
        "setdiff1d", "setxor1d", "intersect1d", "poly", "polyval", "polyadd", "polysub", "polymul", "polydiv",
        "polyder", "polyint", "polyfit", "roots", "float_", "printoptions", "set_printoptions",
        "get_printoptions", "array_repr", "array_str", "save", "savez", "load", "vectorize", "frompyfunc",
    ),
}  # fmt: skip


def tree_util_functions() -> tuple[str, ...]:
    """The functions (not the classes and aliases) of ``jaxtyped.tree_util.__all__``."""
    return tuple(n for n in tree_util.__all__ if inspect.isroutine(getattr(tree_util, n)))


def required_names() -> tuple[str, ...]:
    """Every dotted public name that needs cases of all three kinds."""
    names = [f"jaxtyped.{n}" for n in TRANSFORMATIONS]
    names += [f"jaxtyped.lax.{n}" for n in CONTROL_FLOW]
    names += [f"jaxtyped.tree_util.{n}" for n in tree_util_functions()]
    names += [f"jaxtyped.tree.{n}" for n in TREE]
    names += [f"jaxtyped.numpy.{n}" for family in NUMPY_FAMILIES.values() for n in family]
    # einsum family: every jaxtyped.nn function, and einsum with its ufuncs
    names += [f"jaxtyped.nn.{n}" for n in nn.__all__]
    names += [f"jaxtyped.numpy.{n}" for n in ("einsum", "einsum_path", "logaddexp2", "sinc")]
    # windowed reductions and convolutions family
    names += [f"jaxtyped.lax.{n}" for n in (
        "conv_general_dilated", "conv", "conv_with_general_padding", "conv_transpose", "conv_general_dilated_patches",
        "conv_dimension_numbers", "padtype_to_pads", "reduce_window", "reduce_window_shape_tuple",
    )]  # fmt: skip
    names += ["jaxtyped.numpy.convolve", "jaxtyped.numpy.correlate"]
    # lax extras family
    names += [f"jaxtyped.lax.{n}" for n in (
        "select", "full", "full_like", "broadcast_shapes", "broadcast_to_rank", "broadcast_like", "collapse",
        "index_in_dim", "dynamic_update_index_in_dim", "dynamic_update_slice_in_dim", "index_take", "batch_matmul",
        "split", "tile", "stack", "unstack", "empty", "dtype", "reduce_and", "reduce_or", "reduce_xor", "reduce",
        "bitcast_convert_type", "optimization_barrier", "associative_scan", "custom_root", "custom_linear_solve",
        "approx_max_k", "approx_min_k", "mulhi",
    )]  # fmt: skip
    # special-function family
    names += [f"jaxtyped.lax.{n}" for n in (
        "lgamma", "digamma", "polygamma", "zeta", "erf_inv", "erfc", "bessel_i0e", "bessel_i1e", "igamma",
        "igammac", "igamma_grad_a", "random_gamma_grad", "betainc", "cbrt", "exp2", "square", "reciprocal",
        "clamp", "nextafter", "population_count", "clz", "reduce_precision",
    )]  # fmt: skip
    # Cholesky and triangular_solve family
    names += [f"jaxtyped.lax.linalg.{n}" for n in (
        "cholesky", "triangular_solve", "tridiagonal_solve", "cholesky_update", "symmetric_product",
    )]  # fmt: skip
    # eig, schur and tridiagonal family
    names += [f"jaxtyped.lax.linalg.{n}" for n in ("eig", "EigImplementation", "schur", "hessenberg", "tridiagonal")]
    # eigh and svd family
    names += [f"jaxtyped.lax.linalg.{n}" for n in ("eigh", "svd", "EighImplementation", "SvdAlgorithm")]
    # LU and QR family
    names += [f"jaxtyped.lax.linalg.{n}" for n in (
        "lu", "lu_pivots_to_permutation", "qr", "geqrf", "householder_product", "ormqr",
    )]  # fmt: skip
    names += [f"jaxtyped.scipy.special.{n}" for n in special.__all__]
    names += [f"jaxtyped.scipy.stats.norm.{n}" for n in norm.__all__]
    # FFT family
    names += [f"jaxtyped.numpy.fft.{n}" for n in jnp_fft.__all__] + ["jaxtyped.lax.fft", "jaxtyped.lax.FftType"]
    # jnp.linalg family: every function (the result named tuples are classes)
    names += [f"jaxtyped.numpy.linalg.{n}" for n in jnp.linalg.__all__ if not n.endswith("Result")]
    # scipy.linalg family: every function
    names += [f"jaxtyped.scipy.linalg.{n}" for n in scipy_linalg.__all__]
    # nn.initializers family: every builder and initializer (Initializer is the protocol they return)
    names += [f"jaxtyped.nn.initializers.{n}" for n in nn.initializers.__all__ if n != "Initializer"]
    # random family (R1: keys)
    names += [f"jaxtyped.random.{n}" for n in (
        "key", "PRNGKey", "split", "fold_in", "bits", "key_data", "wrap_key_data", "key_impl", "clone",
    )]  # fmt: skip
    # random family (R4: discrete and multivariate)
    names += [f"jaxtyped.random.{n}" for n in (
        "randint", "permutation", "choice", "categorical", "multinomial", "multivariate_normal", "ball", "orthogonal",
    )]  # fmt: skip
    # random family (R2: continuous distributions)
    names += [f"jaxtyped.random.{n}" for n in (
        "uniform", "normal", "truncated_normal", "exponential", "laplace", "logistic", "gumbel", "cauchy",
        "bernoulli", "rademacher", "pareto", "lognormal", "maxwell", "double_sided_maxwell", "weibull_min",
        "rayleigh", "wald", "triangular", "generalized_normal",
    )]  # fmt: skip
    return tuple(names)


# ---------------------------------------------------------------- finding uses


def import_aliases(module: ast.Module) -> dict[str, str]:
    """Local name -> dotted module or object path, for imports of ``jaxtyped``."""
    aliases: dict[str, str] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "jaxtyped":
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:  # `import jaxtyped.numpy` binds `jaxtyped`
                        aliases[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "jaxtyped":
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def dotted(node: ast.expr, aliases: Mapping[str, str]) -> str | None:
    """``jt.lax.scan`` -> ``jaxtyped.lax.scan`` when its root is an alias."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return ".".join([aliases[node.id], *reversed(parts)])


def names_in(nodes: Iterator[ast.AST], aliases: Mapping[str, str]) -> set[str]:
    """The dotted names referenced in ``nodes``: ``jnp.float32.dtype`` uses
    ``jaxtyped.numpy.float32`` (and ``jaxtyped.numpy``, ...) too."""
    found = (dotted(n, aliases) for n in nodes if isinstance(n, (ast.Attribute, ast.Name)))
    return {name for name in found if name is not None}


def assert_type_arguments(module: ast.Module) -> Iterator[ast.AST]:
    """Every node inside the first argument of an ``assert_type`` call."""
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name == "assert_type":
                yield from ast.walk(node.args[0])


def expect_lines(source: str) -> set[int]:
    """Lines carrying an ``# expect:`` comment."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0] for t in tokens if t.type == tokenize.COMMENT and EXPECT_RE.match(t.string)}


def own_parts(stmt: ast.stmt) -> tuple[list[ast.AST], range]:
    """The nodes of ``stmt`` outside its nested statements, and the lines
    they span (a compound statement's header, decorators included)."""
    parts: list[ast.AST] = []
    stack: list[ast.AST] = [c for c in ast.iter_child_nodes(stmt) if not isinstance(c, ast.stmt)]
    while stack:
        node = stack.pop()
        parts.append(node)
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.stmt))
    nested = [c.lineno for c in ast.iter_child_nodes(stmt) if isinstance(c, ast.stmt)]
    decorators = [d.lineno for d in getattr(stmt, "decorator_list", [])]
    first = min([stmt.lineno, *decorators])
    last = min(nested) - 1 if nested else (stmt.end_lineno or stmt.lineno)
    return parts, range(first, last + 1)


def names_on_expect_lines(module: ast.Module, lines: set[int]) -> Iterator[ast.AST]:
    """Nodes of the statements (headers, for compound ones) that span an expect line."""
    for stmt in ast.walk(module):
        if isinstance(stmt, ast.stmt):
            parts, span = own_parts(stmt)
            if lines.intersection(span):
                yield from parts


def uses(source: str, kind: Kind) -> set[str]:
    """The dotted ``jaxtyped`` names a typing file of ``kind`` covers."""
    module = ast.parse(source)
    aliases = import_aliases(module)
    if kind == "pass":
        return names_in(ast.walk(module), aliases)
    if kind == "reveal":
        return names_in(assert_type_arguments(module), aliases)
    return names_in(names_on_expect_lines(module, expect_lines(source)), aliases)


def missing(required: Sequence[str], sources: Sequence[str], kind: Kind) -> list[str]:
    """The required names that no source of ``kind`` covers."""
    covered: set[str] = set()
    for source in sources:
        covered |= uses(source, kind)
    return [name for name in required if name not in covered]


@cache
def suite_sources(kind: Kind) -> tuple[str, ...]:
    return tuple(p.read_text(encoding="utf-8") for p in sorted((TYPING_DIR / kind).rglob("*.py")))


# ---------------------------------------------------------------- the suite


def test_required_names_exist() -> None:
    modules = {"jaxtyped": jaxtyped, "jaxtyped.lax": lax, "jaxtyped.numpy": jnp, "jaxtyped.tree": tree}
    modules["jaxtyped.tree_util"] = tree_util
    modules["jaxtyped.nn"] = nn  # einsum family
    modules["jaxtyped.scipy.special"] = special  # special-function family
    modules["jaxtyped.scipy.stats.norm"] = norm  # special-function family
    modules["jaxtyped.lax.linalg"] = lax.linalg  # Cholesky and triangular_solve family
    modules["jaxtyped.numpy.fft"] = jnp_fft  # FFT family
    modules["jaxtyped.numpy.linalg"] = jnp.linalg  # jnp.linalg family
    modules["jaxtyped.scipy.linalg"] = scipy_linalg  # scipy.linalg family
    modules["jaxtyped.nn.initializers"] = nn.initializers  # nn.initializers family
    modules["jaxtyped.random"] = jaxtyped.random  # random family
    for name in required_names():
        module, _, attr = name.rpartition(".")
        assert hasattr(modules[module], attr), f"{name} is listed but does not exist"
    assert len(set(required_names())) == len(required_names())
    assert "jaxtyped.tree_util.tree_map" in required_names()


@pytest.mark.parametrize("kind", KINDS)
def test_every_required_name_has_cases(kind: Kind) -> None:
    sources = suite_sources(kind)
    assert sources, f"no typing/{kind} files"
    absent = missing(required_names(), sources, kind)
    assert not absent, f"no typing/{kind} case uses: {', '.join(absent)}"


# ---------------------------------------------------------------- the helpers


NAMES = {"jaxtyped.grad", "jaxtyped.vmap", "jaxtyped.jvp", "jaxtyped.jit", "jaxtyped.Array", "jaxtyped.numpy.sin"}
HEADER = "import jaxtyped as jt\nimport jaxtyped.numpy as jnp\nfrom jaxtyped import tree_util\nfrom jaxtyped.lax import scan as lax_scan\n"


def test_uses_resolves_aliases_and_imports() -> None:
    source = HEADER + "jt.grad(f)\njt.lax.cond(p, a, b)\njnp.sum(x)\ntree_util.tree_map(f, t)\nlax_scan(f, c, xs)\n"
    found = uses(source, "pass")
    expected = {"jaxtyped.grad", "jaxtyped.lax.cond", "jaxtyped.numpy.sum", "jaxtyped.tree_util.tree_map"}
    assert expected | {"jaxtyped.lax.scan"} <= found
    assert "jaxtyped.vmap" not in found
    assert "jaxtyped.numpy.float32" in uses(HEADER + "jnp.float32.dtype\n", "pass")  # attribute of a name
    assert uses("import numpy as jnp\njnp.sum(x)\n", "pass") == set()  # not jaxtyped


def test_missing_names_are_reported() -> None:
    required = ("jaxtyped.grad", "jaxtyped.vmap", "jaxtyped.numpy.sum")
    assert missing(required, [HEADER + "jt.grad(f)\n", HEADER + "jnp.sum(x)\n"], "pass") == ["jaxtyped.vmap"]
    assert missing(required, [HEADER + "jt.grad(f); jt.vmap(f); jnp.sum(x)\n"], "pass") == []


def test_reveal_counts_only_assert_type_arguments() -> None:
    source = HEADER + "g = jt.grad(f)\nassert_type(jt.vmap(f)(x), Array)\nassert_type(x, jt.Array)\n"
    assert uses(source, "reveal") & NAMES == {"jaxtyped.vmap"}


def test_fail_counts_only_expect_lines() -> None:
    source = HEADER + (
        "g = jt.grad(f)\n"
        "jt.vmap(f)('x')  # expect: mypy[arg-type] pyright[reportArgumentType]\n"
        "jt.jvp(\n"
        "    f, (x,), (x,),\n"
        ")  # expect: mypy[arg-type]\n"
        "# jnp.sum(x)  # expect: mypy[misc]\n"
        "@jt.jit\n"
        "def h(x: int) -> int:\n"
        "    return jnp.sin(x)  # expect: mypy[return-value]\n"
    )
    assert uses(source, "fail") & NAMES == {"jaxtyped.vmap", "jaxtyped.jvp", "jaxtyped.numpy.sin"}
    assert missing(("jaxtyped.grad", "jaxtyped.jit"), [source], "fail") == ["jaxtyped.grad", "jaxtyped.jit"]
