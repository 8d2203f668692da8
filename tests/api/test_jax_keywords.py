"""The keywords and positions that JAX programs pass, with JAX's behaviour.

``test_signature_parity.py`` checks that each call binds. This module checks
what the bound arguments do, comparing each with JAX: the ``backend`` of
the device queries, ``make_jaxpr``'s ``axis_env``, ``checkpoint``'s
``static_argnames``, ``device_put``'s ``donate``, ``may_alias`` and
``src``, ``lax``'s ``operand=`` and its new keywords, the renamed
parameters of ``new_ref``, ``ref.addupdate`` and ``dtypes.issubdtype``,
``custom_jvp``/``custom_vjp``'s ``nondiff_argnames`` and
``ShapeDtypeStruct``'s ``sharding``.
"""

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.lax as lax
import jaxtyped.numpy as jnp
from jaxtyped import errors
from lambdas import fn1, fn2
from oracle import assert_same, jax, jax_numpy, mesh_sharding, raises_as_jax

jax_lax: Any = jax.lax

# === backend= of the device queries ===

QUERIES = ("devices", "local_devices", "device_count", "local_device_count", "process_count", "process_index", "process_indices")


@pytest.mark.parametrize("name", QUERIES)
def test_backend_cpu_answers_as_without_it(name: str) -> None:
    ours = getattr(jt, name)
    assert ours(backend="cpu") == ours()
    assert ours("cpu") == ours() if name != "local_devices" else ours(backend="cpu") == ours()
    own_client = getattr(jt.devices()[0], "client")  # noqa: B009 - not on the Device protocol
    assert ours(backend=own_client) == ours()
    theirs = getattr(jax, name)
    assert len(str(ours(backend="cpu"))) > 0 and str(theirs(backend="cpu")) != ""


@pytest.mark.parametrize("name", QUERIES)
@pytest.mark.parametrize("backend", ["gpu", "tpu", "CPU", "foo"])
def test_an_unknown_backend_is_jaxs_runtime_error(name: str, backend: str) -> None:
    raises_as_jax(lambda L: getattr(L, name)(backend=backend))
    with pytest.raises(errors.UnknownBackendError, match=f"{name}: unknown backend '{backend}'"):
        getattr(jt, name)(backend=backend)


def test_a_backend_of_the_wrong_type_names_the_function() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match="backend"):  # ours, or the debug mode's type check
        jt.device_count(backend=3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test


def test_local_devices_of_a_process() -> None:
    assert jt.local_devices(0) == jt.local_devices() == jt.local_devices(process_index=0, backend="cpu")
    raises_as_jax(lambda L: L.local_devices(1))
    with pytest.raises(errors.JaxtypedValueError, match="local_devices: unknown process_index 1"):
        jt.local_devices(1)


def test_host_id_is_jaxs_deprecated_name_for_process_index() -> None:
    with pytest.warns(UserWarning, match="renamed from `host_id` to `process_index`"):
        assert jt.local_devices(host_id=0) == jt.local_devices()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert jax.local_devices(host_id=0) == jax.local_devices()


# === make_jaxpr(axis_env=...) ===

AXIS_ENV_PROGRAMS: dict[str, tuple[Callable[[Any], Callable[[Any], Any]], list[tuple[str, int]]]] = {
    "psum": (lambda L: lambda x: L.lax.psum(x, "i"), [("i", 4)]),
    "axis_index": (lambda L: lambda x: L.lax.axis_index("i") + x, [("i", 4)]),
    "pmean-two-axes": (lambda L: lambda x: L.lax.pmean(x, ("i", "j")), [("i", 4), ("j", 2)]),
    "pmax": (lambda L: lambda x: L.lax.pmax(x * 2.0, "j"), [("i", 4), ("j", 2)]),
}


def _printed(jaxpr: object) -> str:
    return "\n".join(line.rstrip() for line in str(jaxpr).splitlines())


@pytest.mark.parametrize("case", sorted(AXIS_ENV_PROGRAMS))
def test_axis_env_stages_collectives_as_jax(case: str) -> None:
    program, env = AXIS_ENV_PROGRAMS[case]
    ours = jt.make_jaxpr(program(jt), axis_env=env)(1.0)
    theirs = jax.make_jaxpr(program(jax), axis_env=env)(1.0)
    assert _printed(ours) == _printed(theirs)


def test_axis_env_is_the_third_positional_parameter() -> None:
    closed, shape = jt.make_jaxpr(fn1(lambda x: lax.psum(x, "i")), (), [("i", 2)], True)(jnp.ones(3))
    assert "psum[axes=('i',)" in str(closed)
    assert isinstance(shape, jt.ShapeDtypeStruct) and shape.shape == (3,)


def test_without_axis_env_the_name_is_unbound_as_in_jax() -> None:
    raises_as_jax(lambda L: L.make_jaxpr(fn1(lambda x: L.lax.psum(x, "i")))(1.0))


@pytest.mark.parametrize("env", [[("i",)], "i", [("i", 1, 2)]])
def test_a_malformed_axis_env_is_jaxs_value_error(env: Any) -> None:
    raises_as_jax(lambda L: L.make_jaxpr(fn1(lambda x: x), axis_env=env)(1.0), ill_typed=True)


@pytest.mark.parametrize("size", [0, -1, True])
def test_an_axis_size_must_be_a_positive_int(size: Any) -> None:
    with pytest.raises(errors.JaxtypedValueError, match="the size of axis 'i' in axis_env must be a positive int"):
        jt.make_jaxpr(fn1(lambda x: x), axis_env=[("i", size)])(1.0)


def test_a_float_axis_size_is_refused() -> None:
    with pytest.raises((errors.JaxtypedValueError, errors.DebugTypeError), match="axis_env"):
        jt.make_jaxpr(fn1(lambda x: x), axis_env=[("i", 2.0)])(1.0)  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]  # the error under test


# === checkpoint(static_argnames=...) ===


def _repeated_sin(L: Any) -> Any:
    def f(x: Any, n: int) -> Any:
        for _ in range(n):  # Python control flow on n: n must be static
            x = L.numpy.sin(x)
        return x

    return f


@pytest.mark.parametrize("by_keyword", [True, False])
def test_static_argnames_passes_the_value_as_python(by_keyword: bool) -> None:
    ours = jt.checkpoint(_repeated_sin(jt), static_argnames="n")
    theirs = jax.checkpoint(_repeated_sin(jax), static_argnums=1)  # JAX 0.10's remat ignores static_argnames
    if by_keyword:
        assert_same(ours(0.7, n=3), theirs(0.7, 3))
        assert_same(jt.grad(ours)(0.7, n=3), jax.grad(theirs)(0.7, 3))
    else:
        assert_same(ours(0.7, 3), theirs(0.7, 3))
        assert_same(jt.grad(ours)(0.7, 3), jax.grad(theirs)(0.7, 3))


def test_static_argnames_under_jit_retraces_per_value() -> None:
    ours = jt.jit(jt.checkpoint(_repeated_sin(jt), static_argnames=("n",)), static_argnames="n")
    assert_same(ours(0.7, n=1), np.sin(np.float32(0.7)))
    assert_same(ours(0.7, n=2), np.sin(np.sin(np.float32(0.7))))


def test_static_argnames_must_name_parameters() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"checkpoint: static_argnames names \['m'\]"):
        jt.checkpoint(_repeated_sin(jt), static_argnames="m")
    with pytest.raises(errors.JaxtypedTypeError, match="static_argnames"):  # ours, or the debug mode's type check
        jt.checkpoint(_repeated_sin(jt), static_argnames=[1])  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]  # the error under test


# === device_put(donate=, may_alias=, src=) ===


def test_donate_deletes_the_input_that_was_copied() -> None:
    x = jnp.arange(3.0)
    y = jt.device_put(x, jt.devices()[-1], donate=True)
    assert x.is_deleted() and not y.is_deleted()
    # JAX documents donation as best effort ("x can be overwritten and marked
    # deleted"); its CPU client keeps x, ours frees it. The values agree.
    theirs_y = jax.device_put(jax_numpy.arange(3.0), jax.devices()[-1], donate=True)
    assert_same(y, theirs_y)
    assert y.devices() == {jt.devices()[-1]}


def test_donating_a_numpy_input_or_a_scalar_deletes_nothing_shared() -> None:
    a = jt.device_put(1.0, donate=True)
    b = jt.device_put(1.0)
    assert not a.is_deleted() and not b.is_deleted()
    assert_same(jt.device_put(np.ones(2), donate=True), jax.device_put(np.ones(2), donate=True))


def test_may_alias_false_copies_an_array_already_in_place() -> None:
    mesh = jt.make_mesh((len(jt.devices()),), ("x",))
    sharding = jt.sharding.NamedSharding(mesh, jt.sharding.PartitionSpec("x"))
    x = jt.device_put(jnp.arange(8.0), sharding)
    assert jt.device_put(x, sharding) is x
    copied = jt.device_put(x, sharding, may_alias=False)
    assert copied is not x
    assert_same(copied, jax_numpy.arange(8.0))
    assert copied.sharding == sharding


def test_src_names_where_the_input_lives() -> None:
    device = jt.devices()[0]
    theirs = jax.device_put(jax_numpy.ones(2), jax.devices()[-1], src=jax.devices()[0])
    assert_same(jt.device_put(jnp.ones(2), jt.devices()[-1], src=device), theirs)
    with pytest.raises(errors.JaxtypedTypeError, match="src"):  # ours, or the debug mode's type check
        jt.device_put(jnp.ones(2), src="cpu")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]  # the error under test


def test_per_leaf_donation_is_refused_by_name() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match="donate"):  # ours, or the debug mode's type check
        jt.device_put((jnp.ones(2), jnp.ones(2)), donate=(True, False))  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]  # the error under test


# === lax: operand= and the newer keywords ===

X = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
KEYWORD_CALLS: dict[str, Callable[[Any], Any]] = {
    "reshape": lambda L: L.lax.reshape(operand=X, new_sizes=(6, 4)),
    "transpose": lambda L: L.lax.transpose(operand=X, permutation=(2, 0, 1)),
    "convert_element_type": lambda L: L.lax.convert_element_type(operand=X, new_dtype=np.int32),
    "reduce_sum": lambda L: L.lax.reduce_sum(operand=X, axes=(0, 2)),
    "reduce_max": lambda L: L.lax.reduce_max(operand=X, axes=(1,)),
    "argmax": lambda L: L.lax.argmax(operand=X, axis=2, index_dtype=np.int32),
    "slice": lambda L: L.lax.slice(operand=X, start_indices=(0, 1, 0), limit_indices=(2, 3, 4)),
    "dynamic_slice": lambda L: L.lax.dynamic_slice(operand=X, start_indices=(1, 1, 1), slice_sizes=(1, 2, 2)),
    "dynamic_update_slice": lambda L: L.lax.dynamic_update_slice(operand=X, update=np.zeros((1, 1, 2), np.float32), start_indices=(1, 2, 2)),
    "pad": lambda L: L.lax.pad(operand=X, padding_value=np.float32(-1), padding_config=((0, 0, 0), (1, 0, 0), (0, 2, 1))),
    "rev": lambda L: L.lax.rev(operand=X, dimensions=(1,)),
    "broadcast": lambda L: L.lax.broadcast(operand=X[0], sizes=(2,)),
    "broadcast_in_dim": lambda L: L.lax.broadcast_in_dim(operand=X[0, 0], shape=(3, 4), broadcast_dimensions=(1,)),
    "cumsum": lambda L: L.lax.cumsum(operand=X, axis=1, reverse=True),
    "sort": lambda L: L.lax.sort(operand=-X, dimension=2),
    "top_k": lambda L: L.lax.top_k(operand=X, k=2),
    "index_in_dim": lambda L: L.lax.index_in_dim(operand=X, index=1, axis=1, keepdims=False),
    "dynamic_index_in_dim": lambda L: L.lax.dynamic_index_in_dim(operand=X, index=-1, axis=2, keepdims=False),
    "dynamic_index_in_dim-nonnegative": lambda L: L.lax.dynamic_index_in_dim(X, -1, 2, False, allow_negative_indices=False),
    "collapse": lambda L: L.lax.collapse(operand=X, start_dimension=0, stop_dimension=2),
    "tile": lambda L: L.lax.tile(operand=X[0], reps=(2, 1)),
    "split": lambda L: L.lax.split(operand=X, sizes=(1, 3), axis=2),
    "reduce_precision": lambda L: L.lax.reduce_precision(operand=X / 7, exponent_bits=5, mantissa_bits=2),
    "dot-dimension_numbers": lambda L: L.lax.dot(X, X, dimension_numbers=(((2,), (2,)), ((0,), (0,)))),
    "dot-dimension_numbers-preferred": lambda L: L.lax.dot(
        X.astype(np.int8), X.astype(np.int8), dimension_numbers=(((1,), (1,)), ((0,), (0,))), preferred_element_type=np.int32
    ),
}


@pytest.mark.parametrize("case", sorted(KEYWORD_CALLS))
def test_lax_keywords_as_jax(case: str) -> None:
    program = KEYWORD_CALLS[case]
    assert_same(program(jt), program(jax))


def test_lax_dot_without_dimension_numbers_needs_rank_one_or_two() -> None:
    raises_as_jax(lambda L: L.lax.dot(X, X))
    with pytest.raises(errors.JaxtypedValueError, match="or give dimension_numbers"):
        lax.dot(X, X)


# === jnp positions and keywords ===


def test_stack_takes_dtype_fourth_after_jaxs_out() -> None:
    assert_same(jnp.stack([X[0], X[1]], 1, None, np.int32), jax_numpy.stack([X[0], X[1]], 1, None, np.int32))
    raises_as_jax(lambda L: L.numpy.stack([X[0], X[1]], 0, np.zeros((2, 3, 4), np.float32)), ill_typed=True)


def test_reshape_and_asarray_take_copy_by_keyword() -> None:
    assert_same(jnp.reshape(X, (4, 6), copy=True), jax_numpy.asarray(jax_numpy.reshape(X, (4, 6), copy=True)))
    assert_same(jnp.asarray(X, np.float16, copy=True), jax_numpy.asarray(X, np.float16, copy=True))


def test_make_mesh_takes_axis_types_third() -> None:
    mesh = jt.make_mesh((1,), ("x",), (jt.sharding.AxisType.Explicit,))
    assert mesh.axis_names == ("x",)


# === renamed parameters ===


def test_new_ref_init_val_and_addupdate_x() -> None:
    def program(L: Any) -> Any:
        ref = L.new_ref(init_val=np.arange(3.0, dtype=np.float32))
        L.ref.addupdate(ref, 1, x=10.0)
        return L.freeze(ref)

    assert_same(program(jt), program(jax))


def test_empty_ref_memory_space_defaults() -> None:
    ref = jt.ref.empty_ref(jt.ShapeDtypeStruct((2,), jnp.float32), None)
    assert ref.shape == (2,)
    with pytest.raises(errors.JaxtypedValueError, match="only the default memory_space"):
        jt.ref.empty_ref(jt.ShapeDtypeStruct((2,), jnp.float32), memory_space="any")


@pytest.mark.parametrize(
    ("a", "b"), [(np.float32, np.floating), (np.int8, np.floating), (None, np.floating), (np.float64, None), (jnp.bfloat16, np.inexact)]
)
def test_dtypes_issubdtype_takes_a_and_b(a: Any, b: Any) -> None:
    assert jt.dtypes.issubdtype(a=a, b=b) is jax.dtypes.issubdtype(a=a, b=b)


def test_random_key_dtype_chooses_the_implementation() -> None:
    key = jt.random.key(7)
    assert_same(jt.random.key_data(jt.random.key(7, dtype=key.dtype)), jax.random.key_data(jax.random.key(7)))
    assert_same(jt.random.key_data(jt.random.key(7, dtype="threefry2x32")), jax.random.key_data(jax.random.key(7)))
    wrapped = jt.random.wrap_key_data(jt.random.key_data(key), dtype=key.dtype)
    assert wrapped.dtype == key.dtype
    raises_as_jax(lambda L: L.random.key(0, impl="threefry2x32", dtype="threefry2x32"))
    raises_as_jax(lambda L: L.random.key(0, dtype="float32"))


# === custom_jvp / custom_vjp: nondiff_argnames, and the rules' argument order ===


def _affine_with_rule(L: Any, **options: Any) -> Any:
    @functools.partial(L.custom_jvp, **options)
    def affine(a: Any, x: Any, b: Any) -> Any:
        return a * x + b

    def affine_jvp(first: Any, second: Any, primals: Any, tangents: Any) -> Any:
        # The non-differentiable arguments arrive first, in position order:
        # a rule that weighs them differently tells the orders apart.
        (x,), (t,) = primals, tangents
        return affine(first, x, second), 10.0 * first * t + second

    affine.defjvp(affine_jvp)
    return affine


@pytest.mark.parametrize(
    "options",
    [{"nondiff_argnums": (2, 0)}, {"nondiff_argnums": (0, 2)}, {"nondiff_argnames": ("b", "a")}, {"nondiff_argnums": (0,), "nondiff_argnames": ("b",)}],
    ids=["nums-reversed", "nums", "names", "both"],
)
def test_nondiff_arguments_reach_the_rule_in_position_order(options: dict[str, Any]) -> None:
    def program(L: Any) -> Any:
        affine = _affine_with_rule(L, **options)
        return L.jvp(fn1(lambda x: affine(2.0, x, 5.0)), (1.0,), (1.0,))

    assert_same(program(jt), program(jax))


def test_custom_vjp_nondiff_argnames() -> None:
    def program(L: Any) -> Any:
        @functools.partial(L.custom_vjp, nondiff_argnames=("scale",))
        def scaled(x: Any, scale: float) -> Any:
            return x * scale

        def fwd(x: Any, scale: float) -> Any:
            return x * scale, None

        def bwd(scale: float, _: None, g: Any) -> Any:
            return (g * scale * 3.0,)

        scaled.defvjp(fwd, bwd)
        return L.grad(fn1(lambda x: scaled(x, scale=2.0)))(1.5)

    assert_same(program(jt), program(jax))


def test_nondiff_argnames_must_name_parameters() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"custom_jvp: nondiff_argnames names \['c'\]"):
        jt.custom_jvp(fn2(lambda a, b: a * b), nondiff_argnames=("c",))  # fmt: skip


# === ShapeDtypeStruct(sharding=...) ===


def _main_signature(text: str) -> str:
    return next(line for line in text.splitlines() if "func.func public @main" in line)


def test_a_stand_in_with_a_sharding_lowers_for_that_layout() -> None:
    ours_sharding = mesh_sharding(True, "a")
    theirs_sharding = mesh_sharding(False, "a")
    ours = jt.jit(fn1(lambda v: v * 2)).lower(jt.ShapeDtypeStruct((8,), jnp.float32, sharding=ours_sharding))
    theirs = jax.jit(fn1(lambda v: v * 2)).lower(jax.ShapeDtypeStruct((8,), jax_numpy.float32, sharding=theirs_sharding))
    argument = '%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}'
    assert argument in _main_signature(ours.as_text())
    assert argument in _main_signature(theirs.as_text())
    compiled = ours.compile()
    result = compiled(jt.device_put(jnp.arange(8.0), ours_sharding))
    assert_same(result, jax.jit(fn1(lambda v: v * 2))(jax.device_put(jax_numpy.arange(8.0), theirs_sharding)))
    assert result.sharding == ours_sharding


def test_a_stand_ins_sharding_is_part_of_its_value() -> None:
    sharded = jt.ShapeDtypeStruct((8,), jnp.float32, sharding=mesh_sharding(True, "a"))
    plain = jt.ShapeDtypeStruct((8,), jnp.float32)
    assert sharded != plain and sharded == jt.ShapeDtypeStruct((8,), jnp.float32, sharding=mesh_sharding(True, "a"))
    assert hash(sharded) == hash(jt.ShapeDtypeStruct((8,), jnp.float32, sharding=mesh_sharding(True, "a")))
    assert repr(sharded).startswith("ShapeDtypeStruct(shape=(8,), dtype=float32, sharding=NamedSharding(")
    assert repr(plain) == "ShapeDtypeStruct(shape=(8,), dtype=float32)"


def test_a_bare_partition_spec_needs_a_mesh() -> None:
    spec = jt.sharding.PartitionSpec("a")
    mesh = jt.sharding.Mesh(np.array(jt.devices()[:2]), ("a",))
    with jt.set_mesh(mesh):
        stand_in = jt.ShapeDtypeStruct((4,), jnp.float32, sharding=spec)
    assert stand_in.sharding == jt.sharding.NamedSharding(mesh, spec)
    with pytest.raises(errors.JaxtypedValueError, match="a bare PartitionSpec"):
        jt.ShapeDtypeStruct((4,), jnp.float32, sharding=spec)


def test_a_sharding_of_the_wrong_kind_is_jaxs_value_error() -> None:
    raises_as_jax(lambda L: L.ShapeDtypeStruct((8,), np.float32, sharding="x"), ill_typed=True)
