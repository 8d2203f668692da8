# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false, reportUnknownParameterType=false, reportMissingParameterType=false
# (JAX-form rules are untyped lambdas, written once for both libraries.)
"""JAX-form extension primitives (``jaxtyped.extend``, JEP 15856): the same
definitions, written once against a namespace, run on jaxtyped and on JAX
and give the same results under eval, jit, jvp, grad, vmap, scan, cond and
checkpoint; the seed's ``mul_add`` example runs as printed."""

import functools
import importlib
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, debug_violations, jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, lax
from jaxtyped.extend import core
from jaxtyped.extend.interpreters import ad, batching, mlir

NS = SimpleNamespace


@functools.cache
def libs() -> tuple[Any, Any]:
    """(jaxtyped, JAX) namespaces holding the same extension API."""
    import jax.core as jax_core
    import jax.extend.core as jax_ext_core
    import jax.interpreters.ad as jax_ad
    import jax.interpreters.batching as jax_batching
    import jax.interpreters.mlir as jax_mlir
    import jax.numpy as jax_numpy

    ours = NS(
        lib=jt, np=jnp, lax=lax, Primitive=core.Primitive, ShapedArray=core.ShapedArray,
        ad=ad, batching=batching, mlir=mlir, hlo=mlir.hlo,
    )
    theirs = NS(
        lib=jax, np=jax_numpy, lax=jax.lax, Primitive=jax_ext_core.Primitive, ShapedArray=jax_core.ShapedArray,
        ad=jax_ad, batching=jax_batching, mlir=jax_mlir, hlo=importlib.import_module("jax._src.lib.mlir.dialects").hlo,
    )
    return define(ours), define(theirs)


def define(L: Any) -> Any:
    """Three extension primitives, written once for either library."""
    # mul_add: the seed's example, plus a jvp from defjvp and defvectorized.
    mul_add = L.Primitive("mul_add")
    mul_add.def_impl(lambda x, y, z: x * y + z)
    mul_add.def_abstract_eval(lambda x, y, z: L.ShapedArray(x.shape, x.dtype))
    L.mlir.register_lowering(mul_add, lambda ctx, x, y, z: L.hlo.AddOp(L.hlo.MulOp(x, y), z).results)
    L.ad.defjvp(mul_add, lambda t, x, y, z: t * y, lambda t, x, y, z: x * t, lambda t, x, y, z: t)
    L.batching.defvectorized(mul_add)

    # scale: linear, with a parameter; lowered through lower_fun.
    scale = L.Primitive("scale")
    scale.def_impl(lambda x, *, factor: x * factor)
    scale.def_abstract_eval(lambda x, *, factor: L.ShapedArray(x.shape, x.dtype))
    L.mlir.register_lowering(scale, L.mlir.lower_fun(lambda x, *, factor: x * factor, multiple_results=False))
    L.ad.deflinear(scale, lambda ct, *, factor: [scale.bind(ct, factor=factor)])

    def scale_batch(args: Any, dims: Any, *, factor: float) -> Any:
        (x,), (d,) = args, dims
        return scale.bind(x, factor=factor), d

    L.batching.primitive_batchers[scale] = scale_batch

    # sincos: two results; registries filled directly.
    sincos = L.Primitive("sincos")
    sincos.multiple_results = True
    sincos.def_impl(lambda x: (np.sin(x), np.cos(x)))
    sincos.def_abstract_eval(lambda x: (L.ShapedArray(x.shape, x.dtype), L.ShapedArray(x.shape, x.dtype)))
    L.mlir.register_lowering(sincos, lambda ctx, x: [L.hlo.SineOp(x).result, L.hlo.CosineOp(x).result], platform="cpu")

    def sincos_jvp(primals: Any, tangents: Any) -> Any:
        (x,), (t,) = primals, tangents
        s, c = sincos.bind(x)
        return (s, c), (c * t, -s * t)

    L.ad.primitive_jvps[sincos] = sincos_jvp
    L.batching.primitive_batchers[sincos] = lambda args, dims: (sincos.bind(*args), [dims[0], dims[0]])

    # weak_id: abstract_eval asks for a weak result, whatever the input.
    weak_id = L.Primitive("weak_id")
    weak_id.def_impl(lambda x: x)
    weak_id.def_abstract_eval(lambda x: L.ShapedArray(x.shape, x.dtype, weak_type=True))
    L.mlir.register_lowering(weak_id, lambda ctx, x: [x])
    L.ad.deflinear(weak_id, lambda ct: [ct])
    return NS(L=L, mul_add=mul_add, scale=scale, sincos=sincos, weak_id=weak_id)


X = np.linspace(-1.0, 2.0, 6, dtype=np.float32)
Y = np.linspace(0.5, 1.5, 6, dtype=np.float32)

CASES: dict[str, Any] = {
    "eval": lambda P: P.mul_add.bind(X, Y, X),
    "eval-ints": lambda P: P.mul_add.bind(2, 3, 4),
    "jit": lambda P: P.L.lib.jit(P.mul_add.bind)(X, Y, 1.0 + X),
    "jit-ints": lambda P: P.L.lib.jit(P.mul_add.bind)(2, 3, 4),
    "jvp": lambda P: P.L.lib.jvp(P.mul_add.bind, (X, Y, X), (Y, X, Y)),
    "grad": lambda P: P.L.lib.grad(lambda x, y: P.L.np.sum(P.mul_add.bind(x, y, x) ** 2), (0, 1))(X, Y),
    "grad-jit": lambda P: P.L.lib.jit(P.L.lib.grad(lambda x: P.L.np.sum(P.mul_add.bind(x, x, x))))(X),
    "vmap": lambda P: P.L.lib.vmap(P.mul_add.bind)(X.reshape(2, 3), Y.reshape(2, 3), X.reshape(2, 3)),
    "vmap-axis1": lambda P: P.L.lib.vmap(P.mul_add.bind, in_axes=1)(X.reshape(2, 3), Y.reshape(2, 3), X.reshape(2, 3)),
    "scale-eval": lambda P: P.scale.bind(X, factor=3.0),
    "scale-jit": lambda P: P.L.lib.jit(lambda x: P.scale.bind(x, factor=3.0))(X),
    "scale-grad": lambda P: P.L.lib.grad(lambda x: P.L.np.sum(P.scale.bind(P.L.np.sin(x), factor=-2.0)))(X),
    "scale-vjp": lambda P: P.L.lib.vjp(lambda x: P.scale.bind(x, factor=0.5), X)[1](Y),
    "scale-vmap": lambda P: P.L.lib.vmap(lambda x: P.scale.bind(x, factor=2.0), in_axes=1)(X.reshape(2, 3)),
    "scale-hessian": lambda P: P.L.lib.hessian(lambda x: P.L.np.sum(P.scale.bind(x, factor=2.0) ** 3))(X[:3]),
    "sincos-eval": lambda P: list(P.sincos.bind(X)),  # JAX hands back the impl's tuple
    "sincos-jit": lambda P: P.L.lib.jit(P.sincos.bind)(X),
    "sincos-jvp": lambda P: P.L.lib.jvp(P.sincos.bind, (X,), (Y,)),
    "sincos-grad": lambda P: P.L.lib.grad(lambda x: P.L.np.sum(P.sincos.bind(x)[0] * P.sincos.bind(x)[1]))(X),
    "sincos-vmap": lambda P: P.L.lib.vmap(P.sincos.bind)(X.reshape(2, 3)),
    "scan": lambda P: P.L.lax.scan(lambda c, x: (P.mul_add.bind(c, x, x), c), np.float32(1.0), X),
    "scan-grad": lambda P: P.L.lib.grad(
        lambda x: P.L.lax.scan(lambda c, e: (P.scale.bind(P.mul_add.bind(c, e, e), factor=0.5), None), np.float32(1.0), x)[0]
    )(X),
    "cond": lambda P: P.L.lib.jit(
        lambda p, x: P.L.lax.cond(p, lambda v: P.mul_add.bind(v, v, v), lambda v: P.scale.bind(v, factor=2.0), x)
    )(True, X),
    "cond-grad": lambda P: P.L.lib.grad(
        lambda x: P.L.np.sum(P.L.lax.cond(x[0] < 0, lambda v: P.mul_add.bind(v, v, v), lambda v: P.scale.bind(v, factor=2.0), x))
    )(X),
    "checkpoint-grad": lambda P: P.L.lib.grad(lambda x: P.L.np.sum(P.L.lib.checkpoint(lambda v: P.mul_add.bind(P.L.np.sin(v), v, v))(x)))(X),
    # Weak types (JAX: eager bind returns the impl's values, so Python-scalar
    # operands give weak results and eager gradients stay weak; traced, the
    # result has abstract_eval's weak type).
    "weak-eager-floats": lambda P: P.mul_add.bind(2.0, 3.0, 4.0),
    "weak-eager-mixed": lambda P: P.mul_add.bind(np.float32(2.0), 3.0, 4.0),
    "weak-grad": lambda P: P.L.lib.grad(lambda x: P.mul_add.bind(x, 3.0, 4.0))(2.0),
    "weak-grad-strong-input": lambda P: P.L.lib.grad(lambda x: P.mul_add.bind(x, 3.0, 4.0))(np.float32(2.0)),
    "weak-jvp": lambda P: P.L.lib.jvp(lambda x: P.mul_add.bind(x, 3.0, 4.0), (2.0,), (1.0,)),
    "weak-jit": lambda P: P.L.lib.jit(lambda x: P.mul_add.bind(x, 3.0, 4.0))(2.0),
    "weak-jit-grad": lambda P: P.L.lib.jit(P.L.lib.grad(lambda x: P.mul_add.bind(x, 3.0, 4.0)))(2.0),
    "weak-id-jit": lambda P: P.L.lib.jit(P.weak_id.bind)(np.float32(1.0)),
    "weak-id-grad-strong": lambda P: P.L.lib.grad(P.weak_id.bind)(np.float32(1.0)),
    "weak-id-grad-weak": lambda P: P.L.lib.grad(P.weak_id.bind)(1.0),
    "weak-id-eager": lambda P: P.weak_id.bind(np.float32(1.0)),
    "vmap-grad": lambda P: P.L.lib.vmap(P.L.lib.grad(lambda x: P.L.np.sum(P.mul_add.bind(x, x, 1.0 + x))))(X.reshape(2, 3)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_as_jax(case: str) -> None:
    ours, theirs = libs()
    fn = CASES[case]
    # JAX's eager bind hands back what the impl returned (NumPy values, a
    # Python int: compared as arrays, with weak types); ours makes arrays of
    # the impl results' own dtypes and weak types.
    assert_same(fn(ours), fn(theirs), where=case, tree=True)


def test_seed_example_runs_verbatim(tmp_path: Path) -> None:
    """JEP 15856's example, with only the imports changed, prints what the
    JEP says (``10``, and ``Array(10, dtype=int32)`` for the jitted call)."""
    script = textwrap.dedent(
        """
        from jaxtyped.extend import core	         # Previously: from jax import core
        from jaxtyped.extend.interpreters import mlir        # ... and similarly

        mul_add_p = core.Primitive('mul_add')
        mul_add_p.def_impl(lambda x, y, z: x * y + z)

        @mul_add_p.def_abstract_eval
        def mul_add_abstract(x_sa, y_sa, z_sa):
          return core.ShapedArray(x_sa.shape, x_sa.dtype)

        def mul_add_mlir(ctx, xc, yc, zc):
          add = mlir.hlo.AddOp
          mul = mlir.hlo.MulOp
          return add(mul(xc, yc), zc).results

        mlir.register_lowering(mul_add_p, mul_add_mlir)

        import jaxtyped as jax
        print(mul_add_p.bind(2, 3, 4))            # -> 10
        print(repr(jax.jit(mul_add_p.bind)(2, 3, 4)))   # -> Array(10, dtype=int32)
        """
    )
    path = tmp_path / "seed.py"
    path.write_text(script)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["10", "Array(10, dtype=int32)"]


def test_jaxpr_printing_and_params() -> None:
    ours, _ = libs()
    text = str(jt.make_jaxpr(lambda x: ours.scale.bind(ours.mul_add.bind(x, x, x), factor=2.0))(X))
    assert "mul_add a a a" in text and "scale[factor=2.0]" in text
    (eqn, _) = jt.make_jaxpr(lambda x: ours.scale.bind(x, factor=2.0))(X).eqns + (None,)
    assert eqn is not None and eqn.params == {"factor": 2.0}


def test_lowered_text_uses_the_builders() -> None:
    ours, _ = libs()
    text = jt.jit(ours.mul_add.bind).lower(X, Y, X).as_text()
    assert "stablehlo.multiply" in text and "stablehlo.add" in text


def one(out: jt.Array | list[jt.Array]) -> jt.Array:
    assert isinstance(out, jt.Array)
    return out


def test_missing_rules_raise_missing_rule_error() -> None:
    bare = core.Primitive("bare")
    bare.def_impl(lambda x: x)
    bare.def_abstract_eval(lambda x: x)
    assert str(bare.bind(1.0)) == "1.0"
    with pytest.raises(errors.MissingRuleError, match="jvp.*'bare'"):
        jt.jvp(bare.bind, (X,), (X,))
    with pytest.raises(errors.MissingRuleError, match="vmap.*'bare'"):
        jt.vmap(bare.bind)(X)
    with pytest.raises(errors.MissingRuleError, match="lowering rule.*'bare'"):
        jt.jit(bare.bind)(X)
    lin = core.Primitive("lin_no_transpose")
    lin.def_impl(lambda x: x)
    lin.def_abstract_eval(lambda x: x)
    ad.primitive_jvps[lin] = lambda p, t: (lin.bind(*p), lin.bind(*t))

    def f(x: jt.Array) -> jt.Array:
        return one(lin.bind(x))

    with pytest.raises(errors.MissingRuleError, match="transpose.*'lin_no_transpose'"):
        jt.grad(f)(jnp.float32(1.0))
    no_impl = core.Primitive("no_impl")
    no_impl.def_abstract_eval(lambda x: x)
    with pytest.raises(errors.MissingRuleError, match="impl.*'no_impl'"):
        no_impl.bind(1.0)


def test_bad_rules_and_params_are_reported() -> None:
    p = core.Primitive("bad_abstract")
    p.def_impl(lambda x: x)
    p.def_abstract_eval(lambda x: 3)
    with pytest.raises(errors.JaxtypedTypeError, match="abstract_eval of primitive 'bad_abstract'"):
        p.bind(1.0)
    q = core.Primitive("listy")
    q.def_impl(lambda x, *, axes: x)
    q.def_abstract_eval(lambda x, *, axes: x)
    with pytest.raises(errors.JaxtypedTypeError, match="listy: parameter axes=.*not hashable"):
        q.bind(1.0, axes=[0])
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="register_lowering"):
        mlir.register_lowering(core.primitives.add_p, lambda ctx, x, y: [x])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse under test
    with pytest.raises(errors.JaxtypedValueError, match="inside a lowering rule"):
        mlir.hlo.AddOp  # noqa: B018
        mlir.hlo.NegOp(mlir.ir_constant(1.0))
    wrong = core.Primitive("wrong_lowering")
    wrong.def_impl(lambda x: x)
    wrong.def_abstract_eval(lambda x: x)
    mlir.register_lowering(wrong, lambda ctx, x: [x, x])
    with pytest.raises(errors.JaxtypedTypeError, match="returned 2 values for 1 results"):
        jt.jit(wrong.bind)(X)
    shapeless = core.Primitive("bad_impl")
    shapeless.def_impl(lambda x: np.zeros((2,), np.float32))
    shapeless.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    with pytest.raises(errors.JaxtypedTypeError, match=r"impl of primitive 'bad_impl' returned f32\[2\], abstract_eval gives f32\[6\]"):
        shapeless.bind(X)
