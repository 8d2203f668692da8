"""``jt.ds`` (JAX's ``jax.ds``): slices whose start may be traced, indexing
arrays and refs, compared with JAX 0.10.2: values (in and out of bounds,
strided, negative starts), printed jaxprs, ``grad`` (with JAX and with
float64 finite differences), ``vmap``, ``jit``, loops, and errors."""

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, binary_fn, debug_violations, jax, jax_numpy, raises_as_jax, unary_fn

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors

Lib = Any  # jaxtyped or jax: the same API by contract
X = np.linspace(0.5, 2.0, 10).astype(np.float32)
STARTS = (3, 9, -1, -3, 11, -12)


def both(case: Callable[[Lib, Any], Any], **kwargs: Any) -> None:
    """``case(lib, numpy)`` agrees for jaxtyped and JAX."""
    assert_same(case(jt, jnp), case(jax, jax_numpy), **kwargs)


# === ds itself ===


def test_ds_forms_are_jaxs() -> None:
    assert jt.ds(None) == slice(None)
    for args in ((3,), (2, 3), (1, 2, 3), (4, 0)):
        assert repr(jt.ds(*args)) == repr(jax.ds(*args))
    assert jt.ds(1, 2) == jt.ds(1, 2) and jt.ds(1, 2) != jt.ds(1, 2, 2)
    s = jt.ds(1, 2)
    s.start = 4  # a plain (not frozen) dataclass, as JAX's
    assert s.start == 4 and type(s).__hash__ is None


@pytest.mark.parametrize("args", [(1, 2, -1), (1, 2, 1.0)], ids=["negative-stride", "float-stride"])
def test_bad_strides_raise_as_in_jax(args: tuple[Any, ...]) -> None:
    raises_as_jax(lambda lib: lib.ds(*args), ill_typed=True)


def test_slice_is_a_pytree_as_in_jax() -> None:
    ours = jt.tree_util.tree_flatten(jt.ds(1, 2))
    theirs = jax.tree_util.tree_flatten(jax.ds(1, 2))
    assert (ours[0], str(ours[1])) == (theirs[0], str(theirs[1]))
    start = jnp.int32(3)
    leaves, tree = jt.tree_util.tree_flatten(jt.ds(start, 2))
    assert leaves == [start] and str(tree) == "PyTreeDef(CustomNode(Slice[(None, 2, 1)], [*, None]))"
    restored: Any = jt.tree_util.tree_unflatten(tree, [jnp.int32(5)])
    assert restored.start == 5
    # A slice passed to jit: its start is traced, its size static.
    both(lambda lib, L: lib.jit(binary_fn(lambda x, s: x[s]))(L.asarray(X), lib.ds(L.int32(3), 2)))


# === arrays ===


@pytest.mark.parametrize(("size", "stride"), [(2, 1), (3, 2), (0, 1), (10, 1)])
def test_array_indexing_matches_jax(size: int, stride: int) -> None:
    def case(lib: Lib, L: Any) -> Any:
        x = L.asarray(X)
        read = lib.jit(binary_fn(lambda x, i: x[lib.ds(i, size, stride)]))
        put = lib.jit(binary_fn(lambda x, i: x.at[lib.ds(i, size, stride)].set(-1.0)))
        add = lib.jit(binary_fn(lambda x, i: x.at[lib.ds(i, size, stride)].add(-1.0)))
        get = lib.jit(binary_fn(lambda x, i: x.at[lib.ds(i, size, stride)].get()))
        return [(x[lib.ds(i, size, stride)], read(x, i), put(x, i), add(x, i), get(x, i)) for i in STARTS]

    both(case)


def test_array_indexing_in_two_dimensions_matches_jax() -> None:
    x2 = np.arange(20.0, dtype=np.float32).reshape(4, 5)

    def case(lib: Lib, L: Any) -> Any:
        def f(x: Any, i: Any) -> Any:
            ds = lib.ds
            return (
                x[ds(i, 2), ds(i + 1, 3)],
                x[ds(i, 2), 1],
                x[ds(i, 2), L.array([0, 1, 1])],
                x[L.array([0, 3]), ds(i, 2, 2)],
                x[None, ds(i, 2), ..., None],
                x[ds(None), ds(3)],
            )

        return lib.jit(f)(L.asarray(x2), 1), f(L.asarray(x2), 3)

    both(case)


def test_array_indexing_under_vmap_and_grad_matches_jax() -> None:
    both(lambda lib, L: lib.vmap(unary_fn(lambda i: L.asarray(X)[lib.ds(i, 3)]))(L.array([0, 4, 9, -2])))
    both(lambda lib, L: lib.vmap(unary_fn(lambda i: L.asarray(X)[lib.ds(i, 3, 2)]))(L.array([0, 4, 9, -2])))
    both(lambda lib, L: lib.grad(binary_fn(lambda x, i: (x[lib.ds(i, 3)] ** 2).sum()))(L.asarray(X), 8))
    both(lambda lib, L: lib.grad(binary_fn(lambda x, i: (x[lib.ds(i, 3, 2)] ** 2).sum()))(L.asarray(X), 5))


ARRAY_ERRORS: list[Callable[[Lib], object]] = [
    lambda lib: lib.numpy.arange(10.0)[lib.ds(1, -2)],
    lambda lib: lib.numpy.arange(10.0)[lib.ds(1, 11)],
    lambda lib: lib.jit(binary_fn(lambda x, i: x[lib.ds(i, 2)]))(lib.numpy.arange(10.0), 1.5),
    lambda lib: lib.jit(binary_fn(lambda x, n: x[lib.ds(0, n)]))(lib.numpy.arange(10.0), 2),
]


@pytest.mark.parametrize("program", ARRAY_ERRORS, ids=["negative-size", "size-past-the-axis", "float-start", "traced-size"])
def test_array_errors_are_jaxs_kinds(program: Callable[[Lib], object]) -> None:
    raises_as_jax(program)


def _window(x: jt.Array, i: jt.Array) -> jt.Array:
    return x[jt.ds(i, 2)]


def _prefix(x: jt.Array, n: jt.Array) -> jt.Array:
    return x[jt.ds(0, n)]


def _ref_window(x: jt.Array, i: jt.Array) -> jt.Array:
    return jt.new_ref(x)[jt.ds(i, 2)]


def _ref_prefix(x: jt.Array, n: jt.Array) -> jt.Array:
    return jt.new_ref(x)[jt.ds(0, n)]


def test_array_error_messages_name_ds_and_the_shapes() -> None:
    with pytest.raises(errors.ConcretizationTypeError, match=r"ds\(.*axis 0 of f32\[10\].*size must be static"):
        jt.jit(_prefix)(jnp.arange(10.0), jnp.int32(2))
    with pytest.raises(errors.JaxtypedTypeError, match=r"ds\(.*f32\[10\].*start must be an integer scalar, got f32\[\]"):
        jt.jit(_window)(jnp.arange(10.0), jnp.float32(1.5))


# === refs: values ===


def _read(lib: Lib, size: int, stride: int) -> Callable[[Any, Any], Any]:
    def f(x: Any, i: Any) -> Any:
        return lib.new_ref(x)[lib.ds(i, size, stride)]

    return f


def _write(lib: Lib, size: int, stride: int) -> Callable[[Any, Any], Any]:
    def f(x: Any, i: Any) -> Any:
        r = lib.new_ref(x)
        r[lib.ds(i, size, stride)] = -(x[:size] + 1)
        return lib.freeze(r)

    return f


def _accumulate(lib: Lib, size: int, stride: int) -> Callable[[Any, Any], Any]:
    def f(x: Any, i: Any) -> Any:
        r = lib.new_ref(x)
        r[lib.ds(i, size, stride)] += 100.0
        lib.ref.addupdate(r, lib.ds(i + 1, size, stride), x[:size])
        return lib.freeze(r)

    return f


def _swap(lib: Lib, size: int, stride: int) -> Callable[[Any, Any], Any]:
    def f(x: Any, i: Any) -> Any:
        r = lib.new_ref(x)
        old = lib.ref.swap(r, lib.ds(i, size, stride), -(x[:size] + 1))
        return old, lib.freeze(r)

    return f


@pytest.mark.parametrize("access", [_read, _write, _accumulate, _swap], ids=["read", "write", "accumulate", "swap"])
@pytest.mark.parametrize(("size", "stride"), [(2, 1), (3, 2), (10, 1)])
def test_ref_accesses_with_a_traced_start_match_jax(access: Callable[[Lib, int, int], Any], size: int, stride: int) -> None:
    """Out-of-range traced starts: unit strides clamp the window (a
    negative start wraps first); strides above 1 wrap each negative entry,
    reads clamp and writes drop (JAX's discharge)."""
    def case(lib: Lib, L: Any) -> Any:
        run = lib.jit(access(lib, size, stride))
        return [run(L.asarray(X), i) for i in STARTS]

    both(case)


@pytest.mark.parametrize("start", [0, 3, 8, 9, -1, -12], ids=str)
@pytest.mark.parametrize(("size", "stride"), [(2, 1), (2, 3), (0, 1)])
def test_ref_static_starts_are_checked_as_in_jax(start: int, size: int, stride: int) -> None:
    """A static start (or a concrete one, eagerly) is bounds-checked as
    JAX's ``NDIndexer`` checks it: out of bounds is a ``ValueError``, a
    negative start a ``TypeError``."""

    def program(lib: Lib) -> Any:
        def f(x: Any) -> Any:
            r = lib.new_ref(x)
            y = r[lib.ds(start, size, stride)]
            return y, r[lib.ds(lib.numpy.int32(start), size, stride)]

        return f(lib.numpy.asarray(X)), lib.jit(f)(lib.numpy.asarray(X))

    try:
        theirs = program(jax)
    except Exception:  # noqa: BLE001 - the same kind is expected of ours
        raises_as_jax(program)
        return
    assert_same(program(jt), theirs)


def test_two_dimensional_refs_with_one_ds_match_jax() -> None:
    def case(lib: Lib, L: Any) -> Any:
        def f(x: Any, i: Any) -> Any:
            r = lib.new_ref(L.reshape(x, (2, 5)))
            r[1, lib.ds(i, 2)] = r[0, lib.ds(i + 1, 2)] ** 2
            r[lib.ds(0, 2), 1:3] = r[:, 3:5] * 3.0
            r[lib.ds(i, 1), ...] = r[lib.ds(i - 1, 1), :] + 1.0
            part = r[:, lib.ds(i, 3, 2)]
            return lib.freeze(r), part

        return [lib.jit(f)(L.asarray(X), i) for i in (1, 3, -1)]

    both(case)


def test_refs_in_loops_match_jax() -> None:
    def fori(lib: Lib, L: Any) -> Any:
        def f(x: Any) -> Any:
            r = lib.new_ref(L.zeros(12))

            def body(i: Any, c: Any) -> Any:
                r[lib.ds(i, 2)] += x[i] * L.sin(r[lib.ds(i + 1, 2)] + x[i])
                return c + r[lib.ds(i, 3)].sum()

            return lib.lax.fori_loop(0, 9, body, 0.0), lib.freeze(r)

        return lib.jit(f)(L.asarray(X)), f(L.asarray(X))

    def scan(lib: Lib, L: Any) -> Any:
        def f(x: Any) -> Any:
            r = lib.new_ref(x)

            def body(c: Any, i: Any) -> Any:
                r[lib.ds(i, 2, 3)] = r[lib.ds(i, 2, 3)] * c
                return c * 1.5, r[lib.ds(i, 2)].sum()

            return lib.lax.scan(body, x[0], L.arange(4)), lib.freeze(r)

        return lib.jit(f)(L.asarray(X))

    both(fori)
    both(scan)


# === refs: printed jaxprs ===


def _jaxpr_of_accesses(lib: Lib) -> Any:
    def f(x: Any, i: Any) -> Any:
        r = lib.new_ref(x)
        y = r[lib.ds(i, 2)]
        r[lib.ds(i, 2)] = y * 2
        r[lib.ds(1, 2)] = y
        z = r[lib.ds(i, 3, 2)]
        return lib.freeze(r), z

    return lib.make_jaxpr(f)(lib.numpy.arange(10.0), 3)


def _jaxpr_of_two_dimensions(lib: Lib) -> Any:
    def f(r: Any, i: Any, v: Any) -> Any:
        r[lib.ds(i, 2), 1] = v
        r[2, lib.ds(i, 2)] = v
        r[lib.ds(i, 2), :] = r[lib.ds(i, 2), :] * 2
        return r[lib.ds(i, 2), 1:3]

    return lib.make_jaxpr(f)(lib.new_ref(lib.numpy.zeros((4, 5))), 1, lib.numpy.ones(2))


@pytest.mark.parametrize("make", [_jaxpr_of_accesses, _jaxpr_of_two_dimensions], ids=["accesses", "two-dimensions"])
def test_jaxprs_print_as_jaxs(make: Callable[[Lib], Any]) -> None:
    assert str(make(jt)) == str(make(jax))


def test_loop_bodies_print_ref_accesses_as_jax() -> None:
    """The loop's own printing differs from JAX's (carry forwarding); its
    body's ref accesses print the same."""

    def make(lib: Lib) -> str:
        def f(x: Any) -> Any:
            r = lib.new_ref(x)

            def body(i: Any, c: Any) -> Any:
                r[lib.ds(i, 2)] = r[lib.ds(i + 1, 2, 3)] * 2
                return c

            lib.lax.fori_loop(0, 4, body, 0)
            return lib.freeze(r)

        text = str(lib.make_jaxpr(f)(lib.numpy.arange(10.0)))
        return "\n".join(line.split("<-")[1] for line in text.splitlines() if "<-" in line)

    def names_out(text: str) -> str:
        return re.sub(r"\b[a-z]\b", "v", text)

    ours = make(jt)
    assert names_out(ours) == " v[v:v+2]\n v[v:v+2], v" == names_out(make(jax))


def test_accumulating_through_ds_is_one_addupdate() -> None:
    """``r[ds(i, n)] += v`` is one ``addupdate`` (the documented difference
    of ``+=``); with a stride above 1 it stays a read and a write, as
    wrapped entries may meet (Note [ds on refs])."""

    def f(x: jt.Array, i: jt.Array) -> jt.Array:
        r = jt.new_ref(x)
        r[jt.ds(i, 2)] += 1.0
        r[jt.ds(i, 2, 3)] += 1.0
        return jt.freeze(r)

    text = str(jt.make_jaxpr(f)(jnp.arange(10.0), jnp.int32(3)))
    assert "    c[b:b+2] += d\n" in text
    assert "e:f32[2] <- c[b:b+2]\n" in text and "c[b:b+2] <- f\n" in text


# === refs: transformations ===


def _loop_loss(lib: Lib, L: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        r = lib.new_ref(L.zeros(12, x.dtype))

        def body(i: Any, c: Any) -> Any:
            r[lib.ds(i, 2)] += x[i] * L.sin(r[lib.ds(i + 1, 2)] + x[i])
            return c + r[lib.ds(i, 3, 2)].sum()

        c = lib.lax.fori_loop(0, 9, body, 0.0)
        return c + (lib.freeze(r) ** 2).sum()

    return f


def _strided_loss(lib: Lib, L: Any, *, mixed: bool = True) -> Callable[[Any, Any], Any]:
    """Strided reads in bounds, strided writes dropped for ``i >= 4``, a
    clamped unit-stride window, and (``mixed``) a 2-D ref indexed by a
    ``ds`` and an int (JAX 0.10.2's grad of that fails: ``Invalid type of
    idxer``)."""

    def f(x: Any, i: Any) -> Any:
        r = lib.new_ref(x)
        r[lib.ds(i + 3, 3, 2)] = r[lib.ds(i, 3, 2)] * x[:3]
        r[lib.ds(i + 6, 5)] = r[lib.ds(i + 6, 5)] + L.sin(x[2:7])
        total = (lib.freeze(r) ** 2 * L.arange(10.0, dtype=x.dtype)).sum()
        if mixed:
            m = lib.new_ref(L.reshape(x, (2, 5)))
            m[lib.ds(i - 1, 2), 0] += x[1:3] ** 2
            total = total + (lib.freeze(m) ** 3).sum()
        return total

    return f


def test_grad_matches_jax() -> None:
    both(lambda lib, L: lib.grad(_loop_loss(lib, L))(L.asarray(X)))
    both(lambda lib, L: lib.jit(lib.grad(_loop_loss(lib, L)))(L.asarray(X)))
    both(lambda lib, L: lib.grad(lib.jit(_loop_loss(lib, L)))(L.asarray(X)))
    both(lambda lib, L: [lib.jit(lib.grad(_strided_loss(lib, L, mixed=False)))(L.asarray(X), L.int32(i)) for i in (0, 1, 2)])


@pytest.mark.usefixtures("x64")
@pytest.mark.parametrize("i", [0, 2, 4, 5], ids=str)
def test_grad_matches_finite_differences_in_float64(i: int) -> None:
    """Out-of-bounds starts included: clamped windows, and strided writes
    dropped (there JAX 0.10.2's gradient counts the dropped writes). Strided
    reads out of bounds are gathers promised in bounds, as in JAX, whose
    derivative drops the clamped entries: left out."""
    x = jnp.asarray(np.linspace(0.5, 2.0, 10))
    loss = jt.jit(_strided_loss(jt, jnp))
    start = jnp.int32(i)  # traced: an argument of the jitted loss
    jt.test_util.check_grads(unary_fn(lambda x: loss(x, start)), (x,), order=1, modes=("rev",))
    jt.test_util.check_grads(_loop_loss(jt, jnp), (x,), order=1, modes=("rev", "fwd"))


def test_vmap_over_the_start_matches_jax_lane_by_lane() -> None:
    """JAX 0.10.2 cannot vmap a ref's ds over its start (``NotImplementedError``);
    each lane is JAX's unbatched result."""
    starts = [0, 3, 9, -2]

    def lane(lib: Lib, L: Any) -> Callable[[Any, Any], Any]:
        def f(x: Any, i: Any) -> Any:
            r = lib.new_ref(x)
            r[lib.ds(i, 3, 2)] = r[lib.ds(i + 1, 3, 2)] * x[:3]
            r[lib.ds(i, 2)] += 1.0
            window = r[lib.ds(i - 1, 4)]
            return lib.freeze(r), window

        return f

    ours = jt.vmap(lane(jt, jnp), (None, 0))(jnp.asarray(X), jnp.array(starts))
    ours_jit = jt.jit(jt.vmap(lane(jt, jnp), (None, 0)))(jnp.asarray(X), jnp.array(starts))
    theirs = [jax.jit(lane(jax, jax_numpy))(X, i) for i in starts]
    for k in range(2):
        expected = jax_numpy.stack([t[k] for t in theirs])
        assert_same(ours[k], expected)
        assert_same(ours_jit[k], expected)


def test_vmap_of_a_ref_argument_matches_jax() -> None:
    def case(lib: Lib, L: Any) -> Any:
        def f(r: Any, i: Any) -> None:
            r[lib.ds(i, 2)] = r[lib.ds(i + 1, 2)] * 2

        ref = lib.new_ref(L.asarray(X.reshape(2, 5)))
        lib.vmap(f, (0, None))(ref, 1)
        return ref[...]

    both(case)


# === refs: errors ===


def test_ref_errors_name_ds_and_the_ref_shape() -> None:
    r = jt.new_ref(jnp.zeros(10))
    with pytest.raises(errors.JaxtypedValueError, match=r"ds\(9, 2, 1\) on axis 0 of a Ref of shape \(10,\).*Out of bound"):
        r[jt.ds(9, 2)]
    with pytest.raises(errors.JaxtypedTypeError, match=r"ds\(1, -2, 1\).*size must be >= 0"):
        r[jt.ds(1, -2)]
    with pytest.raises(errors.JaxtypedValueError, match=r"stride of 0 is not supported"):
        r[jt.ds(1, 2, 0)]
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match=r"start must be an integer|ds|Slice"):
        r[jt.ds(1.5, 2)]  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]  # a float start, on purpose
    with pytest.raises(errors.ConcretizationTypeError, match=r"Ref of shape \(10,\).*size must be static"):
        jt.jit(_ref_prefix)(jnp.zeros(10), jnp.int32(2))
    with pytest.raises(errors.JaxtypedTypeError, match=r"start must be an integer scalar, got f32\[\]"):
        jt.jit(_ref_window)(jnp.zeros(10), jnp.float32(1.5))
    r2 = jt.new_ref(jnp.zeros((3, 4)))
    def gather_rows(i: jt.Array) -> jt.Array:
        return r2[jt.ds(i, 2), jnp.array([0, 1])]

    with pytest.raises(errors.JaxtypedIndexError, match=r"index array"):
        jt.jit(gather_rows)(jnp.int32(1))
    with pytest.raises(errors.JaxtypedIndexError, match=r"ds slices may only be combined"):
        r2[None, jt.ds(0, 2)]


REF_ERRORS: list[Callable[[Lib], object]] = [
    lambda lib: lib.new_ref(lib.numpy.zeros(10))[lib.ds(1, -2)],
    lambda lib: lib.new_ref(lib.numpy.zeros(10))[lib.ds(0, 12)],
    lambda lib: lib.new_ref(lib.numpy.zeros(10))[lib.ds(9, 2)],
    lambda lib: lib.new_ref(lib.numpy.zeros(10))[lib.ds(-1, 2)],
]


@pytest.mark.parametrize("program", REF_ERRORS, ids=["negative-size", "size-past-the-axis", "out-of-bounds", "negative-start"])
def test_ref_errors_are_jaxs_kinds(program: Callable[[Lib], object]) -> None:
    raises_as_jax(program)
