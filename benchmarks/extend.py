"""Extension primitives beside built-in ones and beside JAX: ``python benchmarks/extend.py``.

Interleaved runs, medians, ratio jaxtyped / JAX:

- dispatch: a jitted function applying the seed's JAX-form ``mul_add``
  (``jaxtyped.extend``), next to the same function written with built-in
  ``*`` and ``+``, in both libraries (steady state, cache hits);
- lowering: ``jit(mul_add_p.bind).lower(...)`` of a fresh function each
  time (trace + StableHLO), ours against JAX's;
- op builders: emitting 1000 ``hlo.AddOp``\\ s through our text lowering
  against building them with jaxlib's MLIR Python bindings (the measurement
  behind Note [text, not MLIR bindings] in ``jaxtyped._src.extend.mlir``).

These are measurements, not tests: nothing asserts on them.
"""

import importlib
from typing import Any

import numpy as np
from side_by_side import benchmark_parser, compare, import_jax

import jaxtyped as jt
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.extend.mlir import _lowering  # pyright: ignore[reportPrivateUsage]  # the builders' context, to time them alone
from jaxtyped.extend import core
from jaxtyped.extend.interpreters import mlir


def define(core_: Any, shaped_array: Any, mlir_: Any, hlo: Any) -> Any:
    """The seed's mul_add, for either library."""
    p = core_.Primitive("mul_add")
    p.def_impl(lambda x, y, z: x * y + z)
    p.def_abstract_eval(lambda x, y, z: shaped_array(x.shape, x.dtype))
    mlir_.register_lowering(p, lambda ctx, x, y, z: hlo.AddOp(hlo.MulOp(x, y), z).results)
    return p


def main() -> None:
    args = benchmark_parser(__doc__).parse_args()
    jax = import_jax()
    ours_p = define(core, core.ShapedArray, mlir, mlir.hlo)
    x = jt.device_put(np.ones((4, 4), np.float32))
    theirs_p = None
    if jax is not None:
        import jax.core as jax_core
        import jax.extend.core as jax_ext_core
        import jax.interpreters.mlir as jax_mlir

        jax_hlo = importlib.import_module("jax._src.lib.mlir.dialects").hlo
        theirs_p = define(jax_ext_core, jax_core.ShapedArray, jax_mlir, jax_hlo)
        jx = jax.device_put(np.ones((4, 4), np.float32))

    print("== jit dispatch (cache hit, 4x4 float32) ==")
    ext, builtin = jt.jit(ours_p.bind), jt.jit(lambda a, b, c: a * b + c)
    theirs_ext = theirs_builtin = None
    if jax is not None and theirs_p is not None:
        g_ext, g_builtin = jax.jit(theirs_p.bind), jax.jit(lambda a, b, c: a * b + c)
        theirs_ext, theirs_builtin = (lambda: g_ext(jx, jx, jx)), (lambda: g_builtin(jx, jx, jx))
    compare("extension mul_add", lambda: ext(x, x, x), theirs_ext, 5000, args.repeat, "us")
    compare("built-in x * y + z", lambda: builtin(x, x, x), theirs_builtin, 5000, args.repeat, "us")

    print("== lowering mul_add (fresh function each time: trace + StableHLO) ==")

    def ours_lower() -> object:
        return jt.jit(lambda a, b, c: ours_p.bind(a, b, c)).lower(x, x, x)

    theirs_lower = None
    if jax is not None and theirs_p is not None:
        q = theirs_p

        def theirs_lower() -> object:
            return jax.jit(lambda a, b, c: q.bind(a, b, c)).lower(jx, jx, jx)

    compare("jit(mul_add).lower", ours_lower, theirs_lower, 200, args.repeat, "us")

    print("== 1000 AddOps: our text builders vs MLIR's Python bindings ==")
    aval = ShapedArray((4,), np.dtype(np.float32))

    def text_builders() -> object:
        ctx = LoweringContext()
        with _lowering(ctx):
            v = HloValue("%arg0", aval)
            for _ in range(1000):
                v = mlir.hlo.AddOp(v, v).result
        return ctx.lines

    bindings = None
    if jax is not None:
        from jax._src.interpreters.mlir import make_ir_context
        from jax._src.lib.mlir import ir
        from jax._src.lib.mlir.dialects import func

        ir_ctx = make_ir_context()

        def bindings() -> object:
            with ir_ctx, ir.Location.unknown():
                module = ir.Module.create()
                t = ir.RankedTensorType.get((4,), ir.F32Type.get())
                with ir.InsertionPoint(module.body):
                    f = func.FuncOp("main", ir.FunctionType.get([t], [t]))
                    block = f.add_entry_block()
                with ir.InsertionPoint(block):
                    v = block.arguments[0]
                    for _ in range(1000):
                        v = jax_hlo.AddOp(v, v).result
                    func.ReturnOp([v])
                return str(module)

    compare("emit 1000 adds (vs bindings + print)", text_builders, bindings, 20, args.repeat, "ms")


if __name__ == "__main__":
    main()
