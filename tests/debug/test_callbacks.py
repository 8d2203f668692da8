# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""``pure_callback``, ``experimental.io_callback`` and ``debug.callback``
against JAX's (issue 16, item 6): results (values, dtypes, weak types,
pytrees), what the callback receives, the ``vmap_method``\\ s, dead-code
elimination of pure callbacks, errors (a callback that raises or returns
the wrong shape reaches the caller as a RuntimeError, eager and compiled),
and the printed equations."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, jax_numpy, printed_by, raises_as_jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import CallbackError

Lib = Any  # jaxtyped or jax: the same API by contract

jax_io_callback: Any = pytest.importorskip("jax.experimental").io_callback


def io_callback(J: Lib) -> Any:
    return jt.experimental.io_callback if J is jt else jax_io_callback


def both(run: Callable[[Lib], Any], **kwargs: Any) -> None:
    """``run(jt)`` equals ``run(jax)`` (values, dtypes, weak types)."""
    assert_same(run(jt), run(jax), **kwargs)


def sin32(x: Any) -> Any:
    return np.sin(np.asarray(x)).astype(np.float32)


def f32(J: Lib, shape: tuple[int, ...]) -> Any:
    return J.ShapeDtypeStruct(shape, J.numpy.float32)


RESULTS: dict[str, Callable[[Lib], Any]] = {
    "pure-eager": lambda J: J.pure_callback(sin32, f32(J, (3,)), J.numpy.arange(3.0)),
    "pure-jit": lambda J: J.jit(lambda x: J.pure_callback(sin32, f32(J, (3,)), x))(J.numpy.arange(3.0)),
    "pure-scalar-weak-arg": lambda J: J.jit(lambda: J.pure_callback(sin32, f32(J, ()), 2.0))(),
    "pure-pytree": lambda J: J.jit(
        lambda x, y: J.pure_callback(
            lambda a, b, scale: {"s": (a * scale).astype(np.float32), "p": (np.asarray(a), np.asarray(b) + 1)},
            {"s": f32(J, (2,)), "p": (f32(J, (2,)), J.ShapeDtypeStruct((), J.numpy.int32))},
            x, y, scale=3.0,
        )
    )(J.numpy.ones(2), J.numpy.int32(4)),
    "pure-int-result": lambda J: J.pure_callback(
        lambda x: np.asarray(x, np.int32) * 2, J.ShapeDtypeStruct((2,), J.numpy.int32), J.numpy.arange(2)
    ),
    "pure-float64-result-narrowed": lambda J: J.jit(
        lambda x: J.pure_callback(lambda v: np.zeros(3, np.float64), f32(J, (3,)), x)
    )(1.0),
    "pure-in-scan": lambda J: J.lax.scan(
        lambda c, x: (c + J.pure_callback(sin32, f32(J, ()), x), c), 0.0, J.numpy.arange(3.0)
    ),
    "pure-in-cond": lambda J: J.jit(
        lambda x: J.lax.cond(x > 0, lambda: J.pure_callback(sin32, f32(J, ()), x), lambda: x)
    )(1.0),
    "pure-calls-library": lambda J: J.jit(
        lambda x: J.pure_callback(lambda v: J.numpy.sin(v) * 2, f32(J, (3,)), x)
    )(J.numpy.arange(3.0)),
    "io-eager": lambda J: io_callback(J)(sin32, f32(J, (3,)), J.numpy.arange(3.0)),
    "io-jit-ordered": lambda J: J.jit(lambda x: io_callback(J)(sin32, f32(J, (3,)), x, ordered=True))(
        J.numpy.arange(3.0)
    ),
    "io-vmap": lambda J: J.vmap(lambda x: io_callback(J)(sin32, f32(J, ()), x))(J.numpy.arange(3.0)),
    "io-none-result": lambda J: J.jit(lambda x: (io_callback(J)(lambda v: None, None, x), x + 1)[1])(1.0),
}


@pytest.mark.parametrize("name", list(RESULTS))
def test_results_as_jax(name: str) -> None:
    both(RESULTS[name])


VMAP_METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"]


@pytest.mark.parametrize("method", VMAP_METHODS)
@pytest.mark.parametrize("under_jit", [False, True], ids=["eager", "jit"])
def test_vmap_methods_as_jax(method: str, under_jit: bool) -> None:
    """The results, and the shapes the callback is given, match JAX's."""
    seen: dict[str, list[tuple[tuple[int, ...], ...]]] = {"jt": [], "jax": []}

    def run(J: Lib) -> Any:
        log = seen["jt" if J is jt else "jax"]

        def callback(x: Any, y: Any) -> Any:
            log.append((np.shape(x), np.shape(y)))
            return (np.asarray(x) * np.mean(y)).astype(np.float32)

        def f(x: Any, y: Any) -> Any:
            return J.pure_callback(callback, f32(J, x.shape), x, y, vmap_method=method)

        g = J.vmap(f, in_axes=(1, None))
        if under_jit:
            g = J.jit(g)
        return g(J.numpy.arange(6.0).reshape(2, 3), J.numpy.float32(2.0))

    both(run)
    assert seen["jt"] == seen["jax"]


def test_nested_vmap_expand_dims_as_jax() -> None:
    both(
        lambda J: J.vmap(J.vmap(lambda x, y: J.pure_callback(
            lambda a, b: (np.asarray(a) + np.asarray(b)).astype(np.float32), f32(J, ()), x, y,
            vmap_method="expand_dims"
        ), in_axes=(0, None)), in_axes=(None, 0))(J.numpy.arange(3.0), J.numpy.arange(2.0))
    )


ERRORS: dict[str, Callable[[Lib], Any]] = {
    "vmap-method-none": lambda J: J.vmap(lambda x: J.pure_callback(sin32, f32(J, ()), x))(J.numpy.arange(3.0)),
    "vmap-method-bogus": lambda J: J.pure_callback(sin32, f32(J, ()), 1.0, vmap_method="bogus"),
    "pure-jvp": lambda J: J.jvp(lambda x: J.pure_callback(sin32, f32(J, ()), x), (1.0,), (1.0,)),
    "pure-grad": lambda J: J.grad(lambda x: J.pure_callback(sin32, f32(J, ()), x))(1.0),
    "io-jvp": lambda J: J.jvp(lambda x: io_callback(J)(sin32, f32(J, ()), x), (1.0,), (1.0,)),
    "io-vmap-ordered": lambda J: J.vmap(lambda x: io_callback(J)(sin32, f32(J, ()), x, ordered=True))(
        J.numpy.arange(3.0)
    ),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_jax(name: str) -> None:
    # vmap-method-bogus: an argument outside its Literal type.
    raises_as_jax(ERRORS[name], ill_typed=name == "vmap-method-bogus")


def boom(*args: Any) -> Any:
    raise ValueError("boom from callback")


RUNTIME_ERRORS: dict[str, Callable[[Lib], Any]] = {
    "pure-raises": lambda J: J.pure_callback(boom, f32(J, ()), 1.0),
    "pure-raises-jit": lambda J: J.jit(lambda x: J.pure_callback(boom, f32(J, ()), x))(1.0),
    "pure-wrong-shape": lambda J: J.pure_callback(lambda x: np.zeros(4, np.float32), f32(J, (3,)), 1.0),
    "pure-wrong-shape-jit": lambda J: J.jit(
        lambda x: J.pure_callback(lambda v: np.zeros(4, np.float32), f32(J, (3,)), x)
    )(1.0),
    "io-raises-ordered-jit": lambda J: J.jit(lambda x: io_callback(J)(boom, f32(J, ()), x, ordered=True))(1.0),
    "debug-raises-jit": lambda J: J.jit(lambda x: J.debug.callback(boom, x))(1.0),
    "debug-print-bad-format-jit": lambda J: J.jit(lambda x: J.debug.print("{:d}", x))(1.0),
}


@pytest.mark.parametrize("name", list(RUNTIME_ERRORS))
def test_callback_errors_reach_the_caller(name: str) -> None:
    """JAX raises a RuntimeError (JaxRuntimeError) when the program runs;
    ours is a CallbackError (a RuntimeError) naming the primitive, with the
    callback's own exception as the cause. Later programs still run."""
    with pytest.raises(RuntimeError):
        RUNTIME_ERRORS[name](jax)
        jax.effects_barrier()
    with pytest.raises(CallbackError) as info:
        RUNTIME_ERRORS[name](jt)
        jt.effects_barrier()
    message = str(info.value)
    assert any(prim in message for prim in ("pure_callback", "io_callback", "debug_callback", "debug_print"))
    if "raises" in name:
        assert isinstance(info.value.__cause__, ValueError) and "boom" in str(info.value.__cause__)
    # Nothing is left broken: the runtime token and later calls work.
    assert float(jt.jit(lambda x: io_callback(jt)(sin32, f32(jt, ()), x, ordered=True))(0.5)) == pytest.approx(
        np.sin(0.5)
    )


def test_eager_debug_callback_raises_the_callbacks_error() -> None:
    # JAX calls a debug callback directly when eager: its own exception.
    with pytest.raises(ValueError, match="boom"):
        jax.debug.callback(boom, 1.0)
    with pytest.raises(ValueError, match="boom"):
        jt.debug.callback(boom, 1.0)


def test_what_callbacks_receive() -> None:
    """Arrays of the library's type (eager: with the weak type), keyword
    arguments, and non-array leaves (strings) as they are."""
    seen: dict[str, list[Any]] = {"jt": [], "jax": []}

    def run(J: Lib) -> None:
        log = seen["jt" if J is jt else "jax"]

        def callback(*args: Any, **kwargs: Any) -> None:
            log.append((args, kwargs))

        J.debug.callback(callback, 1.0, "s", k=J.numpy.arange(2))
        J.jit(lambda x: J.debug.callback(callback, x, "s", k=J.numpy.arange(2)))(1.0)
        J.effects_barrier()

    run(jt)
    run(jax)
    assert len(seen["jt"]) == len(seen["jax"]) == 2
    for (our_args, our_kwargs), (their_args, their_kwargs) in zip(seen["jt"], seen["jax"]):
        assert isinstance(our_args[0], jt.Array) and our_args[1] == their_args[1] == "s"
        assert_same(our_args[0], their_args[0])
        assert list(our_kwargs) == ["k"]
        assert_same(our_kwargs["k"], their_kwargs["k"])


def test_pure_callback_may_be_dropped_io_callback_is_not() -> None:
    calls: dict[str, int] = {"pure": 0, "io": 0}

    def counted(kind: str) -> Callable[[Any], Any]:
        def callback(x: Any) -> Any:
            calls[kind] += 1
            return np.asarray(x, np.float32)

        return callback

    def program(J: Lib) -> Any:
        def f(x: Any) -> Any:
            J.pure_callback(counted("pure"), f32(J, ()), x)
            io_callback(J)(counted("io"), f32(J, ()), x)
            return x * 2

        return J.jit(f)(1.0)

    for lib in (jax, jt):
        calls.update(pure=0, io=0)
        program(lib)
        lib.effects_barrier()
        assert calls == {"pure": 0, "io": 1}, lib.__name__


def test_printed_equations_as_jax() -> None:
    def params(J: Lib, f: Callable[[Any], Any]) -> list[str]:
        text = str(J.make_jaxpr(f)(J.numpy.arange(3.0)))
        return [line.strip() for line in text.splitlines() if "=" in line and "lambda" not in line]

    def pure(J: Lib) -> Callable[[Any], Any]:
        return lambda x: J.pure_callback(sin32, f32(J, (3,)), x, vmap_method="sequential")

    def io(J: Lib) -> Callable[[Any], Any]:
        return lambda x: io_callback(J)(sin32, f32(J, (3,)), x, ordered=True)

    for make in (pure, io):
        ours, theirs = params(jt, make(jt)), params(jax, make(jax))
        assert ours[1:] == theirs[1:]  # the callback's own repr differs (ours names the user's function)
        assert ours[0].startswith("b:f32[3] = ") and theirs[0].startswith("b:f32[3] = ")


def test_debug_callback_under_transformations(capsys: pytest.CaptureFixture[str]) -> None:
    def run(J: Lib) -> None:
        def f(x: Any) -> Any:
            J.debug.callback(lambda v, tag: print(tag, np.asarray(v)), x, "t")
            return J.numpy.sin(x)

        J.vmap(f)(J.numpy.arange(2.0))
        J.grad(lambda x: J.numpy.sum(f(x)))(J.numpy.arange(2.0))
        J.jvp(f, (J.numpy.ones(2),), (J.numpy.ones(2),))
        J.jit(f)(3.0)

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs


def test_shape_dtype_struct_results_are_checked() -> None:
    with pytest.raises(TypeError):
        jt.pure_callback(sin32, [object()], 1.0)  # not a shape struct
    out = jt.pure_callback(sin32, jnp.zeros(3), jnp.arange(3.0))  # an array describes a result too
    assert out.shape == (3,) and out.dtype == jnp.float32
    assert jax_numpy is not None


def test_print_in_a_sharded_program_is_refused_not_a_crash() -> None:
    """A program over several devices cannot call back yet: a clear error
    (compiled without its callbacks it would crash the process)."""
    if len(jt.devices()) < 2:
        pytest.skip("needs two devices")
    from jaxtyped.sharding import NamedSharding, PartitionSpec

    sharding = NamedSharding(jt.make_mesh((2,), ("x",)), PartitionSpec("x"))
    x = jt.device_put(jnp.arange(4.0), sharding)

    def f(v: jt.Array) -> jt.Array:
        jt.debug.print("{}", v)
        return v * 2

    with pytest.raises(NotImplementedError, match="callbacks"):
        jt.jit(f)(x)
