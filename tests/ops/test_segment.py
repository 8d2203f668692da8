"""``jaxtyped.ops`` (``segment_sum``, ``segment_max``, ``segment_min``,
``segment_prod``) against ``jax.ops``.

Cases run through the shared oracle (all of JAX's results from one
``jax.jit`` per table): values, dtypes, weak types and shapes for 1-D and
N-D data, int/float/bool/complex dtypes, out-of-range and negative ids
under every ``mode``, empty segments, broadcast data and N-D ids,
``bucket_size``, the sorted/unique flags, ``jit``, ``vmap`` (over data, ids
or both), ``jvp`` and ``grad`` (max/min ties, products with zeros), and the
kind of error JAX raises on bad input. ``num_segments=None`` reads the ids,
which JAX refuses under its ``jit``: those cases have a table run eagerly.

Compile time: jaxtyped evaluates eagerly on the host, so only the ``jit``
cases compile; the inputs share a few shapes and dtypes (``D``/``IDS`` of
six entries, ``N`` segments) so JAX's one program per table stays small.
"""

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.ops
from jaxtyped import errors, ops

from oracle import Case, CaseTable, Group, Namespace, binary_fn, debug_violations, host, jax, library, tol, unary_fn

jax_ops: Any = pytest.importorskip("jax.ops")

KINDS = ("sum", "max", "min", "prod")
N = 4
# Ties (3, 3 in segment 0), an id past the end (5) and a negative one (-1).
D = host("float32", [3.0, 3.0, 2.0, 2.0, 5.0, 7.0])
IDS = host("int32", [0, 0, 1, 3, -1, 5])
IN_RANGE = host("int32", [2, 0, 0, 3, 1, 3])
SORTED = host("int32", [0, 0, 1, 1, 3, 3])
D2 = np.stack([D, -2.0 * D], axis=1)  # (6, 2): trailing dims
WEIGHTS = host("float32", [1.0, 2.0, 3.0, 4.0])


def ops_of(L: Namespace) -> Any:
    """The ``ops`` module that goes with numpy namespace ``L``."""
    return ops if L is jnp else jax_ops


def _arg(L: Namespace, value: Any) -> Any:
    return L.asarray(value) if isinstance(value, np.ndarray) else value


def seg(kind: str, data: Any, ids: Any, *args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """``ops.segment_<kind>(data, ids, *args, **kwargs)``, NumPy inputs
    converted with ``L.asarray``."""

    def fn(L: Namespace) -> Any:
        return getattr(ops_of(L), f"segment_{kind}")(_arg(L, data), _arg(L, ids), *args, **kwargs)

    return fn


def _value_cases() -> list[Case]:
    cases: list[Case] = []
    for kind in KINDS:
        cases += [
            Case(f"values-{kind}-1d", seg(kind, D, IDS, N)),
            Case(f"values-{kind}-trailing", seg(kind, D2, IDS, N)),
            Case(f"values-{kind}-3d", seg(kind, D2.reshape(6, 2, 1), IDS, N)),
            Case(f"values-{kind}-more-segments", seg(kind, D, IN_RANGE, 6)),
            Case(f"flags-{kind}-sorted", seg(kind, D, SORTED, N, indices_are_sorted=True)),
            Case(f"flags-{kind}-unique", seg(kind, D[:4], host("int32", [3, 0, 2, 1]), N, unique_indices=True)),
        ]
    return cases


DTYPE_DATA = {
    "int8": host("int8", [100, 100, -7, 3, 9, 1]),  # the int8 sum wraps, as XLA's scatter-add does
    "uint8": host("uint8", [200, 100, 7, 3, 9, 1]),
    "int32": host("int32", [4, -3, 2, 2, 5, 7]),
    "float16": host("float16", [0.1, 0.2, -0.3, 2.0, 5.0, 7.0]),
    "bfloat16": host("bfloat16", [0.1, 0.2, -0.3, 2.0, 5.0, 7.0]),
    "complex64": host("complex64", [1 + 2j, 2.0, 3j, -1 - 1j, 5.0, 7.0]),
}


def _dtype_cases() -> list[Case]:
    cases: list[Case] = []
    for name, data in DTYPE_DATA.items():
        for kind in KINDS:
            cases.append(Case(f"dtypes-{kind}-{name}", seg(kind, data, IDS, N), rtol=tol(name), atol=tol(name)))
    bools = host("bool", [True, False, False, True, True, False])
    cases += [
        Case("dtypes-max-bool", seg("max", bools, IDS, N)),
        Case("dtypes-min-bool", seg("min", bools, IDS, N)),
        Case("dtypes-sum-bool", seg("sum", bools, IDS, N)),  # JAX: TypeError (no scatter-add of bool)
        Case("dtypes-prod-bool", seg("prod", bools, IDS, N)),
        # A weakly typed array and Python scalars as data: strong results.
        Case("dtypes-weak", lambda L: ops_of(L).segment_sum(library(L).lax.broadcast(2.0, (6,)), L.asarray(IDS), N)),
        Case("dtypes-python-float", seg("max", 2.5, IDS, N)),
        Case("dtypes-python-int", seg("sum", 3, IDS, N)),
        Case("dtypes-uint8-ids", seg("sum", D, IN_RANGE.astype(np.uint8), N)),
        Case("dtypes-int8-ids", seg("min", D, IDS.astype(np.int8), N)),
    ]
    return cases


def _mode_cases() -> list[Case]:
    def enum_clip(L: Namespace) -> Any:
        return ops_of(L).segment_max(L.asarray(D), L.asarray(IDS), N, mode=library(L).lax.GatherScatterMode.CLIP)

    cases = [Case("modes-enum-clip", enum_clip)]
    for kind in KINDS:
        cases += [
            Case(f"modes-{kind}-clip", seg(kind, D, IDS, N, mode="clip")),
            Case(f"modes-{kind}-fill", seg(kind, D, IDS, N, mode="fill")),
            Case(f"modes-{kind}-drop", seg(kind, D2, IDS, N, mode="drop")),
            # Out-of-range ids under this promise are undefined: in range only.
            Case(f"modes-{kind}-promise", seg(kind, D, IN_RANGE, N, mode="promise_in_bounds")),
        ]
    return cases + [Case("modes-unknown", seg("sum", D, IDS, N, mode="wrap"))]


def _shape_cases() -> list[Case]:
    ids_2d = np.stack([IDS, IN_RANGE])
    return [
        Case("shapes-broadcast-leading-1", seg("sum", D[:1], IDS, N)),
        Case("shapes-scalar-data", seg("max", host("float32", 1.5), IDS, N)),
        Case("shapes-scalar-id", seg("sum", host("float32", 1.5), host("int32", 2), N)),
        Case("shapes-2d-ids", seg("sum", D, ids_2d, N)),
        Case("shapes-zero-segments", seg("max", D2, IDS, 0)),
        Case("shapes-empty-ids", seg("min", np.zeros((0, 2), np.float32), np.zeros(0, np.int32), N)),
        Case("shapes-empty-trailing", seg("prod", np.zeros((6, 0), np.float32), IDS, N)),
        # Nothing lands, so JAX returns the filled rows without looking at data.
        Case("shapes-empty-ids-any-data", seg("sum", D, np.zeros(0, np.int32), N)),
        # Errors: data that does not broadcast to ids.shape + data.shape[1:].
        Case("shapes-mismatched-leading", seg("sum", D[:3], IDS, N)),
        Case("shapes-mismatched-zero-segments", seg("sum", D[:3], IDS, 0)),
        Case("shapes-scalar-id-1d-data", seg("sum", D, host("int32", 2), N)),
        Case("shapes-2d-ids-2d-data", seg("max", D2, ids_2d, N)),
    ]


def _bucket_cases() -> list[Case]:
    cases: list[Case] = []
    for kind in KINDS:
        cases += [
            Case(f"bucket-{kind}-2", seg(kind, D, IDS, N, bucket_size=2)),
            Case(f"bucket-{kind}-4-trailing", seg(kind, D2, IDS, N, bucket_size=4)),
            Case(f"bucket-{kind}-int8-3", seg(kind, DTYPE_DATA["int8"], IDS, N, bucket_size=3)),
        ]
    cases += [
        Case("bucket-sum-1", seg("sum", D, IDS, N, bucket_size=1)),
        Case("bucket-sum-10", seg("sum", D, IDS, N, bucket_size=10)),
        Case("bucket-sum-float16", seg("sum", DTYPE_DATA["float16"], IDS, N, bucket_size=4), rtol=tol("float16"), atol=tol("float16")),
        Case("bucket-max-clip", seg("max", D, IDS, N, bucket_size=4, mode="clip")),
        Case("bucket-sum-zero-segments", seg("sum", D, IDS, 0, bucket_size=2)),
        Case("bucket-sum-empty-ids", seg("sum", np.zeros((0, 2), np.float32), np.zeros(0, np.int32), N, bucket_size=2)),
        Case("bucket-max-empty-ids", seg("max", np.zeros(0, np.float32), np.zeros(0, np.int32), N, bucket_size=2)),
        Case("bucket-sum-size-0", seg("sum", D, IDS, N, bucket_size=0)),
        Case("bucket-sum-negative-size", seg("sum", D, IDS, N, bucket_size=-2)),
        Case("bucket-sum-scalar-ids", seg("sum", host("float32", 1.0), host("int32", 1), N, bucket_size=2)),
        Case("bucket-sum-2d-ids", seg("sum", D, np.stack([IDS, IN_RANGE]), N, bucket_size=2)),
        Case("bucket-sum-bool", seg("sum", host("bool", [True] * 6), IDS, N, bucket_size=2)),
    ]
    return cases


def _error_cases() -> list[Case]:
    return [
        Case("errors-float-ids", seg("sum", D, IDS.astype(np.float32), N)),
        Case("errors-float-num-segments", seg("sum", D, IDS, 4.0)),
        Case("errors-str-num-segments", seg("max", D, IDS, "4")),
        Case("errors-negative-num-segments", seg("sum", D, IDS, -1)),
        Case("errors-list-data", seg("sum", [1.0, 2.0], IN_RANGE[:2], N)),
        Case("errors-list-ids", seg("min", D[:2], [0, 1], N)),
        Case("errors-str-data", seg("sum", "ab", IN_RANGE[:2], N)),
    ]


def _jit_cases() -> list[Case]:
    def jitted(kind: str, **kwargs: Any) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            f = getattr(ops_of(L), f"segment_{kind}")
            return library(L).api.jit(binary_fn(lambda x, i: f(x, i, N, **kwargs)))(L.asarray(D), L.asarray(IDS))

        return fn

    def traced_ids_no_count(L: Namespace) -> Any:
        return library(L).api.jit(binary_fn(lambda x, i: ops_of(L).segment_sum(x, i)))(L.asarray(D), L.asarray(IDS))

    def traced_count(L: Namespace) -> Any:
        return library(L).api.jit(unary_fn(lambda n: ops_of(L).segment_sum(L.asarray(D), L.asarray(IDS), n)))(3)

    cases = [Case(f"jit-{kind}", jitted(kind)) for kind in KINDS]
    return [
        *cases,
        Case("jit-bucket", jitted("prod", bucket_size=4)),
        Case("jit-clip", jitted("min", mode="clip")),
        Case("jit-traced-ids-no-num-segments", traced_ids_no_count),
        Case("jit-traced-num-segments", traced_count),
    ]


def _vmap_cases() -> list[Case]:
    xs = np.stack([D, D[::-1]])
    ids = np.stack([IDS, IN_RANGE, SORTED])

    def over_data(kind: str) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            f = getattr(ops_of(L), f"segment_{kind}")
            return library(L).api.vmap(unary_fn(lambda x: f(x, L.asarray(IDS), N)))(L.asarray(xs))

        return fn

    def over_ids(kind: str) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            f = getattr(ops_of(L), f"segment_{kind}")
            return library(L).api.vmap(unary_fn(lambda i: f(L.asarray(D), i, N)))(L.asarray(ids))

        return fn

    def over_both(kind: str, **kwargs: Any) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            f = getattr(ops_of(L), f"segment_{kind}")
            per = binary_fn(lambda x, i: f(x, i, N, **kwargs))
            return library(L).api.vmap(per, in_axes=(1, 0))(L.asarray(np.stack([D, -D, D * 2], 1)), L.asarray(ids))

        return fn

    def ids_no_count(L: Namespace) -> Any:
        return library(L).api.vmap(unary_fn(lambda i: ops_of(L).segment_sum(L.asarray(D), i)))(L.asarray(ids))

    cases: list[Case] = []
    for kind in KINDS:
        cases += [
            Case(f"vmap-{kind}-data", over_data(kind)),
            Case(f"vmap-{kind}-ids", over_ids(kind)),
            Case(f"vmap-{kind}-both", over_both(kind)),
        ]
    return [*cases, Case("vmap-sum-bucket", over_both("sum", bucket_size=4)), Case("vmap-ids-no-num-segments", ids_no_count)]


def _grad_cases() -> list[Case]:
    def weighted(kind: str, ids: Any = IDS, **kwargs: Any) -> Callable[[Namespace], Any]:
        """The gradient of ``sum(segment_<kind>(x) * WEIGHTS)`` at ``D``."""

        def fn(L: Namespace) -> Any:
            f = getattr(ops_of(L), f"segment_{kind}")
            total = unary_fn(lambda x: L.sum(f(x, L.asarray(ids), N, **kwargs) * L.asarray(WEIGHTS)))
            return library(L).api.grad(total)(L.asarray(D))

        return fn

    def jvp(kind: str, **kwargs: Any) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            f = getattr(ops_of(L), f"segment_{kind}")
            return library(L).api.jvp(unary_fn(lambda x: f(x, L.asarray(IDS), N, **kwargs)), (L.asarray(D),), (L.arange(6.0),))

        return fn

    def trailing(kind: str) -> Callable[[Namespace], Any]:
        def fn(L: Namespace) -> Any:
            f = getattr(ops_of(L), f"segment_{kind}")
            return library(L).api.grad(unary_fn(lambda x: L.sum(f(x, L.asarray(IDS), N) ** 2)))(L.asarray(D2))

        return fn

    with_zeros = host("int32", [3, 0, 2, 1, 1, 0])

    def prod_with_zeros(L: Namespace) -> Any:
        """Products with one and two zeros in a segment: one bucket per
        entry makes the scatter's indices unique, and the buckets' product
        is ``jnp.prod``'s (JAX's way to a product derivative)."""
        x = L.asarray(host("float32", [0.0, 2.0, 3.0, 0.0, 0.0, 4.0]))
        f = unary_fn(lambda v: L.sum(ops_of(L).segment_prod(v, L.asarray(with_zeros), N, bucket_size=1, unique_indices=True) * L.asarray(WEIGHTS)))
        return library(L).api.grad(f)(x)

    cases: list[Case] = []
    for kind in ("sum", "max", "min"):
        cases += [
            Case(f"grad-{kind}", weighted(kind)),
            Case(f"grad-{kind}-trailing", trailing(kind)),
            Case(f"grad-{kind}-jvp", jvp(kind)),
            Case(f"grad-{kind}-bucket", weighted(kind, bucket_size=4)),
        ]
    return [
        *cases,
        # JAX's scatter-max derivative under "clip" is wrong where a clipped
        # id wins (test_max_gradient_under_clip below): sum and min only.
        Case("grad-sum-clip", weighted("sum", mode="clip")),
        Case("grad-min-clip", weighted("min", mode="clip")),
        Case("grad-prod-unique", weighted("prod", host("int32", [3, 0, 2, 1, 7, -1]), unique_indices=True)),
        Case("grad-prod-zeros", prod_with_zeros),
        Case("grad-prod-jvp-unique", jvp("prod", unique_indices=True)),
        Case("grad-prod-repeated-ids", weighted("prod")),  # JAX: NotImplementedError
        Case("grad-prod-jvp-repeated-ids", jvp("prod")),
    ]


VALUES = CaseTable("ops-segment-values", lambda: [*_value_cases(), *_dtype_cases(), *_mode_cases()])
SHAPES = CaseTable("ops-segment-shapes", lambda: [*_shape_cases(), *_bucket_cases(), *_error_cases()])
TRANSFORMS = CaseTable("ops-segment-transforms", lambda: [*_jit_cases(), *_vmap_cases(), *_grad_cases()])


def _count_cases() -> list[Case]:
    # num_segments=None reads max(segment_ids) + 1: JAX refuses it under its
    # jit (even for constant ids), so this table runs JAX eagerly.
    return [
        Case("count-sum", seg("sum", D, IN_RANGE)),
        Case("count-max-trailing", seg("max", D2, IDS)),
        Case("count-bucket", seg("prod", D, IN_RANGE, bucket_size=4)),
        Case("count-all-negative", seg("sum", D, host("int32", [-1] * 6))),
        Case("count-negative", seg("sum", D, host("int32", [-3] * 6))),
        Case("count-empty-ids", seg("sum", np.zeros(0, np.float32), np.zeros(0, np.int32))),
        Case("count-numpy-int", seg("min", D, IDS, np.int64(5))),
        Case("count-bool", seg("sum", D, IDS, True)),
        Case("count-concrete-array", lambda L: ops_of(L).segment_sum(L.asarray(D), L.asarray(IDS), L.asarray(5))),
        Case("count-float-array", lambda L: ops_of(L).segment_sum(L.asarray(D), L.asarray(IDS), L.asarray(5.0))),
        Case("count-vmap-data", lambda L: library(L).api.vmap(unary_fn(lambda x: ops_of(L).segment_max(x, L.asarray(IDS))))(L.asarray(np.stack([D, -D])))),
    ]  # fmt: skip


COUNTS = CaseTable("ops-segment-counts", _count_cases, eager=True)


def _x64_cases() -> list[Case]:
    return [
        Case("x64-sum-float64", seg("sum", D.astype(np.float64), IDS.astype(np.int64), N)),
        Case("x64-max-int64", seg("max", DTYPE_DATA["int32"].astype(np.int64), IDS, N)),
        Case("x64-min-uint64", seg("min", DTYPE_DATA["uint8"].astype(np.uint64), IDS, N)),
        Case("x64-prod-complex128", seg("prod", DTYPE_DATA["complex64"].astype(np.complex128), IDS, N)),
        Case("x64-bucket-int64", seg("sum", DTYPE_DATA["int32"].astype(np.int64), IDS, N, bucket_size=4)),
        # JAX converts ids to int32: 2**32 wraps to 0, and uint32 2**32 - 1 to -1.
        Case("x64-wide-ids", seg("sum", D[:3], host("int64", [2**32, 1, 2**32 + 2]), N)),
        Case("x64-uint32-ids-clip", seg("sum", D[:3], host("uint32", [2**32 - 1, 1, 2]), N, mode="clip")),
        Case("x64-python-float", seg("max", 2.5, IDS, N)),
    ]


X64 = CaseTable("ops-segment-x64", _x64_cases, x64=True)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_dtypes_and_modes_match_jax(group: Group) -> None:
    VALUES.check(group)


@pytest.mark.parametrize("group", SHAPES.params())
def test_shapes_buckets_and_errors_match_jax(group: Group) -> None:
    SHAPES.check(group)


@pytest.mark.parametrize("group", TRANSFORMS.params())
def test_jit_vmap_and_derivatives_match_jax(group: Group) -> None:
    TRANSFORMS.check(group)


@pytest.mark.parametrize("group", COUNTS.params())
def test_num_segments_from_the_ids_matches_jax(group: Group) -> None:
    COUNTS.check(group)


@pytest.mark.parametrize("group", X64.params())
def test_x64_matches_jax(group: Group) -> None:
    X64.check(group)


def test_namespace_and_signatures_are_jax_s() -> None:
    assert jt.ops is jaxtyped.ops
    assert sorted(ops.__all__) == sorted(n for n in dir(jax_ops) if not n.startswith("_"))
    for name in ops.__all__:
        ours, theirs = inspect.signature(getattr(ops, name)), inspect.signature(getattr(jax_ops, name))
        assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
            (p.name, p.kind, p.default) for p in theirs.parameters.values()
        ], name


def test_errors_name_the_function_argument_and_shapes() -> None:
    x, ids = jnp.asarray(D), jnp.asarray(IDS)
    with pytest.raises(TypeError, match=r"ops\.segment_sum: segment_ids must have an integer dtype, got f32\[6\]"):
        ops.segment_sum(x, x, N)
    with pytest.raises((TypeError, *debug_violations()), match="num_segments"):
        ops.segment_max(x, ids, 4.0)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse tested
    with pytest.raises(ValueError, match=r"ops\.segment_min: num_segments must be non-negative, got -2"):
        ops.segment_min(x, ids, -2)
    with pytest.raises(ValueError, match=r"ops\.segment_prod: data f32\[3\] does not match segment_ids i32\[6\]"):
        ops.segment_prod(x[:3], ids, N)

    def no_count(i: jt.Array) -> jt.Array:
        return ops.segment_sum(x, i)

    with pytest.raises(errors.ConcretizationTypeError, match=r"ops\.segment_sum: num_segments=None .* traced i32\[6\]"):
        jt.jit(no_count)(ids)
    with pytest.raises(ValueError, match=r"ops\.segment_sum: unknown mode 'wrap'"):
        ops.segment_sum(x, ids, N, mode="wrap")
    with pytest.raises(TypeError, match=r"ops\.segment_prod: data bool\[6\] has dtype bool"):
        ops.segment_prod(x > 2, ids, N)
    with pytest.raises((NotImplementedError, *debug_violations()), match="out_sharding"):
        ops.segment_sum(x, ids, N, out_sharding=jt.P())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse tested


def test_boolean_ids_are_rejected() -> None:
    """A deliberate difference: JAX reads boolean ids as a mask (its
    indexing's reading of a bool array); here ids must be integers."""
    with pytest.raises(TypeError, match=r"segment_ids must have an integer dtype, got bool\[2\]"):
        ops.segment_sum(jnp.ones(1), jnp.asarray([True, False]))


def test_constant_ids_under_jit_give_the_eager_result() -> None:
    """A deliberate difference: with ``num_segments=None`` and ids that are
    constants of the traced function, jaxtyped reads them (as ``jnp.nonzero``
    does); JAX stages the ``max`` and raises."""
    ids = jnp.asarray(IDS)

    def constant_ids(x: jt.Array) -> jt.Array:
        return ops.segment_sum(x, ids)

    staged = jt.jit(constant_ids)(jnp.asarray(D))
    np.testing.assert_array_equal(np.asarray(staged), np.asarray(ops.segment_sum(jnp.asarray(D), ids)))
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(unary_fn(lambda x: jax_ops.segment_sum(x, jax.numpy.asarray(IDS))))(D)


def test_max_gradient_under_clip() -> None:
    """Clipped ids count for the segment they are clipped into, in the
    derivative too: -1 -> 0 (its 5 beats the tied 3s) and 5 -> 3 (7 beats 2).
    JAX 0.10.2 gives inf for those two entries (its scatter-max derivative
    reads the tie counts at the unclipped ids)."""

    def total(x: jt.Array) -> jt.Array:
        return jnp.sum(ops.segment_max(x, jnp.asarray(IDS), N, mode="clip") * jnp.asarray(WEIGHTS))

    np.testing.assert_array_equal(np.asarray(jt.grad(total)(jnp.asarray(D))), [0.0, 0.0, 2.0, 0.0, 1.0, 4.0])
