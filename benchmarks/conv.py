"""A convolution layer and max pooling beside JAX's: ``python benchmarks/conv.py``.

Under ``jit``, float32, interleaving the two libraries run by run (medians,
ratio jaxtyped / JAX):

- ``conv``: ``lax.conv_general_dilated`` of a batch of 32 images 32x32 with
  64 channels by a 3x3 kernel to 64 channels, SAME padding, NHWC/HWIO;
- ``conv_grad``: ``grad`` of ``sum(conv(x, w) ** 2)`` with respect to both
  the images and the kernel (the forward convolution and the two transposed
  ones);
- ``pool``: 2x2 max pooling with stride 2 (``lax.reduce_window`` with
  ``lax.max``) of the same images, forward and ``value_and_grad`` of
  ``sum(pool(x) ** 2)``;

each as its first call (trace + lower + compile + run, caches cleared) and
its compiled steady state. Results are checked against JAX before anything
is timed.
"""

import argparse
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
from core_overheads import compare
from jaxtyped import lax

CASES = ("conv", "conv_grad", "pool", "pool_grad")
NHWC = ("NHWC", "HWIO", "NHWC")


def _conv(namespace: Any) -> Callable[[Any, Any], Any]:
    def f(x: Any, w: Any) -> Any:
        return namespace.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=NHWC)

    return f


def _conv_grad(namespace: Any, api: Any) -> Callable[[Any, Any], Any]:
    conv = _conv(namespace)

    def loss(x: Any, w: Any) -> Any:
        y = conv(x, w)
        return namespace.reduce_sum(namespace.mul(y, y), tuple(range(4)))

    grad: Callable[[Any, Any], Any] = api.grad(loss, argnums=(0, 1))
    return grad


def _pool(namespace: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return namespace.reduce_window(x, -np.inf, namespace.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    return f


def _pool_grad(namespace: Any, api: Any) -> Callable[[Any], Any]:
    pool = _pool(namespace)

    def loss(x: Any) -> Any:
        y = pool(x)
        return namespace.reduce_sum(namespace.mul(y, y), tuple(range(4)))

    value_and_grad: Callable[[Any], Any] = api.value_and_grad(loss)
    return value_and_grad


def _make(case: str, namespace: Any, api: Any) -> Callable[..., Any]:
    if case == "conv":
        return _conv(namespace)
    if case == "conv_grad":
        return _conv_grad(namespace, api)
    if case == "pool":
        return _pool(namespace)
    return _pool_grad(namespace, api)


def _block(value: Any) -> object:
    for leaf in value if isinstance(value, tuple) else (value,):
        leaf.block_until_ready()
    return value


def run_case(jax: Any, case: str, hosts: tuple[np.ndarray[Any, Any], ...], repeat: int, number: int) -> None:
    ours_args = tuple(jt.device_put(h) for h in hosts)
    ours_steady = jt.jit(_make(case, lax, jt))

    def ours_first() -> object:
        jt.clear_caches()
        return _block(jt.jit(_make(case, lax, jt))(*ours_args))

    theirs_first: Callable[[], object] | None = None
    theirs_steady: Callable[[], object] | None = None
    if jax is not None:
        jax_args = tuple(jax.device_put(h) for h in hosts)
        jax_steady = jax.jit(_make(case, jax.lax, jax))
        expected = jax.tree_util.tree_leaves(jax_steady(*jax_args))
        got = jt.tree_util.tree_leaves(ours_steady(*ours_args))
        for g, e in zip(got, expected, strict=True):
            scale = float(np.max(np.abs(np.asarray(e)))) or 1.0
            assert np.allclose(np.asarray(g), np.asarray(e), rtol=1e-4, atol=1e-4 * scale), case

        def theirs_first_fn() -> object:
            jax.clear_caches()
            return _block(jax.jit(_make(case, jax.lax, jax))(*jax_args))

        theirs_first = theirs_first_fn

        def theirs_steady_fn() -> object:
            return _block(jax_steady(*jax_args))

        theirs_steady = theirs_steady_fn

    def ours_steady_fn() -> object:
        return _block(ours_steady(*ours_args))

    print(f"== {case} ==")
    compare("first call (trace+compile+run)", ours_first, theirs_first, 1, repeat, "ms")
    compare("compiled steady state", ours_steady_fn, theirs_steady, number, repeat, "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved timings per measurement")
    parser.add_argument("--number", type=int, default=5, help="calls per steady-state timing")
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated subset of " + ",".join(CASES))
    args = parser.parse_args()
    try:
        jax: Any = importlib.import_module("jax")
    except ImportError:
        jax = None
        print("JAX is not installed: printing jaxtyped's numbers only")
    rng = np.random.default_rng(0)
    images = rng.standard_normal((32, 32, 32, 64)).astype(np.float32)
    kernel = (rng.standard_normal((3, 3, 64, 64)) / 24.0).astype(np.float32)
    for case in args.only.split(","):
        hosts = (images, kernel) if case.startswith("conv") else (images,)
        run_case(jax, case, hosts, args.repeat, args.number)


if __name__ == "__main__":
    main()
