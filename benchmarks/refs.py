"""Side-by-side costs of mutable array references in jaxtyped and JAX: ``python benchmarks/refs.py``.

Measures, interleaving the two libraries run by run and reporting medians
and the ratio jaxtyped / JAX (issue 16, item 8):

- a jitted in-place update of a 1M-element float32 ref
  (``x_ref[...] = sin(x_ref[...])``), steady state, waited for; before
  timing, each library's buffer address is checked to stay the same over
  calls (the update reuses the ref's buffer: no extra copy of 1M elements);
- the same with the ref closed over instead of passed;
- the seed's ``foreach`` (a scan whose body accumulates into a closed-over
  ref) over 10k elements, eagerly (a fresh loop each call) and inside
  ``jit``;
- an eager full read ``x_ref[...]`` of the 1M-element ref.

These are measurements, not tests: nothing asserts on them.
"""

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

import jaxtyped as jt
from side_by_side import benchmark_parser, compare, import_jax

F = TypeVar("F", bound=Callable[..., Any])


def typed(decorator: Any) -> Callable[[F], F]:
    """A library's decorator (jit, ...) as the checkers see it: signature-preserving."""
    return cast(Callable[[F], F], decorator)


N = 1_000_000
M = 10_000


def foreach(lib: Any, *args: Any) -> Callable[[Callable[..., Any]], Any]:
    def decorator(body: Callable[..., Any]) -> Any:
        def step(_: None, elts: Any) -> tuple[None, Any]:
            return None, body(*elts)

        return lib.lax.scan(step, None, args)[1]

    return decorator


def cases(lib: Any) -> dict[str, Callable[[], object]]:
    jnp = lib.numpy

    @typed(lib.jit)
    def sin_inplace(x_ref: Any) -> None:
        x_ref[...] = jnp.sin(x_ref[...])

    x_ref = lib.new_ref(jnp.arange(N, dtype=jnp.float32) / N)
    before = x_ref.unsafe_buffer_pointer()
    for _ in range(3):
        sin_inplace(x_ref)
    same = x_ref.unsafe_buffer_pointer() == before
    print(f"{lib.__name__}: 1M-element ref updated in place over calls: {same}")

    closed = lib.new_ref(jnp.arange(N, dtype=jnp.float32) / N)

    @typed(lib.jit)
    def sin_closed() -> None:
        closed[...] = jnp.sin(closed[...])

    total = lib.new_ref(0)
    xs = jnp.arange(M, dtype=jnp.int32)

    def run_foreach() -> object:
        @typed(foreach(lib, xs))
        def ys(x: Any) -> Any:
            total[...] += x
            return x * 2

        return ys

    jitted_foreach = lib.jit(run_foreach)
    np.testing.assert_array_equal(np.asarray(run_foreach()), np.arange(M) * 2)

    def wait(value: Any) -> None:
        value.block_until_ready()

    return {
        "jit in-place sin, 1M ref argument": lambda: [sin_inplace(x_ref), x_ref[0].block_until_ready()],
        "jit in-place sin, 1M ref closed over": lambda: [sin_closed(), closed[0].block_until_ready()],
        "foreach 10k, eager": lambda: wait(run_foreach()),
        "foreach 10k, jit": lambda: wait(jitted_foreach()),
        "eager read x_ref[...] of 1M": lambda: wait(x_ref[...]),
    }


def main() -> None:
    """Run every measurement."""
    args = benchmark_parser(__doc__).parse_args()
    jax = import_jax()
    ours = cases(jt)
    theirs = cases(jax) if jax is not None else None
    for name, fn in ours.items():
        compare(name, fn, theirs[name] if theirs is not None else None, number=20, repeat=args.repeat, unit="ms")


if __name__ == "__main__":
    main()
