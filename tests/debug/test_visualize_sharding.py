# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the JAX side is untyped: its values are Any)
"""``jaxtyped.debug.visualize_sharding``, ``visualize_array_sharding`` and
``inspect_array_sharding`` against JAX 0.10.2, on the same 8 CPU devices.

The shardings ``inspect_array_sharding`` passes are compared with JAX's
directly, eagerly and under ``jit`` (where the partitioner's layout is
reported at compile time).

The grids: JAX draws them with the ``rich`` package, which the project does
not depend on and which is not installed in its environment, so JAX's
``visualize_sharding`` only raises there ("requires rich"). The expected
grids below are written from our reading of JAX's algorithm (the cell
sizes of ``jax._src.debugging.visualize_sharding``, laid out as rich's
uncoloured ``SQUARE`` table, which is what JAX prints when its output is
captured); they were checked against JAX 0.10.2 with rich 15 installed
outside the project. Where rich is installed, ``test_grids_match_jax``
also compares every case with JAX's own output; otherwise it is skipped.
Besides the exact text, each grid is compared by its layout: the device
labels in each cell, and the number of rows and columns of cells.
"""

import contextlib
import importlib.util
import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import expect_same_error, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors
from jaxtyped.sharding import Mesh, NamedSharding, P, Sharding, SingleDeviceSharding

Lib = Any  # jaxtyped or jax: the same API by contract


def meshes(J: Lib) -> dict[str, Any]:
    """A 1-D mesh over the 8 devices and a 4x2 one (Auto axes)."""
    devices = np.array(J.devices())
    return {"1d": J.sharding.Mesh(devices, ("x",)), "2d": J.sharding.Mesh(devices.reshape(4, 2), ("x", "y"))}


# name: (shape, mesh or None for device 0 / an int for that device, spec, keyword arguments, expected grid)
GRIDS: dict[str, tuple[tuple[int, ...], str | int | None, tuple[Any, ...], dict[str, Any], str]] = {
    "single-device": ((8,), None, (), {}, """\
┌───────┐
│ CPU 0 │
└───────┘
"""),
    "1d-split": ((8,), "1d", ("x",), {}, """\
┌───────┬───────┬───────┬───────┬───────┬───────┬───────┬───────┐
│ CPU 0 │ CPU 1 │ CPU 2 │ CPU 3 │ CPU 4 │ CPU 5 │ CPU 6 │ CPU 7 │
└───────┴───────┴───────┴───────┴───────┴───────┴───────┴───────┘
"""),
    "1d-partially-replicated": ((8,), "2d", ("x",), {}, """\
┌───────┬───────┬───────┬───────┐
│CPU 0,1│CPU 2,3│CPU 4,5│CPU 6,7│
└───────┴───────┴───────┴───────┘
"""),
    "1d-replicated": ((8,), "2d", (), {}, """\
┌───────────────────┐
│CPU 0,1,2,3,4,5,6,7│
└───────────────────┘
"""),
    "2d-split": ((8, 8), "2d", ("x", "y"), {}, """\
┌──────────┬──────────┐
│  CPU 0   │  CPU 1   │
├──────────┼──────────┤
│  CPU 2   │  CPU 3   │
├──────────┼──────────┤
│  CPU 4   │  CPU 5   │
├──────────┼──────────┤
│  CPU 6   │  CPU 7   │
└──────────┴──────────┘
"""),
    "2d-transposed": ((8, 8), "2d", ("y", "x"), {}, """\
┌───────┬───────┬───────┬───────┐
│       │       │       │       │
│ CPU 0 │ CPU 2 │ CPU 4 │ CPU 6 │
│       │       │       │       │
│       │       │       │       │
├───────┼───────┼───────┼───────┤
│       │       │       │       │
│ CPU 1 │ CPU 3 │ CPU 5 │ CPU 7 │
│       │       │       │       │
│       │       │       │       │
└───────┴───────┴───────┴───────┘
"""),
    "2d-columns-partially-replicated": ((8, 8), "2d", (None, "y"), {}, """\
┌───────────┬───────────┐
│           │           │
│           │           │
│           │           │
│           │           │
│CPU 0,2,4,6│CPU 1,3,5,7│
│           │           │
│           │           │
│           │           │
│           │           │
└───────────┴───────────┘
"""),
    "2d-replicated": ((8, 8), "2d", (), {}, """\
┌───────────────────────┐
│                       │
│                       │
│                       │
│                       │
│  CPU 0,1,2,3,4,5,6,7  │
│                       │
│                       │
│                       │
│                       │
└───────────────────────┘
"""),
    "2d-single-device-3": ((4, 6), 3, (), {}, """\
┌───────────────────────────────────┐
│                                   │
│                                   │
│                                   │
│                                   │
│               CPU 3               │
│                                   │
│                                   │
│                                   │
│                                   │
└───────────────────────────────────┘
"""),
    "narrowed-to-max-width": ((8, 8), "2d", ("x", "y"), {"max_width": 20}, """\
┌────────┬─────────┐
│  CPU   │  CPU    │
│  0     │  1      │
├────────┼─────────┤
│  CPU   │  CPU    │
│  2     │  3      │
├────────┼─────────┤
│  CPU   │  CPU    │
│  4     │  5      │
├────────┼─────────┤
│  CPU   │  CPU    │
│  6     │  7      │
└────────┴─────────┘
"""),
    "scale-and-min-width": ((8,), "2d", ("x",), {"scale": 2.0, "min_width": 13, "use_color": False}, """\
┌───────────┬───────────┬───────────┬───────────┐
│  CPU 0,1  │  CPU 2,3  │  CPU 4,5  │  CPU 6,7  │
└───────────┴───────────┴───────────┴───────────┘
"""),
}


def sharding_of(J: Lib, name: str) -> Any:
    _, where, spec, _, _ = GRIDS[name]
    if where is None or isinstance(where, int):
        return J.sharding.SingleDeviceSharding(J.devices()[where or 0])
    return J.sharding.NamedSharding(meshes(J)[where], J.sharding.PartitionSpec(*spec))


def has_rich() -> bool:
    """Whether JAX can draw grids here (it needs the rich package)."""
    return importlib.util.find_spec("rich") is not None


def printed(run: Callable[[], object]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run()
    return out.getvalue()


def cell_labels(grid: str) -> list[list[str]]:
    """The grid's cells, row by row, each as the words written in it."""
    lines = grid.rstrip("\n").split("\n")
    rows: list[list[str]] = []
    block: list[str] = []
    for line in lines[1:]:
        if line[0] in "├└":
            bars = [i for i, ch in enumerate(block[0]) if ch == "│"]
            rows.append([
                " ".join(" ".join(text[a + 1 : b] for text in block).split())
                for a, b in zip(bars, bars[1:])
            ])  # fmt: skip
            block = []
        else:
            block.append(line)
    return rows


def expected_labels(shape: tuple[int, ...], sharding: Sharding) -> list[list[str]]:
    """Per block of the array, the ids of the devices holding it, in block order."""
    holders: dict[tuple[int, ...], list[int]] = {}
    for device, index in sharding.devices_indices_map(shape).items():
        block = tuple(0 if s.start is None else s.start // (s.stop - s.start) for s in index)
        holders.setdefault(block if len(shape) == 2 else (0, *block), []).append(device.id)
    n_rows = max(r for r, _ in holders) + 1
    n_cols = max(c for _, c in holders) + 1
    return [["CPU " + ",".join(map(str, sorted(holders[r, c]))) for c in range(n_cols)] for r in range(n_rows)]


@pytest.mark.parametrize("name", list(GRIDS))
def test_grids(name: str) -> None:
    shape, _, _, kwargs, expected = GRIDS[name]
    sharding = sharding_of(jt, name)
    ours = printed(lambda: jt.debug.visualize_sharding(shape, sharding, **kwargs))
    assert ours == expected
    assert cell_labels(ours) == cell_labels(expected) == expected_labels(shape, sharding)


@pytest.mark.parametrize("name", list(GRIDS))
def test_grids_match_jax(name: str) -> None:
    """Only where rich is installed (JAX draws with it)."""
    pytest.importorskip("rich")
    shape, _, _, kwargs, _ = GRIDS[name]
    theirs = printed(lambda: jax.debug.visualize_sharding(shape, sharding_of(jax, name), **kwargs))
    assert printed(lambda: jt.debug.visualize_sharding(shape, sharding_of(jt, name), **kwargs)) == theirs


def test_colour_options_are_accepted_and_change_nothing() -> None:
    sharding = sharding_of(jt, "2d-split")
    plain = printed(lambda: jt.debug.visualize_sharding((8, 8), sharding))
    options = printed(
        lambda: jt.debug.visualize_sharding((8, 8), sharding, use_color=True, color_map=lambda v: (v, v, v, 1.0))
    )
    assert options == plain == GRIDS["2d-split"][4]


def test_visualize_array_sharding_eagerly() -> None:
    x = jt.device_put(np.arange(64.0).reshape(8, 8), sharding_of(jt, "2d-transposed"))
    assert printed(lambda: jt.debug.visualize_array_sharding(x)) == GRIDS["2d-transposed"][4]
    assert printed(lambda: jt.debug.visualize_array_sharding(jnp.arange(8.0))) == GRIDS["single-device"][4]
    y = jt.device_put(np.arange(8.0), sharding_of(jt, "1d-partially-replicated"))
    assert printed(lambda: jt.debug.visualize_array_sharding(y)) == GRIDS["1d-partially-replicated"][4]


# === errors ===


@pytest.mark.parametrize("shape", [(), (2, 2, 2)], ids=str)
def test_rank_errors(shape: tuple[int, ...]) -> None:
    """JAX's ValueError for ranks other than 1 and 2 (JAX without rich
    raises a ValueError too, for rich)."""
    sharding = SingleDeviceSharding(jt.devices()[0])
    match = "only works for shapes with 1 and 2 dimensions"
    with pytest.raises(errors.JaxtypedValueError, match=match):
        jt.debug.visualize_sharding(shape, sharding)
    with pytest.raises(errors.JaxtypedValueError, match=match):
        jt.debug.visualize_array_sharding(jnp.ones(shape))
    with pytest.raises(errors.JaxtypedValueError, match=match):  # at once under jit too (JAX: when lowering)
        jt.make_jaxpr(lambda x: jt.debug.visualize_array_sharding(x))(np.ones(shape))
    try:
        jax.debug.visualize_array_sharding(jax_numpy.ones(shape))
    except Exception as theirs:  # noqa: BLE001 - compared with ours
        expect_same_error(theirs, lambda: jt.debug.visualize_array_sharding(jnp.ones(shape)))
    else:
        pytest.fail("JAX accepted the rank")


def test_type_errors() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=None if jt.DEBUG else "visualize_sharding: sharding"):
        jt.debug.visualize_sharding((8,), "x")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test
    with pytest.raises(errors.JaxtypedTypeError, match="inspect_array_sharding: expected a pytree of arrays"):
        jt.debug.inspect_array_sharding([jnp.ones(2), "x"], callback=print)
    with pytest.raises(errors.JaxtypedValueError, match="size 0"):
        jt.debug.visualize_sharding((0, 4), SingleDeviceSharding(jt.devices()[0]))
    with pytest.raises(errors.JaxtypedValueError, match=r"partitioned 8 times.*\(6,\)"):  # JAX: IndivisibleError, a ValueError
        jt.debug.visualize_sharding((6,), sharding_of(jt, "1d-split"))


# === inspect_array_sharding ===


def inspected(J: Lib, run: Callable[[Callable[[Any], None]], object]) -> list[str]:
    """The reprs of the shardings ``run(callback)`` passes to the callback."""
    seen: list[str] = []
    run(lambda s: seen.append(repr(s)))
    del J
    return seen


def test_inspect_array_sharding_eagerly_as_jax() -> None:
    def case(J: Lib) -> list[str]:
        sharded = J.device_put(np.ones((8, 8), np.float32), sharding_of(J, "2d-split"))
        tree = {"a": J.numpy.ones(3), "b": (sharded, J.numpy.zeros((2, 2)))}
        return inspected(J, lambda cb: J.debug.inspect_array_sharding(tree, callback=cb))

    ours, theirs = case(jt), case(jax)
    assert ours == theirs
    assert len(ours) == 3


def _program(J: Lib, seen: Callable[[Any], None]) -> Callable[[Any], Any]:
    """A program over the 4x2 mesh: inspect its argument, constrain a value
    to P('y', 'x') and draw it, and inspect inside a shard_map."""
    mesh = meshes(J)["2d"]
    spec = J.sharding.PartitionSpec

    def body(block: Any) -> Any:
        J.debug.inspect_array_sharding(block, callback=seen)
        return block * 2

    def f(x: Any) -> Any:
        J.debug.inspect_array_sharding(x, callback=seen)
        y = J.lax.with_sharding_constraint(x * 2, J.sharding.NamedSharding(mesh, spec("y", "x")))
        J.debug.inspect_array_sharding(y, callback=seen)
        if J is jt or has_rich():  # JAX draws with rich
            J.debug.visualize_array_sharding(y)
        z = J.shard_map(body, mesh=mesh, in_specs=spec("x"), out_specs=spec("x"))(x)
        return y + z

    return f


def test_under_jit_over_a_mesh_as_jax() -> None:
    """The callbacks run while the program is compiled, with the layouts
    the partitioner chose (P() inside shard_map), as in JAX; a second call
    compiles nothing and calls nothing back."""

    def case(J: Lib) -> tuple[list[str], str, list[float]]:
        seen: list[str] = []
        f = J.jit(_program(J, lambda s: seen.append(repr(s))))
        x = J.device_put(np.arange(64.0, dtype=np.float32).reshape(8, 8), sharding_of(J, "1d-partially-replicated"))
        text = printed(lambda: f(x))
        out = f(x)
        return sorted(seen), text, np.asarray(out).ravel().tolist()

    ours, theirs = case(jt), case(jax)
    assert ours[0] == theirs[0]
    mesh = "NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto)), spec="
    assert ours[0] == [mesh + spec + ", memory_kind=device)" for spec in ("P('x',)", "P('y', 'x')", "P()")]
    assert ours[2] == theirs[2]
    assert ours[1] == GRIDS["2d-transposed"][4]
    assert theirs[1] == (ours[1] if has_rich() else "")


def test_under_jit_on_one_device() -> None:
    """On one device the callback runs when the program is lowered, with
    that device's layout (JAX passes a replicated GSPMDSharding: the same
    blocks on the same device)."""

    def case(J: Lib) -> tuple[list[tuple[list[int], str]], str]:
        seen: list[tuple[list[int], str]] = []

        def record(s: Any) -> None:
            seen.append((sorted(d.id for d in s.device_set), str(list(s.devices_indices_map((8,)).values()))))

        def f(x: Any) -> Any:
            J.debug.inspect_array_sharding(x, callback=record)
            if J is jt or has_rich():  # JAX draws with rich
                J.debug.visualize_array_sharding(x)
            return x + 1

        text = printed(lambda: J.jit(f).lower(np.ones(8, np.float32)))
        return seen, text

    ours, theirs = case(jt), case(jax)
    assert ours[0] == theirs[0] == [([0], "[(slice(None, None, None),)]")]
    assert ours[1] == GRIDS["single-device"][4]
    assert theirs[1] == (ours[1] if has_rich() else "")


def test_a_callback_error_reaches_the_caller() -> None:
    """An exception the callback raises while XLA compiles is raised as it is."""

    def bad(sharding: Sharding) -> None:
        raise KeyError("from the callback")

    def f(x: jt.Array) -> jt.Array:
        jt.debug.inspect_array_sharding(x, callback=bad)
        return x

    x = jt.device_put(np.ones(8, np.float32), NamedSharding(Mesh(np.array(jt.devices()), ("x",)), P("x")))
    with pytest.raises(KeyError, match="from the callback"):
        jt.jit(f)(x)


def test_inspect_under_vmap_and_grad() -> None:
    seen: list[str] = []

    def f(x: jt.Array) -> jt.Array:
        jt.debug.inspect_array_sharding(x, callback=lambda s: seen.append(repr(s)))
        return x.sum()

    jt.vmap(f)(jnp.ones((2, 3)))
    jt.grad(f)(jnp.ones(3))
    assert seen == ["SingleDeviceSharding(device=CpuDevice(id=0), memory_kind=device)"] * 2
