"""The XLA backend seen by extensions (JAX's ``jax.extend.backend``):
``get_backend`` and ``clear_backends``."""

from typing import final

from jaxtyped._src.api_device import device_count, devices, local_devices, process_index
from jaxtyped._src.api_jit import clear_caches
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.runtime import xla

__all__ = ["Backend", "get_backend", "clear_backends"]


@final
class Backend:
    """The PJRT client computations run on (a typed view of it)."""

    __slots__ = ()

    @property
    def platform(self) -> str:
        """``"cpu"``."""
        return "cpu"

    @property
    def platform_version(self) -> str:
        """The runtime's version (jaxlib's)."""
        return f"jaxlib {xla.jaxlib_version()}"

    def devices(self) -> list[xla.Device]:
        """Every device of the client."""
        return devices()

    def local_devices(self) -> list[xla.Device]:
        """The devices this process drives."""
        return local_devices()

    def device_count(self) -> int:
        """The number of devices."""
        return device_count()

    def process_index(self) -> int:
        """This process's index."""
        return process_index()

    def __repr__(self) -> str:
        return f"Backend(platform={self.platform!r}, devices={self.device_count()})"


_BACKEND = Backend()


def get_backend(platform: str | None = None) -> Backend:
    """The backend for ``platform`` (``None`` or ``"cpu"``: the only one)."""
    if platform is not None and platform.lower() not in ("cpu", "host"):
        raise JaxtypedValueError(f"Unknown backend {platform!r}: jaxtyped runs on 'cpu'")
    return _BACKEND


def clear_backends() -> None:
    """Drop every compiled program and trace cache (JAX's
    ``clear_backends``); the client itself is kept, so existing arrays stay
    valid."""
    clear_caches()
    xla.clear_compile_cache()
