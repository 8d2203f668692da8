"""``jnp.einsum`` and ``jnp.einsum_path`` against JAX: values, dtypes
(mixed promotion, ``preferred_element_type``), weak types and shapes over
many subscript forms (implicit and explicit output, ellipses, traces and
diagonals, private sums, outer products, broadcasting ones, the interleaved
form, many operands), the subscript errors, and the transformations:
``grad`` (against ``jax.grad``), ``vmap``, ``jit``; the jaxprs of pure
contractions are JAX's, equation for equation.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import ArrayLike

from oracle import Case, CaseTable, Group, Namespace, assert_same, debug_violations, host, jax, jax_numpy

RNG = np.random.default_rng(7)


def rand(*shape: int, dtype: str = "float32") -> np.ndarray[Any, Any]:
    return host(dtype, RNG.normal(size=shape) * 2)


def ints(*shape: int, dtype: str = "int32") -> np.ndarray[Any, Any]:
    return host(dtype, RNG.integers(-4, 5, size=shape))


def einsum(subscripts: str, *operands: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """A case calling ``L.einsum(subscripts, *operands)``, NumPy arrays
    converted with ``L.asarray``."""

    def fn(L: Namespace) -> Any:
        return L.einsum(subscripts, *(L.asarray(o) if isinstance(o, np.ndarray) else o for o in operands), **kwargs)

    return fn


A23, B34, C45, D52 = rand(2, 3), rand(3, 4), rand(4, 5), rand(5, 2)
SQ = rand(3, 3)
CUBE = rand(3, 3, 3)
BATCH_L, BATCH_R = rand(5, 2, 3), rand(5, 3, 4)


def _value_cases() -> list[Case]:
    return [
        # explicit and implicit outputs
        Case("matmul-explicit", einsum("ij,jk->ik", A23, B34)),
        Case("matmul-implicit", einsum("ij,jk", A23, B34)),
        Case("matmul-transposed_out", einsum("ij,jk->ki", A23, B34)),
        Case("chain-three", einsum("ab,bc,cd->ad", A23, B34, C45)),
        Case("chain-four", einsum("ab,bc,cd,de->ae", A23, B34, C45, D52)),
        Case("chain-cycle", einsum("ab,bc,cd,da->", A23, B34, C45, D52), rtol=1e-4),
        Case("batch-explicit", einsum("bij,bjk->bik", BATCH_L, BATCH_R)),
        Case("batch-out_order", einsum("bij,bjk->kbi", BATCH_L, BATCH_R)),
        Case("outer-2d", einsum("ij,kl->ijkl", A23, B34)),
        Case("outer-vec", einsum("i,j", A23[0], B34[0])),
        Case("inner-vec", einsum("i,i", A23[0], A23[1])),
        Case("inner-vec_explicit", einsum("i,i->", A23[0], A23[1])),
        # one operand: transposes, sums, traces and diagonals
        Case("one-transpose", einsum("ij->ji", A23)),
        Case("one-identity", einsum("ij", A23)),
        Case("one-implicit_sorted", einsum("ji", A23)),
        Case("one-sum_all", einsum("ij->", A23)),
        Case("one-sum_axis", einsum("ij->j", A23)),
        Case("one-trace", einsum("ii", SQ)),
        Case("one-diagonal", einsum("ii->i", SQ)),
        Case("one-diag3", einsum("iii->i", CUBE)),
        Case("one-partial_trace", einsum("iij->j", CUBE)),
        Case("one-diag_keep", einsum("iji->ij", CUBE)),
        # repeated and private indices next to a contraction
        Case("mixed-trace_then_dot", einsum("iij,jk->ik", CUBE, B34)),
        Case("mixed-private_sum", einsum("ij,jk->k", A23, B34)),
        Case("mixed-private_both", einsum("ij,kl->", A23, B34)),
        Case("mixed-diag_both", einsum("ii,ij->ij", SQ, rand(3, 4))),
        Case("mixed-hadamard", einsum("ij,ij->ij", A23, rand(2, 3))),
        Case("mixed-hadamard_sum", einsum("ij,ij->i", A23, rand(2, 3))),
        Case("mixed-three_way", einsum("ijk,jil->kl", rand(3, 2, 4), rand(2, 3, 5))),
        Case("mixed-bilinear", einsum("i,ij,j->", A23[0], rand(3, 3), A23[1])),
        # ellipses and broadcasting
        Case("ellipsis-batch", einsum("...ij,...jk", BATCH_L, B34)),
        Case("ellipsis-explicit", einsum("...ij,...jk->...ik", BATCH_L, BATCH_R)),
        Case("ellipsis-broadcast_one", einsum("...i,...i->...", rand(4, 1, 3), rand(5, 3))),
        Case("ellipsis-leading", einsum("i...->...", rand(3, 2, 2))),
        Case("ellipsis-trace", einsum("...ii->...", rand(4, 3, 3))),
        Case("ellipsis-ones", einsum("ij,jk->ik", rand(2, 1), rand(1, 4))),
        # Python scalars and 0-d operands
        Case("scalar-times", einsum("ij,->ij", A23, 2.0)),
        Case("scalar-both_weak", einsum(",", 2.0, 3.0)),
        Case("scalar-int_weak", einsum(",->", 2, 3)),
        # dtypes: promotion, integers, booleans, narrow floats
        Case("dtype-int32", einsum("ij,jk", ints(2, 3), ints(3, 4)), rtol=0),
        Case("dtype-int8_sum", einsum("ij->", ints(2, 3, dtype="int8")), rtol=0),
        Case("dtype-int8_keep", einsum("ij", ints(2, 3, dtype="int8")), rtol=0),
        Case("dtype-uint8_int8", einsum("i,i", ints(3, dtype="uint8") % 5, ints(3, dtype="int8")), rtol=0),
        Case("dtype-float_int", einsum("ij,jk", A23, ints(3, 4))),
        Case("dtype-int_bool", einsum("ij,jk", ints(2, 3), host("bool", RNG.random((3, 4)) > 0.5)), rtol=0),
        Case("dtype-bool_bool", einsum("ij,jk", host("bool", RNG.random((2, 3)) > 0.5), host("bool", RNG.random((3, 4)) > 0.5))),
        Case("dtype-bool_trace", einsum("ii", host("bool", np.eye(3) > 0))),
        Case("dtype-f16", einsum("ij,jk", rand(2, 3, dtype="float16"), rand(3, 4, dtype="float16")), rtol=2e-2, atol=2e-2),
        Case("dtype-bf16", einsum("ij,jk", rand(2, 3, dtype="bfloat16"), rand(3, 4, dtype="bfloat16")), rtol=2e-2, atol=5e-2),
        Case("dtype-f16_bf16", einsum("ij,jk", rand(2, 3, dtype="float16"), rand(3, 4, dtype="bfloat16")), rtol=2e-2, atol=5e-2),
        Case("dtype-complex", einsum("ij,jk", rand(2, 3) + 1j * rand(2, 3), B34)),
        # preferred_element_type
        Case("preferred-int_to_int32", einsum("ij,jk", ints(2, 3, dtype="int8"), ints(3, 4, dtype="int8"), preferred_element_type=np.int32), rtol=0),
        Case("preferred-float_to_bf16", einsum("ij,jk", A23, B34, preferred_element_type=jnp.bfloat16), rtol=2e-2, atol=5e-2),
        Case("preferred-f16_to_f32", einsum("ij,jk", rand(2, 3, dtype="float16"), rand(3, 4, dtype="float16"), preferred_element_type=np.float32), rtol=1e-3),
        Case("preferred-weak_in", einsum(",", 2.0, 3.0, preferred_element_type=np.float32)),
        Case("preferred-float_to_int", einsum("ij,jk", A23, B34, preferred_element_type=np.int32), rtol=0),
        Case("preferred-bool_to_float", einsum("ij,jk", host("bool", RNG.random((2, 3)) > 0.5), host("bool", RNG.random((3, 4)) > 0.5), preferred_element_type=np.float32)),
        Case("preferred-narrower_int", einsum("ij,jk", ints(2, 3), ints(3, 4), preferred_element_type=np.int8)),
        Case("preferred-sum_to_int", einsum("ij->", A23, preferred_element_type=np.int32), rtol=0),
        Case("preferred-trace", einsum("ii", ints(3, 3, dtype="int8"), preferred_element_type=np.int32), rtol=0),
        # optimize strategies give the same values
        Case("optimize-false", einsum("ab,bc,cd->ad", A23, B34, C45, optimize=False)),
        Case("optimize-true", einsum("ab,bc,cd->ad", A23, B34, C45, optimize=True)),
        Case("optimize-greedy", einsum("ab,bc,cd,de->ae", A23, B34, C45, D52, optimize="greedy")),
        Case("optimize-path", einsum("ab,bc,cd->ad", A23, B34, C45, optimize=[(1, 2), (0, 1)])),
        # the interleaved form
        Case("interleaved-matmul", lambda L: L.einsum(L.asarray(A23), [0, 1], L.asarray(B34), [1, 2], [0, 2])),
        Case("interleaved-implicit", lambda L: L.einsum(L.asarray(A23), [0, 1], L.asarray(B34), [1, 2])),
        Case("interleaved-ellipsis", lambda L: L.einsum(L.asarray(BATCH_L), [..., 0, 1], L.asarray(B34), [1, 2], [..., 0, 2])),
        # errors (JAX's kinds)
        Case("error-too_few_operands", einsum("ij,jk", A23)),
        Case("error-too_many_operands", einsum("ij", A23, B34)),
        Case("error-rank", einsum("ijk", A23)),
        Case("error-size_mismatch", einsum("ij,jk", A23, A23)),
        Case("error-unknown_output", einsum("ij,jk->iz", A23, B34)),
        Case("error-repeated_output", einsum("ij->ii", A23)),
        Case("error-trace_mismatch", einsum("ii", A23)),
        Case("error-list_operand", lambda L: L.einsum("ij", [[1.0, 2.0]])),
        Case("error-bad_ellipsis", einsum("..i.,i", A23, B34)),
        Case("error-arrow_twice", einsum("ij->j->i", A23)),
        Case("error-bad_char_dash", einsum("i-j", A23)),
        Case("error-bad_char_dot", einsum("i.j", A23)),
        Case("error-bad_char_gt", einsum("i>j", A23)),
        Case("error-comma_in_output", einsum("ij->i,j", A23)),
        Case("error-empty", einsum("", A23)),
        Case("spaces-ignored", einsum("i j -> j i", A23)),
        Case("error-path_three", einsum("ij,jk,kl", A23, B34, C45, optimize=[(0, 1, 2)])),
        Case("error-path_range", einsum("ij,jk", A23, B34, optimize=[(0, 1, 2)])),
        Case("error-one_array", lambda L: L.einsum(L.asarray(A23))),
    ]


VALUE_TABLE = CaseTable("einsum", _value_cases)


@pytest.mark.parametrize("group", VALUE_TABLE.params())
def test_einsum_matches_jax(group: Group) -> None:
    VALUE_TABLE.check(group)


# === transformations ===


def api(L: Namespace) -> Any:
    return jt if L is jnp else jax


def grads(subscripts: str, *operands: np.ndarray[Any, Any]) -> Callable[[Namespace], Any]:
    """A case: the gradient of ``sum(sin(einsum(...)))`` in every operand."""

    def fn(L: Namespace) -> Any:
        def loss(*xs: Any) -> Any:
            return L.sum(L.sin(L.einsum(subscripts, *xs)))

        return api(L).grad(loss, argnums=tuple(range(len(operands))))(*map(L.asarray, operands))

    return fn


def vmapped(subscripts: str, in_axes: tuple[int | None, ...], *operands: np.ndarray[Any, Any]) -> Callable[[Namespace], Any]:
    """A case: ``vmap`` of an einsum over the given axes."""

    def fn(L: Namespace) -> Any:
        def f(*xs: Any) -> Any:
            return L.einsum(subscripts, *xs)

        return api(L).vmap(f, in_axes=in_axes)(*map(L.asarray, operands))

    return fn


def jitted(subscripts: str, *operands: np.ndarray[Any, Any]) -> Callable[[Namespace], Any]:
    """A case: an einsum under ``jit``."""

    def fn(L: Namespace) -> Any:
        def f(*xs: Any) -> Any:
            return L.einsum(subscripts, *xs)

        return api(L).jit(f)(*map(L.asarray, operands))

    return fn


def _transform_cases() -> list[Case]:
    return [
        Case("grad-matmul", grads("ij,jk->ik", A23, B34)),
        Case("grad-chain4", grads("ab,bc,cd,de->ae", A23, B34, C45, D52), rtol=1e-3, atol=1e-3),  # sin of sums of ~50 terms
        Case("grad-trace", grads("ii", SQ)),
        Case("grad-diagonal", grads("ii->i", SQ)),
        Case("grad-partial_trace_dot", grads("iij,jk->ik", CUBE, B34)),
        Case("grad-batch", grads("bij,bjk->bik", BATCH_L, BATCH_R)),
        Case("grad-ellipsis_broadcast", grads("...i,...i->...", rand(4, 1, 3), rand(5, 3))),
        Case("grad-private_sums", grads("ij,kl->jk", A23, B34)),
        Case("grad-transposed", grads("ij,jk->ki", A23, B34)),
        Case("vmap-first", vmapped("ij,jk->ik", (0, None), BATCH_L, B34)),
        Case("vmap-both", vmapped("ij,jk->ik", (0, 0), BATCH_L, BATCH_R)),
        Case("vmap-last", vmapped("ij,jk->ki", (2, None), rand(2, 3, 6), B34)),
        Case("vmap-trace", vmapped("ii", (1,), rand(3, 4, 3))),
        Case("vmap-chain", vmapped("ab,bc,cd->ad", (None, 0, None), A23, rand(6, 3, 4), C45)),
        Case("jit-chain4", jitted("ab,bc,cd,de->ae", A23, B34, C45, D52)),
        Case("jit-diag", jitted("iij->j", CUBE)),
    ]


TRANSFORM_TABLE = CaseTable("einsum-transforms", _transform_cases)


@pytest.mark.parametrize("group", TRANSFORM_TABLE.params())
def test_einsum_under_transformations(group: Group) -> None:
    TRANSFORM_TABLE.check(group)


def test_jvp_matches_jax() -> None:
    primals, tangents = (A23, B34), (rand(2, 3), rand(3, 4))

    def ours(*xs: jt.Array) -> jt.Array:
        return jnp.einsum("ij,jk->ki", *xs)

    out, dout = jt.jvp(ours, (jnp.asarray(A23), jnp.asarray(B34)), (jnp.asarray(tangents[0]), jnp.asarray(tangents[1])))
    expected, dexpected = jax.jvp(lambda x, y: jax_numpy.einsum("ij,jk->ki", x, y), primals, tangents)  # pyright: ignore[reportUnknownLambdaType]  # JAX is untyped here
    assert_same(out, expected)
    assert_same(dout, dexpected)


@pytest.mark.parametrize(
    ("subscripts", "shapes"),
    [
        ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 5)]),
        ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 5), (5, 2)]),
        ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]),
        ("ij,jk->ki", [(2, 3), (3, 4)]),
        ("ij,kl->ijkl", [(2, 3), (3, 4)]),
    ],
)
def test_contractions_stage_jaxs_jaxpr(subscripts: str, shapes: list[tuple[int, ...]]) -> None:
    """Pure contractions stage exactly JAX's equations (same path, same
    operand order, same dot_general dimension numbers)."""
    args = [np.ones(s, np.float32) for s in shapes]

    def ours_fn(*xs: ArrayLike) -> jt.Array:
        return jnp.einsum(subscripts, *xs)

    def theirs_fn(*xs: Any) -> Any:
        return jax_numpy.einsum(subscripts, *xs)

    ours = str(jt.make_jaxpr(ours_fn)(*args))
    theirs = str(jax.make_jaxpr(theirs_fn)(*args))
    assert ours == theirs


def test_einsum_path_matches_jax() -> None:
    operands = (rand(2, 30), rand(30, 400), rand(400, 5), rand(5, 7))
    for optimize in ("auto", "greedy", "optimal", True, False):
        ours_path, ours_info = jnp.einsum_path("ij,jk,kl,lm", *operands, optimize=optimize)
        theirs_path, theirs_info = jax_numpy.einsum_path("ij,jk,kl,lm", *operands, optimize=optimize)
        assert ours_path == [tuple(step) for step in theirs_path]
        assert str(ours_info) == str(theirs_info)
    interleaved, _ = jnp.einsum_path(jnp.asarray(A23), [0, 1], jnp.asarray(B34), [1, 2], [0, 2])
    assert interleaved == [(0, 1)]


def test_einsum_path_accepts_tracers() -> None:
    def f(x: jt.Array, y: jt.Array) -> jt.Array:
        path, _ = jnp.einsum_path("ij,jk", x, y)
        assert path == [(0, 1)]
        return jnp.einsum("ij,jk", x, y, optimize=path)

    assert jt.jit(f)(jnp.asarray(A23), jnp.asarray(B34)).shape == (2, 4)


def test_errors_name_the_function() -> None:
    with pytest.raises(ValueError, match=r"jnp\.einsum: .*operand"):
        jnp.einsum("ij,jk", jnp.asarray(A23))
    with pytest.raises(ValueError, match=r"jnp\.einsum: Size of label 'j'"):
        jnp.einsum("ij,jk", jnp.asarray(A23), jnp.asarray(A23))
    # Under JAXTYPED_DEBUG=1 beartype rejects these ill-typed calls first.
    with pytest.raises(TypeError, match="einsum requires ndarray or scalar arguments" if not jt.DEBUG else None):
        jnp.einsum("ij", [[1.0]])  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]  # the misuse under test
    with pytest.raises((NotImplementedError, *debug_violations())):
        jnp.einsum("ij->ji", jnp.asarray(A23), out=jnp.zeros((3, 2)))  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]  # the misuse under test
    with pytest.raises(NotImplementedError):
        jax_numpy.einsum("ij->ji", A23, out=np.zeros((3, 2), np.float32))


def test_four_operand_einsums_lower_to_jaxs_module() -> None:
    """The benchmarked contractions compile the same StableHLO program as
    JAX's: the same dot_generals in the same order (JAX adds only default
    precision attributes)."""
    for subscripts, shape in (("ab,bc,cd,de->ae", (16, 16)), ("bij,bjk,bkl,blm->bim", (4, 8, 8))):
        args = [np.ones(shape, np.float32)] * 4

        def ours_fn(*xs: ArrayLike, s: str = subscripts) -> jt.Array:
            return jnp.einsum(s, *xs)

        def theirs_fn(*xs: Any, s: str = subscripts) -> Any:
            return jax_numpy.einsum(s, *xs)

        ours = jt.jit(ours_fn).lower(*args).as_text()
        theirs = str(jax.jit(theirs_fn).lower(*args).as_text())
        theirs = theirs.replace(", precision = [DEFAULT, DEFAULT]", "")
        body = [line.strip() for line in ours.splitlines() if "dot_general" in line or "return" in line]
        expected = [line.strip() for line in theirs.splitlines() if "dot_general" in line or "return" in line]
        assert body == expected


def test_paths_are_searched_once_per_signature() -> None:
    """A second einsum with the same subscripts, shapes and strategy (here
    another dtype, and the interleaved form) reuses the path."""
    from jaxtyped._src.numpy.einsum import _cached_search  # pyright: ignore[reportPrivateUsage]  # the cache under test

    x, y = rand(3, 7), rand(7, 2)
    jnp.einsum("ij,jk->ik", x, y, optimize="greedy")
    before = _cached_search.cache_info()
    ints_out = jnp.einsum("ij,jk->ik", x.astype(np.int32), y.astype(np.int32), optimize="greedy")
    after = _cached_search.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses
    assert ints_out.dtype == np.int32
    jnp.einsum(jnp.asarray(x), [0, 1], jnp.asarray(y), [1, 2], [0, 2])
    jnp.einsum(jnp.asarray(x), [0, 1], jnp.asarray(y), [1, 2], [0, 2])
    assert _cached_search.cache_info().hits == after.hits + 1


# === random expressions ===


def random_expression(rng: np.random.Generator) -> tuple[str, list[np.ndarray[Any, Any]]]:
    """A random einsum: 1-4 operands over labels a-d (repeats, traces, outer
    products, private sums), sometimes an ellipsis with broadcast ones,
    implicit or explicit output."""
    sizes = {c: int(rng.integers(1, 4)) for c in "abcd"}
    terms: list[str] = []
    shapes: list[list[int]] = []
    for _ in range(int(rng.integers(1, 5))):
        term = "".join(rng.choice(list("abcd"), size=int(rng.integers(0, 4))))
        batch: list[int] = []
        if rng.random() < 0.3:
            cut = int(rng.integers(0, len(term) + 1))
            term = term[:cut] + "..." + term[cut:]
            batch = [int(rng.choice([1, 2])) for _ in range(int(rng.integers(0, 3)))]
        head, _, tail = term.partition("...")
        terms.append(term)
        shapes.append([sizes[c] for c in head] + batch + [sizes[c] for c in tail])
    subscripts = ",".join(terms)
    if rng.random() < 0.6:
        used = sorted(set(subscripts) - {",", "."})
        out = "".join(rng.permutation([c for c in used if rng.random() < 0.5]))
        subscripts += "->" + ("..." if "..." in subscripts else "") + out
    return subscripts, [rand(*s) for s in shapes]


def _random_cases() -> list[Case]:
    rng = np.random.default_rng(2024)
    cases: list[Case] = []
    for i in range(40):
        subscripts, operands = random_expression(rng)
        cases.append(Case(f"random-{i}", einsum(subscripts, *operands), rtol=1e-4, atol=1e-5))
        cases.append(Case(f"randomgrad-{i}", grads(subscripts, *operands), rtol=1e-4, atol=1e-5))
    return cases


RANDOM_TABLE = CaseTable("einsum-random", _random_cases)


@pytest.mark.parametrize("group", RANDOM_TABLE.params())
def test_random_expressions_match_jax(group: Group) -> None:
    RANDOM_TABLE.check(group)
