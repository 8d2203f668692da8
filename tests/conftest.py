"""Suite-wide test configuration.

Importing jaxtyped here, first, lets JAXTYPED_DEBUG=1 install beartype
before any jaxtyped submodule is imported. Every test runs with
``jax_enable_checks`` on, so each jaxpr a transformation produces is
type-checked and every jvp and batching rule's output types are checked.
"""

import importlib
from collections.abc import Callable, Iterator

import pytest

import jaxtyped
from jaxtyped import config


def pytest_configure() -> None:
    jaxtyped.config.update("jax_enable_checks", True)


def _jax_x64_switch() -> tuple[Callable[[], bool], Callable[[bool], None]] | None:
    """Read/set JAX's x64 flag, if the JAX oracle is installed."""
    try:
        jax = importlib.import_module("jax")
    except ImportError:
        return None
    jax_config: object = jax.config

    def read() -> bool:
        return bool(getattr(jax_config, "jax_enable_x64"))

    def write(value: bool) -> None:
        getattr(jax_config, "update")("jax_enable_x64", value)

    return read, write


@pytest.fixture
def x64() -> Iterator[None]:
    """Run a test with 64-bit types enabled (in jaxtyped and, where it is
    installed, in the JAX oracle), restoring the previous state after."""
    previous = config.jax_enable_x64
    switch = _jax_x64_switch()
    jax_previous = switch[0]() if switch else None
    config.update("jax_enable_x64", True)
    if switch:
        switch[1](True)
    try:
        yield
    finally:
        config.update("jax_enable_x64", previous)
        if switch and jax_previous is not None:
            switch[1](jax_previous)
