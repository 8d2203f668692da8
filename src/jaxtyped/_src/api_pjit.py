"""``pjit`` (layer L5): JAX's ``jax.experimental.pjit.pjit``, which JAX
0.10.2 deprecates in favour of ``jit`` and implements as ``jit``; here it
is ``jit`` too, with pjit's signature (every option may be passed by
position, as pjit allows)."""

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence

from typing_extensions import ParamSpec, TypeVar

from jaxtyped._src.api_jit import CompilerOption, Jitted, jit
from jaxtyped._src.api_sharding import ShardingsArg
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.sharding import Device

__all__ = ["pjit"]

P = ParamSpec("P")
R = TypeVar("R")


def pjit(
    fun: Callable[P, R],
    in_shardings: ShardingsArg = None,
    out_shardings: ShardingsArg = None,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Iterable[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Iterable[str] | None = None,
    keep_unused: bool = False,
    device: Device | None = None,
    backend: str | None = None,
    inline: bool = False,
    compiler_options: Mapping[str, CompilerOption] | None = None,
) -> Jitted[P, R]:
    """``jit(fun, ...)`` (JAX's deprecated ``jax.experimental.pjit.pjit``,
    which is ``jit`` in JAX 0.10.2): the same options, the same jitted
    function and behaviour; a bare ``PartitionSpec`` in the shardings refers
    to the mesh of ``with mesh:`` or ``set_mesh``. Warns with
    ``DeprecationWarning`` (JAX warns when the name is accessed).

    ``device`` and ``backend`` (deprecated in JAX too) are not supported:
    put the arguments on a device with ``device_put`` instead.

    Raises:
        JaxtypedValueError: ``device`` or ``backend`` given with shardings,
            or both given (JAX's errors).
        JaxtypedNotImplementedError: ``device`` or ``backend`` given.
    """
    warnings.warn(
        "jaxtyped.experimental.pjit.pjit has been deprecated (as jax.experimental.pjit.pjit). "
        "Please use `jaxtyped.jit` instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    if device is not None or backend is not None:
        if device is not None and backend is not None:
            raise JaxtypedValueError(
                f"pjit: can't specify both a device and a backend for jit, got device={device!r} and backend={backend!r}"
            )
        if in_shardings is not None:
            raise JaxtypedValueError("pjit: if backend or device is specified, then in_shardings should not be specified.")
        if out_shardings is not None:
            raise JaxtypedValueError("pjit: if backend or device is specified, then out_shardings should not be specified.")
        raise JaxtypedNotImplementedError(
            f"pjit: the deprecated device={device!r}/backend={backend!r} options are not supported; put the arguments "
            "on a device with jaxtyped.device_put(x, device) instead"
        )
    return jit(
        fun,
        in_shardings=in_shardings,
        out_shardings=out_shardings,
        static_argnums=static_argnums,
        static_argnames=static_argnames,
        donate_argnums=donate_argnums,
        donate_argnames=donate_argnames,
        keep_unused=keep_unused,
        inline=inline,
        compiler_options=compiler_options,
    )
