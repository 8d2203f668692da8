# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each case is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""The mesh context and the sharding names real programs call, against
JAX 0.10.2 on the same 8 CPU devices: ``AbstractMesh`` and
``Mesh.abstract_mesh``, ``get_abstract_mesh`` (empty with no mesh set and
inside ``with mesh:``), ``set_mesh`` as a context manager and as a global
setter (and ``get_mesh``), ``reshard`` (eager and under ``jit``, pytrees
and tree prefixes, JAX's errors), ``jaxtyped.experimental.pjit.pjit`` and
``jaxtyped.experimental.mesh_utils.create_device_mesh``.

Each case runs the same code on ``jaxtyped`` and on ``jax`` (``J``). Few
programs are compiled: one SPMD program per library for ``reshard`` under
``jit``, one for ``pjit``.
"""

import warnings
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from oracle import debug_violations, error_kind, expect_same_error, jax

import jaxtyped as jt
import jaxtyped.experimental.mesh_utils as jt_mesh_utils
import jaxtyped.experimental.pjit as jt_pjit
from jaxtyped import errors
from jaxtyped.sharding import AbstractMesh, Mesh, P

Lib = Any  # jaxtyped or jax: the same API by contract
LIBS = (jt, jax)

jax_mesh_utils: Any = pytest.importorskip("jax.experimental.mesh_utils")
jax_pjit: Any = pytest.importorskip("jax.experimental.pjit")


@contextmanager
def legacy_mesh(J: Lib, mesh: Any) -> Generator[None, None, None]:
    """``with mesh:``; JAX 0.10.2 deprecates it (a DeprecationWarning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with mesh:
            yield
    del J


def auto_mesh(J: Lib) -> Any:
    """A 4x2 mesh with Auto axes (the Mesh constructor's default)."""
    return J.sharding.Mesh(np.array(J.devices()).reshape(4, 2), ("x", "y"))


def explicit_mesh(J: Lib) -> Any:
    """A 4x2 mesh with Explicit axes (make_mesh's default)."""
    return J.make_mesh((4, 2), ("x", "y"))


def both(case: Callable[[Lib], Any]) -> tuple[Any, Any]:
    return case(jt), case(jax)


def raises_as_jax(case: Callable[[Lib], object]) -> None:
    """JAX raises on ``case``; jaxtyped raises the same kind of error (or,
    in debug mode, the debug mode's error for an argument of the wrong
    type, which beartype reports before jaxtyped's own check)."""
    try:
        case(jax)
    except Exception as theirs:  # noqa: BLE001 - compared with ours
        if jt.DEBUG:
            with pytest.raises((error_kind(theirs), *debug_violations())):
                case(jt)
        else:
            expect_same_error(theirs, lambda: case(jt))
    else:
        pytest.fail("JAX accepted the case")


# === AbstractMesh ===


def test_abstract_mesh_matches_jax() -> None:
    def case(J: Lib) -> object:
        mesh = J.sharding.AbstractMesh((2, 4), ("a", "b"))
        other = J.sharding.AbstractMesh((2, 4), ("a", "b"))
        return (
            repr(mesh), mesh.axis_names, mesh.axis_sizes, dict(mesh.shape), mesh.size, mesh.empty,
            [str(t).split(".")[-1] for t in mesh.axis_types], mesh == other, hash(mesh) == hash(other),
            mesh == J.sharding.AbstractMesh((4, 2), ("a", "b")), mesh.abstract_mesh is mesh,
        )  # fmt: skip

    ours, theirs = both(case)
    assert ours == theirs


def test_empty_abstract_mesh_matches_jax() -> None:
    def case(J: Lib) -> object:
        empty = J.sharding.AbstractMesh((), ())
        return (repr(empty), empty.empty, empty.size, empty.axis_names, dict(empty.shape), empty == J.sharding.get_abstract_mesh())

    ours, theirs = both(case)
    assert ours == theirs == ("AbstractMesh((), axis_types=())", True, 0, (), {}, True)


def test_mesh_abstract_mesh_matches_jax() -> None:
    def case(J: Lib) -> object:
        abstract = explicit_mesh(J).abstract_mesh
        device = abstract.abstract_device
        return (repr(abstract), device.device_kind, device.num_cores, device.platform, abstract == explicit_mesh(J).abstract_mesh)

    ours, theirs = both(case)
    assert ours == theirs
    assert ours[0] == (
        "AbstractMesh('x': 4, 'y': 2, axis_types=(Explicit, Explicit), device_kind=cpu, num_cores=None, platform=cpu)"
    )


def test_abstract_mesh_has_no_devices() -> None:
    raises_as_jax(lambda J: J.sharding.AbstractMesh((2,), ("a",)).devices)


def test_abstract_mesh_rejects_bad_axis_types() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=None if jt.DEBUG else "axis_types must be of type"):  # debug mode: beartype's
        AbstractMesh((2,), ("a",), ("Sideways",))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test
    with pytest.raises(errors.JaxtypedValueError, match="axis_types"):
        AbstractMesh((2,), ("a",), (jt.sharding.AxisType.Auto,) * 2)


@pytest.mark.parametrize("where", ["Mesh", "AbstractMesh", "make_mesh"])
def test_axis_types_are_the_enum_as_in_jax(where: str) -> None:
    """``AxisType`` is JAX's enum: its members make meshes, print as JAX's,
    and compare with the mesh's ``axis_types``; a string is JAX's TypeError."""

    def build(J: Lib, types: Any) -> Any:
        if where == "Mesh":
            return J.sharding.Mesh(np.array(J.devices()[:2]), ("a",), axis_types=types)
        if where == "AbstractMesh":
            return J.sharding.AbstractMesh((2,), ("a",), types)
        return J.make_mesh((2,), ("a",), axis_types=types)

    def case(J: Lib) -> object:
        mesh = build(J, (J.sharding.AxisType.Manual,))
        return repr(mesh.axis_types), mesh.axis_types == (J.sharding.AxisType.Manual,), repr(list(J.sharding.AxisType))

    ours, theirs = both(case)
    assert ours == theirs == ("(Manual,)", True, "[Auto, Explicit, Manual]")
    raises_as_jax(lambda J: build(J, ("Auto",)))
    with pytest.raises(errors.JaxtypedValueError, match="axis sizes"):
        AbstractMesh((2, 2), ("a",))


# === get_abstract_mesh, set_mesh, get_mesh ===


def test_no_mesh_and_with_mesh_give_the_empty_abstract_mesh() -> None:
    def case(J: Lib) -> object:
        outside = repr(J.sharding.get_abstract_mesh())
        with legacy_mesh(J, auto_mesh(J)):
            inside = repr(J.sharding.get_abstract_mesh())
        return outside, inside

    ours, theirs = both(case)
    assert ours == theirs == ("AbstractMesh((), axis_types=())",) * 2


def test_set_mesh_as_a_context_manager() -> None:
    def case(J: Lib) -> object:
        mesh = explicit_mesh(J)
        with J.set_mesh(mesh) as entered:
            inside = (repr(J.sharding.get_abstract_mesh()), str(J.sharding.get_mesh()), entered)
            with J.set_mesh(auto_mesh(J)):
                nested = repr(J.sharding.get_abstract_mesh())
            back = repr(J.sharding.get_abstract_mesh())
        return inside, nested, back, repr(J.sharding.get_abstract_mesh())

    ours, theirs = both(case)
    assert ours == theirs
    assert jt.sharding.set_mesh is jt.set_mesh


def test_set_mesh_as_a_global_setter() -> None:
    def case(J: Lib) -> object:
        J.set_mesh(explicit_mesh(J))
        try:
            during = (repr(J.sharding.get_abstract_mesh()), str(J.sharding.get_mesh()))
        finally:
            J.set_mesh(None)
        return during, repr(J.sharding.get_abstract_mesh())

    ours, theirs = both(case)
    assert ours == theirs
    assert jt.sharding.get_mesh() is None  # JAX: an empty Mesh (jaxtyped has none)


def test_get_abstract_mesh_while_tracing_under_set_mesh() -> None:
    def case(J: Lib) -> object:
        seen: list[str] = []

        def f(x: Any) -> Any:
            seen.append(repr(J.sharding.get_abstract_mesh()))
            return x

        with J.set_mesh(explicit_mesh(J)):
            J.make_jaxpr(f)(np.float32(1.0))
        J.make_jaxpr(f)(np.float32(1.0))
        return seen

    ours, theirs = both(case)
    assert ours == theirs


def test_set_mesh_errors_as_jax() -> None:
    raises_as_jax(lambda J: J.set_mesh("x"))
    raises_as_jax(lambda J: J.set_mesh(J.sharding.AbstractMesh((2,), ("x",))))
    raises_as_jax(lambda J: J.make_jaxpr(lambda x: (J.set_mesh(explicit_mesh(J)), x)[1])(1.0))
    raises_as_jax(lambda J: J.make_jaxpr(lambda x: (J.sharding.get_mesh(), x)[1])(1.0))
    manual = jt.make_mesh((2,), ("m",), axis_types=(jt.sharding.AxisType.Manual,))
    with pytest.raises(errors.JaxtypedValueError, match="manual axes"):
        jt.set_mesh(manual)


def test_use_abstract_mesh() -> None:
    def case(J: Lib) -> object:
        mesh = J.sharding.AbstractMesh((4, 2), ("a", "b"))
        with J.sharding.use_abstract_mesh(mesh):
            inside = repr(J.sharding.get_abstract_mesh())
        return inside, repr(J.sharding.get_abstract_mesh())

    ours, theirs = both(case)
    assert ours == theirs
    raises_as_jax(lambda J: J.sharding.use_abstract_mesh(explicit_mesh(J)))


def test_bare_specs_refer_to_the_set_mesh() -> None:
    """Inside ``set_mesh`` a bare PartitionSpec names the mesh's axes
    (``device_put``, ``with_sharding_constraint`` and jit's shardings)."""
    with jt.set_mesh(auto_mesh(jt)):
        text = str(jt.make_jaxpr(lambda v: jt.lax.with_sharding_constraint(v, P("x")))(np.arange(8.0)))
    assert "Mesh('x': 4, 'y': 2" in text and "spec=P('x',)" in text
    with pytest.raises(errors.JaxtypedValueError, match="needs a mesh"):
        jt.make_jaxpr(lambda v: jt.lax.with_sharding_constraint(v, P("x")))(np.arange(8.0))


def test_a_constraint_may_not_split_over_explicit_axes_as_in_jax() -> None:
    """Outside ``set_mesh`` of its mesh, an Explicit axis is part of the
    array's type, not a layout to ask for: JAX asks for ``reshard``."""

    def case(J: Lib) -> object:
        sharding = J.sharding.NamedSharding(explicit_mesh(J), J.sharding.PartitionSpec("x"))
        return J.jit(lambda v: J.lax.with_sharding_constraint(v, sharding))(np.arange(8.0))

    raises_as_jax(case)
    with pytest.raises(errors.JaxtypedValueError, match="can only refer to Auto axes of the mesh"):
        case(jt)


def _constrain_under_set_mesh(J: Lib, *, placed: bool, under_jit: bool) -> tuple[str, list[float]]:
    mesh = explicit_mesh(J)
    x = np.arange(8.0, dtype=np.float32)
    with J.set_mesh(mesh):
        value = J.device_put(x, J.sharding.NamedSharding(mesh, J.P("x"))) if placed else x

        def constrain(v: Any) -> Any:
            return J.lax.with_sharding_constraint(v, J.P("x"))

        out = J.jit(constrain)(value) if under_jit else constrain(value)
        return _sharding_and_value(out) if placed else ("", np.asarray(out).tolist())


@pytest.mark.parametrize("under_jit", [False, True], ids=["eager", "jit"])
def test_a_constraint_asserts_the_layout_under_set_mesh_of_explicit_axes(under_jit: bool) -> None:
    """Under ``set_mesh`` of a mesh whose axes are all Explicit (make_mesh's
    default), the constraint asserts the array's layout and returns it
    unchanged, as JAX's does: an array laid out so passes."""
    ours, theirs = both(lambda J: _constrain_under_set_mesh(J, placed=True, under_jit=under_jit))
    assert ours == theirs
    with jt.set_mesh(explicit_mesh(jt)):
        text = str(jt.make_jaxpr(lambda v: jt.lax.with_sharding_constraint(v, P("x")))(np.arange(8.0)))
    assert "sharding_constraint" not in text  # no equation: JAX binds none either


def test_a_constraint_under_set_mesh_of_explicit_axes_fails_on_another_layout() -> None:
    for J in LIBS:
        with pytest.raises(AssertionError, match=r"acts as an assert .* P\(None,\) did not match .* P\('x',\)"):
            _constrain_under_set_mesh(J, placed=False, under_jit=False)
    with pytest.raises(errors.ShardingAssertionError, match="Please use `jax.sharding.reshard`"):
        _constrain_under_set_mesh(jt, placed=False, under_jit=False)


def test_a_constraint_under_set_mesh_of_explicit_axes_checks_ranks_as_jax() -> None:
    """A Python scalar is replicated (P() passes); a spec longer than the
    value's rank is JAX's ValueError."""

    def case(J: Lib, spec: Any) -> object:
        with J.set_mesh(explicit_mesh(J)):
            return J.lax.with_sharding_constraint(1.0, spec)

    assert case(jt, P()) == case(jax, jax.P()) == 1.0
    raises_as_jax(lambda J: case(J, J.P(None)))
    with pytest.raises(errors.JaxtypedValueError, match=r"P\(None,\) has 1 entries, but the array has rank 0"):
        case(jt, P(None))


@pytest.mark.xfail(strict=True, reason="jaxtyped's tracers carry no sharding types (Note [sharding constraints on Explicit meshes])")
def test_a_constraint_under_jit_asserts_the_layout_of_a_traced_array() -> None:
    with pytest.raises(AssertionError, match="acts as an assert"):
        _constrain_under_set_mesh(jax, placed=False, under_jit=True)
    with pytest.raises(AssertionError, match="acts as an assert"):
        _constrain_under_set_mesh(jt, placed=False, under_jit=True)


# === reshard ===


def _sharding_and_value(x: Any) -> tuple[str, list[float]]:
    return repr(x.sharding), np.asarray(x).tolist()


def test_reshard_eagerly_as_jax() -> None:
    def case(J: Lib) -> object:
        mesh = explicit_mesh(J)
        x = np.arange(16.0, dtype=np.float32).reshape(8, 2)
        named = J.sharding.reshard(x, J.sharding.NamedSharding(mesh, J.P("x")))
        with J.set_mesh(mesh):
            bare = J.sharding.reshard(x, J.P("x", "y"))
            scalar = J.sharding.reshard(np.float32(3.0), J.P())
            tree = J.sharding.reshard({"a": x, "b": x[0]}, {"a": J.P("x"), "b": J.P()})
            pair = J.reshard((x, x), (J.P("x"), J.P(None, "y")))
        return (
            _sharding_and_value(named), _sharding_and_value(bare), _sharding_and_value(scalar),
            {k: _sharding_and_value(v) for k, v in tree.items()}, [_sharding_and_value(v) for v in pair],
        )  # fmt: skip

    ours, theirs = both(case)
    assert ours == theirs


def test_reshard_under_jit_as_jax() -> None:
    """Under jit (and set_mesh, which JAX needs there) reshard constrains
    the layout; jit's bare in_shardings refer to the same mesh."""

    def case(J: Lib) -> object:
        x = np.arange(16.0, dtype=np.float32).reshape(8, 2)
        with J.set_mesh(explicit_mesh(J)):
            out = J.jit(lambda a: J.sharding.reshard(a * 2, J.P("x", "y")), in_shardings=J.P("x"))(x)
        return _sharding_and_value(out)

    ours, theirs = both(case)
    assert ours == theirs


RESHARD_ERRORS: dict[str, Callable[[Lib], object]] = {
    "spec-without-mesh": lambda J: J.sharding.reshard(np.ones(8), J.P("x")),
    "spec-inside-with-mesh": lambda J: _in_legacy_mesh(J, lambda: J.sharding.reshard(np.ones(8), J.P("x"))),
    "auto-axes": lambda J: J.sharding.reshard(np.ones(8), J.sharding.NamedSharding(auto_mesh(J), J.P("x"))),
    "none": lambda J: _in_set_mesh(J, lambda: J.sharding.reshard(np.ones(8), None)),
    "single-device": lambda J: J.sharding.reshard(np.ones(8), J.sharding.SingleDeviceSharding(J.devices()[1])),
    "uneven": lambda J: _in_set_mesh(J, lambda: J.sharding.reshard(np.ones(6), J.P("x"))),
    "prefix-too-short": lambda J: _in_set_mesh(J, lambda: J.sharding.reshard((np.ones(8), np.ones(8)), (J.P("x"),))),
}


def _in_set_mesh(J: Lib, run: Callable[[], object]) -> object:
    with J.set_mesh(explicit_mesh(J)):
        return run()


def _in_legacy_mesh(J: Lib, run: Callable[[], object]) -> object:
    with legacy_mesh(J, explicit_mesh(J)):
        return run()


@pytest.mark.parametrize("name", list(RESHARD_ERRORS))
def test_reshard_errors_as_jax(name: str) -> None:
    raises_as_jax(RESHARD_ERRORS[name])


def test_reshard_error_messages_name_the_function_and_shapes() -> None:
    with jt.set_mesh(explicit_mesh(jt)):
        with pytest.raises(errors.JaxtypedValueError, match=r"array axis 0 is partitioned 4 times.*\(6,\)"):
            jt.sharding.reshard(np.ones(6), P("x"))
        with pytest.raises(errors.JaxtypedValueError, match="reshard: P\\('x', 'y'\\) has 2 entries, but the array has rank 1"):
            jt.sharding.reshard(np.ones(8), P("x", "y"))
        with pytest.raises(errors.PyTreeStructureError, match="reshard: out_shardings"):
            jt.sharding.reshard((np.ones(8), np.ones(8)), (P("x"),))


# === pjit ===


def _pjit(J: Lib) -> Any:
    """pjit of either library, without the deprecation warnings (JAX warns
    when the name is read, jaxtyped when it is called)."""
    if J is jt:
        def quiet(*args: Any, **kwargs: Any) -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return jt_pjit.pjit(*args, **kwargs)

        return quiet
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return jax_pjit.pjit


def test_pjit_is_deprecated_as_in_jax() -> None:
    with pytest.warns(DeprecationWarning, match="pjit"):
        getattr(jax_pjit, "pjit")
    with pytest.warns(DeprecationWarning, match="pjit"):
        jt_pjit.pjit(lambda a: a)


def test_pjit_is_jit_with_shardings_by_position() -> None:
    """pjit's shardings may be given by position; a bare spec refers to the
    mesh of ``with mesh:``, as JAX's pjit."""

    def case(J: Lib) -> object:
        pjit = _pjit(J)
        mesh = auto_mesh(J)
        x = np.arange(16.0, dtype=np.float32).reshape(8, 2)
        with legacy_mesh(J, mesh):
            out = pjit(lambda a, n: a * n, J.P("x"), J.P("x", "y"), (1,))(x, 3)
        return _sharding_and_value(out)

    ours, theirs = both(case)
    assert ours == theirs


def test_pjit_returns_a_jitted_function() -> None:
    with pytest.warns(DeprecationWarning, match="pjit"):
        f = jt_pjit.pjit(lambda a, n: a * n, static_argnums=1)
    assert isinstance(f, jt.stages.Jitted)
    assert "stablehlo.multiply" in f.lower(np.float32(2.0), 3).as_text()
    assert jt.experimental.pjit.pjit is jt_pjit.pjit


def test_pjit_device_and_backend() -> None:
    def both_given(J: Lib) -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # JAX warns about device and backend
            return _pjit(J)(lambda a: a, device=J.devices()[0], backend="cpu")

    def with_shardings(J: Lib) -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return _pjit(J)(lambda a: a, J.P(), device=J.devices()[0])

    raises_as_jax(both_given)
    raises_as_jax(with_shardings)
    with pytest.warns(DeprecationWarning), pytest.raises(errors.JaxtypedNotImplementedError, match="device_put"):
        jt_pjit.pjit(lambda a: a, device=jt.devices()[0])


# === create_device_mesh ===


@pytest.mark.parametrize("shape", [(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8)], ids=str)
def test_create_device_mesh_as_jax(shape: tuple[int, ...]) -> None:
    ours: Any = jt_mesh_utils.create_device_mesh(shape)
    theirs = jax_mesh_utils.create_device_mesh(shape)
    assert ours.shape == theirs.shape == shape
    assert ours.dtype == theirs.dtype == np.dtype(object)
    assert [d.id for d in ours.flat] == [d.id for d in theirs.flat]


def test_create_device_mesh_of_given_devices_makes_a_mesh() -> None:
    ours: Any = jt_mesh_utils.create_device_mesh((2, 2), jt.devices()[4:])
    theirs = jax_mesh_utils.create_device_mesh((2, 2), jax.devices()[4:])
    assert [d.id for d in ours.flat] == [d.id for d in theirs.flat] == [4, 5, 6, 7]
    mesh = Mesh(ours, ("a", "b"))
    assert mesh.axis_sizes == (2, 2) and mesh.device_ids.tolist() == [[4, 5], [6, 7]]
    assert jt.experimental.mesh_utils.create_device_mesh is jt_mesh_utils.create_device_mesh


@pytest.mark.parametrize("shape", [(3, 3), (16,), ("a",), (2,)], ids=str)
def test_create_device_mesh_errors_as_jax(shape: tuple[Any, ...]) -> None:
    def case(J: Lib) -> object:
        utils = jt_mesh_utils if J is jt else jax_mesh_utils
        return utils.create_device_mesh(shape)

    if shape == (2,):  # the wrong device count for the given devices
        raises_as_jax(lambda J: (jt_mesh_utils if J is jt else jax_mesh_utils).create_device_mesh(shape, J.devices()[:3]))
    else:
        raises_as_jax(case)
    with pytest.raises(errors.JaxtypedValueError, match="create_device_mesh"):
        jt_mesh_utils.create_device_mesh((3, 3))


def test_make_single_device_sharding_is_jaxs() -> None:
    ours, theirs = both(lambda J: J.sharding.make_single_device_sharding(J.devices()[3]))
    assert isinstance(ours, jt.sharding.SingleDeviceSharding)
    assert ours.device.id == next(iter(theirs.device_set)).id == 3
    assert repr(ours) == repr(theirs)
    x = jt.device_put(jt.numpy.ones(3), ours)
    assert x.sharding == ours
    with pytest.raises(errors.JaxtypedValueError, match="make_single_device_sharding: memory_kind 'pinned_host'"):
        jt.sharding.make_single_device_sharding(jt.devices()[0], memory_kind="pinned_host")


def test_jit_traces_again_under_another_mesh_like_jax() -> None:
    """The mesh context is part of a trace's key: a function reading
    ``get_abstract_mesh()`` (as Flax's layers do) sees each context's mesh,
    with JAX's trace counts, and the context-free call still hits."""

    def run(J: Lib) -> tuple[list[float], int]:
        traces = 0

        def f(x: Any) -> Any:
            nonlocal traces
            traces += 1
            mesh = J.sharding.get_abstract_mesh()
            return x * (1.0 if mesh.empty else float(mesh.size))

        g = J.jit(f)
        x = J.numpy.ones(())
        values = [float(g(x))]
        with J.set_mesh(J.make_mesh((2, 2), ("x", "y"))):
            values.append(float(g(x)))
        with J.set_mesh(J.make_mesh((8,), ("x",))):
            values.append(float(g(x)))
            values.append(float(g(x)))
        values.append(float(g(x)))
        return values, traces

    ours, theirs = both(run)
    assert ours == theirs == ([1.0, 4.0, 8.0, 8.0, 1.0], 3)
