"""Donated ``jit`` arguments that no output can reuse, against JAX 0.10.2
(Note [donated parameters] in ``lowering``): each result takes the first
donated parameter of its shape and dtype (``tf.aliasing_output``), a
leftover one with as many elements as a free result is a buffer donor
(``jax.buffer_donor``; consumed when XLA reuses it, i.e. the sizes in
bytes agree), and any other is not usable: it stays alive, and the first
call warns ``UserWarning: Some donated buffers were not usable: ...``
once (not again on later calls or a later ``.lower()``). Per case: which
arguments are deleted, the warnings, the lowered parameters' marks and
the values; over a 2-device mesh and through ``shard_map`` too.

The warning is emitted once per program (JAX: once per traced function),
so every case below has a function of its own.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the functions run on either library's arrays, untyped by design)

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, jax_numpy, mesh_shard_map, mesh_sharding

import jaxtyped as jt
import jaxtyped.numpy as jnp

LIBS: tuple[tuple[Any, Any], ...] = ((jt, jnp), (jax, jax_numpy))
_NOT_USABLE = "Some donated buffers were not usable: {}.\nSee an explanation at https://docs.jax.dev/en/latest/faq.html#buffer-donation."


def _all_match(a: Any, b: Any) -> Any:
    return a + 1.0, b * 2.0


def _other_shape(a: Any, b: Any) -> Any:
    return a + b.sum()


def _other_dtype(a: Any, b: Any) -> Any:
    return a + b.astype(np.float32)


def _two_for_one(a: Any, b: Any) -> Any:
    return a * b


def _by_name_kw(a: Any, b: Any) -> Any:
    return a - b.sum()


def _by_name_pos(a: Any, b: Any) -> Any:
    return a * b.sum()


def _params_update(p: Any, x: Any) -> Any:
    # w aliased, b unusable, step (i32[]) a buffer donor of norm (f32[]:
    # same bytes, consumed), x not donated.
    return {"w": p["w"] - 0.1 * x.sum(), "norm": (p["b"] ** 2).sum() + p["step"]}


def _weak_scalar(a: Any, b: Any) -> Any:
    return b * a


def _none_usable(a: Any, b: Any, c: Any) -> Any:
    return a.sum() + b.sum() + c.sum()


def _cast_same_bytes(a: Any) -> Any:
    return a.astype(np.float32)


def _cast_fewer_bytes(a: Any) -> Any:
    return a.astype(np.float16)


def _reshaped(a: Any) -> Any:
    return a.reshape(6)


def _f32(*shape: int) -> np.ndarray[Any, Any]:
    return np.arange(1.0, 1.0 + np.prod(shape, dtype=int), dtype=np.float32).reshape(shape)


def _i32(*shape: int) -> np.ndarray[Any, Any]:
    return np.arange(2, 2 + np.prod(shape, dtype=int), dtype=np.int32).reshape(shape)


# id -> (function, jit options, positional args, keyword args, expected deleted leaves, expected unusable avals)
_Case = tuple[Callable[..., Any], dict[str, Any], tuple[Any, ...], dict[str, Any], list[bool], str | None]
CASES: dict[str, _Case] = {
    "all_match": (_all_match, {"donate_argnums": (0, 1)}, (_f32(3), _f32(4)), {}, [True, True], None),
    "other_shape": (_other_shape, {"donate_argnums": (0, 1)}, (_f32(3), _f32(4)), {}, [True, False], "float32[4]"),
    "other_dtype": (_other_dtype, {"donate_argnums": (0, 1)}, (_f32(3), _i32(3)), {}, [True, False], "int32[3]"),
    "two_for_one": (_two_for_one, {"donate_argnums": (0, 1)}, (_f32(3), _f32(3)), {}, [True, False], "float32[3]"),
    "argnames_kw": (_by_name_kw, {"donate_argnames": ("a", "b")}, (), {"a": _f32(3), "b": _f32(4)}, [True, False], "float32[4]"),
    "argnames_pos": (_by_name_pos, {"donate_argnames": ("a", "b")}, (_f32(3), _f32(4)), {}, [True, False], "float32[4]"),
    # leaves in key order: b, step, w, then x
    "pytree": (
        _params_update,
        {"donate_argnums": 0},
        ({"w": _f32(2, 2), "b": _f32(2), "step": np.int32(3)}, _f32(5)),
        {},
        [False, True, True, False],
        "float32[2]",
    ),
    "weak_scalar": (_weak_scalar, {"donate_argnums": 0}, (1.5, _f32(3)), {}, [False, False], "~float32[]"),
    "none_usable": (_none_usable, {"donate_argnums": (0, 1, 2)}, (_f32(3), _i32(2, 2), _f32(1)), {}, [False, False, True], "float32[3], int32[2,2]"),
    "cast_same_bytes": (_cast_same_bytes, {"donate_argnums": 0}, (_i32(3),), {}, [True], None),
    "cast_fewer_bytes": (_cast_fewer_bytes, {"donate_argnums": 0}, (_f32(3),), {}, [False], None),
    "reshaped": (_reshaped, {"donate_argnums": 0}, (_f32(2, 3),), {}, [True], None),
}


def _parameter_marks(text: str) -> list[str]:
    """Per parameter of ``main``: ``alias k``, ``donor`` or ``-``."""
    header = next(line for line in text.split("\n") if "func.func public @main(" in line)
    params = header.split("@main(", 1)[1].split(") -> ", 1)[0].split("%arg")[1:]
    marks: list[str] = []
    for p in params:
        alias = re.search(r"tf\.aliasing_output = (\d+)", p)
        marks.append(f"alias {alias.group(1)}" if alias else "donor" if "jax.buffer_donor = true" in p else "-")
    return marks


def _recorded(run: Callable[[], Any]) -> tuple[Any, list[tuple[type[Warning], str]]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = run()
    return out, [(w.category, str(w.message)) for w in caught]


def _on_device(lib: Any, np_: Any, tree: Any) -> Any:
    """``tree`` with NumPy leaves as the library's arrays (a Python float
    becomes a weak-typed 0-d array)."""
    return lib.tree_util.tree_map(lambda v: np_.asarray(v), tree)


@pytest.mark.parametrize("case", list(CASES))
def test_deleted_warned_and_lowered_as_jax(case: str) -> None:
    fun, options, args, kwargs, deleted, unusable = CASES[case]
    seen: list[tuple[Any, ...]] = []
    for lib, np_ in LIBS:
        jitted = lib.jit(fun, **options)
        call_args, call_kwargs = _on_device(lib, np_, (args, kwargs))
        out, warned = _recorded(lambda: jitted(*call_args, **call_kwargs))
        leaves = lib.tree_util.tree_leaves((call_args, call_kwargs))
        gone = [leaf.is_deleted() for leaf in leaves]
        kept = [np.asarray(leaf) for leaf in leaves if not leaf.is_deleted()]  # still usable
        again_args, again_kwargs = _on_device(lib, np_, (args, kwargs))
        again, warned_again = _recorded(lambda: jitted(*again_args, **again_kwargs))
        lowered, warned_lowering = _recorded(lambda: jitted.lower(*args, **kwargs).as_text())
        seen.append((out, gone, kept, warned, warned_again + warned_lowering, _parameter_marks(lowered), again))
    ours, theirs = seen
    assert_same(ours[0], theirs[0], tree=True)
    assert_same(ours[6], theirs[6], tree=True)
    assert ours[1] == theirs[1] == deleted
    for mine, jaxs in zip(ours[2], theirs[2], strict=True):
        np.testing.assert_array_equal(mine, jaxs)
    expected = [] if unusable is None else [(UserWarning, _NOT_USABLE.format(unusable))]
    assert ours[3] == theirs[3] == expected
    assert ours[4] == theirs[4] == []
    assert ours[5] == theirs[5]


def test_a_kept_argument_is_usable_and_donatable_again() -> None:
    """An argument the call kept alive can be read and passed again; a
    later program that can reuse it consumes it, as in JAX."""

    def summed(a: Any, b: Any) -> Any:
        return a + b.sum()

    def doubled(b: Any) -> Any:
        return b * 2.0

    outcome: list[tuple[Any, ...]] = []
    for lib, np_ in LIBS:
        a, b = np_.asarray(_f32(3)), np_.asarray(_f32(4))
        with pytest.warns(UserWarning, match=re.escape("not usable: float32[4].")):
            first = lib.jit(summed, donate_argnums=(0, 1))(a, b)
        second = lib.jit(doubled, donate_argnums=0)(b)
        outcome.append((first, second, a.is_deleted(), b.is_deleted()))
    ours, theirs = outcome
    assert_same(ours[0], theirs[0])
    assert_same(ours[1], theirs[1])
    assert ours[2:] == theirs[2:] == (True, True)


def _mesh_add(a: Any, b: Any) -> Any:
    return a + b.sum()


def _mesh_add_out(a: Any, b: Any) -> Any:
    return a - b.sum()


def _mesh_total(a: Any) -> Any:
    return a.sum()


def _mapped_add(a: Any, b: Any) -> Any:
    return a * b.sum()


def _explicit_add(a: Any, b: Any) -> Any:
    return a / b.sum()


@pytest.mark.parametrize("case", ["mesh", "explicit_mesh", "mesh_out_shardings", "mesh_nothing_usable", "shard_map"])
def test_over_a_mesh(case: str) -> None:
    """Over 2 devices the argument no result can reuse stays alive. The
    warning names the per-device shard, as JAX's does, when the results'
    layouts are known (asked for, or on an Explicit mesh); on an Auto mesh
    without ``out_shardings`` JAX leaves the choice to XLA and is silent."""
    seen: list[tuple[Any, ...]] = []
    for lib, np_ in LIBS:
        ours = lib is jt
        split = mesh_sharding(ours, "a")
        if case == "explicit_mesh":
            mesh = lib.make_mesh((2,), ("e",), devices=lib.devices()[:2])
            split = lib.sharding.NamedSharding(mesh, lib.sharding.PartitionSpec("e"))
        args: tuple[Any, ...] = (lib.device_put(_f32(4), split), lib.device_put(_f32(8), split))
        if case == "mesh":
            jitted = lib.jit(_mesh_add, donate_argnums=(0, 1))
        elif case == "explicit_mesh":
            jitted = lib.jit(_explicit_add, donate_argnums=(0, 1))
        elif case == "mesh_out_shardings":
            jitted = lib.jit(_mesh_add_out, donate_argnums=(0, 1), out_shardings=split)
        elif case == "mesh_nothing_usable":
            jitted = lib.jit(_mesh_total, donate_argnums=0, out_shardings=mesh_sharding(ours))
            args = args[1:]
        else:
            jitted = lib.jit(mesh_shard_map(ours, _mapped_add, (("a",), ("a",)), ("a",)), donate_argnums=(0, 1))
        out, warned = _recorded(lambda: jitted(*args))
        gone = [a.is_deleted() for a in args]
        np_.asarray(args[-1])  # the kept one is readable
        again = tuple(lib.device_put(np.asarray(a), split) for a in args if not a.is_deleted())
        fresh = (lib.device_put(_f32(4), split), *again) if len(again) < len(args) else again
        _, warned_again = _recorded(lambda: jitted(*fresh))  # once per program
        seen.append((out, gone, warned + warned_again))
    mine, jaxs = seen
    assert_same(mine[0], jaxs[0])
    assert mine[1] == jaxs[1] == ([False] if case == "mesh_nothing_usable" else [True, False])
    warns = case not in ("mesh", "shard_map")
    assert mine[2] == jaxs[2] == ([(UserWarning, _NOT_USABLE.format("float32[4]"))] if warns else [])
