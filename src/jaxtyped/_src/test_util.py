"""Testing helpers (layer L5): ``check_grads``, JAX's gradient checker.

``check_grads`` compares automatic derivatives with numerical ones along
random directions, so that its cost does not grow with the number of inputs
or outputs:

- forward mode: ``jvp``'s tangent against central finite differences;
- reverse mode: ``vjp`` through the identity ``<u, J v> == <J^T u, v>``
  for random ``u`` and ``v``, with ``J v`` from ``jvp`` (which catches an
  inconsistent transpose tightly) and from finite differences (which
  catches a wrong derivative even when only reverse mode is checked);
- order ``n`` checks the same of the derivative functions themselves
  (``jvp`` of ``f``, and ``x -> vjp(f, x)(f(x))``), recursively.

Inner products are complex-aware as JAX's (``Re(sum(conj(x) * y))``) and
integer or boolean inputs are held fixed (their tangents are ``float0``).
Tolerances are JAX's defaults per dtype, scaled as JAX scales them (by the
size of the compared array), except that inner products are compared
relative to their Cauchy-Schwarz bound ``|u| |J v|``: a finite-difference
error of a given relative size moves them by at most that much, whatever
the number of elements summed.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api import jvp
from jaxtyped._src.api_grad import vjp
from jaxtyped._src.api_util import leaf_to_array
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jaxtyped._src.util import is_int

__all__ = ["check_grads", "EPS"]

EPS = 1e-4
"""The default finite-difference step (JAX's)."""

# A tolerance: one number, or numbers per dtype (unlisted dtypes keep the
# defaults), as JAX's ``check_grads`` takes. The keys are anything
# ``np.dtype`` accepts (``np.float32``, ``"float32"``, a dtype): Any, as
# NumPy's own ``DTypeLike`` is.
Tolerance = float | Mapping[Any, float]

# JAX's default gradient tolerances: finite differences in float32 keep
# only about three digits.
_DEFAULT_TOLERANCE: Mapping[np.dtype[Any], float] = {
    np.dtype(dtypes.bfloat16): 1e-1,
    np.dtype(np.float16): 1e-2,
    np.dtype(np.float32): 2e-3,
    np.dtype(np.float64): 1e-5,
    np.dtype(np.complex64): 1e-3,
    np.dtype(np.complex128): 1e-5,
}
_MODES = ("fwd", "rev")

NDArray = np.ndarray[Any, np.dtype[Any]]


def check_grads(
    f: Callable[..., Any],
    args: Sequence[Any],
    order: int,
    modes: Sequence[str] = ("fwd", "rev"),
    atol: Tolerance | None = None,
    rtol: Tolerance | None = None,
    eps: float | None = None,
) -> None:
    """Check ``f``'s derivatives at ``f(*args)`` against finite differences
    (JAX's ``jax.test_util.check_grads``), up to ``order``.

    Args:
        f: a function of arrays (pytrees of arrays) to arrays.
        args: the point: ``f``'s positional arguments.
        order: derivatives up to this order are checked (1 or more).
        modes: ``"fwd"`` (``jvp``) and/or ``"rev"`` (``vjp``).
        atol: absolute tolerance, a number or one per dtype (default, as
            JAX's: ``2e-3`` for float32, ``1e-5`` for float64), scaled by
            the size of the compared value.
        rtol: relative tolerance, likewise.
        eps: the finite-difference step (default ``1e-4``).

    Raises:
        AssertionError: a derivative does not match; the message names the
            mode, the order, what was compared and the largest difference.
        JaxtypedValueError: ``order`` or ``modes`` is invalid.

    Example:
        >>> import jaxtyped.numpy as jnp
        >>> from jaxtyped.test_util import check_grads
        >>> check_grads(lambda x: jnp.sin(x) * x, (jnp.arange(3.0),), order=2)
        >>> check_grads(lambda x: x * x, (1.5,), order=1, modes=["rev"])
    """
    if not is_int(order) or order < 1:
        raise JaxtypedValueError(f"check_grads: order must be an integer >= 1, got {order!r}")
    if isinstance(modes, str) or not modes or any(m not in _MODES for m in modes):
        raise JaxtypedValueError(f"check_grads: modes must be a sequence of 'fwd' and/or 'rev', got {modes!r}")
    checker = _Checker(tuple(modes), atol, rtol, EPS if eps is None else float(eps), int(order))
    checker.check(f, tuple(args), int(order), "")


@dataclass(frozen=True)
class _Checker:
    """The settings of one ``check_grads`` call."""

    modes: tuple[str, ...]
    atol: Tolerance | None
    rtol: Tolerance | None
    eps: float
    top_order: int

    def check(self, f: Callable[..., Any], args: tuple[Any, ...], order: int, label: str) -> None:
        """Check ``f`` at ``args``, then its derivative functions up to ``order``."""
        level = self.top_order - order + 1
        if "fwd" in self.modes:
            fwd_label = f"JVP of {label}" if label else "JVP"
            self.check_jvp(f, args, f"fwd mode, order {level} ({fwd_label})")
            if order > 1:
                self.check(_jvp_function(f), (args, _tangent_point(args)), order - 1, fwd_label)
        if "rev" in self.modes:
            rev_label = f"VJP of {label}" if label else "VJP"
            self.check_vjp(f, args, f"rev mode, order {level} ({rev_label})")
            if order > 1:
                self.check(_vjp_function(f), args, order - 1, rev_label)

    def check_jvp(self, f: Callable[..., Any], args: tuple[Any, ...], where: str) -> None:
        """``jvp``'s primal and tangent against ``f`` and finite differences."""
        point = _Tree.of(args, "argument")
        tangent = point.random_like(np.random.default_rng(0))
        out, t_out = jvp(f, point.value(), tangent.value())
        expected = _Tree.of(f(*point.value()), "output")
        self.assert_close(_Tree.of(out, "output").host(), expected.host(), f"{where}: primal output", expected)
        numerical = self.numerical_jvp(f, point, tangent)
        self.assert_close(_Tree.of(t_out, "output").host(), numerical, f"{where}: tangent output", expected)

    def check_vjp(self, f: Callable[..., Any], args: tuple[Any, ...], where: str) -> None:
        """``<u, J v> == <J^T u, v>``, ``J v`` numerically (and from ``jvp``
        when forward mode is checked too)."""
        point = _Tree.of(args, "argument")
        rng = np.random.default_rng(0)
        out, pullback = vjp(f, *point.value())
        outputs = _Tree.of(out, "output")
        expected = _Tree.of(f(*point.value()), "output")
        self.assert_close(outputs.host(), expected.host(), f"{where}: primal output", expected)
        v = point.random_like(rng)
        u = outputs.random_like(rng)
        # JAX's convention: pulling back conj(u) gives conj(J^T u).
        ct_in = _Tree.of(pullback(u.map_host(np.conj).value()), "cotangent")
        transposed = [_conj(x) for x in ct_in.host()]
        projected = _inner(v.host(), transposed)
        numerical = self.numerical_jvp(f, point, v)
        atol, rtol = self.tolerances([*point.leaves, *outputs.leaves])
        if "fwd" in self.modes:
            # Only when forward mode is asked for: a custom_vjp function has
            # none, and JAX's check_vjp uses finite differences alone.
            jv = _Tree.of(jvp(f, point.value(), v.value())[1], "output").host()
            # Inner products are compared relative to their Cauchy-Schwarz
            # bounds: an error of relative size r in J v (finite differences,
            # rounding) moves <u, J v> by at most r |u| |J v|.
            bound = max(_norm(u.host()) * _norm(jv), _norm(v.host()) * _norm(transposed))
            _assert_pairing(projected, _inner(jv, u.host()), atol + rtol * bound,
                            f"{where}: <J^T u, v> vs <u, J v> with J v from jvp")  # fmt: skip
        # Here the bound is the numerical one: a wrong, large J v must not
        # loosen the check of itself.
        numerical_bound = _norm(u.host()) * _norm(numerical)
        _assert_pairing(projected, _inner(numerical, u.host()), atol + rtol * numerical_bound,
                        f"{where}: <J^T u, v> vs <u, J v> by finite differences")  # fmt: skip

    def numerical_jvp(self, f: Callable[..., Any], point: "_Tree", tangent: "_Tree") -> list[NDArray]:
        """Central differences of ``f`` at ``point`` along ``tangent``."""
        plus = _Tree.of(f(*point.step(tangent, self.eps).value()), "output").host()
        minus = _Tree.of(f(*point.step(tangent, -self.eps).value()), "output").host()
        result: list[NDArray] = []
        for p, m in zip(plus, minus, strict=True):
            if not dtypes.is_inexact(p.dtype):
                result.append(np.zeros(p.shape, dtypes.float0))  # integer outputs have no derivative
                continue
            wide = _widen(p.dtype)
            with np.errstate(invalid="ignore"):
                # inf - inf counts as no change, as in JAX.
                diff = np.where(p == m, 0, p.astype(wide) - m.astype(wide))
            result.append(np.asarray(diff / (2 * self.eps), wide))
        return result

    def assert_close(self, actual: Sequence[NDArray], expected: Sequence[NDArray], what: str, like: "_Tree") -> None:
        """Raise AssertionError unless each inexact pair agrees within the
        loosest tolerance of the dtypes in ``like``, scaled by size (JAX)."""
        atol, rtol = self.tolerances(like.leaves)
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            if not (dtypes.is_inexact(a.dtype) and dtypes.is_inexact(e.dtype)):
                continue  # integer outputs have float0 derivatives
            label = what if len(actual) == 1 else f"{what} {i}"
            if a.shape != e.shape:
                raise AssertionError(f"check_grads, {label}: shape {a.shape} but expected {e.shape}")
            worst = _worst_difference(a, e, atol, rtol)
            if worst is not None:
                raise AssertionError(
                    f"check_grads, {label}: max difference {worst:.3g} exceeds the tolerance "
                    f"(atol={atol:g}, rtol={rtol:g}, each scaled by size {max(e.size, 1)})\n"
                    f"  got:      {a!r}\n  expected: {e!r}"
                )

    def tolerances(self, leaves: Sequence[Array]) -> tuple[float, float]:
        """``(atol, rtol)``: the loosest over the inexact dtypes of ``leaves``."""
        inexact = [x.dtype for x in leaves if dtypes.is_inexact(x.dtype)]
        atol = max((_tolerance(d, self.atol) for d in inexact), default=0.0)
        rtol = max((_tolerance(d, self.rtol) for d in inexact), default=0.0)
        return atol, rtol


def _assert_pairing(got: float, expected: float, allowed: float, what: str) -> None:
    difference = abs(got - expected)
    if not difference <= allowed:
        raise AssertionError(
            f"check_grads, {what}: max difference {difference:.3g} exceeds the tolerance {allowed:.3g}\n"
            f"  got:      {got!r}\n  expected: {expected!r}"
        )


def _worst_difference(actual: NDArray, expected: NDArray, atol: float, rtol: float) -> float | None:
    """The largest difference where ``|a - e| <= (atol + rtol * |e|) * size``
    fails (NaN matches NaN, infinities match themselves); None if none."""
    wide = _widen(expected.dtype)
    a, e = actual.astype(wide), expected.astype(wide)
    size = max(expected.size, 1)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - e)
        ok = (diff <= (atol + rtol * np.abs(e)) * size) | (np.isnan(a) & np.isnan(e)) | (a == e)
    if np.all(ok):
        return None
    return float(np.max(np.where(ok, 0.0, np.where(np.isnan(diff), np.inf, diff))))


# === pytrees of arrays, flat ===


@dataclass(frozen=True)
class _Tree:
    """A pytree of arrays as its leaves and structure."""

    leaves: list[Array]
    treedef: PyTreeDef

    @staticmethod
    def of(value: object, what: str) -> "_Tree":
        flat, treedef = tree_flatten(value)
        return _Tree([leaf_to_array(x, f"{what} leaf {i}", "check_grads") for i, x in enumerate(flat)], treedef)

    def value(self) -> Any:
        """The pytree."""
        return tree_unflatten(self.treedef, self.leaves)

    def host(self) -> list[NDArray]:
        """The leaves as NumPy arrays."""
        return [np.asarray(x) for x in self.leaves]

    def random_like(self, rng: np.random.Generator) -> "_Tree":
        """A random direction: normal entries for inexact leaves (complex
        ones in both parts), float0 zeros for the others."""
        return _Tree([_random_like(rng, x) for x in self.leaves], self.treedef)

    def map_host(self, fn: Callable[[NDArray], NDArray]) -> "_Tree":
        """``fn`` applied to every inexact leaf's buffer."""
        leaves = [
            array_from_numpy(np.asarray(fn(np.asarray(x)), x.dtype), weak_type=x.weak_type)
            if dtypes.is_inexact(x.dtype) else x
            for x in self.leaves
        ]  # fmt: skip
        return _Tree(leaves, self.treedef)

    def step(self, tangent: "_Tree", scale: float) -> "_Tree":
        """``self + scale * tangent``, in each leaf's dtype (integer leaves fixed)."""
        moved: list[Array] = []
        for x, t in zip(self.leaves, tangent.leaves, strict=True):
            if not dtypes.is_inexact(x.dtype):
                moved.append(x)
                continue
            value = np.asarray(np.asarray(x) + np.asarray(scale, x.dtype) * np.asarray(t), x.dtype)
            moved.append(array_from_numpy(value, weak_type=x.weak_type))
        return _Tree(moved, self.treedef)


def _float0_zeros(x: Array) -> Array:
    """The (only) tangent of an integer or boolean array."""
    return array_from_numpy(np.zeros(x.shape, dtypes.float0))


def _random_like(rng: np.random.Generator, x: Array) -> Array:
    if not dtypes.is_inexact(x.dtype):
        return _float0_zeros(x)
    values: NDArray = rng.standard_normal(x.shape)
    if dtypes.is_complex(x.dtype):
        values = values + 1j * rng.standard_normal(x.shape)
    return array_from_numpy(np.asarray(values, x.dtype), weak_type=x.weak_type)


def _conj(x: NDArray) -> NDArray:
    return np.conj(x) if dtypes.is_complex(x.dtype) else x


def _inner(xs: Sequence[NDArray], ys: Sequence[NDArray]) -> float:
    """``Re(sum(conj(x) * y))`` over the inexact leaf pairs, in float64."""
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        if dtypes.is_inexact(x.dtype) and dtypes.is_inexact(y.dtype):
            x_w, y_w = x.astype(np.complex128).ravel(), y.astype(np.complex128).ravel()
            total += float(np.real(np.vdot(x_w, y_w)))
    return total


def _norm(xs: Sequence[NDArray]) -> float:
    """The Euclidean norm of the inexact leaves together."""
    return float(np.sqrt(sum(_inner([x], [x]) for x in xs)))


def _widen(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """Where differences are computed: complex128 or float64."""
    return np.dtype(np.complex128) if dtypes.is_complex(dtype) else np.dtype(np.float64)


def _tolerance(dtype: np.dtype[Any], given: Tolerance | None) -> float:
    if given is not None and not isinstance(given, Mapping):
        return float(given)
    if given is not None:
        for key, value in given.items():
            if np.dtype(key) == dtype:
                return float(value)
    return _DEFAULT_TOLERANCE.get(dtype, 0.0)


# === the derivative functions checked at higher orders ===


def _jvp_function(f: Callable[..., Any]) -> Callable[[tuple[Any, ...], tuple[Any, ...]], Any]:
    """``(primals, tangents) -> jvp(f, primals, tangents)``."""

    def f_jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> Any:
        return jvp(f, primals, tangents)

    return f_jvp


def _vjp_function(f: Callable[..., Any]) -> Callable[..., Any]:
    """``x -> vjp(f, x)(f(x))``: the pullback of the output itself (JAX's
    choice of second-order reverse-mode function)."""

    def f_vjp(*primals: Any) -> Any:
        out, pullback = vjp(f, *primals)
        return pullback(out)

    return f_vjp


def _tangent_point(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Where the tangent argument of ``jvp(f)`` is checked: ``args`` itself
    (JAX's choice), with float0 zeros for integer leaves."""
    point = _Tree.of(args, "argument")
    leaves = [x if dtypes.is_inexact(x.dtype) else _float0_zeros(x) for x in point.leaves]
    rebuilt: tuple[Any, ...] = tree_unflatten(point.treedef, leaves)
    return rebuilt
