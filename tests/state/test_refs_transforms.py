"""Refs under transformations (issue 16, items 2-3): each case is run with
jaxtyped and with JAX 0.10.2 and the results (outputs and the refs' final
values) compared in value, dtype and weak type: jit (refs passed, closed
over, created inside, nested jits, the cache keyed on the ref's type),
grad/jvp/linearize/vmap of functions using refs internally, refs in
scan/fori_loop/while_loop/cond/switch bodies, reverse mode of reads."""

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import pytest
from oracle import assert_same, jax

import jaxtyped as jt

Lib = Any  # jaxtyped or jax: the same API by contract

F = TypeVar("F", bound=Callable[..., Any])


def typed(decorator: Any) -> Callable[[F], F]:
    """A library's decorator (jit, ...) as the checkers see it: signature-preserving."""
    return cast(Callable[[F], F], decorator)


def _jit_closed_over_sees_new_values(lib: Lib) -> Any:
    r = lib.new_ref(lib.numpy.zeros(3))

    @typed(lib.jit)
    def bump(x: Any) -> Any:
        r[...] += x
        return r[0] * 2

    outs = [bump(lib.numpy.ones(3) * i) for i in range(3)]
    r[1] = 10.0  # an eager write between calls is seen by the next call
    outs.append(bump(lib.numpy.ones(3)))
    return outs, r[...]


def _jit_ref_args_of_two_types(lib: Lib) -> Any:
    @typed(lib.jit)
    def double(x_ref: Any) -> Any:
        x_ref[...] = x_ref[...] * 2
        return x_ref[...].sum()

    a, b = lib.new_ref(lib.numpy.arange(3.0)), lib.new_ref(lib.numpy.arange(4, dtype=lib.numpy.int32))
    return double(a), double(b), double(a), a[...], b[...]


def _jit_ref_in_pytree_and_kwargs(lib: Lib) -> Any:
    @typed(lib.jit)
    def f(state: Any, x: Any, *, scale: Any) -> Any:
        state["acc"][...] += x * scale
        state["count"][...] += 1
        return x.sum()

    state = {"acc": lib.new_ref(lib.numpy.zeros(2)), "count": lib.new_ref(lib.numpy.int32(0))}
    for i in range(3):
        f(state, lib.numpy.full(2, float(i)), scale=lib.numpy.float32(2.0))
    return state["acc"][...], state["count"][...]


def _nested_jit_closed_over(lib: Lib) -> Any:
    r = lib.new_ref(lib.numpy.float32(1.0))

    @typed(lib.jit)
    def inner(x: Any) -> Any:
        r[...] = r[...] * x
        return r[...]

    @typed(lib.jit)
    def outer(x: Any) -> Any:
        return inner(x) + inner(x + 1)

    return outer(lib.numpy.float32(2.0)), outer(lib.numpy.float32(1.0)), r[...]


def _jit_internal_ref_in_loop(lib: Lib) -> Any:
    @typed(lib.jit)
    def cumsum(xs: Any) -> Any:
        acc = lib.new_ref(lib.numpy.zeros_like(xs))
        total = lib.new_ref(lib.numpy.float32(0.0))

        def body(i: Any, carry: Any) -> Any:
            total[...] += xs[i]
            acc[i] = total[...]
            return carry

        lib.lax.fori_loop(0, xs.shape[0], body, 0)
        return acc[...]

    return cumsum(lib.numpy.arange(5.0))


def _grad_jvp_linearize_of_internal_refs(lib: Lib) -> Any:
    def f(x: Any) -> Any:
        ref = lib.new_ref(lib.numpy.zeros(3))
        ref[...] = lib.numpy.sin(x)
        ref[1] += x[0] * x[2]
        ref[lib.numpy.array([0, 2])] = ref[lib.numpy.array([2, 0])] * 3.0
        return (ref[...] ** 2).sum()

    x = lib.numpy.array([0.5, -1.0, 2.0])
    g = lib.grad(f)(x)
    primal, tangent = lib.jvp(f, (x,), (lib.numpy.ones(3),))
    _, f_lin = lib.linearize(f, x)
    return g, primal, tangent, f_lin(lib.numpy.array([1.0, 0.0, 0.0])), lib.jit(lib.grad(f))(x)


def _reverse_mode_of_reads_accumulates(lib: Lib) -> Any:
    def f(x: Any) -> Any:
        ref = lib.new_ref(x)
        a = ref[0] * ref[0]
        b = ref[1:].sum()
        c = ref[...].prod()
        return a + b + c + ref[0]

    return lib.grad(f)(lib.numpy.array([1.0, 2.0, 3.0]))


def _vmap_of_internal_refs(lib: Lib) -> Any:
    def f(x: Any, y: Any) -> Any:
        ref = lib.new_ref(x)
        ref[...] += y
        ref[0] = ref[-1]
        return ref[...]

    xs = lib.numpy.arange(6.0).reshape(2, 3)
    return lib.vmap(f)(xs, lib.numpy.ones((2, 3))), lib.vmap(f, (0, None))(xs, lib.numpy.ones(3))


def _scan_closed_over_refs(lib: Lib) -> Any:
    count = lib.new_ref(0)
    last = lib.new_ref(lib.numpy.zeros(2))

    def body(c: Any, x: Any) -> Any:
        count[...] += 1
        last[...] = x
        return c + x.sum(), c

    out = lib.lax.scan(body, 0.0, lib.numpy.arange(8.0).reshape(4, 2), reverse=True)
    return out, count[...], last[...]


def _while_and_cond_closed_over(lib: Lib) -> Any:
    hits = lib.new_ref(lib.numpy.zeros(2, lib.numpy.int32))

    def body(i: Any) -> Any:
        lib.lax.cond(i % 2 == 0, lambda: hits.__setitem__(0, hits[0] + 1), lambda: hits.__setitem__(1, hits[1] + 1))
        return i + 1

    def cond(i: Any) -> Any:
        return i < 7

    n = lib.lax.while_loop(cond, body, 0)
    branch = lib.lax.switch(2, [lambda: hits[0], lambda: hits[1], lambda: hits[...].sum()])
    return n, branch, hits[...]


def _grad_of_scan_with_internal_ref(lib: Lib) -> Any:
    def f(w: Any) -> Any:
        def body(c: Any, x: Any) -> Any:
            r = lib.new_ref(c)
            r[...] = r[...] * w + x
            return r[...], r[...]

        c, ys = lib.lax.scan(body, 1.0, lib.numpy.arange(3.0))
        return c + ys.sum()

    return lib.grad(f)(0.5), lib.jit(lib.grad(f))(0.5)


def _make_jaxpr_of_pure_function(lib: Lib) -> Any:
    def pure1(x: Any) -> Any:
        ref = lib.new_ref(x)
        ref[...] = ref[...] + ref[...]
        return ref[...]

    closed = lib.make_jaxpr(pure1)(1.0)
    return lib.numpy.asarray(len(closed.jaxpr.outvars))


def _ref_module_api(lib: Lib) -> Any:
    jnp = lib.numpy
    r = lib.new_ref(jnp.zeros(3))  # (JAX 0.10.2's empty_ref has no eager rule)
    lib.ref.set(r, None, jnp.arange(3.0))
    old = lib.ref.swap(r, 1, jnp.float32(7.0))
    lib.ref.addupdate(r, None, jnp.ones(3))
    whole = lib.ref.get(r)
    lib.ref.set(r, slice(0, 2), jnp.zeros(2))
    return old, whole, lib.ref.get(r, 2), lib.freeze(r)


def test_empty_ref_and_free_ref() -> None:
    r = jt.ref.empty_ref(jt.ShapeDtypeStruct((2, 3), jt.numpy.int32))
    assert (r.shape, r.dtype) == ((2, 3), np.dtype("int32"))
    r[0] = 5
    jt.ref.free_ref(r)
    with pytest.raises(ValueError, match="frozen"):
        r[...]  # noqa: B018 - reading a freed ref is the error


def _plumbing_refs_in_differentiated_loops(lib: Lib) -> Any:
    jnp = lib.numpy
    acc = lib.new_ref(0.0)
    seen = lib.new_ref(jnp.zeros(3))

    def f(x: Any) -> Any:
        def body(c: Any, xi: Any) -> Any:
            acc[...] += lib.lax.stop_gradient(c * xi)
            return c * xi, None

        return lib.lax.scan(body, x, jnp.arange(1.0, 4.0))[0]

    def g(x: Any) -> Any:
        def body(i: Any, c: Any) -> Any:
            seen[i] = lib.lax.stop_gradient(x) * i
            return c

        lib.lax.fori_loop(0, 3, body, 0.0)
        return x * 2

    return lib.grad(f)(2.0), acc[...], lib.jvp(g, (1.0,), (1.0,)), seen[...]


CASES: dict[str, Callable[[Lib], Any]] = {
    "plumbing_refs_in_differentiated_loops": _plumbing_refs_in_differentiated_loops,
    "ref_module_api": _ref_module_api,
    "jit_closed_over_sees_new_values": _jit_closed_over_sees_new_values,
    "jit_ref_args_of_two_types": _jit_ref_args_of_two_types,
    "jit_ref_in_pytree_and_kwargs": _jit_ref_in_pytree_and_kwargs,
    "nested_jit_closed_over": _nested_jit_closed_over,
    "jit_internal_ref_in_loop": _jit_internal_ref_in_loop,
    "grad_jvp_linearize_of_internal_refs": _grad_jvp_linearize_of_internal_refs,
    "reverse_mode_of_reads_accumulates": _reverse_mode_of_reads_accumulates,
    "vmap_of_internal_refs": _vmap_of_internal_refs,
    "scan_closed_over_refs": _scan_closed_over_refs,
    "while_and_cond_closed_over": _while_and_cond_closed_over,
    "grad_of_scan_with_internal_ref": _grad_of_scan_with_internal_ref,
    "make_jaxpr_of_pure_function": _make_jaxpr_of_pure_function,
}


# JAX 0.10.2 keeps a weakly typed ref weak through scan's write-backs but
# not through while_loop's or jit's (jaxtyped makes every write strong); and
# grad through a scan with a weak carry is weak in jaxtyped, strong in JAX,
# with refs or without.
WEAK_TYPE_DIFFERS = {"scan_closed_over_refs", "plumbing_refs_in_differentiated_loops"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_refs_under_transformations_match_jax(name: str) -> None:
    case = CASES[name]
    assert_same(case(jt), case(jax), tree=True, weak=name not in WEAK_TYPE_DIFFERS)


def test_vmap_ref_argument_on_another_axis() -> None:
    # JAX 0.10.2 rejects this (a shape error in its batched swap); the
    # ref's axis 1 is mapped, each example adds its x to its column.
    def f(x: jt.Array, out_ref: jt.Ref[jt.Array]) -> None:
        out_ref[...] += x

    out = jt.new_ref(jt.numpy.zeros((2, 3)))
    jt.vmap(f, (0, 1))(jt.numpy.arange(3.0), out)
    np.testing.assert_array_equal(np.asarray(out[...]), [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]])


def test_jit_cache_is_keyed_on_the_refs_type_not_its_value() -> None:
    traces = 0

    @jt.jit
    def f(x_ref: jt.Ref[jt.Array]) -> None:
        nonlocal traces
        traces += 1
        x_ref[...] += 1.0

    a, b = jt.new_ref(jt.numpy.zeros(3)), jt.new_ref(jt.numpy.ones(3))
    for ref in (a, b, a, b):
        f(ref)
    f(jt.new_ref(jt.numpy.zeros(4)))
    assert traces == 2
    assert f.cache_info().misses == 2 and f.cache_info().hits == 3
    np.testing.assert_array_equal(np.asarray(a[...]), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(np.asarray(b[...]), [3.0, 3.0, 3.0])


def test_eager_reads_are_copies_that_survive_donation() -> None:
    @jt.jit
    def scale(x_ref: jt.Ref[jt.Array]) -> None:
        x_ref[...] = x_ref[...] * 3.0

    init = jt.numpy.arange(3.0)
    ref = jt.new_ref(init)
    before = ref[...]
    scale(ref)
    # Neither the initial value nor an earlier read was consumed by the in-place update.
    np.testing.assert_array_equal(np.asarray(init), [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(np.asarray(before), [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(np.asarray(ref[...]), [0.0, 3.0, 6.0])


def test_trace_and_lower_of_a_function_with_refs() -> None:
    @jt.jit
    def sin_inplace(x_ref: jt.Ref[jt.Array]) -> None:
        x_ref[...] = jt.numpy.sin(x_ref[...])

    ref = jt.new_ref(jt.numpy.arange(3.0))
    # The staged program takes the ref's value (donated) and returns its final value.
    assert str(sin_inplace.trace(ref).jaxpr) == "{ lambda ; a:f32[3]. let b:f32[3] = sin a in (b,) }"
    text = sin_inplace.lower(ref).as_text()
    assert "tf.aliasing_output = 0 : i32" in text and "stablehlo.sine" in text  # JAX's alias of the ref's value
    assert repr(ref) == "Ref([0., 1., 2.], dtype=float32)"  # staging does not run it
