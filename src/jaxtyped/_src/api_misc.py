"""Smaller top-level functions of ``jax`` (layer L5): ``typeof``,
``default_backend``, ``custom_gradient``, ``closure_convert``,
``linear_transpose``, ``named_call``/``named_scope``, ``live_arrays``,
``copy_to_host_async``, the ``make_array_from_*`` constructors
(single-process forms) and the deprecated ``host_*`` aliases.

Each is built from the transformations and the device API that exist
(``vjp``, ``custom_vjp``, ``make_jaxpr``, ``device_put``); none adds a
primitive.
"""

import gc
import platform
import sys
import warnings
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from typing import Any, Literal, TypeVar, cast, overload

from typing_extensions import ParamSpec

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.dtypes import DTypeLike
from jaxtyped._src.api import ShapeDtypeStruct, make_jaxpr
from jaxtyped._src.api_device import Backend, device_put, process_count, process_index
from jaxtyped._src.api_grad import VJPFunction, vjp
from jaxtyped._src.api_jit import jit
from jaxtyped._src.api_util import argnums_tuple, check_callable, input_aval, leaf_to_array
from jaxtyped._src.core.array import Array, ArrayLike, PyTree
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.interpreter import Tracer
from jaxtyped._src.core.jaxpr import RefConst, eval_jaxpr
from jaxtyped._src.custom_derivatives import custom_vjp
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.structural import zeros
from jaxtyped._src.runtime import xla
from jaxtyped._src.sharding import Index, Sharding
from jaxtyped._src.tree_util import tree_flatten, tree_leaves, tree_structure, tree_unflatten

__all__ = [
    "fwd_and_bwd",
    "typeof",
    "default_backend",
    "custom_gradient",
    "closure_convert",
    "linear_transpose",
    "named_call",
    "named_scope",
    "live_arrays",
    "copy_to_host_async",
    "make_array_from_callback",
    "make_array_from_single_device_arrays",
    "make_array_from_process_local_data",
    "host_count",
    "host_id",
    "host_ids",
    "process_indices",
    "print_environment_info",
]

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")


def typeof(x: ArrayLike) -> ShapedArray:
    """The abstract value of ``x`` (JAX's ``jax.typeof``): its shape, dtype
    and weak type, for a concrete array, a tracer or a Python scalar.

    Example:
        >>> import jaxtyped as jt
        >>> print(jt.typeof(1.0), jt.typeof(1.0).weak_type)
        f32[] True
    """
    if isinstance(x, Array):
        return x.aval
    return leaf_to_array(x, "x", "typeof").aval


def default_backend() -> str:
    """The platform of the default device (JAX's ``jax.default_backend``):
    ``"cpu"``, or ``"cuda"``/``"gpu"`` as jaxlib names it."""
    platform = xla.devices()[0].platform
    return "gpu" if platform in ("cuda", "rocm") else platform


def custom_gradient(fun: Callable[..., tuple[T, Callable[..., object]]]) -> Callable[..., T]:
    """A function whose reverse-mode derivative ``fun`` defines itself (JAX's
    ``jax.custom_gradient``): ``fun(*args)`` returns ``(out, vjp_fn)``, with
    ``vjp_fn(ct_out)`` giving the cotangent of each argument (a tuple, or
    the bare cotangent for a one-argument ``fun``).

    Built on ``custom_vjp``: the backward pass runs ``fun`` again on the
    saved arguments to obtain ``vjp_fn`` (its closure is not a pytree and so
    cannot be saved as a residual); forward mode is not available, as in JAX.

    Example:
        >>> import jaxtyped as jt
        >>> @jt.custom_gradient
        ... def square(x):
        ...     return x * x, lambda g: 3.0 * g
        >>> jt.grad(square)(2.0)
        Array(3., dtype=float32, weak_type=True)
    """
    if not callable(fun):
        raise JaxtypedTypeError(f"custom_gradient: expected a callable, got {type(fun).__name__}")

    def primal(*args: object) -> T:
        return fun(*args)[0]

    def fwd(*args: object) -> tuple[T, tuple[object, ...]]:
        return fun(*args)[0], args

    def bwd(args: tuple[object, ...], ct: object) -> tuple[object, ...]:
        cts: object = fun(*args)[1](ct)
        if len(args) == 1 and not isinstance(cts, tuple):
            return (cts,)
        if not isinstance(cts, tuple):
            raise JaxtypedTypeError(
                f"custom_gradient: the vjp function must return a tuple of {len(args)} cotangents "
                f"(one per argument), got {type(cts).__name__}"
            )
        return _checked_cotangents(cast("tuple[object, ...]", cts), len(args))

    wrapped: custom_vjp[..., T] = custom_vjp(primal)
    wrapped.defvjp(fwd, bwd)
    wrapped.__doc__ = fun.__doc__
    return wrapped


def _checked_cotangents(cts: tuple[object, ...], n_args: int) -> tuple[object, ...]:
    if len(cts) != n_args:
        raise JaxtypedTypeError(
            f"custom_gradient: the vjp function must return a tuple of {n_args} cotangents "
            f"(one per argument), got {len(cts)}"
        )
    return cts


def closure_convert(fun: Callable[..., T], *example_args: object) -> tuple[Callable[..., T], list[Array]]:
    """Hoist the floating-point tracers ``fun`` closes over into explicit
    arguments (JAX's ``jax.closure_convert``): returns ``(converted,
    consts)`` with ``converted(*args, *consts) == fun(*args)``.

    ``fun`` is traced once on ``example_args`` (arrays, scalars or
    ``ShapeDtypeStruct``\\ s); concrete consts and those of integer or
    boolean type stay closed over, as in JAX. Used to pass closures to ``custom_vjp`` rules.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> def outer(y):
        ...     f, consts = jt.closure_convert(lambda x: x * y, 1.0)
        ...     return f(3.0, *consts)
        >>> jt.grad(outer)(2.0)
        Array(3., dtype=float32, weak_type=True)
    """
    closed, out_shape = make_jaxpr(fun, return_shape=True)(*example_args)
    out_tree = tree_structure(out_shape)
    in_tree = tree_structure(example_args)
    # Closed-over refs (not tracers) stay closed over.
    hoisted = [i for i, c in enumerate(closed.consts) if isinstance(c, Tracer) and dtypes.issubdtype(c.dtype, np.inexact)]
    consts = [c for i, c in enumerate(closed.consts) if i in hoisted and isinstance(c, Array)]
    n_args = len(example_args)

    def converted(*args_and_consts: object) -> T:
        if len(args_and_consts) != n_args + len(hoisted):
            raise JaxtypedTypeError(
                f"closure_convert: the converted function takes {n_args} argument(s) and "
                f"{len(hoisted)} const(s), got {len(args_and_consts)} values"
            )
        args = args_and_consts[:n_args]
        flat_args, tree = tree_flatten(args)
        if tree != in_tree:
            raise JaxtypedTypeError(f"closure_convert: arguments of structure {tree}, traced with {in_tree}")
        all_consts: list[ArrayLike | RefConst] = list(closed.consts)
        for i, value in zip(hoisted, args_and_consts[n_args:]):
            all_consts[i] = leaf_to_array(value, "const", "closure_convert")
        outs = eval_jaxpr(closed.jaxpr, all_consts, *[leaf_to_array(a, "arg", "closure_convert") for a in flat_args])
        result: T = tree_unflatten(out_tree, outs)
        return result

    return converted, consts


@overload
def linear_transpose(
    fun: Callable[..., object], *primals: ArrayLike | ShapeDtypeStruct, reduce_axes: Sequence[str] = ()
) -> Callable[..., tuple[Array, ...]]: ...
@overload
def linear_transpose(
    fun: Callable[..., object], *primals: object, reduce_axes: Sequence[str] = ()
) -> Callable[..., tuple[PyTree, ...]]: ...
def linear_transpose(
    fun: Callable[..., object], *primals: object, reduce_axes: Sequence[str] = ()
) -> Callable[..., tuple[PyTree, ...]]:
    """The transpose of the linear function ``fun`` (JAX's
    ``jax.linear_transpose``): ``primals`` (arrays or
    ``ShapeDtypeStruct``\\ s) give only the argument types; the result maps
    a cotangent of ``fun``'s output to a tuple with one cotangent per
    argument, of its structure and dtype, weak-typed where JAX's transpose
    rules make it so (a weak-typed primal, such as a Python scalar, can
    get a weak-typed cotangent).

    ``fun`` must be linear: the transpose is its ``vjp`` at zero, which
    equals the transpose exactly when ``fun`` is linear.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> t = jt.linear_transpose(lambda x: 2.0 * x, jnp.ones(2))
        >>> t(jnp.ones(2))
        (Array([2., 2.], dtype=float32),)
    """
    if reduce_axes:
        raise JaxtypedValueError("linear_transpose: reduce_axes is not supported (it is deprecated in JAX)")
    flat, tree = tree_flatten(primals)
    # Zeros of each primal's full type, weak type included: the transpose
    # rules give a weak-typed primal a weak-typed cotangent, as JAX's do.
    zero_primals = [zeros(input_aval(leaf, f"primals[{i}]", "linear_transpose")) for i, leaf in enumerate(flat)]
    _, pullback = vjp(fun, *tree_unflatten(tree, zero_primals))

    # One cotangent per primal, each of its primal's structure (a pytree
    # primal gets a pytree).
    def transposed(out_cotangent: object) -> tuple[PyTree, ...]:
        result: tuple[PyTree, ...] = pullback(out_cotangent)
        return result

    return transposed


def named_call(fun: F, *, name: str | None = None) -> F:
    """``fun`` itself (JAX's ``jax.named_call`` wraps it in a named scope).

    jaxtyped does not record name scopes in its IR or in the StableHLO it
    emits, so the name only documents the code; the result behaves as
    ``fun`` under every transformation.
    """
    if name is not None and not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # checked at run time too
        raise JaxtypedTypeError(f"named_call: name must be a string, got {type(name).__name__}")
    return fun


@contextmanager
def named_scope(name: str) -> Generator[None, None, None]:
    """A context manager naming the operations staged inside it (JAX's
    ``jax.named_scope``).

    jaxtyped accepts and checks the name but does not record it: its
    jaxprs and StableHLO carry no name stack (profiles show op names only).

    Raises:
        JaxtypedTypeError: ``name`` is not a string (a ``TypeError``, as JAX's).
    """
    if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # checked at run time too
        raise JaxtypedTypeError("named_scope name argument must be a string.")
    yield


def live_arrays(platform: str | None = None) -> list[Array]:
    """Every concrete array alive in the process and not deleted (JAX's
    ``jax.live_arrays``), optionally only those on ``platform``.

    Found by walking the garbage collector's objects, so it is slow: a
    debugging tool for leaks, as in JAX.
    """
    found: list[Array] = []
    for obj in gc.get_objects():
        if isinstance(obj, ArrayImpl) and not obj.is_deleted():
            if platform is None or any(getattr(d, "platform", None) == platform for d in obj.devices()):
                found.append(obj)
    return found


def copy_to_host_async(x: T) -> T:
    """Start copying every array leaf of pytree ``x`` to the host (JAX's
    ``jax.copy_to_host_async``); returns ``x``. Leaves without such a
    method are left alone."""
    for leaf in tree_leaves(x):
        copy = getattr(leaf, "copy_to_host_async", None)
        if callable(copy):
            copy()
    return x


def _check_shape(shape: object, where: str) -> tuple[int, ...]:
    dims: list[int] = []
    for d in cast("Sequence[object]", shape) if isinstance(shape, (tuple, list)) else [-1]:
        if not isinstance(d, int) or d < 0:
            raise JaxtypedTypeError(f"{where}: shape must be a tuple of non-negative ints, got {shape!r}")
        dims.append(d)
    return tuple(dims)


def _assemble(shape: tuple[int, ...], pieces: Sequence[tuple[Index, np.ndarray[Any, np.dtype[Any]]]], where: str) -> np.ndarray[Any, np.dtype[Any]]:
    dtype = np.result_type(*[p.dtype for _, p in pieces]) if pieces else np.dtype(np.float32)
    out = np.zeros(shape, dtype)
    for index, piece in pieces:
        want = out[index].shape
        if piece.shape != want:
            raise JaxtypedValueError(f"{where}: a shard has shape {piece.shape}, its slice of {shape} is {want}")
        out[index] = piece
    return out


def _check_dtype(data: np.ndarray[Any, np.dtype[Any]], dtype: DTypeLike | None, where: str) -> None:
    if dtype is not None and dtypes.canonicalize_dtype(data.dtype) != dtypes.canonicalize_dtype(dtype):
        raise JaxtypedValueError(
            f"If `dtype` is provided to `{where}`, it must match the dtype of the shards. "
            f"Got dtype={dtypes.dtype(dtype)} and shard dtype={data.dtype}"
        )


def make_array_from_callback(
    shape: tuple[int, ...],
    sharding: Sharding,
    data_callback: Callable[[Index], ArrayLike | np.ndarray[Any, np.dtype[Any]]],
    dtype: DTypeLike | None = None,
) -> Array:
    """A global array of ``shape`` laid out by ``sharding``, each device's
    shard computed by ``data_callback(index)`` (JAX's
    ``jax.make_array_from_callback``; single process: every device is
    addressable).

    Example:
        >>> import numpy as np, jaxtyped as jt
        >>> data = np.arange(4.0, dtype=np.float32)
        >>> sharding = jt.sharding.SingleDeviceSharding(jt.devices()[0])
        >>> jt.make_array_from_callback((4,), sharding, lambda index: data[index])
        Array([0., 1., 2., 3.], dtype=float32)
    """
    where = "make_array_from_callback"
    global_shape = _check_shape(shape, where)
    if not isinstance(sharding, Sharding):  # pyright: ignore[reportUnnecessaryIsInstance]  # checked at run time too
        raise JaxtypedTypeError(f"{where}: sharding must be a Sharding, got {type(sharding).__name__}")
    pieces = [
        (index, np.asarray(data_callback(index)))
        for index in sharding.devices_indices_map(global_shape).values()
    ]
    data = _assemble(global_shape, pieces, where)
    _check_dtype(data, dtype, where)
    placed: Array = device_put(data, sharding)
    return placed


def make_array_from_single_device_arrays(
    shape: tuple[int, ...], sharding: Sharding, arrays: Sequence[Array], *, dtype: DTypeLike | None = None
) -> Array:
    """A global array of ``shape`` from one array per device of
    ``sharding`` (JAX's ``jax.make_array_from_single_device_arrays``): each
    array is matched to its device's slice; single process."""
    where = "make_array_from_single_device_arrays"
    global_shape = _check_shape(shape, where)
    indices = sharding.devices_indices_map(global_shape)
    if len(arrays) != len(indices):
        raise JaxtypedValueError(f"{where}: {len(indices)} devices in the sharding, got {len(arrays)} arrays")
    by_device = {getattr(d, "id", i): index for i, (d, index) in enumerate(indices.items())}
    pieces: list[tuple[Index, np.ndarray[Any, np.dtype[Any]]]] = []
    for i, array in enumerate(arrays):
        if not isinstance(array, ArrayImpl):
            raise JaxtypedTypeError(f"{where}: arrays[{i}] must be a concrete Array, got {type(array).__name__}")
        device_ids = sorted(getattr(d, "id", -1) for d in array.devices())
        index = by_device.get(device_ids[0]) if len(device_ids) == 1 else None
        if index is None:
            index = list(indices.values())[i]
        pieces.append((index, np.asarray(host_buffer(array))))
    data = _assemble(global_shape, pieces, where)
    _check_dtype(data, dtype, where)
    placed: Array = device_put(data, sharding)
    return placed


def make_array_from_process_local_data(
    sharding: Sharding, local_data: ArrayLike | np.ndarray[Any, np.dtype[Any]], global_shape: tuple[int, ...] | None = None
) -> Array:
    """A global array laid out by ``sharding`` from this process's data
    (JAX's ``jax.make_array_from_process_local_data``). jaxtyped runs one
    process, whose local data is the whole array, so ``global_shape`` (if
    given) must equal its shape."""
    data = np.asarray(host_buffer(local_data) if isinstance(local_data, ArrayImpl) else local_data)
    if global_shape is not None and tuple(global_shape) != data.shape:
        raise JaxtypedValueError(
            f"make_array_from_process_local_data: global_shape {tuple(global_shape)} differs from the local "
            f"data's {data.shape}, and jaxtyped runs one process"
        )
    placed: Array = device_put(data, sharding)
    return placed


def _renamed(old: str, new: str) -> None:
    warnings.warn(
        f"jax.{old} has been renamed to jax.{new}. This alias will eventually be removed; please update your code.",
        UserWarning,
        stacklevel=3,
    )


def host_count(backend: Backend | None = None) -> int:
    """Deprecated alias of ``process_count`` (warns, as JAX's)."""
    xla.check_backend(backend, "host_count")
    _renamed("process_count", "process_count")
    return process_count(backend)


def host_id(backend: Backend | None = None) -> int:
    """Deprecated alias of ``process_index`` (warns, as JAX's)."""
    xla.check_backend(backend, "host_id")
    _renamed("process_index", "process_index")
    return process_index(backend)


def host_ids(backend: Backend | None = None) -> list[int]:
    """Deprecated alias of ``process_indices`` (warns, as JAX's)."""
    xla.check_backend(backend, "host_ids")
    _renamed("process_indexs", "process_indices")
    return process_indices(backend)


def process_indices(backend: Backend | None = None) -> list[int]:
    """The indices of the processes running this program: ``[0]`` (one process)."""
    xla.check_backend(backend, "process_indices")
    return list(range(process_count(backend)))


@overload
def print_environment_info(return_string: Literal[False] = False) -> None: ...
@overload
def print_environment_info(return_string: Literal[True]) -> str: ...
@overload
def print_environment_info(return_string: bool) -> str | None: ...
def print_environment_info(return_string: bool = False) -> str | None:
    """Print (or, with ``return_string``, return) the versions of jaxtyped,
    jaxlib, NumPy and Python, the platform and the devices (JAX's
    ``jax.print_environment_info``), for bug reports."""
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    info = "\n".join([
        f"jaxtyped:  {installed('jaxtyped')}",
        f"jaxlib:    {installed('jaxlib')}",
        f"numpy:     {np.__version__}",
        f"python:    {sys.version}",
        f"platform:  {platform.platform()}",
        f"backend:   {default_backend()}",
        f"devices:   {xla.devices()}",
        f"processes: {process_count()}",
    ])  # fmt: skip
    if return_string:
        return info
    print(info)
    return None


# === fwd_and_bwd ===

_Aux = TypeVar("_Aux")


@overload
def fwd_and_bwd(
    fun: Callable[P, R], argnums: int | Sequence[int], has_aux: Literal[False] = False, jitted: bool = True
) -> tuple[Callable[P, tuple[R, VJPFunction]], Callable[[VJPFunction, R], object]]: ...
@overload
def fwd_and_bwd(
    fun: Callable[P, tuple[R, _Aux]], argnums: int | Sequence[int], has_aux: Literal[True], jitted: bool = True
) -> tuple[Callable[P, tuple[R, VJPFunction, _Aux]], Callable[[VJPFunction, R], object]]: ...
def fwd_and_bwd(
    fun: Callable[..., object], argnums: int | Sequence[int], has_aux: bool = False, jitted: bool = True
) -> tuple[Callable[..., object], Callable[[VJPFunction, Any], object]]:
    """The forward and backward passes of ``fun`` as two functions (JAX's
    ``jax.fwd_and_bwd``): ``fwd(*args)`` gives ``(fun(*args), residuals)``
    (with ``aux`` last if ``has_aux``), and ``bwd(residuals, ct)`` the
    cotangents of the arguments at ``argnums`` (one value for an int, a
    tuple for a sequence). The residuals are :func:`vjp`'s function, a
    pytree, so with ``jitted`` (the default) both passes are jitted
    functions, each compiled once for a loop's iterations.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> fwd, bwd = jt.fwd_and_bwd(lambda x, w: x @ w, argnums=(0, 1))
        >>> y, residuals = fwd(jnp.ones((2, 2)), jnp.eye(2))
        >>> bwd(residuals, jnp.ones((2, 2)))[1]
        Array([[2., 2.],
               [2., 2.]], dtype=float32)
    """
    check_callable(fun, "fwd_and_bwd")
    single = isinstance(argnums, int)

    def fwd(*args: object, **kwargs: object) -> object:
        positions = argnums_tuple(argnums, len(args), "fwd_and_bwd")

        def of_differentiated(*dyn: object) -> object:
            full = list(args)
            for i, value in zip(positions, dyn, strict=True):
                full[i] = value
            return fun(*full, **kwargs)

        dyn = [args[i] for i in positions]
        if has_aux:
            return vjp(cast("Callable[..., tuple[object, object]]", of_differentiated), *dyn, has_aux=True)
        return vjp(of_differentiated, *dyn)

    def bwd(residuals: VJPFunction, ct: Any) -> object:
        cts = residuals(ct)
        return cts[0] if single else cts

    if jitted:
        return jit(fwd), jit(bwd)
    return fwd, bwd
