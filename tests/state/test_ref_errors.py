"""Misuses of refs (issue 16, item 4) raise clear, typed errors (of JAX's
kind where JAX 0.10.2 raises too), and no error leaves a ref half-updated.
The seed's own error examples are in test_refs_seed.py."""

from typing import Any, cast

import numpy as np
import pytest
from oracle import debug_violations, jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors

Lib = Any  # jaxtyped or jax


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (jnp.int32(1), r"Invalid dtype for `swap`. Ref dtype: float32. Value dtype: int32."),
        (jnp.ones(2), r"Invalid shape for `swap`. Ref shape: \(\). Expected shape: \(\). Value shape: \(2,\)."),
    ],
    ids=["dtype", "shape"],
)
def test_writes_of_the_wrong_type_are_rejected_as_in_jax(value: jt.Array, message: str) -> None:
    for lib, arg in ((jt, value), (jax, jax.numpy.asarray(np.asarray(value)))):
        ref = lib.new_ref(0.0)
        with pytest.raises(ValueError, match=message):
            ref[...] = arg
        assert repr(ref).startswith("Ref(0., dtype=float32")


def test_python_scalars_adopt_the_refs_dtype() -> None:
    ref = jt.new_ref(jnp.zeros(2, jnp.int32))
    ref[0] = 3
    ref[...] += 1
    assert repr(ref) == "Ref([4, 1], dtype=int32)"


def test_no_ref_to_ref() -> None:
    ref = jt.new_ref(1.0)
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="ref-to-ref|violates type hint"):
        jt.new_ref(ref)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="ref-to-ref|violates type hint"):
        ref[...] = ref  # type: ignore[assignment]  # pyright: ignore[reportArgumentType]  # the misuse


def test_freeze_in_the_creation_scope() -> None:
    ref = jt.new_ref(jnp.arange(3.0))
    ref[0] = 5.0
    value = jt.freeze(ref)
    np.testing.assert_array_equal(np.asarray(value), [5.0, 1.0, 2.0])
    with pytest.raises(errors.JaxtypedValueError, match="was frozen"):
        ref[...]  # noqa: B018 - reading is the misuse
    assert "frozen" in repr(ref)

    @jt.jit
    def make(x: jt.Array) -> jt.Array:
        inner = jt.new_ref(x)
        inner[...] += 1.0
        return jt.freeze(inner)

    np.testing.assert_array_equal(np.asarray(make(jnp.zeros(2))), [1.0, 1.0])


def test_refs_cannot_escape_the_transformation_that_made_them() -> None:
    leaked: list[jt.Ref[jt.Array]] = []

    @jt.jit
    def f(x: jt.Array) -> jt.Array:
        ref = jt.new_ref(x)
        leaked.append(ref)
        return ref[...]

    f(jnp.ones(2))
    with pytest.raises(errors.JaxtypedValueError, match="created inside jit of .* was used outside it"):
        leaked[0][...]  # noqa: B018 - reading is the misuse
    with pytest.raises(errors.JaxtypedTypeError):
        jt.vmap(jt.new_ref)(jnp.arange(2.0))


def test_refs_cannot_be_returned_from_loop_bodies_that_thread_refs() -> None:
    outer = jt.new_ref(0.0)

    def body(c: jt.Array, x: jt.Array) -> tuple[jt.Array, jt.Ref[jt.Array]]:
        outer[...] += x
        return c, jt.new_ref(x)

    with pytest.raises(errors.JaxtypedTypeError, match="the body of scan traced for scan returned a mutable array reference"):
        jt.lax.scan(body, 0.0, jnp.arange(2.0))
    assert repr(outer) == "Ref(0., dtype=float32, weak_type=True)"
    with pytest.raises(TypeError, match=r"output\[1\] is a mutable array reference of type Ref\{float32\[\]\}"):
        jt.lax.scan(lambda c, x: (c, jt.new_ref(x)), 0.0, jnp.arange(2.0))
    with pytest.raises(TypeError, match=r"is a mutable array reference of type Ref\{float32\[\]\}"):
        jt.lax.cond(True, lambda: jt.new_ref(1.0), lambda: jt.new_ref(2.0))


def test_checkpoint_of_an_impure_function_is_an_error() -> None:
    ref = jt.new_ref(0.0)

    def impure(x: jt.Array) -> jt.Array:
        ref[...] += x
        return x * 2

    with pytest.raises(errors.JaxtypedTypeError, match=r"Ref\{float32\[\]\} created outside checkpoint of .* cannot thread"):
        jt.checkpoint(impure)(jnp.float32(1.0))
    assert repr(ref) == "Ref(0., dtype=float32, weak_type=True)"


def test_make_jaxpr_stages_refs_without_running() -> None:
    # A passed ref is a ref-typed input, a closed-over one a ref-typed
    # constvar (its const the ref itself), read and written by equations;
    # the refs themselves are untouched.
    passed, closed = jt.new_ref(jnp.zeros(3)), jt.new_ref(jnp.float32(1.0))

    def f(r: jt.Ref[jt.Array], x: jt.Array) -> jt.Array:
        r[...] += x
        closed[...] = closed[...] * 2
        return r[0]

    jaxpr = jt.make_jaxpr(f)(passed, jnp.ones(3))
    assert [v.aval.str_short() for v in jaxpr.jaxpr.invars] == ["Ref{f32[3]}", "f32[3]"]
    assert [v.aval.str_short() for v in jaxpr.jaxpr.constvars] == ["Ref{f32[]}"] and jaxpr.consts == (closed,)
    assert [v.aval.str_short() for v in jaxpr.jaxpr.outvars] == ["f32[]"]
    assert repr(passed) == "Ref([0., 0., 0.], dtype=float32)" and repr(closed) == "Ref(1., dtype=float32)"


def test_a_failing_jitted_call_leaves_its_refs_unchanged() -> None:
    ref = jt.new_ref(jnp.zeros(2))

    @jt.jit
    def f(x: jt.Array) -> jt.Array:
        ref[...] = x
        return x.reshape(3)  # fails while tracing, after the write

    with pytest.raises(TypeError):
        f(jnp.ones(2))
    assert repr(ref) == "Ref([0., 0.], dtype=float32)"


def test_refs_are_not_arrays() -> None:
    ref = jt.new_ref(jnp.zeros(3))
    assert not isinstance(cast(object, ref), jt.Array)
    assert (ref.shape, ref.dtype, ref.ndim, ref.size, len(ref)) == ((3,), np.dtype("float32"), 1, 3, 3)
    with pytest.raises(errors.JaxtypedTypeError, match="truth value"):
        bool(ref)
    with pytest.raises(errors.JaxtypedTypeError, match="len"):
        len(jt.new_ref(1.0))
    with pytest.raises(TypeError):
        ref + 1  # type: ignore[operator]  # pyright: ignore[reportOperatorIssue, reportUnusedExpression]  # the misuse
    misuse = "Attempting to pass a Ref Ref\\{float32\\[3\\]\\} to a primitive: sum|violates type hint"
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match=misuse):
        jnp.sum(ref)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse
