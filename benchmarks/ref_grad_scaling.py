"""How the reverse step of a ref read in a loop scales with the ref's size: ``python benchmarks/ref_grad_scaling.py``.

Issue 16 item 3: reverse mode of a ref read accumulates in place, so a loop
of ``n`` steps reading one element of an ``n``-element ref per step has a
backward pass of O(n) in all, O(1) per step (seed 003, ``foreach``: refs
lift scan's fixed access pattern without the one-hot gradients of slicing
an immutable input). Measured side by side with JAX, interleaving the two
libraries run by run and reporting medians and the ratio jaxtyped / JAX:

- ``jit(grad(loss))`` where ``loss`` makes a ref from the differentiated
  input and runs a ``fori_loop`` of ``n`` steps, each reading ``x_ref[i]``
  (sequential) or ``x_ref[i]`` and ``x_ref[(7 * i) % n]`` (non-sequential),
  an index array, rows of a 2-d ref, the same under ``vmap`` with shared
  and with per-example indices, and a closed-over array instead of a ref
  (see :func:`make_loss`), for ``n`` = 1k, 4k, 16k, 64k; the steady-state
  time of one call and the time per loop step (flat in ``n`` when each
  reverse step is O(slice));
- ``--without-rewrite``: the same, lowered without the rewrite of Note
  [sparse cotangents accumulate in place] (the programs as they were
  before it), for the before/after comparison;
- ``--hlo N``: prints the backward loop body of our optimized HLO
  (``jit(...).lower(...).compile().as_text()``) for ``n = N``: whether a
  full-size ``broadcast`` of zeros and a full-size ``add`` run every step.

Each result is checked against JAX (``np.allclose``) before it is timed.
These are measurements, not tests: nothing asserts on them.
"""

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
from jaxtyped._src import lowering
from side_by_side import benchmark_parser, block, compare, import_jax, RESULTS

SIZES = (1024, 4096, 16384, 65536)
ACCESSES = ("sequential", "strided", "gather", "rows", "vmap", "vmap_index", "closed_over")
BATCH = 4  # the vmap cases' batch
WIDTH = 8  # the rows case's row length


def make_loss(lib: Any, n: int, access: str) -> Callable[[Any, Any], Any]:
    """A loss of ``(x, k)`` reading, per loop step, the ref made from ``x``:
    at ``i`` (``sequential``, ``vmap``); at ``i`` and ``(7 * i) % n``
    (``strided``); at the index array ``[i, (7 * i) % n]`` (``gather``: a
    gather, transposed to a scatter-add); row ``i`` of an ``(n, 8)`` ref
    (``rows``); at ``(i + k) % n`` (``vmap_index``: batched over ``k``, the
    read becomes a gather); ``closed_over`` reads ``x`` itself, not a ref,
    at ``i`` and ``(7 * i) % n`` (the two cotangents are summed before they
    meet the loop's accumulator)."""

    def loss(x: Any, k: Any) -> Any:
        x_ref = x if access == "closed_over" else lib.new_ref(x)
        jnp = lib.numpy

        def step(i: Any, acc: Any) -> Any:
            if access in ("strided", "closed_over"):
                term = jnp.sin(x_ref[i]) * x_ref[(7 * i) % n]
            elif access == "gather":
                term = jnp.sum(jnp.sin(x_ref[jnp.stack([i, (7 * i) % n])]))
            elif access == "rows":
                term = jnp.sum(jnp.sin(x_ref[i]))
            elif access == "vmap_index":
                term = jnp.sin(x_ref[(i + k) % n])
            else:
                term = jnp.sin(x_ref[i])
            return acc + term

        return lib.lax.fori_loop(0, n, step, 0.0)

    return loss


def make_grad(lib: Any, n: int, access: str) -> Any:
    """``jit(grad(loss))``, under ``vmap`` over a batch for the vmap cases."""
    grad = lib.grad(make_loss(lib, n, access))
    if access == "vmap":
        return lib.jit(lib.vmap(grad, in_axes=(0, None)))
    if access == "vmap_index":
        return lib.jit(lib.vmap(grad))
    return lib.jit(grad)


def inputs(n: int, access: str) -> tuple[np.ndarray[Any, Any], Any]:
    """The differentiated input and the offset ``k`` of each case."""
    x = np.linspace(-1.0, 1.0, n * WIDTH if access == "rows" else n, dtype=np.float32)
    if access == "rows":
        return x.reshape(n, WIDTH), np.int32(0)
    if access in ("vmap", "vmap_index"):
        xs = np.stack([x + j for j in range(BATCH)])
        return xs, np.arange(BATCH, dtype=np.int32) * 3 if access == "vmap_index" else np.int32(0)
    return x, np.int32(0)


def backward_loop_body(text: str) -> str:
    """The instructions of the optimized HLO's computations that hold a
    full-size zeros broadcast or dynamic-update-slice (the backward loop
    body and its fusions), for ``--hlo``."""
    blocks = text.split("\n\n")
    picked = [b for b in blocks if "dynamic-update-slice" in b or "scatter" in b]
    return "\n\n".join(picked) if picked else text


def main() -> None:
    """Run every measurement."""
    parser = benchmark_parser(__doc__, ACCESSES)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="comma-separated loop lengths")
    parser.add_argument("--number", type=int, default=3, help="calls per timing")
    parser.add_argument("--hlo", type=int, default=0, metavar="N", help="print our optimized HLO's loop bodies for n=N")
    parser.add_argument("--hlo-case", default="strided", choices=ACCESSES, help="the case --hlo prints")
    parser.add_argument(
        "--without-rewrite", action="store_true",
        help="lower without the in-place cotangent accumulation (the programs before issue 16 item 3)",
    )
    args = parser.parse_args()
    if args.without_rewrite:
        lowering._lowering_rewrites.clear()  # pyright: ignore[reportPrivateUsage]  # the measurement's control
    sizes = [int(s) for s in args.sizes.split(",")]
    jax = import_jax()
    for access in args.only.split(","):
        print(f"== jit(grad(loss)), {access} reads: time per call, then per loop step ==")
        for n in sizes:
            host_x, host_k = inputs(n, access)
            ours_fn = make_grad(jt, n, access)
            ours_x, ours_k = jt.device_put(host_x), jt.device_put(host_k)
            theirs: Callable[[], object] | None = None
            if jax is not None:
                jax_fn = make_grad(jax, n, access)
                jax_x, jax_k = jax.device_put(host_x), jax.device_put(host_k)
                want = np.asarray(jax_fn(jax_x, jax_k))
                got = np.asarray(ours_fn(ours_x, ours_k))
                assert np.allclose(got, want, rtol=1e-4, atol=1e-5), (access, n)

                def theirs_run() -> None:
                    block(jax_fn(jax_x, jax_k))

                theirs = theirs_run

            def ours_run() -> None:
                block(ours_fn(ours_x, ours_k))

            compare(f"n={n:<6} per call", ours_run, theirs, args.number, args.repeat, "ms", record_as=f"{access} n={n}")
            last = RESULTS[-1]
            mine = float(str(last["jaxtyped"])) * 1e3 / n
            line = f"{'':<8}per step {'':<15} jaxtyped {mine:10.3f} us"
            if last["jax"] is not None:
                line += f"   jax {float(str(last['jax'])) * 1e3 / n:10.3f} us"
            print(line)
    if args.hlo:
        fn = make_grad(jt, args.hlo, args.hlo_case)
        text = fn.lower(*map(jt.device_put, inputs(args.hlo, args.hlo_case))).compile().as_text()
        print(f"== our optimized HLO, {args.hlo_case}, n={args.hlo} (computations with a dynamic-update-slice or scatter) ==")
        print(backward_loop_body(text))


if __name__ == "__main__":
    main()
