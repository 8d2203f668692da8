# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""``jaxtyped.export`` against ``jax.export``: the ``Exported`` of the same
jitted function in both libraries (trees, types, kept arguments, device
and platform fields), ``call`` eagerly, under ``jit`` and after a
serialisation round trip (values, dtypes, weak types), ``grad`` through
the exported VJP (also after ``serialize(vjp_order=1)``), the printed
jaxpr of a call, errors by kind; jaxtyped's blob format (trees with
registered node types, versions) and a blob read in another process.
JAX's own blobs need ``flatbuffers`` and are another format: not compared.
"""

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, cast

import numpy as np
import pytest
from oracle import assert_same, jax, raises_as_jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, export

jax_export: Any = pytest.importorskip("jax.export")

Lib = Any  # jaxtyped or jax: the same API by contract
_C = np.arange(4, dtype=np.float32) / 3


def export_of(J: Lib) -> Any:
    return export if J is jt else jax_export


def mlp(J: Lib, params: Any, x: Any) -> Any:
    h = J.numpy.tanh(x @ params["w"] + params["b"])
    return {"out": h.sum(axis=-1), "h": h}


class Pair(NamedTuple):
    a: Any
    b: Any


# name -> (function of the library, arguments of the library)
PROGRAMS: dict[str, Callable[[Lib], tuple[Callable[..., Any], tuple[Any, ...]]]] = {
    "sin-and-sum": lambda J: (lambda x, y: {"s": J.numpy.sin(x) + y, "c": x.sum()}, (J.numpy.ones(3), 2.0)),
    "mlp": lambda J: (
        lambda p, x: mlp(J, p, x),
        ({"w": J.numpy.full((3, 2), 0.5, J.numpy.float32), "b": J.numpy.ones(2)}, J.numpy.arange(6.0).reshape(2, 3)),
    ),
    "constant": lambda J: (lambda x: x * J.numpy.asarray(_C), (J.numpy.ones(4),)),
    "unused-argument": lambda J: (lambda x, u: x * 2, (J.numpy.ones(2), J.numpy.ones(5))),
    "int-and-bfloat16": lambda J: (
        lambda x, n: (x * 2, n + 1),
        (J.numpy.ones(2, J.numpy.bfloat16), 3),
    ),
    "scan-unrolled": lambda J: (
        lambda x: J.lax.scan(lambda c, v: (c * v + 1.0, c), 0.5, x, unroll=2),
        (J.numpy.arange(5.0),),
    ),
    "while": lambda J: (lambda x: J.lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x), (1.5,)),
}


def _exported_both(name: str) -> tuple[Any, Any, tuple[Any, ...], tuple[Any, ...]]:
    ours_f, ours_args = PROGRAMS[name](jt)
    theirs_f, theirs_args = PROGRAMS[name](jax)
    ours = export.export(jt.jit(ours_f))(*ours_args)
    theirs = jax_export.export(jax.jit(theirs_f))(*theirs_args)
    return ours, theirs, ours_args, theirs_args


def _avals(avals: Any) -> list[tuple[tuple[int, ...], str, bool]]:
    return [(tuple(a.shape), str(a.dtype), bool(a.weak_type)) for a in avals]


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_exported_fields_as_jax(name: str) -> None:
    ours, theirs, _, _ = _exported_both(name)
    assert str(ours.in_tree) == str(theirs.in_tree)
    assert str(ours.out_tree) == str(theirs.out_tree)
    assert _avals(ours.in_avals) == _avals(theirs.in_avals)
    assert _avals(ours.out_avals) == _avals(theirs.out_avals)
    assert ours.module_kept_var_idx == theirs.module_kept_var_idx
    assert (ours.nr_devices, ours.platforms, ours.uses_global_constants) == (1, ("cpu",), False)
    assert (theirs.nr_devices, theirs.platforms, theirs.uses_global_constants) == (1, ("cpu",), False)
    assert ours.in_shardings_hlo == theirs.in_shardings_hlo
    assert ours.out_shardings_hlo == theirs.out_shardings_hlo
    assert ours.calling_convention_version == theirs.calling_convention_version
    assert (ours.ordered_effects, ours.unordered_effects) == (tuple(theirs.ordered_effects), tuple(theirs.unordered_effects))
    assert ours.fun_name == theirs.fun_name == "<lambda>"
    assert str(ours) == str(theirs) == "Exported(fun_name=<lambda>, ...)"
    assert ours.has_vjp() and theirs.has_vjp()


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("how", ["eager", "jit", "serialized", "serialized-jit"])
def test_call_as_jax(name: str, how: str) -> None:
    ours, theirs, ours_args, theirs_args = _exported_both(name)
    if how.startswith("serialized"):
        ours = export.deserialize(ours.serialize())
    call = jt.jit(ours.call) if how.endswith("jit") else ours.call
    assert_same(call(*ours_args), theirs.call(*theirs_args))


@pytest.mark.parametrize("serialized", [False, True], ids=["in-process", "vjp_order-1"])
def test_grad_through_the_exported_vjp_as_jax(serialized: bool) -> None:
    ours, theirs, ours_args, theirs_args = _exported_both("mlp")
    if serialized:
        ours = export.deserialize(ours.serialize(vjp_order=1))
    call = cast(Callable[..., dict[str, jt.Array]], ours.call)
    grads_ours = jt.grad(lambda p, x: call(p, x)["out"].sum())(*ours_args)
    grads_theirs = jax.grad(lambda p, x: theirs.call(p, x)["out"].sum())(*theirs_args)
    assert_same(grads_ours, grads_theirs)
    # The VJP itself, as JAX exports it: primal leaves then output cotangents.
    assert _avals(ours.vjp().in_avals) == _avals(theirs.vjp().in_avals)
    assert _avals(ours.vjp().out_avals) == _avals(theirs.vjp().out_avals)


def returning_array(exp: "export.Exported[..., object]") -> Callable[..., jt.Array]:
    """The call of a deserialized function that returns one array (its
    result type is unknown to the checkers)."""
    return cast(Callable[..., jt.Array], exp.call)


def test_second_derivative_needs_vjp_order_2() -> None:
    exp = export.export(jt.jit(lambda x: jnp.sin(x) * x))(1.0)
    twice = returning_array(export.deserialize(exp.serialize(vjp_order=2)))
    d2 = jt.grad(jt.grad(twice))(0.5)
    assert_same(d2, jax.grad(jax.grad(lambda x: jax.numpy.sin(x) * x))(0.5))
    once = returning_array(export.deserialize(exp.serialize(vjp_order=1)))
    jt.grad(once)(0.5)
    with pytest.raises(errors.JaxtypedValueError, match="cannot differentiate, no VJP is available"):
        jt.grad(jt.grad(once))(0.5)
    with pytest.raises(errors.JaxtypedValueError, match="no VJP is available"):
        export.deserialize(exp.serialize()).vjp()


def test_make_jaxpr_of_a_call_as_jax() -> None:
    ours, theirs, ours_args, theirs_args = _exported_both("sin-and-sum")
    assert str(jt.make_jaxpr(ours.call)(*ours_args)) == str(jax.make_jaxpr(theirs.call)(*theirs_args))


def test_calls_embedded_in_one_module() -> None:
    # Two exported functions, each called twice, with private functions of
    # their own (an unrolled scan's body): renamed apart in the caller.
    exported, _, args, _ = _exported_both("scan-unrolled")
    scan = cast(Callable[[jt.Array], tuple[jt.Array, jt.Array]], export.deserialize(exported.serialize()).call)

    def times_two(x: jt.Array) -> jt.Array:
        return x * 2.0

    double = export.export(jt.jit(times_two))(jnp.ones(5))

    def f(x: jt.Array) -> jt.Array:
        a = scan(x)[1] + scan(double.call(x))[1]
        return double.call(a) + double.call(x)

    def step(v: Any) -> Any:
        return jax.lax.scan(lambda c, y: (c * y + 1.0, c), 0.5, v)[1]

    def g(x: Any) -> Any:
        return (step(x) + step(x * 2.0)) * 2.0 + x * 2.0

    assert_same(jt.jit(f)(*args), jax.jit(g)(jax.numpy.arange(5.0)))
    text = jt.jit(f).lower(*args).as_text()
    assert text.count("func.func private @exported_main") == 2


ERRORS: dict[str, Callable[[Lib], object]] = {
    "not-jitted": lambda J: export_of(J).export(lambda x: x)(1.0),
    "structure": lambda J: export_of(J).export(J.jit(lambda x, y: x + y))(1.0, 2.0).call(1.0),
    "shape": lambda J: export_of(J).export(J.jit(lambda x: x))(J.numpy.ones(3)).call(J.numpy.ones(4)),
    "dtype": lambda J: export_of(J).export(J.jit(lambda x: x))(J.numpy.ones(3)).call(J.numpy.ones(3, J.numpy.int32)),
    "python-int-for-float": lambda J: export_of(J).export(J.jit(lambda x: x))(1.0).call(2),
    "vmap": lambda J: J.vmap(export_of(J).export(J.jit(lambda x: x * 2))(1.0).call)(J.numpy.ones(3)),
    "debug-print": lambda J: export_of(J).export(J.jit(lambda x: J.debug.print("{}", x)))(1.0),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_jax(name: str) -> None:
    raises_as_jax(ERRORS[name], ill_typed=name == "not-jitted")


def test_messages_name_the_function_and_the_argument() -> None:
    exp = export.export(jt.jit(lambda x, y: x.sum() + y["k"].sum()))(jnp.ones(3), {"k": jnp.ones(2)})
    with pytest.raises(errors.JaxtypedValueError, match=r"shape mismatch for args\[1\]\['k'\]: expected \(2,\)"):
        exp.call(jnp.ones(3), {"k": jnp.ones(3)})
    with pytest.raises(errors.JaxtypedNotImplementedError, match="only the 'cpu' platform"):
        export.export(jt.jit(lambda x: x), platforms=["tpu"])
    with pytest.raises(errors.JaxtypedValueError, match="not a jaxtyped export blob"):
        export.deserialize(b"\x00flatbuffer")


def test_trees_with_registered_node_types_round_trip() -> None:
    exp = export.export(jt.jit(lambda p: Pair(p.b, p.a)))(Pair(jnp.ones(2), jnp.zeros(3)))
    with pytest.raises(errors.JaxtypedValueError, match="register_namedtuple_serialization"):
        exp.serialize()
    export.register_namedtuple_serialization(Pair, serialized_name="tests.export.Pair")
    with pytest.raises(errors.JaxtypedValueError, match="Duplicate serialization registration"):
        export.register_namedtuple_serialization(Pair, serialized_name="tests.export.Pair2")
    back = export.deserialize(exp.serialize())
    out = back.call(Pair(jnp.ones(2), jnp.zeros(3)))
    assert isinstance(out, Pair) and out.a.shape == (3,) and out.b.shape == (2,)
    assert back.in_tree == exp.in_tree and back.out_tree == exp.out_tree


@jt.tree_util.register_pytree_node_class
class Scaled:
    """A custom node whose aux data (the scale) is serialised."""

    def __init__(self, value: jt.Array, scale: float) -> None:
        self.value, self.scale = value, scale

    def tree_flatten(self) -> tuple[tuple[jt.Array], float]:
        return (self.value,), self.scale

    @classmethod
    def tree_unflatten(cls, scale: float, children: tuple[jt.Array]) -> "Scaled":
        return cls(children[0], scale)


export.register_pytree_node_serialization(
    Scaled,
    serialized_name="tests.export.Scaled",
    serialize_auxdata=lambda scale: str(scale).encode(),
    deserialize_auxdata=lambda data: float(data.decode()),
)


def test_custom_node_aux_data_round_trips() -> None:
    exp = export.export(jt.jit(lambda s: Scaled(s.value * s.scale, s.scale + 1)))(Scaled(jnp.ones(2), 3.0))
    back = export.deserialize(exp.serialize())
    out = back.call(Scaled(jnp.ones(2), 3.0))
    assert isinstance(out, Scaled) and out.scale == 4.0
    np.testing.assert_array_equal(np.asarray(out.value), [3.0, 3.0])


def test_a_blob_is_read_in_another_process(tmp_path: Path) -> None:
    exp = export.export(jt.jit(lambda x: {"y": jnp.cos(x) * 3}))(jnp.arange(3.0))
    blob = tmp_path / "f.bin"
    blob.write_bytes(exp.serialize(vjp_order=1))
    script = (
        "import sys, numpy as np, jaxtyped as jt, jaxtyped.numpy as jnp\n"
        "from jaxtyped import export\n"
        "exp = export.deserialize(open(sys.argv[1], 'rb').read())\n"
        "print(np.asarray(exp.call(jnp.arange(3.0))['y']).tolist())\n"
        "print(np.asarray(jt.grad(lambda x: exp.call(x)['y'].sum())(jnp.arange(3.0))).tolist())\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(blob)], capture_output=True, text=True, timeout=120, check=True)
    values, grads = (np.array(eval(line)) for line in done.stdout.splitlines())  # noqa: S307 - lists printed above
    np.testing.assert_allclose(values, np.cos(np.arange(3.0)) * 3, rtol=1e-6)
    np.testing.assert_allclose(grads, -np.sin(np.arange(3.0)) * 3, rtol=1e-6)


def test_module_constants_and_dropped_arguments() -> None:
    ours, _, _, _ = _exported_both("constant")
    assert "stablehlo.constant" in ours.mlir_module() and "%arg1" not in ours.mlir_module()
    unused, _, _, _ = _exported_both("unused-argument")
    assert unused.mlir_module().count("%arg") == unused.mlir_module().count("%arg0")


def test_disabled_safety_checks_as_jax() -> None:
    for ours, theirs in (
        (export.DisabledSafetyCheck.custom_call("t"), jax_export.DisabledSafetyCheck.custom_call("t")),
        (export.DisabledSafetyCheck.platform(), jax_export.DisabledSafetyCheck.platform()),
    ):
        assert (str(ours), ours.is_custom_call()) == (str(theirs), theirs.is_custom_call())
    checks = (export.DisabledSafetyCheck.platform(),)
    exp = export.export(jt.jit(lambda x: x), disabled_checks=checks)(1.0)
    assert export.deserialize(exp.serialize()).disabled_safety_checks == checks
    assert export.default_export_platform() == jax_export.default_export_platform()
    assert (export.minimum_supported_calling_convention_version, export.maximum_supported_calling_convention_version) == (
        jax_export.minimum_supported_calling_convention_version,
        jax_export.maximum_supported_calling_convention_version,
    )
    assert export.is_symbolic_dim(3) is jax_export.is_symbolic_dim(3) is False
