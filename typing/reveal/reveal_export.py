"""Result types of jaxtyped.export and jt.fwd_and_bwd: ``export(jit(f))`` keeps ``f``'s
signature (its arguments, or shape structs for them), ``Exported.call``
returns ``f``'s result type; a deserialized Exported returns ``object``
(its result type is not known to the checkers)."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import export
from jaxtyped.typing import Array


def step(params: dict[str, Array], x: Array) -> tuple[Array, dict[str, Array]]:
    return x @ params["w"], params


def check(params: dict[str, Array], x: Array) -> None:
    exp = export.export(jt.jit(step))(params, x)  # step's signature: export(jit(step))(x) is an error
    assert_type(exp.call(params, x), tuple[Array, dict[str, Array]])
    assert_type(exp.serialize(vjp_order=1), bytearray)
    assert_type(exp.mlir_module(), str)
    assert_type(exp.has_vjp(), bool)
    assert_type(exp.vjp(), export.Exported[..., object])
    assert_type(exp.in_avals, tuple[jt.core.ShapedArray, ...])
    back = export.deserialize(exp.serialize())
    assert_type(back, export.Exported[..., object])
    assert_type(back.call(x), object)
    assert_type(export.DisabledSafetyCheck.custom_call("target").is_custom_call(), str | None)
    assert_type(export.default_export_platform(), str)
    assert_type(export.is_symbolic_dim(3), bool)
    assert_type(jnp.asarray(1.0), Array)


def layer(x: Array, w: Array) -> Array:
    return jnp.tanh(x @ w)


def passes(x: Array, w: Array) -> None:
    fwd, bwd = jt.fwd_and_bwd(layer, argnums=(0, 1))
    y, residuals = fwd(x, w)
    assert_type(y, Array)
    assert_type(bwd(residuals, y), object)
    _, f_vjp = jt.vjp(layer, x, w)
    assert_type(f_vjp(y), tuple[Array, Array])
