"""``jit`` at JAX 0.10.2's signature (issue 20, item 5), compared with JAX:
the decorator-factory form ``@jit(static_argnames=...)`` /
``@jit(static_argnums=...)`` (values, retracing on the static value, the
wrapped function's name, docstring and signature), ``donate_argnames``
(which buffers a call deletes, by position and by keyword, alone and with
``donate_argnums``), ``keep_unused`` (the compiled program's parameters,
as ``lower(...).as_text()`` shows them, and which donated buffers a call
deletes), ``inline`` (``make_jaxpr``'s text of a nested call), an empty
``compiler_options`` (accepted), and the errors for bad names. A non-empty
``compiler_options`` is refused at once (JAX forwards it to XLA; here XLA
always compiles with its default options).
"""

import functools
import inspect
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import JaxtypedNotImplementedError
from oracle import assert_same, expect_same_error

jax = pytest.importorskip("jax")
jjnp = pytest.importorskip("jax.numpy")

# (jit's module, numpy namespace); Any: the same code runs against both.
LIBS: tuple[tuple[Any, Any], ...] = ((jt, jnp), (jax, jjnp))


def scaled(x: Any, k: int, *, shift: float = 0.0) -> Any:
    """x * k + shift."""
    return x * k + shift


def add(x: Any, y: Any) -> Any:
    return x + y


@pytest.mark.parametrize("form", ["static_argnames", "static_argnums", "partial"])
def test_decorator_factory_form(form: str) -> None:
    results: list[tuple[Any, Any, Any]] = []
    for lib, np_ in LIBS:
        if form == "static_argnames":
            jitted = lib.jit(static_argnames="k")(scaled)
        elif form == "static_argnums":
            jitted = lib.jit(static_argnums=1)(scaled)
        else:
            jitted = functools.partial(lib.jit, static_argnames=("k",))(scaled)
        x = np_.arange(3.0)
        results.append((jitted(x, 2), jitted(x, 3, shift=1.0), jitted(x, k=4)))
    for ours, theirs in zip(*results):
        assert_same(ours, theirs)


def test_factory_keeps_the_signature_and_retraces_per_static_value() -> None:
    # Both checkers type both forms exactly (typing/*/..._jit_forms.py).
    jitted = functools.partial(jt.jit, static_argnames="k")(scaled)
    assert inspect.signature(jt.jit(static_argnames="k")(scaled)) == inspect.signature(scaled)
    assert getattr(jitted, "__name__") == "scaled" and jitted.__doc__ == "x * k + shift."  # noqa: B009 - not declared on Jitted
    assert inspect.signature(jitted) == inspect.signature(scaled)
    x = jnp.arange(3.0)
    jitted(x, 2)
    jitted(x, 2)
    jitted(x, 5)
    info = jitted.cache_info()
    assert (info.hits, info.misses) == (1, 2), info
    # a static argument must be hashable, as in JAX
    theirs = _raised(lambda: jax.jit(static_argnames="k")(scaled)(jjnp.ones(2), [1]))
    expect_same_error(theirs, lambda: jitted(x, [1]))  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType]  # an unhashable static value (call-overload: api_jit's Note [jit's decorator-factory form])


def _raised(run: Callable[[], object]) -> Exception:
    try:
        run()
    except Exception as err:  # noqa: BLE001 - any of JAX's errors
        return err
    raise AssertionError("JAX did not raise")


# (options, how the call passes its arguments) -> which arguments are deleted.
DONATION_CASES = [
    ({"donate_argnames": "y"}, "positional"),
    ({"donate_argnames": "y"}, "keyword"),
    ({"donate_argnames": ("x",)}, "keyword"),
    ({"donate_argnames": ["x"]}, "positional"),
    ({"donate_argnums": 1}, "keyword"),
    ({"donate_argnums": 0, "donate_argnames": "y"}, "positional"),
]


@pytest.mark.parametrize(("options", "passing"), DONATION_CASES, ids=[f"{o}-{p}" for o, p in DONATION_CASES])
def test_donate_argnames_deletes_what_jax_deletes(options: dict[str, Any], passing: str) -> None:
    outcome: list[tuple[Any, bool, bool]] = []
    for lib, np_ in LIBS:
        x, y = np_.arange(3.0), np_.ones(3)
        jitted = lib.jit(add, **options)
        out = jitted(x, y) if passing == "positional" else jitted(x, y=y)
        outcome.append((out, x.is_deleted(), y.is_deleted()))
    (ours, *ours_deleted), (theirs, *theirs_deleted) = outcome
    assert_same(ours, theirs, weak=False)
    assert ours_deleted == theirs_deleted, (ours_deleted, theirs_deleted)


def test_keep_unused_inline_and_empty_compiler_options_are_accepted() -> None:
    def unused_arg(x: Any, unused: Any) -> Any:
        return jnp.sin(x) if isinstance(x, jt.Array) else jjnp.sin(x)

    outs: list[Any] = []
    for lib, np_ in LIBS:
        jitted = lib.jit(unused_arg, keep_unused=True, inline=True, compiler_options={})
        outs.append(jitted(np_.arange(3.0), np_.ones(2)))
    assert_same(outs[0], outs[1], weak=False)
    def twice_cos(x: jt.Array) -> jt.Array:
        return jt.jit(jnp.cos, inline=True)(x) * 2.0

    nested = jt.jit(twice_cos)
    np.testing.assert_allclose(np.asarray(nested(jnp.arange(3.0))), 2 * np.cos(np.arange(3.0)), rtol=1e-6)


BAD_OPTIONS: list[dict[str, Any]] = [
    {"donate_argnames": "z"},  # not a parameter: ValueError
    {"static_argnames": "k", "donate_argnames": "k"},  # both static and donated: ValueError
    {"donate_argnames": ["k", 3]},  # not a str: TypeError
]


@pytest.mark.parametrize("options", BAD_OPTIONS, ids=[str(o) for o in BAD_OPTIONS])
def test_bad_option_errors_match_jax(options: dict[str, Any]) -> None:
    theirs = _raised(lambda: jax.jit(scaled, **options))
    expect_same_error(theirs, lambda: jt.jit(scaled, **options))


def test_nonempty_compiler_options_are_refused() -> None:
    with pytest.raises(JaxtypedNotImplementedError, match="xla_cpu_enable_fast_math"):
        jt.jit(add, compiler_options={"xla_cpu_enable_fast_math": False})


def test_factory_with_non_callable_is_a_type_error_as_in_jax() -> None:
    theirs = _raised(lambda: jax.jit(static_argnums=0)(3))
    jit_any: Any = jt.jit
    expect_same_error(theirs, lambda: jit_any(static_argnums=0)(3))


def _main_parameters(text: str) -> list[str]:
    """The types of a lowered module's ``@main`` parameters."""
    header = re.search(r"func\.func public @main\((.*?)\) ->", text)
    assert header is not None, text
    return re.findall(r"%arg\d+: (tensor<[^>]*>)", header.group(1))


def unused_middle(x: Any, y: Any, z: Any) -> Any:
    return x * 2.0 + z


def unused_leaves(params: Any, x: Any, scale: Any) -> Any:
    return params["w"] * x + scale


def ignores_all(x: Any, y: Any) -> Any:
    return 1.0


def ignores_second(x: Any, y: Any) -> Any:
    return x * 2.0


# (function, arguments as (numpy namespace) -> args, static_argnums)
KEEP_UNUSED_CASES: list[tuple[Callable[..., Any], Callable[[Any], tuple[Any, ...]], tuple[int, ...]]] = [
    (unused_middle, lambda np_: (np_.ones(3), np_.ones((2, 2)), np_.arange(3.0)), ()),
    (unused_leaves, lambda np_: ({"w": np_.ones(2), "b": np_.zeros(4, np_.int32)}, np_.ones(2), 3.0), ()),
    (unused_middle, lambda np_: (np_.ones(3), 7, np_.arange(3.0)), (1,)),
    (ignores_all, lambda np_: (np_.ones(3), np_.ones(1)), ()),
    (scaled, lambda np_: (np_.arange(3.0), 2), (1,)),
]


@pytest.mark.parametrize("keep_unused", [False, True])
@pytest.mark.parametrize("case", range(len(KEEP_UNUSED_CASES)))
def test_keep_unused_decides_the_program_parameters_as_in_jax(case: int, keep_unused: bool) -> None:
    fun, make_args, static = KEEP_UNUSED_CASES[case]
    results: list[tuple[list[str], Any, Any]] = []
    for lib, np_ in LIBS:
        jitted = lib.jit(fun, keep_unused=keep_unused, static_argnums=static)
        args = make_args(np_)
        lowered = jitted.lower(*args)
        dynamic = [a for i, a in enumerate(args) if i not in static]  # JAX's Compiled takes no static ones
        results.append((_main_parameters(lowered.as_text()), jitted(*args), lowered.compile()(*dynamic)))
    (ours_params, ours, ours_compiled), (theirs_params, theirs, theirs_compiled) = results
    assert ours_params == theirs_params
    assert_same(ours, theirs)
    assert_same(ours_compiled, theirs_compiled)


def test_an_unused_argument_is_not_donated_and_still_checked_as_in_jax() -> None:
    outcome: list[tuple[Any, bool, bool]] = []
    for lib, np_ in LIBS:
        x, y = np_.arange(3.0), np_.ones(3)
        out = lib.jit(ignores_second, donate_argnums=(0, 1))(x, y)
        outcome.append((out, x.is_deleted(), y.is_deleted()))
    assert_same(outcome[0][0], outcome[1][0])
    assert outcome[0][1:] == outcome[1][1:], outcome
    # A pruned argument's leaves are still arrays (or scalars): a string is refused.
    theirs = _raised(lambda: jax.jit(unused_middle)(jjnp.ones(2), "s", jjnp.ones(2)))
    expect_same_error(theirs, lambda: jt.jit(unused_middle)(jnp.ones(2), "s", jnp.ones(2)))


def _nested_programs(lib: Any, np_: Any, inline: bool) -> tuple[str, Any, Any, Any]:
    def sin_twice(a: Any) -> Any:
        return np_.sin(a) * 2.0

    inner = lib.jit(sin_twice, inline=inline)

    def outer(x: Any) -> Any:
        return inner(x) + 1.0

    def total(v: Any) -> Any:
        return np_.sum(outer(v))

    x = np_.arange(3.0)
    text = str(lib.make_jaxpr(outer)(x))
    return text, lib.jit(outer)(x), lib.grad(total)(x), lib.vmap(outer)(x[:, None])


def test_inline_puts_the_equations_in_the_enclosing_jaxpr_as_in_jax() -> None:
    ours_text, *ours = _nested_programs(jt, jnp, inline=True)
    theirs_text, *theirs = _nested_programs(jax, jjnp, inline=True)
    assert ours_text == theirs_text
    assert "jit[" not in ours_text
    for a, b in zip(ours, theirs):
        assert_same(a, b)
    # Without inline, one jit equation holds the inner function (in both).
    ours_call, *ours = _nested_programs(jt, jnp, inline=False)
    theirs_call, *theirs = _nested_programs(jax, jjnp, inline=False)
    assert "jit[" in ours_call and "jit[" in theirs_call
    for a, b in zip(ours, theirs):
        assert_same(a, b)
