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

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from side_by_side import benchmark_parser, compare_jitted, import_jax

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


def _make(case: str, library: Any) -> Callable[..., Any]:
    """The function of ``case`` in ``library`` (``jaxtyped`` or ``jax``)."""
    namespace, api = library.lax, library
    if case == "conv":
        return _conv(namespace)
    if case == "conv_grad":
        return _conv_grad(namespace, api)
    if case == "pool":
        return _pool(namespace)
    return _pool_grad(namespace, api)


def _agree(ours: np.ndarray[Any, Any], theirs: np.ndarray[Any, Any]) -> bool:
    scale = float(np.max(np.abs(theirs))) or 1.0
    return bool(np.allclose(ours, theirs, rtol=1e-4, atol=1e-4 * scale))


def main() -> None:
    parser = benchmark_parser(__doc__, CASES)
    parser.add_argument("--number", type=int, default=5, help="calls per steady-state timing")
    args = parser.parse_args()
    jax = import_jax()
    rng = np.random.default_rng(0)
    images = rng.standard_normal((32, 32, 32, 64)).astype(np.float32)
    kernel = (rng.standard_normal((3, 3, 64, 64)) / 24.0).astype(np.float32)
    for case in args.only.split(","):
        hosts = (images, kernel) if case.startswith("conv") else (images,)
        compare_jitted(jax, case, functools.partial(_make, case), hosts, _agree, repeat=args.repeat, number=args.number)


if __name__ == "__main__":
    main()
