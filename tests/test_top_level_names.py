"""The smaller top-level names of ``jaxtyped`` (``jacobian``, ``typeof``,
``custom_gradient``, ``closure_convert``, ``linear_transpose``,
``named_call``/``named_scope``, ``make_array_from_*``, the config states,
...) compared with JAX's: each test runs the same code against
``(jaxtyped, jaxtyped.numpy)`` and ``(jax, jax.numpy)``."""

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors

from oracle import assert_same, binary_fn, jax, jax_numpy, unary_fn

Pair = tuple[Any, Any]  # (top-level module, its numpy namespace)
OURS: Pair = (jt, jnp)
THEIRS: Pair = (jax, jax_numpy)


def both(fn: Callable[[Any, Any], Any], **kwargs: Any) -> None:
    """``fn(api, np)`` agrees for jaxtyped and JAX."""
    assert_same(fn(*OURS), fn(*THEIRS), **kwargs)


def test_jacobian_is_jacrev() -> None:
    def case(api: Any, L: Any) -> Any:
        return api.jacobian(unary_fn(lambda x: L.sin(x) * x[::-1]))(L.arange(3.0))

    both(case)
    assert jt.jacobian is jt.jacrev


def test_float0_is_jax_float0() -> None:
    assert jt.float0 == jax.float0
    both(lambda api, L: api.grad(binary_fn(lambda x, n: x * n), argnums=1, allow_int=True)(1.0, 3).dtype == api.float0)


@pytest.mark.parametrize("value", [1.0, 2, True, np.float32(1.0), np.arange(3, dtype=np.int16)], ids=repr)
def test_typeof(value: Any) -> None:
    ours, theirs = jt.typeof(value), jax.typeof(value)
    assert (ours.shape, ours.dtype, ours.weak_type) == (theirs.shape, theirs.dtype, theirs.weak_type)


def test_typeof_of_a_tracer() -> None:
    seen: list[Any] = []

    def record(x: jt.Array) -> jt.Array:
        seen.append(jt.typeof(x))
        return x

    jt.jit(record)(jnp.ones((2, 3), jnp.int32))
    assert str(seen[0]) == "i32[2,3]"


def test_default_backend() -> None:
    assert jt.default_backend() == jax.default_backend()


def test_custom_gradient_one_and_two_arguments() -> None:
    def case(api: Any, L: Any) -> Any:
        def square_rule(x: Any) -> Any:
            return x * x, unary_fn(lambda g: 3.0 * g * x)  # deliberately not 2x: the rule is used

        def product_rule(x: Any, y: Any) -> Any:
            return x * y, unary_fn(lambda g: (g, 2.0 * g))

        square, product = api.custom_gradient(square_rule), api.custom_gradient(product_rule)

        return (
            square(2.0),
            api.grad(square)(2.0),
            api.grad(product, (0, 1))(2.0, 5.0),
            api.jit(api.grad(unary_fn(lambda x: L.sum(square(x)))))(L.arange(3.0)),
            api.vmap(api.grad(square))(L.arange(3.0)),
        )

    both(case)


def test_custom_gradient_wrong_number_of_cotangents() -> None:
    bad = jt.custom_gradient(binary_fn(lambda x, y: (x * y, unary_fn(lambda g: (g,)))))
    with pytest.raises(TypeError, match="2 cotangents"):
        jt.grad(bad)(1.0, 2.0)


def test_closure_convert_hoists_only_float_tracers() -> None:
    def case(api: Any, L: Any) -> Any:
        constant = L.arange(3.0)
        f, consts = api.closure_convert(unary_fn(lambda x: x * constant), 1.0)
        assert consts == []  # a concrete const stays closed over, as in JAX

        def outer(y: Any) -> Any:
            g, hoisted = api.closure_convert(unary_fn(lambda x: L.sin(x * y) + 2 * L.int32(3)), 1.0)
            assert len(hoisted) == 1
            return g(2.0, *hoisted)

        return f(2.0), api.grad(outer)(3.0), api.jit(outer)(3.0)

    both(case)


def test_closure_convert_in_a_custom_vjp() -> None:
    """The use JAX documents: a closure passed through custom_vjp."""

    def case(api: Any, L: Any) -> Any:
        def apply(f: Any, x: Any, c: Any) -> Any:
            return f(x, c)

        def fwd(f: Any, x: Any, c: Any) -> Any:
            return f(x, c), (x, c)

        def bwd(f: Any, res: Any, g: Any) -> Any:
            _, pullback = api.vjp(f, *res)
            return pullback(g)

        wrapped = api.custom_vjp(apply, nondiff_argnums=(0,))
        wrapped.defvjp(fwd, bwd)

        def loss(w: Any) -> Any:
            f, consts = api.closure_convert(unary_fn(lambda x: L.tanh(w * x)), 0.5)
            return wrapped(f, 0.5, *consts)

        return api.grad(loss)(1.5)

    both(case)


def test_linear_transpose() -> None:
    def case(api: Any, L: Any) -> Any:
        t = api.linear_transpose(binary_fn(lambda x, y: (2.0 * x + y[0], L.cumsum(y))), L.ones(3), L.zeros(4))
        s = api.linear_transpose(unary_fn(lambda x: x.T @ L.arange(6.0).reshape(2, 3)), api.ShapeDtypeStruct((2, 4), L.float32))
        return t((L.arange(3.0), L.ones(4))), s(L.ones((4, 3)))

    both(case)


def test_named_call_and_named_scope() -> None:
    def case(api: Any, L: Any) -> Any:
        f = api.named_call(unary_fn(lambda x: L.sin(x) * 2), name="double_sine")
        with api.named_scope("outer"):
            return f(1.0), api.jit(api.grad(f))(1.0)

    both(case)
    not_a_name: Any = 3
    for api in (jt, jax):
        with pytest.raises(TypeError, match=None if api is jt and jt.DEBUG else "must be a string"):
            with api.named_scope(not_a_name):
                pass


def test_copy_to_host_async_and_live_arrays() -> None:
    x = jnp.arange(3.0)
    tree = {"a": x, "b": 1}
    assert jt.copy_to_host_async(tree) is tree
    assert any(a is x for a in jt.live_arrays())
    assert any(a is x for a in jt.live_arrays("cpu"))
    assert not any(a is x for a in jt.live_arrays("tpu"))


def test_process_names() -> None:
    assert jt.process_indices() == jax.process_indices() == [0]
    for name in ("host_count", "host_id", "host_ids"):
        with warnings.catch_warnings(record=True) as ours_w, warnings.catch_warnings():
            warnings.simplefilter("always")
            ours = getattr(jt, name)()
        with warnings.catch_warnings(record=True) as theirs_w:
            warnings.simplefilter("always")
            theirs = getattr(jax, name)()
        assert ours == theirs, name
        assert [str(w.message) for w in ours_w] == [str(w.message) for w in theirs_w], name


def _single(api: Any) -> Any:
    return api.sharding.SingleDeviceSharding(api.devices()[0])


def test_make_array_from_callback() -> None:
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    both(lambda api, L: api.make_array_from_callback((3, 4), _single(api), unary_fn(lambda index: data[index])))
    both(lambda api, L: api.make_array_from_callback((3, 4), _single(api), unary_fn(lambda index: data[index]), dtype=L.float32))
    for api, L in (OURS, THEIRS):
        with pytest.raises(ValueError, match="must match"):
            api.make_array_from_callback((3, 4), _single(api), unary_fn(lambda index: data[index]), dtype=L.int32)


def test_make_array_from_single_device_arrays_and_local_data() -> None:
    data = np.arange(6, dtype=np.int32).reshape(2, 3)
    both(lambda api, L: api.make_array_from_single_device_arrays((2, 3), _single(api), [L.asarray(data)]))
    both(lambda api, L: api.make_array_from_process_local_data(_single(api), data))
    both(lambda api, L: api.make_array_from_process_local_data(_single(api), data, (2, 3)))
    with pytest.raises(errors.JaxtypedValueError, match="global_shape"):
        jt.make_array_from_process_local_data(_single(jt), data, (4, 3))


def test_make_array_from_callback_on_a_mesh() -> None:
    mesh = jt.make_mesh((jt.device_count(),), ("x",))
    sharding = jt.sharding.NamedSharding(mesh, jt.sharding.PartitionSpec("x"))
    n = 2 * jt.device_count()
    data = np.arange(n, dtype=np.float32)
    calls: list[Any] = []

    def shard(index: Any) -> Any:
        calls.append(index)
        return data[index]

    out: Any = jt.make_array_from_callback((n,), sharding, shard)
    np.testing.assert_array_equal(np.asarray(out), data)
    assert len(calls) == jt.device_count()
    assert out.sharding == sharding


def test_config_states_set_and_restore() -> None:
    for name, value in [("enable_x64", True), ("debug_nans", True), ("default_matmul_precision", "highest"),
                        ("numpy_rank_promotion", "raise"), ("numpy_dtype_promotion", "strict"),
                        ("enable_checks", True), ("log_compiles", True), ("explain_cache_misses", True),
                        ("check_tracer_leaks", True), ("debug_infs", True), ("threefry_partitionable", False),
                        ("default_prng_impl", "threefry2x32"), ("transfer_guard_host_to_device", "log")]:  # fmt: skip
        ours, theirs = getattr(jt, name), getattr(jax, name)
        before = ours.value  # the suite's conftest switches some on (enable_checks)
        with ours(value), theirs(value):
            assert ours.value == theirs.value == value, name
        assert ours.value == before, name
    with jt.checking_leaks():
        assert jt.check_tracer_leaks.value
    levels: list[str | None] = []
    with jt.transfer_guard("disallow"):
        levels.append(jt.transfer_guard_device_to_host.value)
    levels.append(jt.transfer_guard_device_to_host.value)
    assert levels == ["disallow", None]
    with pytest.raises(ValueError):
        bad: Any = "sometimes"
        with jt.numpy_rank_promotion(bad):
            pass


def test_enable_x64_block_changes_dtypes() -> None:
    def case(api: Any, L: Any) -> Any:
        with api.enable_x64(True):
            wide = L.arange(3.0) * 2, api.jit(unary_fn(lambda x: x + 1))(L.ones(2))
        return wide, L.arange(3.0)

    both(case)


def test_debug_nans_raises_on_a_jitted_nan() -> None:
    f = jt.jit(jnp.log)
    with jt.debug_nans(True):
        with pytest.raises(FloatingPointError):
            f(jnp.array(-1.0))
        f(jnp.array(1.0))
    assert bool(jnp.isnan(f(jnp.array(-1.0))))
    with jt.debug_infs(True):
        with pytest.raises(FloatingPointError):
            f(jnp.array(0.0))
