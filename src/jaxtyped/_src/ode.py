"""``jaxtyped.experimental.ode.odeint`` (JAX's ``jax.experimental.ode``; layer L5).

Note [odeint]: the solver is the adaptive Dormand–Prince 5(4) Runge–Kutta
method (Dormand and Prince, J. Comput. Appl. Math. 6(1), 1980) with JAX's
step-size controller and JAX's dense output (a quartic through the step's
ends and its midpoint), so that results agree with JAX's to rounding:

- the state is one flat vector (the leaves of ``y0`` raveled and promoted
  to their common dtype); ``func`` sees and returns the user's pytree;
- one ``scan`` over the requested times; inside it a ``while_loop`` takes
  steps until the step's end passes the target time (at most ``mxstep``
  steps per interval, accepted or rejected), and the target's value is the
  last accepted step's interpolant. Past ``mxstep`` the interpolant is
  extrapolated, as in JAX;
- the whole solve is one ``jit`` (``func`` and the tolerances static).

Reverse mode is the adjoint method (Chen et al., "Neural ordinary
differential equations", 2018, appendix C): a ``custom_vjp`` whose
backward pass integrates the augmented system (state, its cotangent and the
cotangents of time and of the arguments) backwards between consecutive
requested times. ``func`` is closure-converted first, so that the values it
closes over (parameters an outer ``grad`` differentiates) become explicit
arguments that get cotangents.
"""

import math
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar, cast, overload

from typing_extensions import Concatenate


import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_grad import vjp
from jaxtyped._src.api_jit import jit
from jaxtyped._src.api_misc import closure_convert
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import is_numpy_value, is_python_scalar
from jaxtyped._src.custom_derivatives import custom_vjp
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedTypeError
from jaxtyped._src.lax.control_flow.loops import while_loop
from jaxtyped._src.lax.control_flow.scan import fori_loop, scan
from jaxtyped._src.lax.dot import Precision
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.numpy import creation as jc
from jaxtyped._src.numpy import linalg_norms as jn
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import shape_ops as js
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.polynomial import polyval
from jaxtyped._src.numpy.promotion import promote_dtypes
from jaxtyped._src.tree_util import PyTreeDef, tree_unflatten

__all__ = ["odeint"]

Y = TypeVar("Y")

_NAME: Final = "odeint"

# The Dormand–Prince tableau: stage times, stage weights (row i gives stage
# i + 1 from stages 0..i), the 5th-order solution and the embedded error
# estimate (5th minus 4th order). The last stage is evaluated at the new
# point, so it is the next step's first (FSAL).
_ALPHA: Final = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0, 0.0)
_BETA: Final = (
    (1 / 5, 0, 0, 0, 0, 0, 0),
    (3 / 40, 9 / 40, 0, 0, 0, 0, 0),
    (44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0),
    (35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0),
)
_C_SOL: Final = (35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0)
_C_ERR: Final = (
    35 / 384 - 1951 / 21600,
    0,
    500 / 1113 - 22642 / 50085,
    125 / 192 - 451 / 720,
    -2187 / 6784 - -12231 / 42400,
    11 / 84 - 649 / 6300,
    -1.0 / 60.0,
)
# Weights of the stages giving the solution at the step's midpoint (Shampine,
# Math. Comp. 46(173), 1986), already halved.
_C_MID: Final = (
    6025192743 / 30085553152 / 2,
    0,
    51252292925 / 65400821598 / 2,
    -2691868925 / 45128329728 / 2,
    187940372067 / 1594534317056 / 2,
    -1776094331 / 19743644256 / 2,
    11237099 / 235043384 / 2,
)

# A flat solver function: state vector, time, argument leaves -> derivative.
FlatFunc = Callable[..., Array]
# The while loop's carry: step count, state, its derivative, time, step
# size, the last accepted step's start, and that step's interpolant.
_Step = tuple[Array, Array, Array, Array, Array, Array, Array]
_Carry = tuple[Array, Array, Array, Array, Array, Array]


def _describe(x: Array) -> str:
    """``dtype[shape]``, as errors show an array."""
    return f"{x.dtype}[{','.join(map(str, x.shape))}]"


def _dot(a: ArrayLike, b: ArrayLike) -> Array:
    # HIGHEST: the stage sums must not lose digits to reduced-precision
    # matmul units (JAX runs the solver under default_matmul_precision("highest")).
    return js.dot(a, b, precision=Precision.HIGHEST)


def _const(values: tuple[object, ...], dtype: np.dtype[Any]) -> Array:
    return jc.asarray(np.asarray(values, dtype=np.float64), dtype=dtype)


# === the flat state ===


class _Layout:
    """How the leaves of ``y0`` map to the flat state vector."""

    def __init__(self, tree: PyTreeDef, shapes: list[tuple[int, ...]], leaf_dtypes: list[np.dtype[Any]], dtype: np.dtype[Any]) -> None:
        self.tree = tree
        self.shapes = shapes
        self.dtypes = leaf_dtypes
        self.dtype = dtype
        self.sizes = [math.prod(s) for s in shapes]
        self.size = sum(self.sizes)

    def unravel(self, flat: Array) -> object:
        """The pytree of one state vector."""
        leaves: list[Array] = []
        start = 0
        for shape, size, dtype in zip(self.shapes, self.sizes, self.dtypes):
            leaves.append(js.reshape(flat[start : start + size], shape).astype(dtype))
            start += size
        return tree_unflatten(self.tree, leaves)

    def unravel_rows(self, flat: Array) -> object:
        """The pytree of stacked state vectors (a leading axis per leaf)."""
        leaves: list[Array] = []
        start = 0
        rows = flat.shape[0]
        for shape, size, dtype in zip(self.shapes, self.sizes, self.dtypes):
            leaves.append(js.reshape(flat[:, start : start + size], (rows, *shape)).astype(dtype))
            start += size
        return tree_unflatten(self.tree, leaves)

    def ravel(self, value: object, what: str) -> Array:
        """A value of the state's layout (``func``'s output) as one vector,
        checked leaf by leaf against ``y0``."""
        leaves, names, _ = named_leaves(value, what)
        if len(leaves) != len(self.shapes):
            raise JaxtypedTypeError(
                f"{_NAME}: func must return a value with the leaves of y0 ({len(self.shapes)} arrays, "
                f"structure {self.tree}), got {len(leaves)}"
            )
        parts: list[Array] = []
        for leaf, name, shape, dtype in zip(leaves, names, self.shapes, self.dtypes):
            x = leaf_as_array(leaf, f"{_NAME}: {name}")
            # Only the sizes must agree: JAX ravels the output without looking
            # at its shapes, so a (1,) derivative of a scalar leaf is accepted.
            if math.prod(x.shape) != math.prod(shape):
                raise JaxtypedTypeError(
                    f"{_NAME}: {name} has shape {x.shape}, but the corresponding leaf of y0 has shape {shape}"
                )
            # A strongly typed derivative of another dtype would silently change the
            # state's precision; JAX rejects it too (its loop carry changes type).
            if x.dtype != dtype and not (x.weak_type and np.can_cast(x.dtype, dtype, "same_kind")):
                raise JaxtypedTypeError(
                    f"{_NAME}: {name} has dtype {x.dtype}, but the corresponding leaf of y0 has dtype {dtype}"
                )
            parts.append(js.ravel(x).astype(self.dtype))
        if not parts:
            return jc.zeros((0,), self.dtype)
        return js.concatenate(parts)


def _state_layout(y0: object) -> tuple[Array, _Layout]:
    leaves, names, tree = named_leaves(y0, "y0")
    arrays: list[Array] = []
    for leaf, name in zip(leaves, names):
        if not isinstance(leaf, Array) and not is_python_scalar(leaf) and not is_numpy_value(leaf):
            raise JaxtypedTypeError(
                f"{_NAME}: y0 must be an array or a pytree of arrays, but {name} is of type {type(leaf).__name__}"
            )
        x = leaf_as_array(leaf, f"{_NAME}: {name}")
        if not dtypes.is_inexact(x.dtype):
            raise JaxtypedTypeError(
                f"{_NAME}: y0 must be floating point (or complex), but {name} is {_describe(x)}"
            )
        arrays.append(x)
    promoted = promote_dtypes(_NAME, arrays) if arrays else []
    dtype = promoted[0].dtype if promoted else dtypes.canonicalize_dtype(np.dtype(np.float64))
    flat = js.concatenate([js.ravel(x) for x in promoted]) if promoted else jc.zeros((0,), dtype)
    layout = _Layout(tree, [x.shape for x in arrays], [x.dtype for x in arrays], dtype)
    return flat, layout


# === one Dormand–Prince step ===


def _rk_step(fun: Callable[[Array, Array], Array], y0: Array, f0: Array, t0: Array, dt: Array) -> tuple[Array, Array, Array, Array]:
    """One step from ``(t0, y0)`` of size ``dt``: the new state, its
    derivative, the error estimate and the stages ``k`` (7 by n)."""
    alpha = _const(_ALPHA, dt.dtype)
    beta = _const(_BETA, f0.dtype)
    dt_y = dt.astype(f0.dtype)

    def stage(i: Array, k: Array) -> Array:
        ti = t0 + dt * alpha[i - 1]
        yi = y0 + dt_y * _dot(beta[i - 1, :], k)
        return k.at[i, :].set(fun(yi, ti))

    k = jc.zeros((7, f0.shape[0]), f0.dtype).at[0, :].set(f0)
    k = fori_loop(1, 7, stage, k)
    y1 = dt_y * _dot(_const(_C_SOL, f0.dtype), k) + y0
    y1_error = dt_y * _dot(_const(_C_ERR, f0.dtype), k)
    return y1, k[-1], y1_error, k


def _interpolant(y0: Array, y1: Array, k: Array, dt: Array) -> Array:
    """Coefficients (highest power first, 5 by n) of the quartic in the
    step's relative time through ``y0``, the midpoint and ``y1`` with the
    step's end slopes."""
    dt_y = dt.astype(y0.dtype)
    y_mid = y0 + dt_y * _dot(_const(_C_MID, y0.dtype), k)
    dy0, dy1 = k[0], k[-1]
    a = -2.0 * dt_y * dy0 + 2.0 * dt_y * dy1 - 8.0 * y0 - 8.0 * y1 + 16.0 * y_mid
    b = 5.0 * dt_y * dy0 - 3.0 * dt_y * dy1 + 18.0 * y0 + 14.0 * y1 - 32.0 * y_mid
    c = -4.0 * dt_y * dy0 + dt_y * dy1 - 11.0 * y0 - 5.0 * y1 + 16.0 * y_mid
    return js.stack([a, b, c, dt_y * dy0, y0])


def _initial_step(
    fun: Callable[[Array, Array], Array], t0: Array, y0: Array, order: int, rtol: float, atol: float, f0: Array
) -> Array:
    """The first step size (Hairer, Nørsett and Wanner, Solving ODEs I,
    section II.4): a trial Euler step sized by the state's and the
    derivative's scales, then corrected by the derivative's change."""
    scale = atol + ju.abs(y0) * rtol
    d0 = jn.norm(y0 / scale.astype(y0.dtype))
    d1 = jn.norm(f0 / scale.astype(y0.dtype))
    h0 = ju.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1)
    f1 = fun(y0 + h0.astype(y0.dtype) * f0, t0 + h0)
    d2 = jn.norm((f1 - f0) / scale.astype(y0.dtype)) / h0
    h1 = ju.where(
        (d1 <= 1e-15) & (d2 <= 1e-15),
        ju.maximum(1e-6, h0 * 1e-3),
        (0.01 / ju.maximum(d1, d2)) ** (1.0 / (order + 1.0)),
    )
    return ju.minimum(100.0 * h0, h1)


def _error_ratio(error: Array, rtol: float, atol: float, y0: Array, y1: Array) -> Array:
    """The RMS of the error estimate over the mixed tolerance."""
    tolerance = atol + rtol * ju.maximum(ju.abs(y0), ju.abs(y1))
    ratio = error / tolerance.astype(error.dtype)
    squares = ju.real(ratio) ** 2 + ju.imag(ratio) ** 2 if dtypes.is_complex(ratio.dtype) else ratio**2
    return ju.sqrt(jr.mean(squares))


def _next_step_size(last: Array, ratio: Array) -> Array:
    """The controller: grow by at most 10, shrink by at most 5 after a
    rejection, aim at 0.9 of the size the error estimate allows."""
    safety, ifactor, order = 0.9, 10.0, 5.0
    dfactor = ju.where(ratio < 1, 1.0, 0.2)
    factor = ju.minimum(ifactor, ju.maximum(ratio ** (-1.0 / order) * safety, dfactor))
    return ju.where(ratio == 0, last * ifactor, last * factor)


# === the solver and its adjoint ===


def _solve_impl(func: FlatFunc, rtol: float, atol: float, mxstep: float, hmax: float, y0: Array, ts: Array, *args: Array) -> Array:
    def fun(y: Array, t: Array) -> Array:
        return func(y, t, *args)

    def to_time(carry: _Carry, target: Array) -> tuple[_Carry, Array]:
        def keep_going(state: _Step) -> Array:
            i, _, _, t, dt, _, _ = state
            return (t < target) & (i < mxstep) & (dt > 0)

        def step(state: _Step) -> _Step:
            i, y, f, t, dt, last_t, coeffs = state
            next_y, next_f, error, k = _rk_step(fun, y, f, t, dt)
            ratio = _error_ratio(error, rtol, atol, y, next_y)
            new_coeffs = _interpolant(y, next_y, k, dt)
            new_dt = ju.clip(_next_step_size(dt, ratio), min=0.0, max=hmax)
            # A rejected step keeps the point and retries with the smaller size.
            ok = ratio <= 1.0
            return (
                i + 1,
                ju.where(ok, next_y, y),
                ju.where(ok, next_f, f),
                ju.where(ok, t + dt, t),
                new_dt,
                ju.where(ok, t, last_t),
                ju.where(ok, new_coeffs, coeffs),
            )

        y, f, t, dt, last_t, coeffs = carry
        zero = jc.asarray(0, dtype=np.dtype(np.int32))
        _, y, f, t, dt, last_t, coeffs = while_loop(keep_going, step, (zero, y, f, t, dt, last_t, coeffs))
        relative = (target - last_t) / (t - last_t)
        return (y, f, t, dt, last_t, coeffs), polyval(coeffs, relative.astype(coeffs.dtype))

    f0 = fun(y0, ts[0])
    dt = ju.clip(_initial_step(fun, ts[0], y0, 4, rtol, atol, f0), min=0.0, max=hmax)
    coeffs = js.stack([y0] * 5)
    init: _Carry = (y0, f0, ts[0], dt, ts[0], coeffs)
    _, ys = scan(to_time, init, ts[1:])
    return js.concatenate([y0[None], ys])


def _solve_fwd(
    func: FlatFunc, rtol: float, atol: float, mxstep: float, hmax: float, y0: Array, ts: Array, *args: Array
) -> tuple[Array, tuple[Array, Array, tuple[Array, ...]]]:
    ys = _solve(func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _solve_bwd(
    func: FlatFunc,
    rtol: float,
    atol: float,
    mxstep: float,
    hmax: float,
    res: tuple[Array, Array, tuple[Array, ...]],
    g: Array,
) -> tuple[Array | None, ...]:
    ys, ts, args = res
    # Only inexact arguments have cotangents; the others stay closed over.
    diff = [i for i, a in enumerate(args) if dtypes.is_inexact(a.dtype)]

    def with_diff(values: Sequence[Array]) -> list[Array]:
        full = list(args)
        for i, v in zip(diff, values):
            full[i] = v
        return full

    def augmented(state: tuple[Array, Array, Array, tuple[Array, ...]], minus_t: Array, *diff_args: Array) -> tuple[Array, Array, Array, tuple[Array, ...]]:
        # The backward solve runs in negated time, so that its times increase.
        y, y_bar = state[0], state[1]

        def f(y_: Array, t_: Array, *d: Array) -> Array:
            return func(y_, t_, *with_diff(d))

        y_dot, pullback = vjp(f, y, -minus_t, *diff_args)
        cts = pullback(y_bar)
        return -y_dot, cts[0], cts[1], tuple(cts[2:])

    diff_args = [args[i] for i in diff]

    def back_one(carry: tuple[Array, Array, tuple[Array, ...]], i: Array) -> tuple[tuple[Array, Array, tuple[Array, ...]], Array]:
        y_bar, t0_bar, args_bar = carry
        # Moving the i-th output time moves that output along the solution.
        t_bar = ju.real(_dot(func(ys[i], ts[i], *args), g[i]))
        t0_bar = t0_bar - t_bar
        times = js.stack([-ts[i], -ts[i - 1]])
        out = odeint(augmented, (ys[i], y_bar, t0_bar, args_bar), times, *diff_args, rtol=rtol, atol=atol, mxstep=mxstep, hmax=hmax)
        _, y_bar_path, t0_bar_path, args_bar_path = out
        y_bar = y_bar_path[1] + g[i - 1]
        return (y_bar, t0_bar_path[1], tuple(a[1] for a in args_bar_path)), t_bar

    init = (g[-1], jc.zeros((), ts.dtype), tuple(jc.zeros_like(a) for a in diff_args))
    indices = jc.arange(ts.shape[0] - 1, 0, -1)
    (y_bar, t0_bar, args_bar), rev_ts_bar = scan(back_one, init, indices)
    ts_bar = js.concatenate([t0_bar[None].astype(ts.dtype), rev_ts_bar[::-1].astype(ts.dtype)])
    args_cts: list[Array | None] = [None] * len(args)
    for i, ct in zip(diff, args_bar):
        args_cts[i] = ct
    return (y_bar, ts_bar, *args_cts)


_solve: custom_vjp[..., Array] = custom_vjp(_solve_impl, nondiff_argnums=(0, 1, 2, 3, 4))
_solve.defvjp(_solve_fwd, _solve_bwd)


class _FlatFunc:
    """``func`` on the flat state: unravels it, calls ``func(y, t, *args)``
    (rebuilding ``args`` from their leaves) and ravels the result."""

    def __init__(self, func: Callable[..., object], layout: _Layout, args_tree: PyTreeDef) -> None:
        self.func = func
        self.layout = layout
        self.args_tree = args_tree

    def __call__(self, y: Array, t: Array, *leaves: Array) -> Array:
        args = tree_unflatten(self.args_tree, list(leaves))
        assert isinstance(args, tuple)
        out = self.func(self.layout.unravel(y), t, *args)
        return self.layout.ravel(out, "func's output")


def _run(func: "_Solver", rtol: float, atol: float, mxstep: float, hmax: float, y0: Array, ts: Array, *args: Array) -> object:
    return func.layout.unravel_rows(_solve(func, rtol, atol, mxstep, hmax, y0, ts, *args))


# One compiled program per function and tolerances (static), as JAX's.
_run_jit = jit(_run, static_argnums=(0, 1, 2, 3, 4))


def _check_number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise JaxtypedTypeError(f"{_NAME}: {name} must be a real number, got {type(value).__name__} {value!r}")
    return float(cast("float", value))


def _times(t: object) -> Array:
    if not isinstance(t, Array) and not is_numpy_value(t) and not isinstance(t, (list, tuple)):
        raise JaxtypedTypeError(f"{_NAME}: t must be a 1-D array of floats, got {type(t).__name__}")
    ts = jc.asarray(cast("object", t))
    if not dtypes.is_floating(ts.dtype):
        raise JaxtypedTypeError(f"{_NAME}: t must be an array of floats, got {_describe(ts)}")
    if ts.ndim == 0 or ts.shape[0] == 0:
        # JAX indexes t[0] first: an IndexError.
        raise JaxtypedIndexError(f"{_NAME}: t must be a non-empty 1-D array of times, got {_describe(ts)}")
    if ts.ndim != 1:
        raise JaxtypedTypeError(f"{_NAME}: t must be a 1-D array of times, got {_describe(ts)}")
    return ts


def _arg_leaves(args: tuple[object, ...]) -> tuple[list[Array], PyTreeDef]:
    leaves, names, tree = named_leaves(args, "args")
    arrays: list[Array] = []
    for leaf, name in zip(leaves, names):
        if not isinstance(leaf, Array) and not is_python_scalar(leaf) and not is_numpy_value(leaf):
            raise JaxtypedTypeError(
                f"{_NAME}: the contents of *args must be arrays or scalars (or pytrees of them), "
                f"but {name} is of type {type(leaf).__name__}: {leaf!r}"
            )
        arrays.append(leaf_as_array(leaf, f"{_NAME}: {name}"))
    return arrays, tree


# Note [odeint types]: an array (or scalar) state gives an Array, any other
# pytree keeps its type. Without *args func's parameters are fixed, so a
# checker types an unannotated lambda's (the state, and Any for the time);
# with *args they are open (mypy cannot infer a lambda's types there:
# annotate it).
@overload
def odeint(
    func: Callable[[Array, Any], object],
    y0: ArrayLike,
    t: ArrayLike,
    *,
    rtol: float | int = 1.4e-8,
    atol: float | int = 1.4e-8,
    mxstep: float | int = math.inf,
    hmax: float | int = math.inf,
) -> Array: ...
@overload
def odeint(
    func: Callable[Concatenate[Array, Any, ...], object],
    y0: ArrayLike,
    t: ArrayLike,
    *args: object,
    rtol: float | int = 1.4e-8,
    atol: float | int = 1.4e-8,
    mxstep: float | int = math.inf,
    hmax: float | int = math.inf,
) -> Array: ...
@overload
def odeint(
    func: Callable[[Y, Any], object],
    y0: Y,
    t: ArrayLike,
    *,
    rtol: float | int = 1.4e-8,
    atol: float | int = 1.4e-8,
    mxstep: float | int = math.inf,
    hmax: float | int = math.inf,
) -> Y: ...
@overload
def odeint(
    func: Callable[Concatenate[Y, Any, ...], object],
    y0: Y,
    t: ArrayLike,
    *args: object,
    rtol: float | int = 1.4e-8,
    atol: float | int = 1.4e-8,
    mxstep: float | int = math.inf,
    hmax: float | int = math.inf,
) -> Y: ...
def odeint(
    func: Callable[..., object],
    y0: object,
    t: ArrayLike,
    *args: object,
    rtol: float | int = 1.4e-8,
    atol: float | int = 1.4e-8,
    mxstep: float | int = math.inf,
    hmax: float | int = math.inf,
) -> object:
    """Solve ``dy/dt = func(y, t, *args)`` from ``y(t[0]) = y0`` (JAX's
    ``jax.experimental.ode.odeint``), by the adaptive Dormand–Prince 5(4)
    method.

    Args:
        func: the derivative, ``func(y, t, *args)``, returning ``y0``'s
            structure, shapes and dtypes.
        y0: the initial state, a floating-point array or pytree of them.
        t: the times to report, a 1-D increasing float array; ``t[0]`` is
            the initial time.
        *args: extra arguments of ``func`` (arrays, scalars or pytrees of
            them), differentiable like ``y0``.
        rtol, atol: the relative and absolute local error tolerances.
        mxstep: the most steps (accepted or rejected) per interval of ``t``.
        hmax: the largest step size.

    Returns:
        ``y`` at each time of ``t``: ``y0``'s structure with a leading axis
        of length ``len(t)`` on every leaf.

    Example:
        >>> import jaxtyped.numpy as jnp
        >>> from jaxtyped.experimental.ode import odeint
        >>> ys = odeint(lambda y, t: -y, jnp.ones(2), jnp.array([0.0, 1.0]))
        >>> jnp.allclose(ys[1], jnp.exp(-1.0))
        Array(True, dtype=bool)
    """
    if not callable(func):
        raise JaxtypedTypeError(f"{_NAME}: func must be callable, got {type(func).__name__}")
    r, a = _check_number(rtol, "rtol"), _check_number(atol, "atol")
    m, h = _check_number(mxstep, "mxstep"), _check_number(hmax, "hmax")
    ts = _times(t)
    arg_leaves, args_tree = _arg_leaves(args)
    y0_flat, layout = _state_layout(y0)
    flat = _FlatFunc(func, layout, args_tree)
    # Hoist the traced values func closes over into explicit arguments, so
    # that the adjoint pass gives them cotangents.
    converted, consts = closure_convert(flat, y0_flat, ts[0], *arg_leaves)
    return _run_jit(_Solver(converted, layout), r, a, m, h, y0_flat, ts, *arg_leaves, *consts)


class _Solver:
    """The flat function the solver calls, with the state's layout (to
    rebuild the result's pytree)."""

    def __init__(self, fun: Callable[..., Array], layout: _Layout) -> None:
        self.fun = fun
        self.layout = layout

    def __call__(self, y: Array, t: Array, *leaves: Array) -> Array:
        return self.fun(y, t, *leaves)
