"""Buffer donation of ``jit`` programs over several devices, against JAX
0.10.2 (Note [donation over a mesh] in ``api_sharding``): a donated array
already laid out as its parameter is consumed (deleted, its shards' buffers
reused by the result), one with another layout is copied and stays, values
are unchanged, and a donated array passed twice is refused.

The suite runs with 8 CPU devices in both libraries (``tests/conftest.py``).
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the functions run on either library's arrays, untyped by design)

import warnings
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import JaxtypedValueError
from jaxtyped.sharding import NamedSharding, PartitionSpec

jsh: Any = pytest.importorskip("jax.sharding")

_VALUE = np.arange(64, dtype=np.float32)


def _double(a: Any) -> Any:
    return a * 2.0


def _shardings(spec: tuple[str | None, ...]) -> tuple[NamedSharding, Any]:
    """``NamedSharding(mesh, P(*spec))`` over the same 8-device mesh in both libraries."""
    ours = NamedSharding(jt.make_mesh((8,), ("x",)), PartitionSpec(*spec))
    theirs = jsh.NamedSharding(jax.make_mesh((8,), ("x",)), jsh.PartitionSpec(*spec))
    return ours, theirs


def _shard_pointers(x: Any) -> list[int]:
    """The addresses of a multi-device array's per-device buffers, in device order."""
    return [int(shard.unsafe_buffer_pointer()) for shard in x._buffer._arrays]


@pytest.mark.parametrize("spec", [("x",), ()], ids=["split", "replicated"])
def test_a_donated_array_laid_out_as_its_parameter_is_consumed(spec: tuple[str | None, ...]) -> None:
    """A sharded array whose layout the program takes is deleted by the
    call, as JAX deletes it; the values are JAX's, and reading it raises."""
    ours_s, theirs_s = _shardings(spec)
    x, jax_x = jt.device_put(_VALUE, ours_s), jax.device_put(_VALUE, theirs_s)
    y, jax_y = jt.jit(_double, donate_argnums=0)(x), jax.jit(_double, donate_argnums=0)(jax_x)
    assert x.is_deleted() and jax_x.is_deleted()
    assert_same(y, jax_y)
    assert str(y.sharding.spec) == str(jax_y.sharding.spec)
    with pytest.raises(RuntimeError, match="deleted"):
        jt.jit(_double)(x)


def _donors(text: str) -> list[bool]:
    """Per parameter of a module's ``main``: whether it is marked donated
    (a buffer donor, or aliased to a result: JAX's lowering picks either)."""
    header = next(line for line in text.split("\n") if "func.func public @main(" in line)
    params = header.split("@main(", 1)[1].split(") -> ", 1)[0].split("%arg")[1:]
    return ["jax.buffer_donor = true" in p or "tf.aliasing_output" in p for p in params]


def test_the_module_marks_the_donated_parameter() -> None:
    """The lowered module marks a donated parameter, next to its sharding,
    as JAX's does; a parameter not donated is not marked."""
    ours_s, theirs_s = _shardings(("x",))
    x, jax_x = jt.device_put(_VALUE, ours_s), jax.device_put(_VALUE, theirs_s)
    add = lambda a, b: a + b  # noqa: E731
    ours = jt.jit(add, donate_argnums=0).lower(x, x).as_text()
    theirs = jax.jit(add, donate_argnums=0).lower(jax_x, jax_x).as_text()
    assert _donors(ours) == _donors(theirs) == [True, False]
    assert '%arg0: tensor<64xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}' in ours
    assert not x.is_deleted()


def test_an_array_in_another_layout_is_copied_and_stays() -> None:
    """A donated array on one device, passed to a program over 8 devices
    (asked for by ``in_shardings``, or by another argument's layout), is
    copied there: it stays alive, as in JAX."""
    ours_s, theirs_s = _shardings(("x",))
    x, jax_x = jnp.asarray(_VALUE), jax_numpy.asarray(_VALUE)
    y = jt.jit(_double, donate_argnums=0, in_shardings=ours_s)(x)
    jax_y = jax.jit(_double, donate_argnums=0, in_shardings=theirs_s)(jax_x)
    assert not x.is_deleted() and not jax_x.is_deleted()
    assert_same(y, jax_y)
    assert_same(x, jax_x)
    add = lambda a, b: a + b  # noqa: E731
    other, jax_other = jt.device_put(_VALUE, ours_s), jax.device_put(_VALUE, theirs_s)
    z = jt.jit(add, donate_argnums=0)(x, other)
    with warnings.catch_warnings():  # JAX: "Some donated buffers were not usable" (the copy is not donated)
        warnings.simplefilter("ignore", UserWarning)
        jax_z = jax.jit(add, donate_argnums=0)(jax_x, jax_other)
    assert_same(z, jax_z)
    assert [x.is_deleted(), other.is_deleted()] == [jax_x.is_deleted(), jax_other.is_deleted()] == [False, False]


def test_a_donated_array_passed_twice_is_refused() -> None:
    """The same sharded array as a donated and another argument is refused
    before the program runs, and stays alive (as on one device; JAX 0.10.2
    crashes the process there, so it is not run)."""
    ours_s, _ = _shardings(("x",))
    x = jt.device_put(_VALUE, ours_s)
    with pytest.raises(JaxtypedValueError, match="donated argument 0 and again as argument 1"):
        jt.jit(lambda a, b: a + b, donate_argnums=0)(x, x)
    assert not x.is_deleted()
    y = jt.jit(lambda a, b: a + b, donate_argnums=0)(x, jt.device_put(_VALUE, ours_s))
    np.testing.assert_array_equal(np.asarray(y), 2.0 * _VALUE)
    assert x.is_deleted()


def test_a_donated_state_fed_back_in_a_loop() -> None:
    """A training-loop style update with ``in_shardings``/``out_shardings``
    and the state donated: each step consumes the previous state, as in
    JAX, the values agree, and the result's shards reuse the state's buffers."""
    ours_s, theirs_s = _shardings(("x",))
    step = jt.jit(lambda w: w * 0.5 + 1.0, in_shardings=ours_s, out_shardings=ours_s, donate_argnums=0)
    jax_step = jax.jit(lambda w: w * 0.5 + 1.0, in_shardings=theirs_s, out_shardings=theirs_s, donate_argnums=0)
    w = jt.jit(_double)(jt.device_put(_VALUE, ours_s))  # device-born: its buffers are the runtime's
    jax_w = jax.jit(_double)(jax.device_put(_VALUE, theirs_s))
    for _ in range(4):
        pointers = _shard_pointers(w)
        previous, jax_previous = w, jax_w
        w, jax_w = step(w), jax_step(jax_w)
        assert previous.is_deleted() and jax_previous.is_deleted()
        assert _shard_pointers(w) == pointers
        assert w.sharding == ours_s
    assert_same(w, jax_w)


def test_the_result_reuses_the_donated_shards() -> None:
    """The result's per-device buffers are the donated array's (the memory
    is reused, not copied), as JAX's are; a compiled program donates too."""
    ours_s, theirs_s = _shardings(("x",))
    x = jt.jit(_double)(jt.device_put(_VALUE, ours_s))
    jax_x = jax.jit(_double)(jax.device_put(_VALUE, theirs_s))
    pointers = _shard_pointers(x)
    jax_pointers = [s.data.unsafe_buffer_pointer() for s in jax_x.addressable_shards]
    assert float(x[1]) == 2.0  # an eager read: a host copy the donation must not keep alive
    y, jax_y = jt.jit(_double, donate_argnums=0)(x), jax.jit(_double, donate_argnums=0)(jax_x)
    assert _shard_pointers(y) == pointers
    assert [s.data.unsafe_buffer_pointer() for s in jax_y.addressable_shards] == jax_pointers
    assert_same(y, jax_y)
    compiled = jt.jit(_double, donate_argnums=0).lower(y).compile()
    jax_compiled = jax.jit(_double, donate_argnums=0).lower(jax_y).compile()
    z, jax_z = compiled(y), jax_compiled(jax_y)
    assert y.is_deleted() and jax_y.is_deleted()
    assert _shard_pointers(z) == pointers
    assert_same(z, jax_z)
