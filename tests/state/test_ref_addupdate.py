"""``x_ref[idx] += v`` is one ``addupdate`` (issue 16 item 1; Note [ref +=
is an accumulation] in ``jaxtyped._src.state.types``).

JAX 0.10.2 stages ``x_ref[idx] += v`` as a get, an add and a swap; the
issue asks for one addupdate. So the printed jaxprs here are checked by
their equations (one ``addupdate``, no get/add/swap left) while every
value (outputs and the refs' final values; eager, under jit, and under
grad/jvp/vmap/linearize/scan/fori_loop) is compared with JAX's. The traps
(a write between the read and the write-back, another index or ref, a read
or sum used elsewhere, repeated index elements, promotion, broadcasting)
must keep the read-modify-write's meaning.
"""

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest
from oracle import assert_same, expect_same_error, jax

import jaxtyped as jt
from jaxtyped._src.core.check import check_jaxpr
from jaxtyped._src.core.effects import AccumEffect, ReadEffect

Lib = Any  # jaxtyped or jax: the same API by contract


def _jit(lib: Lib, fn: Callable[..., Any]) -> Callable[..., Any]:
    return cast(Callable[..., Any], lib.jit(fn))


def _names(lib: Lib, fn: Callable[..., Any], *args: Any) -> list[str]:
    """The primitives of ``make_jaxpr(fn)`` (the jaxpr is also checked)."""
    closed = lib.make_jaxpr(fn)(*args)
    if lib is jt:
        check_jaxpr(closed.jaxpr)
    return [e.primitive.name for e in closed.jaxpr.eqns]


def _refs(lib: Lib) -> tuple[Any, Any]:
    L = lib.numpy
    return lib.new_ref(L.arange(12.0).reshape(4, 3)), lib.new_ref(L.ones(3))


def _run_both(fn: Callable[[Lib], Callable[..., Any]], args: Callable[[Lib], tuple[Any, ...]], *, jitted: bool) -> None:
    """``fn(lib)(r, s, *args(lib))`` with both libraries: outputs and the
    refs' final values agree."""
    results: list[tuple[Any, Any, Any]] = []
    for lib in (jt, jax):
        r, s = _refs(lib)
        f = fn(lib)
        out = (_jit(lib, f) if jitted else f)(r, s, *args(lib))
        results.append((out, r[...], s[...]))
    (out, r, s), (out_j, r_j, s_j) = results
    if out is None:
        assert out_j is None
    else:
        assert_same(out, out_j)
    assert_same(r, r_j, where="r")
    assert_same(s, s_j, where="s")


# === every kind of indexer: one addupdate, the values of JAX's get/add/swap ===

# (index of a (4, 3) ref, the value added): NumPy-style indexers of the seed.
INDEXERS: dict[str, tuple[Callable[[Lib], Any], tuple[int, ...]]] = {
    "int": (lambda L: 1, ()),
    "negative_int": (lambda L: -1, (3,)),
    "int_pair": (lambda L: (1, 2), ()),
    "slice": (lambda L: slice(1, 3), (2, 3)),
    "column": (lambda L: (slice(None), 1), (4,)),
    "strided_slice": (lambda L: slice(None, None, 2), (3,)),
    "ellipsis": (lambda L: ..., (4, 3)),
    "ellipsis_int": (lambda L: (..., 2), ()),
    "empty_tuple": (lambda L: (), (1, 3)),
    "numpy_array": (lambda L: np.array([0, 2]), (2, 3)),
    "array_pair": (lambda L: (L.numpy.array([0, 3]), L.numpy.array([1, -1])), (2,)),
    "array_and_slice": (lambda L: (np.array([3, 1]), slice(1, None)), (2, 2)),
}


def _plus_equals(index: Callable[[Lib], Any]) -> Callable[[Lib], Callable[..., Any]]:
    def make(lib: Lib) -> Callable[..., Any]:
        def f(r: Any, s: Any, v: Any) -> None:
            r[index(lib)] += v

        return f

    return make


@pytest.mark.parametrize("name", list(INDEXERS))
def test_plus_equals_is_one_addupdate_with_jax_values(name: str) -> None:
    index, shape = INDEXERS[name]
    values = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape) * 10
    f = _plus_equals(index)
    r, s = _refs(jt)
    names = _names(jt, f(jt), r, s, jt.numpy.asarray(values))
    assert names.count("addupdate") == 1 and not {"get", "add", "swap"} & set(names), names
    assert "swap" in _names(jax, f(jax), *_refs(jax), values)  # JAX 0.10.2: get, add, swap
    for jitted in (False, True):
        _run_both(f, lambda lib: (lib.numpy.asarray(values),), jitted=jitted)


def test_seed_example_prints_one_addupdate() -> None:
    # The seed's ``x_ref[1] += 1.`` in a jit closing over the ref.
    x_ref = jt.new_ref(jt.numpy.zeros(3))

    @jt.jit
    def f() -> None:
        x_ref[1] += 1.0

    def g() -> None:
        x_ref[1] += 1.0

    f()
    f()
    assert repr(x_ref) == "Ref([0., 2., 0.], dtype=float32)"
    inner = jt.make_jaxpr(f)().jaxpr.eqns[0].params["jaxpr"]
    assert "[1] += 1.0:f32[]" in str(inner) and "<-" not in str(inner)
    closed = jt.make_jaxpr(g)()
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["addupdate"]
    assert closed.jaxpr.effects == frozenset({AccumEffect(len(closed.jaxpr.constvars + closed.jaxpr.invars) - 1)})


def test_eager_plus_equals_is_unchanged() -> None:
    ours, theirs = jt.new_ref(jt.numpy.zeros(3)), jax.new_ref(jax.numpy.zeros(3))
    for ref, lib in ((ours, jt), (theirs, jax)):
        ref[1] += 1.0
        ref[np.array([0, 0])] += lib.numpy.float32(2.0)
        ref[...] += lib.numpy.arange(3.0)
    assert repr(ours) == "Ref([2., 2., 2.], dtype=float32)"
    assert_same(ours[...], theirs[...])


# === the traps: only a read written straight back is an accumulation ===


def _write_between(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[0]
        r[0] = v * 5
        y += v
        r[0] = y  # the old value plus v, not 5v + v

    return f


def _other_index(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[0]
        y += v
        r[1] = y

    return f


def _other_ref(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[1]
        y += v
        s[...] = y

    return f


def _read_used(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[2]
        z = y * 2
        y += v
        r[2] = y
        return z

    return f


def _sum_returned(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[0]
        y += v
        r[0] = y
        return y

    return f


def _sum_closed_over(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[0]
        y += v
        r[0] = y

        def body(c: Any, _: Any) -> Any:
            return c + y, None

        return lib.lax.scan(body, v, None, length=2)[0]

    return f


def _sum_closed_over_by_custom_jvp(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[1]
        y += v
        r[1] = y

        def scale(a: Any) -> Any:
            return a * y

        def scale_jvp(primals: Any, tangents: Any) -> Any:
            return scale(primals[0]), tangents[0] * y

        g = lib.custom_jvp(scale)
        g.defjvp(scale_jvp)
        return g(v)

    return f


def _read_between(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[0]
        z = r[0]
        y += v
        r[0] = y
        return z

    return f


def _written_back_twice(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[0]
        y += v
        r[0] = y
        r[0] = y

    return f


def _added_twice(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        y = r[0]
        y += v
        y += v
        r[0] = y

    return f


def _plain_plus(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        r[0] = r[0] + v  # only the += statement is an accumulation

    return f


def _repeated_index(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        r[np.array([1, 1, -3])] += v  # each element gets v once, as NumPy's

    return f


def _traced_scalar_index(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        r[i] += v
        s[i - 1] += v[0]

    return f


def _traced_array_index(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        r[lib.numpy.stack([i, i])] += v  # may repeat: read, add, write

    return f


def _scan_body(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        def body(c: Any, x: Any) -> Any:
            r[c] += x
            s[...] += x[0]
            return c + 1, s[0]

        return lib.lax.scan(body, 0, lib.numpy.stack([v, v * 2]))

    return f


def _fori_and_while(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        def step(k: Any, c: Any) -> Any:
            r[k, :] += v * c
            return c + 1.0

        out = lib.lax.fori_loop(0, 4, step, 1.0)

        def body(k: Any) -> Any:
            s[k] += 1.0
            return k + 1

        def cond(k: Any) -> Any:
            return k < 3

        return out, lib.lax.while_loop(cond, body, 0)

    return f


def _cond_branch(lib: Lib) -> Callable[..., Any]:
    def f(r: Any, s: Any, v: Any, i: Any) -> Any:
        def yes() -> None:
            r[1] += v

        def no() -> None:
            r[2] += v * 2

        lib.lax.cond(i > 1, yes, no)

    return f


# name: (function, the primitive names of its top-level jaxpr)
TRAPS: dict[str, tuple[Callable[[Lib], Callable[..., Any]], list[str]]] = {
    "write_between": (_write_between, ["get", "mul", "swap", "add", "swap"]),
    "other_index": (_other_index, ["get", "add", "swap"]),
    "other_ref": (_other_ref, ["get", "add", "swap"]),
    "read_used": (_read_used, ["get", "mul", "addupdate"]),
    "sum_returned": (_sum_returned, ["get", "add", "addupdate"]),
    "sum_closed_over": (_sum_closed_over, ["get", "add", "addupdate", "scan"]),
    "sum_closed_over_by_custom_jvp": (_sum_closed_over_by_custom_jvp, ["get", "add", "addupdate", "custom_jvp_call"]),
    "read_between": (_read_between, ["get", "addupdate"]),
    "written_back_twice": (_written_back_twice, ["get", "add", "addupdate", "swap"]),
    "added_twice": (_added_twice, ["get", "add", "add", "swap"]),
    "plain_plus": (_plain_plus, ["get", "add", "swap"]),
    "repeated_index": (_repeated_index, ["get", "broadcast_in_dim", "add", "swap"]),
    "traced_scalar_index": (_traced_scalar_index, ["addupdate", "sub", "slice", "squeeze", "addupdate"]),
    "traced_array_index": (_traced_array_index, ["expand_dims", "expand_dims", "concatenate", "get", "broadcast_in_dim", "add", "swap"]),
    "scan_body": (_scan_body, ["mul", "expand_dims", "expand_dims", "concatenate", "scan"]),
    "fori_and_while": (_fori_and_while, ["scan", "while"]),
    "cond_branch": (_cond_branch, ["gt", "convert_element_type", "cond"]),
}


def _trap_args(lib: Lib) -> tuple[Any, ...]:
    return lib.numpy.array([1.0, 2.0, 4.0]), lib.numpy.int32(2)


@pytest.mark.parametrize("name", list(TRAPS))
def test_traps_keep_the_read_modify_write_meaning(name: str) -> None:
    make, expected = TRAPS[name]
    assert _names(jt, make(jt), *_refs(jt), *_trap_args(jt)) == expected
    for jitted in (False, True):
        _run_both(make, _trap_args, jitted=jitted)


def test_loop_and_branch_bodies_accumulate() -> None:
    # Inside loop and branch bodies the staged ref is seen directly: the
    # bodies hold the addupdates (with an accumulation effect).
    for make in (_scan_body, _fori_and_while, _cond_branch):
        closed = jt.make_jaxpr(make(jt))(*_refs(jt), *_trap_args(jt))
        for eqn in closed.jaxpr.eqns:
            if eqn.primitive.name in {"scan", "while", "cond"}:
                inner = _inner_names(eqn.params)
                assert "addupdate" in inner and "swap" not in inner, inner
                assert any(isinstance(effect, AccumEffect) for effect in eqn.effects)


def _inner_names(params: dict[str, object]) -> list[str]:
    """The primitives of the jaxprs among ``params`` (loop and branch bodies)."""
    names: list[str] = []
    for value in params.values():
        items = cast(tuple[object, ...], value) if isinstance(value, tuple) else (value,)
        for item in items:
            jaxpr = item.jaxpr if isinstance(item, jt.core.ClosedJaxpr) else item
            if isinstance(jaxpr, jt.core.Jaxpr):
                names += [e.primitive.name for e in jaxpr.eqns]
    return names


def test_a_used_read_keeps_its_equation_and_effect() -> None:
    closed = jt.make_jaxpr(_read_used(jt))(*_refs(jt), *_trap_args(jt))
    assert str(closed.jaxpr).count("<- a[2,:]") == 1 and "a[2,:] += " in str(closed.jaxpr)
    assert closed.jaxpr.effects == frozenset({ReadEffect(0), AccumEffect(0)})


# === dtypes: the promotion and errors of today's add, then the write ===

# (ref's initial value, added value, what is staged): a sum of the ref's
# dtype is an accumulation; an integer sum of another width is written
# back converted (JAX's swap converts integers); any other dtype is JAX's
# dtype error.
DTYPES: dict[str, tuple[Callable[[Lib], Any], Callable[[Lib], Any], str]] = {
    "f32_plus_weak_float": (lambda L: L.zeros(3), lambda L: 1.5, "addupdate"),
    "weak_ref_plus_weak_float": (lambda L: 0.0, lambda L: 2.0, "addupdate"),
    "weak_ref_plus_f32": (lambda L: 1.0, lambda L: L.float32(2.5), "addupdate"),
    "i32_plus_int": (lambda L: L.arange(3), lambda L: 2, "addupdate"),
    "u8_plus_int": (lambda L: L.arange(3, dtype=L.uint8), lambda L: 250, "addupdate"),
    "f32_plus_f16": (lambda L: L.ones(3), lambda L: L.ones(3, L.float16), "addupdate"),
    "bf16_plus_weak_float": (lambda L: L.ones(3, L.bfloat16), lambda L: 0.25, "addupdate"),
    "i8_plus_i32": (lambda L: L.arange(3, dtype=L.int8) + 126, lambda L: L.ones(3, L.int32), "swap"),
    "u8_plus_i8": (lambda L: L.arange(3, dtype=L.uint8), lambda L: L.full(3, -1, L.int8), "swap"),
    "i32_plus_float": (lambda L: L.arange(3), lambda L: 1.5, "error"),
    "f16_plus_f32": (lambda L: L.ones(3, L.float16), lambda L: L.ones(3), "error"),
    "f32_plus_complex": (lambda L: L.ones(3), lambda L: 1j, "error"),
}


@pytest.mark.parametrize("name", list(DTYPES))
def test_promotion_and_dtype_errors_are_the_read_modify_writes(name: str) -> None:
    init, value, staged = DTYPES[name]

    def make(lib: Lib) -> Callable[..., Any]:
        def f(r: Any) -> None:
            r[...] += value(lib.numpy)

        return f

    if staged == "error":
        with pytest.raises(ValueError, match="Invalid dtype for `swap`") as info:
            _jit(jax, make(jax))(jax.new_ref(init(jax.numpy)))
        ours = jt.new_ref(init(jt.numpy))
        expect_same_error(info.value, lambda: jt.jit(make(jt))(ours))
        expect_same_error(info.value, lambda: make(jt)(ours))
        assert_same(ours[...], init(jax.numpy), weak=False)
        return
    names = _names(jt, make(jt), jt.new_ref(init(jt.numpy)))
    other = "swap" if staged == "addupdate" else "addupdate"
    assert staged in names and other not in names and (staged == "addupdate") == ("get" not in names), names
    for jitted in (False, True):
        refs = [lib.new_ref(init(lib.numpy)) for lib in (jt, jax)]
        for lib, ref in zip((jt, jax), refs):
            (_jit(lib, make(lib)) if jitted else make(lib))(ref)
        # A ref made from a Python scalar reads back weakly typed after any
        # write, in both libraries (the read is typed by the ref).
        assert_same(refs[0][...], refs[1][...])


@pytest.mark.parametrize("value_shape", [(1, 3), (4,), (2, 3)])
def test_values_that_do_not_fit_are_jaxs_errors(value_shape: tuple[int, ...]) -> None:
    # A value whose sum with ref[1] (shape (3,)) has another shape, or
    # that does not broadcast at all: the same kind of error as JAX's.
    def make(lib: Lib) -> Callable[..., Any]:
        def f(r: Any) -> None:
            r[1] += lib.numpy.ones(value_shape)

        return f

    with pytest.raises(Exception) as info:
        _jit(jax, make(jax))(jax.new_ref(jax.numpy.zeros((4, 3))))
    ours = jt.new_ref(jt.numpy.zeros((4, 3)))
    expect_same_error(info.value, lambda: jt.jit(make(jt))(ours))
    expect_same_error(info.value, lambda: jt.make_jaxpr(make(jt))(ours))
    assert float(ours[...].sum()) == 0.0


# === transformations of functions that use += on refs internally ===


def _pure(lib: Lib) -> Callable[[Any], Any]:
    L = lib.numpy

    def f(x: Any) -> Any:
        r = lib.new_ref(L.zeros(3))
        r[0] += x[1]
        r[1:] += x[:2] * x[2]
        r[...] += L.sin(x)
        r[np.array([2, 0])] += x[::2] ** 2
        return L.sum(r[...] ** 2) + r[2]

    return f


def _looped(lib: Lib) -> Callable[[Any], Any]:
    L = lib.numpy

    def f(x: Any) -> Any:
        r = lib.new_ref(L.zeros(3))

        def step(i: Any, c: Any) -> Any:
            r[i] += x[i] * c
            return c * x[2]

        c = lib.lax.fori_loop(0, 3, step, 1.0)

        def body(carry: Any, xi: Any) -> Any:
            r[...] += xi * carry
            return carry + r[0], None

        carry, _ = lib.lax.scan(body, c, x)
        return carry + L.sum(L.cos(r[...]))

    return f


PURE = {"pure": _pure, "looped": _looped}


@pytest.mark.parametrize("name", list(PURE))
def test_derivatives_and_batching_match_jax(name: str) -> None:
    make = PURE[name]
    x = np.array([0.5, -1.25, 2.0], np.float32)
    xs = np.stack([x, x * 2, -x])
    t = np.array([1.0, 0.5, -2.0], np.float32)

    def run(lib: Lib) -> list[Any]:
        f = make(lib)
        X, XS, T = (lib.numpy.asarray(a) for a in (x, xs, t))
        y, f_lin = lib.linearize(f, X)
        return [
            f(X),
            lib.jit(f)(X),
            lib.grad(f)(X),
            lib.jit(lib.grad(f))(X),
            lib.grad(lib.jit(f))(X),
            *lib.jvp(f, (X,), (T,)),
            y,
            f_lin(T),
            lib.vmap(f)(XS),
            lib.vmap(lib.grad(lib.jit(f)))(XS),
        ]

    assert_same(run(jt), run(jax), rtol=1e-5, atol=1e-5)
    jaxpr = jt.make_jaxpr(make(jt))(jt.numpy.asarray(x)).jaxpr
    names = [e.primitive.name for e in jaxpr.eqns]
    for eqn in jaxpr.eqns:
        names += _inner_names(eqn.params)
    assert "addupdate" in names and "swap" not in names, names


def test_grad_of_a_ref_argument_function_under_jit_matches_jax() -> None:
    # A ref passed to a jitted function that accumulates into it at a
    # traced index (an in-place scatter-add once discharged) and gradients
    # through a pure wrapper.
    def make(lib: Lib) -> Callable[[Any], Any]:
        L = lib.numpy

        def accumulate_in(r: Any, x: Any) -> Any:
            def step(i: Any, c: Any) -> Any:
                r[i % 2] += x[i] * c
                return c * 2.0

            return lib.lax.fori_loop(0, 3, step, 1.0)

        accumulate = _jit(lib, accumulate_in)

        def loss(x: Any) -> Any:
            r = lib.new_ref(L.zeros(2))
            c = accumulate(r, x)
            return L.sum(r[...] ** 2) * c

        return loss

    x = np.array([1.0, 2.0, 3.0], np.float32)
    assert_same(jt.grad(make(jt))(jt.numpy.asarray(x)), jax.grad(make(jax))(jax.numpy.asarray(x)))
    assert_same(jt.value_and_grad(make(jt))(jt.numpy.asarray(x)), jax.value_and_grad(make(jax))(jax.numpy.asarray(x)))


def test_vmap_over_ref_arguments_matches_jax() -> None:
    # vmap maps ref arguments (eagerly, inside jit, around jit): += into
    # each element's slot of the batched ref.
    def make(lib: Lib) -> Callable[[Any, Any], None]:
        L = lib.numpy

        def dist(x: Any, out_ref: Any) -> None:
            out_ref[...] += L.sum(x**2)
            out_ref[...] += 1.0

        return dist

    xs = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    finals: list[list[Any]] = []
    for lib in (jt, jax):
        f = make(lib)
        runs = (lib.vmap(f, (0, 0)), lib.jit(lib.vmap(f, (0, 0))), lib.vmap(_jit(lib, f), (0, 0)))
        refs = [lib.new_ref(lib.numpy.zeros(3)) for _ in runs]
        for run, ref in zip(runs, refs):
            run(lib.numpy.asarray(xs), ref)
        finals.append([ref[...] for ref in refs])
    assert_same(finals[0], finals[1])


def test_plus_equals_on_a_typed_key_is_refused_as_an_add() -> None:
    # Array.__iadd__ is late-bound like +: a typed key refuses it, naming
    # the add (JAX: "add does not accept dtypes key<fry>, int32").
    for lib in (jt, jax):
        key = lib.random.key(0)
        with pytest.raises(TypeError, match="^add does not accept dtype"):
            key += 1


def test_integer_values_are_converted_by_writes_not_by_addupdate() -> None:
    # JAX 0.10.2: swap converts an int32 value into an int8 ref (wrapping);
    # addupdate refuses it.
    finals: list[Any] = []
    for lib in (jt, jax):
        L = lib.numpy
        ref = lib.new_ref(L.zeros(3, L.int8))

        def write(r: Any) -> None:
            lib.ref.swap(r, 0, L.int32(300))
            r[1] = L.full((), 200, L.int32)

        _jit(lib, write)(ref)
        write(ref)
        finals.append(ref[...])

        def add(r: Any) -> None:
            lib.ref.addupdate(r, 0, L.int32(1))

        with pytest.raises(ValueError, match="Invalid dtype for `addupdate`"):
            _jit(lib, add)(ref)
        with pytest.raises(ValueError, match="Invalid dtype for `addupdate`"):
            add(ref)
    assert_same(finals[0], finals[1])
