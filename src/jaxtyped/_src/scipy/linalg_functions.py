"""Matrix functions and tridiagonal eigenproblems of
``jaxtyped.scipy.linalg`` (layer L5): ``sqrtm``, ``expm_frechet`` and
``eigh_tridiagonal``, with JAX's signatures, dtypes and errors.
"""

from collections.abc import Callable
from typing import Literal, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api import jvp
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.numpy import creation as jc
from jaxtyped._src.numpy import manipulation as jm
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import shape_ops as js
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes
from jaxtyped._src.numpy.vectorize import vectorize
from jaxtyped._src.scipy import linalg, linalg_decompositions
from jaxtyped._src.scipy.linalg_expm import expm

__all__ = ["sqrtm", "funm", "solve_sylvester", "rsf2csf", "expm_frechet", "eigh_tridiagonal"]


# === sqrtm ===


def _sqrtm_upper_triangular(t: Array) -> Array:
    """The principal square root ``R`` of an upper triangular ``T``.

    ``R[i, j]`` (``i < j``) is ``(T[i, j] - sum_{i<k<j} R[i, k] R[k, j]) /
    (R[i, i] + R[j, j])``, which needs only entries nearer the diagonal: so
    the superdiagonals are filled one at a time, each all at once, the sum
    being ``(R @ R)[i, j]`` while ``R[i, j]`` is still zero. A zero
    numerator gives 0 (a 0/0 of a repeated zero eigenvalue), as in JAX.
    """
    n = t.shape[-1]
    r = jm.diag(ju.sqrt(jm.diagonal(t)))
    rows, cols = np.indices((n, n))
    roots = jm.diagonal(r)
    denominators = ju.add(roots[:, None], roots[None, :])
    for offset in range(1, n):
        on_band = jc.asarray(cols - rows == offset)
        numerator = ju.subtract(t, js.matmul(r, r))
        value = ju.where(ju.equal(numerator, 0), jc.zeros((), t.dtype), ju.divide(numerator, denominators))
        r = ju.where(on_band, value, r)
    return r


def sqrtm(A: ArrayLike, blocksize: int = 1) -> Array:  # noqa: N803 - SciPy's name
    """The principal square root of a square matrix, through its complex
    Schur form (always complex, as in JAX).

    Raises:
        NotImplementedError: ``blocksize > 1`` (JAX has no blocked version).
        JaxtypedValueError: ``A`` is not a square matrix.
    """
    if blocksize > 1:
        raise JaxtypedNotImplementedError("sqrtm: the blocked version (blocksize > 1) is not implemented")
    a = asarray_operand("sqrtm", A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise JaxtypedValueError(f"sqrtm: A must be a square matrix, got {a.aval.str_short()}")
    return _sqrtm_compiled(a)


@jit
def _sqrtm_compiled(a: Array) -> Array:
    # Compiled even when called eagerly (as JAX's is): a singular matrix's
    # inf/NaN entries then flow through the products as in XLA, without the
    # eager NumPy matmul's RuntimeWarning.
    t, z = linalg_decompositions.schur(a, output="complex")
    root = _sqrtm_upper_triangular(t)
    return js.matmul(js.matmul(z, root), ju.conjugate(js.swapaxes(z, -1, -2)))


# === funm ===


def _parlett(t: Array, f_diagonal: Array) -> Array:
    """``F = f(T)`` of an upper triangular ``T`` from its diagonal
    ``f(T[i, i])`` by Parlett's recurrence (``F T = T F``):
    ``F[i, j] = (T @ F - F @ T)[i, j] / (T[j, j] - T[i, i])`` while
    ``F[i, j]`` is still zero, filled one superdiagonal at a time. A zero
    numerator gives 0 (a repeated eigenvalue of a diagonal block)."""
    n = t.shape[-1]
    f = jm.diag(f_diagonal)
    rows, cols = np.indices((n, n))
    eigenvalues = jm.diagonal(t)
    gaps = ju.subtract(eigenvalues[None, :], eigenvalues[:, None])
    for offset in range(1, n):
        on_band = jc.asarray(cols - rows == offset)
        numerator = ju.subtract(js.matmul(t, f), js.matmul(f, t))
        value = ju.where(ju.equal(numerator, 0), jc.zeros((), t.dtype), ju.divide(numerator, gaps))
        f = ju.where(on_band, value, f)
    return f


def _schur_complex(x: Array) -> tuple[Array, Array]:
    """The complex Schur form of ``x``: a real matrix's real form made
    complex by :func:`rsf2csf` (as JAX's ``funm`` does: the off-diagonal
    entries, and so the error estimate, depend on the route)."""
    if dtypes.is_complex(x.dtype):
        return linalg_decompositions.schur(x)
    return rsf2csf(*linalg_decompositions.schur(x))


def _funm_error(t: Array) -> Array:
    """SciPy's error estimate of the Parlett recurrence:
    ``min(1, max(tol, tol / minden * ||triu(T, 1)||_1))``, ``minden`` the
    smallest of ``|T[0, 0]|`` and the eigenvalue gaps (``tol`` if zero)."""
    n = t.shape[-1]
    real = ju.real(t).dtype
    tol = jc.asarray(float(np.finfo(real).eps), dtype=real)
    diagonal = jm.diagonal(t)
    gaps = ju.abs(ju.subtract(diagonal[None, :], diagonal[:, None]))
    above = jc.asarray(np.triu(np.ones((n, n), bool), 1))
    smallest = jr.min(ju.where(above, gaps, jc.asarray(np.inf, dtype=real)), initial=float(np.inf))
    minden = ju.minimum(smallest, ju.abs(t[0, 0]))
    minden = ju.where(ju.equal(minden, 0), tol, minden)
    norm = jr.max(jr.sum(ju.abs(jm.triu(t, 1)), axis=0))
    return ju.minimum(jc.asarray(1.0, dtype=real), ju.maximum(tol, ju.multiply(ju.divide(tol, minden), norm)))


@overload
def funm(A: ArrayLike, func: Callable[[Array], Array], disp: Literal[True] = True) -> Array: ...  # noqa: N803
@overload
def funm(A: ArrayLike, func: Callable[[Array], Array], disp: Literal[False]) -> tuple[Array, Array]: ...  # noqa: N803
@overload
def funm(A: ArrayLike, func: Callable[[Array], Array], disp: bool) -> Array | tuple[Array, Array]: ...  # noqa: N803
def funm(A: ArrayLike, func: Callable[[Array], Array], disp: bool = True) -> Array | tuple[Array, Array]:  # noqa: N803 - SciPy's name
    """The matrix function ``func(A)`` of a square matrix, by the
    Schur-Parlett method: ``func`` is applied (vectorized) to the
    eigenvalues on the diagonal of the complex Schur form. The result is
    complex, as in JAX; ``disp=False`` also returns SciPy's estimate of
    the relative error.

    Raises:
        JaxtypedValueError: ``A`` is not a square matrix.
        JaxtypedIndexError: ``A`` is empty.
    """
    a = asarray_operand("funm", A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise JaxtypedValueError(f"funm: expected a square matrix, got {a.aval.str_short()}")
    if a.shape[0] == 0:
        # (JAX fails indexing the empty Schur form: the same kind of error.)
        raise JaxtypedIndexError(f"funm: A is empty ({a.aval.str_short()}): there is no T[0, 0] for the error estimate")

    def compute(x: Array) -> tuple[Array, Array]:
        t, z = _schur_complex(x)
        f = _parlett(t, func(jm.diagonal(t)))
        return js.matmul(js.matmul(z, f), ju.conjugate(js.swapaxes(z, -1, -2))), _funm_error(t)

    # Compiled, as JAX's: a 0/0 on a repeated eigenvalue flows as in XLA.
    result, error = jit(compute)(a)
    return result if disp else (result, error)


# === solve_sylvester ===


def solve_sylvester(
    A: ArrayLike, B: ArrayLike, C: ArrayLike, *, method: Literal["schur", "eigen"] = "schur", tol: float = 1e-8  # noqa: N803
) -> Array:
    """The solution ``X`` of ``A X + X B = C`` (batch dimensions
    broadcast), by Bartels-Stewart on the complex Schur forms of ``A`` and
    ``B``; NaN where an eigenvalue of ``A`` plus one of ``B`` is within
    ``tol`` of zero (no unique solution), as in JAX. Both methods give the
    same solution (``"eigen"`` is JAX's faster, less accurate variant).

    Raises:
        JaxtypedValueError: an unknown ``method`` or mismatched shapes.
    """
    if method not in ("schur", "eigen"):
        raise JaxtypedValueError(f"solve_sylvester: unrecognized method {method!r}: expected 'schur' or 'eigen'")
    a, b, c = promote_dtypes(
        "solve_sylvester", [asarray_operand("solve_sylvester", x, i) for i, x in enumerate((A, B, C))], inexact=True
    )
    for name, x in (("A", a), ("B", b)):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise JaxtypedValueError(f"solve_sylvester: {name} must be a (batch of) square matrices, got {x.aval.str_short()}")
    if c.ndim < 2 or c.shape[-2:] != (a.shape[-1], b.shape[-1]):
        raise JaxtypedValueError(
            f"solve_sylvester: C must have shape [..., m, n] for A [..., m, m] and B [..., n, n], got "
            f"{a.aval.str_short()}, {b.aval.str_short()} and {c.aval.str_short()}"
        )
    real = not dtypes.is_complex(c.dtype)

    def solve_one(a_: Array, b_: Array, c_: Array) -> Array:
        r, u = linalg_decompositions.schur(a_, output="complex")
        s, v = linalg_decompositions.schur(b_, output="complex")
        f = js.matmul(js.matmul(ju.conjugate(js.swapaxes(u, -1, -2)), c_.astype(r.dtype)), v)
        # R Y + Y S = F with S upper triangular: column j needs columns < j.
        columns: list[Array] = []
        eye = jc.eye(r.shape[-1], dtype=r.dtype)
        for j in range(s.shape[-1]):
            rhs = f[:, j]
            for k, column in enumerate(columns):
                rhs = ju.subtract(rhs, ju.multiply(s[k, j], column))
            columns.append(linalg.solve_triangular(ju.add(r, ju.multiply(s[j, j], eye)), rhs))
        y = js.stack(columns, axis=-1) if columns else jc.zeros(f.shape, f.dtype)
        x = js.matmul(js.matmul(u, y), ju.conjugate(js.swapaxes(v, -1, -2)))
        sums = ju.abs(ju.add(jm.diagonal(r)[:, None], jm.diagonal(s)[None, :]))
        singular = jr.any(ju.less(sums, tol)) if sums.size else jc.asarray(False)
        x = ju.real(x) if real else x
        return ju.where(singular, jc.full_like(x, np.nan), x)

    return vectorize(solve_one, signature="(m,m),(n,n),(m,n)->(m,n)")(a, b, c)


# === rsf2csf ===


def _rsf2csf_matrix(t: Array, z: Array) -> tuple[Array, Array]:
    """One real Schur pair made complex: each 2-by-2 diagonal block (a
    non-negligible sub-diagonal entry) is triangularized by a Givens
    rotation built from its eigenvalue with the positive imaginary part,
    applied to the rows and columns of ``T`` and the columns of ``Z``,
    from the bottom block up (SciPy's algorithm)."""
    n = t.shape[-1]
    eps = float(np.finfo(ju.real(t).dtype).eps)
    rows, cols = np.indices((n, n))
    for m in range(n - 1, 0, -1):
        sub, top, bottom = t[m, m - 1], t[m - 1, m - 1], t[m, m]
        significant = ju.greater(ju.abs(sub), ju.multiply(eps, ju.add(ju.abs(top), ju.abs(bottom))))
        half_gap = ju.divide(ju.subtract(top, bottom), 2)
        mu = ju.add(half_gap, ju.sqrt(ju.add(ju.multiply(half_gap, half_gap), ju.multiply(t[m - 1, m], sub))))
        radius = ju.sqrt(ju.add(ju.square(ju.abs(mu)), ju.square(ju.abs(sub))))
        c, s_ = ju.divide(mu, radius), ju.divide(sub, radius)
        # The rotation embedded in the identity at rows/columns m-1, m.
        entries = {(m - 1, m - 1): ju.conjugate(c), (m - 1, m): s_, (m, m - 1): ju.negative(s_), (m, m): c}
        g = jc.eye(n, dtype=t.dtype)
        for (i, j), value in entries.items():
            g = ju.where(jc.asarray((rows == i) & (cols == j)), value, g)
        g_h = ju.conjugate(js.swapaxes(g, -1, -2))
        t = ju.where(significant, js.matmul(js.matmul(g, t), g_h), t)
        z = ju.where(significant, js.matmul(z, g_h), z)
        t = ju.where(jc.asarray((rows == m) & (cols == m - 1)), jc.zeros((), t.dtype), t)
    return t, z


def rsf2csf(T: ArrayLike, Z: ArrayLike, check_finite: bool = True) -> tuple[Array, Array]:  # noqa: N803 - SciPy's names
    """The complex Schur form ``(T, Z)`` (upper triangular ``T``, unitary
    ``Z``, same ``Z T Z^H``) of a real Schur form, batched over leading
    dimensions; always complex.

    Raises:
        JaxtypedValueError: ``T`` is not square or ``Z``'s shape differs.
    """
    t = asarray_operand("rsf2csf", T, 0)
    z = asarray_operand("rsf2csf", Z, 1)
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise JaxtypedValueError(f"rsf2csf: input 'T' must be square, got {t.aval.str_short()}")
    if z.shape != t.shape:
        raise JaxtypedValueError(f"rsf2csf: input array shapes must match: Z {z.aval.str_short()} vs. T {t.aval.str_short()}")
    t, z = promote_dtypes("rsf2csf", [t, z, jc.zeros((), np.complex64)])[:2]

    def one(t_: Array, z_: Array) -> tuple[Array, Array]:
        return _rsf2csf_matrix(t_, z_)

    out_t, out_z = vectorize(one, signature="(n,n),(n,n)->(n,n),(n,n)")(t, z)
    return out_t, out_z


# === expm_frechet ===


@overload
def expm_frechet(
    A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: Literal[True] = True  # noqa: N803
) -> tuple[Array, Array]: ...
@overload
def expm_frechet(
    A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: Literal[False]  # noqa: N803
) -> Array: ...
@overload
def expm_frechet(
    A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: bool  # noqa: N803
) -> Array | tuple[Array, Array]: ...
def expm_frechet(
    A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: bool = True  # noqa: N803 - SciPy's names
) -> Array | tuple[Array, Array]:
    """The Frechet derivative of the matrix exponential at ``A`` in the
    direction ``E`` (the forward derivative of :func:`expm`), with
    ``expm(A)`` first when ``compute_expm``. ``method`` is accepted and
    ignored, as in JAX.

    Raises:
        JaxtypedValueError: ``A`` is not a (batch of) square matrices, or
            ``E``'s shape differs.
        JaxtypedTypeError: ``A`` and ``E`` are not of one inexact dtype
            (the rule of a jvp's primal and tangent).
    """
    a = asarray_operand("expm_frechet", A, 0)
    e = asarray_operand("expm_frechet", E, 1)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise JaxtypedValueError(f"expm_frechet: expected A to be a (batched) square matrix, got {a.aval.str_short()}")
    if a.shape != e.shape:
        raise JaxtypedValueError(f"expm_frechet: expected A and E to be the same shape, got {a.aval.str_short()} and {e.aval.str_short()}")
    if a.dtype != e.dtype or not dtypes.is_inexact(a.dtype):
        raise JaxtypedTypeError(
            f"expm_frechet: A and E must have one floating or complex dtype, got {a.aval.str_short()} and {e.aval.str_short()}"
        )
    value, derivative = jvp(expm, (a,), (e,))
    return (value, derivative) if compute_expm else derivative


# === eigh_tridiagonal ===


@overload
def eigh_tridiagonal(
    d: ArrayLike, e: ArrayLike, *, eigvals_only: Literal[False] = False, select: Literal["a", "i", "v"] = "a",
    select_range: tuple[int, int] | tuple[float, float] | None = None, tol: float | None = None, key: Array | None = None,
) -> tuple[Array, Array]: ...  # fmt: skip
@overload
def eigh_tridiagonal(
    d: ArrayLike, e: ArrayLike, *, eigvals_only: Literal[True], select: Literal["a", "i", "v"] = "a",
    select_range: tuple[int, int] | tuple[float, float] | None = None, tol: float | None = None, key: Array | None = None,
) -> Array: ...  # fmt: skip
@overload
def eigh_tridiagonal(
    d: ArrayLike, e: ArrayLike, *, eigvals_only: bool, select: Literal["a", "i", "v"] = "a",
    select_range: tuple[int, int] | tuple[float, float] | None = None, tol: float | None = None, key: Array | None = None,
) -> Array | tuple[Array, Array]: ...  # fmt: skip
def eigh_tridiagonal(
    d: ArrayLike, e: ArrayLike, *, eigvals_only: bool = False, select: Literal["a", "i", "v"] = "a",
    select_range: tuple[int, int] | tuple[float, float] | None = None, tol: float | None = None, key: Array | None = None,
) -> Array | tuple[Array, Array]:  # fmt: skip
    """The eigenvalues (ascending) and eigenvectors of the real symmetric
    tridiagonal matrix with diagonal ``d`` and off-diagonal ``e``: ``w``
    with ``eigvals_only``, else ``(w, v)``. ``select="i"`` keeps the
    eigenvalues with indices ``select_range[0]..select_range[1]``
    (inclusive). Computed with ``eigh`` of the dense matrix (JAX bisects:
    the values agree to rounding); ``tol`` and ``key`` are ignored.

    Raises:
        JaxtypedTypeError: ``d`` and ``e`` are not both float32 or both
            float64, or their lengths do not fit.
        JaxtypedValueError: an unknown ``select``.
        NotImplementedError: ``select="v"``, as in JAX.
    """
    if select not in ("a", "i", "v"):
        raise JaxtypedValueError(f"eigh_tridiagonal: select must have a value in {{'a', 'i', 'v'}}, got {select!r}")
    if select == "v":
        raise JaxtypedNotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    diagonal = asarray_operand("eigh_tridiagonal", d, 0)
    off = asarray_operand("eigh_tridiagonal", e, 1)
    floats = (np.dtype(np.float32), np.dtype(np.float64))
    if diagonal.dtype != off.dtype or diagonal.dtype not in floats:
        raise JaxtypedTypeError(
            "eigh_tridiagonal: only float32 and float64 inputs of one dtype are supported, "
            f"got {diagonal.aval.str_short()} and {off.aval.str_short()}"
        )
    if diagonal.ndim != 1 or off.ndim != 1 or off.shape[0] != max(diagonal.shape[0] - 1, 0):
        raise JaxtypedTypeError(
            f"eigh_tridiagonal: d must be a vector and e one entry shorter, got {diagonal.aval.str_short()} and {off.aval.str_short()}"
        )
    (matrix,) = promote_dtypes("eigh_tridiagonal", [ju.add(jm.diag(diagonal), ju.add(jm.diag(off, 1), jm.diag(off, -1)))])
    values, vectors = linalg_decompositions.eigh(matrix)
    if select == "i":
        if select_range is None:
            raise JaxtypedValueError("eigh_tridiagonal: select='i' needs select_range=(first, last)")
        first, last = int(select_range[0]), int(select_range[1])
        values, vectors = values[first : last + 1], vectors[:, first : last + 1]
    return values if eigvals_only else (values, vectors)
