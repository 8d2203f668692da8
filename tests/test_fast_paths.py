"""Issue 19 (items 1-2): the dispatch and eager fast paths give what the
full paths give, compared with JAX.

- ``jit``'s dispatch memo (Note [the dispatch memo] in ``api_jit``): calls
  that hit it return JAX's values, dtypes and weak types; it sees config
  scopes (``disable_jit``, ``debug_nans``, ``enable_x64``), never serves a
  signature it was not keyed on, keeps least-recently-used eviction, and
  leaves errors (unsortable dict keys, deleted arrays) to the full path;
- the eager shortcuts (promotion of operands that need none, concrete
  operands of lax functions, the plain matmul and sorted-axes reduction
  rules, elementwise rules without 0-d or narrow operands): the same
  results as JAX's, and the slow paths still taken where they must be.
"""

import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.api_jit import Jitted
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.errors import JaxtypedValueError
from oracle import Case, CaseTable, Group, assert_same, host, jax, jax_numpy

# === jit dispatch ===


def _mul(a: Any, b: Any) -> Any:
    return a * b


def _double(a: Any) -> Any:
    return a * 2


def _plus_one_and_a_half(a: Any) -> Any:
    return a + 1.5


def _identity(d: Any) -> Any:
    return d


def _minus_one(a: Any) -> Any:
    return a - 1


def _differences(p: Any, s: Any, n: None) -> tuple[Any, Any, None]:
    return p.first - p.second, s.first - s.second, n


def _put_both(value: np.ndarray[Any, Any]) -> tuple[Any, Any]:
    return jt.device_put(value), jax.device_put(value)


def _warm(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call twice: the first call compiles, the second fills the memo."""
    f(*args, **kwargs)
    return f(*args, **kwargs)


def test_memo_hits_match_jax_for_positional_list_and_dict_arguments() -> None:
    rng = np.random.default_rng(0)
    hosts = [rng.standard_normal((4, 4)).astype(np.float32) for _ in range(20)]
    ours = [jt.device_put(h) for h in hosts]
    theirs = [jax.device_put(h) for h in hosts]

    def tiny(a: Any) -> Any:
        return a + 1.0

    def ten(*xs: Any) -> Any:
        return sum(xs[1:], xs[0]) * 0.5

    def twenty(d: dict[str, Any]) -> Any:
        return {"p": d["k0"] * d["k19"], "q": (d["k3"] - 2, d["k7"])}

    def nested(params: list[tuple[Any, Any]], x: Any, *, scale: Any) -> Any:
        for w, b in params:
            x = x @ w + b
        return x * scale

    cases: list[tuple[Callable[..., Any], tuple[Any, ...], tuple[Any, ...], dict[str, Any], dict[str, Any]]] = [
        (tiny, (ours[0],), (theirs[0],), {}, {}),
        (ten, tuple(ours[:10]), tuple(theirs[:10]), {}, {}),
        (twenty, ({f"k{i}": ours[i] for i in range(20)},), ({f"k{i}": theirs[i] for i in range(20)},), {}, {}),
        (
            nested,
            ([(ours[1], ours[2]), (ours[3], ours[4])], ours[5]),
            ([(theirs[1], theirs[2]), (theirs[3], theirs[4])], theirs[5]),
            {"scale": ours[6]},
            {"scale": theirs[6]},
        ),
    ]
    for fun, our_args, their_args, our_kwargs, their_kwargs in cases:
        f = jt.jit(fun)
        expected = jax.jit(fun)(*their_args, **their_kwargs)
        for _ in range(3):  # compile, fill the memo, hit it
            assert_same(f(*our_args, **our_kwargs), expected, tree=True)
        info = f.cache_info()
        assert (info.misses, info.hits) == (1, 2), info


def _last_minus_first(a: Any, b: Any, c: Any) -> Any:
    return c - a


def test_memo_hits_pass_only_the_arguments_the_program_reads() -> None:
    """keep_unused=False: the program takes a and c; the memo hands it those."""
    values = [np.full(2, v, np.float32) for v in (1.0, 10.0, 100.0)]
    for keep_unused in (False, True):
        f = jt.jit(_last_minus_first, keep_unused=keep_unused)
        ours = [jt.device_put(v) for v in values]
        for _ in range(3):
            assert_same(f(*ours), jax.jit(_last_minus_first)(*[jax.device_put(v) for v in values]))
        assert f.cache_info().misses == 1


def _dict_last_minus_first(d: dict[str, Any]) -> Any:
    return d["c"] - d["a"]


def test_container_memo_hits_gather_only_the_leaves_the_program_reads() -> None:
    """The container path gathers buffers for the kept leaves only, after
    the hit; a host-born leaf among them is transferred then."""
    values = {k: np.full(2, v, np.float32) for k, v in (("a", 1.0), ("b", 10.0), ("c", 100.0))}
    expected = jax.jit(_dict_last_minus_first)({k: jax.device_put(v) for k, v in values.items()})
    for keep_unused in (False, True):
        f = jt.jit(_dict_last_minus_first, keep_unused=keep_unused)
        for round_ in range(3):
            # device-born leaves, then host-born ones (no buffer until a program takes them)
            ours = {k: jt.device_put(v) if round_ == 0 else jnp.asarray(v) for k, v in values.items()}
            assert_same(f(ours), expected)
            assert_same(f(ours), expected)
        assert f.cache_info().misses == 1


def test_equal_avals_in_new_objects_reuse_the_trace() -> None:
    f = jt.jit(_mul)
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    for _ in range(3):
        x, y = jt.device_put(value), jt.device_put(value + 1)  # fresh aval objects each time
        assert_same(f(x, y), jax_numpy.asarray(value * (value + 1)))
    assert f.cache_info().misses == 1


def test_memo_never_serves_another_signature() -> None:
    f = jt.jit(_double)
    for value in (np.ones(3, np.float32), np.ones(4, np.float32), np.ones(3, np.int32), np.ones((3, 1), np.float32)):
        ours, theirs = _put_both(value)
        for _ in range(2):
            assert_same(f(ours), jax.jit(_double)(theirs))
    weak = jnp.asarray(1.0) + 0  # a weakly typed f32[]
    strong = jnp.asarray(np.float32(1.0))
    assert_same(_warm(f, weak), jax.jit(_double)(jax_numpy.asarray(1.0) + 0))
    assert_same(f(strong), jax.jit(_double)(jax_numpy.asarray(np.float32(1.0))))
    assert f.cache_info().misses == 6


def test_memo_sees_disable_jit_and_debug_nans_scopes() -> None:
    traced: list[int] = []

    def fun(a: Any) -> Any:
        traced.append(1)
        return jnp.log(a)

    f = jt.jit(fun)
    x = jt.device_put(np.array([-1.0, 1.0], np.float32))
    _warm(f, x)
    assert len(traced) == 1
    with jt.disable_jit():
        f(x)
    assert len(traced) == 2  # ran as Python
    with jt.debug_nans(True), pytest.raises(FloatingPointError, match="fun"):
        f(x)
    assert np.isnan(np.asarray(f(x))[0])  # the scope is over: no check


def test_memo_sees_enable_x64_scope() -> None:
    f = jt.jit(_plus_one_and_a_half)
    x = jt.device_put(np.ones(2, np.float32))
    _warm(f, x)
    with jt.enable_x64(True):
        y = jnp.ones(2, jnp.float64)
        assert f(y).dtype == np.float64
        assert f(y).dtype == np.float64
    assert f(x).dtype == np.float32
    assert f.cache_info().misses == 2


def test_least_recently_used_entry_is_evicted() -> None:
    def add_one(a: Any) -> Any:
        return a + 1

    f: Jitted[..., Any] = Jitted(add_one, (), (), (), cache_size=2)
    a, b, c = (jt.device_put(np.ones(n, np.float32)) for n in (1, 2, 3))
    _warm(f, a)
    _warm(f, b)
    f(a)  # a memo hit: a is now the most recently used
    f(c)  # evicts b
    misses = f.cache_info().misses
    f(a)
    assert f.cache_info().misses == misses
    f(b)
    assert f.cache_info().misses == misses + 1


def test_errors_are_the_full_paths() -> None:
    f = jt.jit(_identity)
    x = jt.device_put(np.ones(2, np.float32))
    _warm(f, {"a": x})
    with pytest.raises(ValueError, match="mutually comparable"):
        f({1: x, "a": x})
    donor = jt.jit(_double, donate_argnums=0)
    g = jt.jit(_minus_one)
    y = jt.device_put(np.ones(2, np.float32))
    _warm(g, y)
    donor(y)
    with pytest.raises(RuntimeError, match="deleted"):
        g(y)


class _Pair(NamedTuple):
    first: Any
    second: Any


class _Swapped:
    """A registered node whose children flatten in reverse order."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first = first
        self.second = second


jt.tree_util.register_pytree_node(
    _Swapped, lambda s: ((s.second, s.first), None), lambda _, cs: _Swapped(cs[1], cs[0])
)


def test_namedtuples_none_and_registered_nodes_keep_their_leaf_order() -> None:
    x = jt.device_put(np.float32(3.0))
    y = jt.device_put(np.float32(5.0))
    f = jt.jit(_differences)
    for _ in range(3):
        out = f(_Pair(x, y), _Swapped(x, y), None)
        assert float(out[0]) == -2.0 and float(out[1]) == -2.0 and out[2] is None
    assert f.cache_info().misses == 1


class _CheckedPair(tuple[jt.Array, jt.Array]):
    """A namedtuple-like result whose constructor refuses non-arrays (as a
    result namedtuple's does in the debug mode)."""

    _fields = ("low", "high")

    def __new__(cls, low: object, high: object) -> "_CheckedPair":
        if not (isinstance(low, jt.Array) and isinstance(high, jt.Array)):
            raise TypeError(f"_CheckedPair takes arrays, not {type(low).__name__}")
        return super().__new__(cls, (low, high))


def test_results_whose_constructor_checks_its_fields_still_rebuild() -> None:
    x = jt.device_put(np.arange(3.0, dtype=np.float32))
    def around(v: jt.Array) -> _CheckedPair:
        return _CheckedPair(v - 1, v + 1)

    f = jt.jit(around)
    for _ in range(3):
        out = f(x)
        assert type(out) is _CheckedPair
        assert_same(out[0], jax_numpy.arange(3.0) - 1)
        assert_same(out[1], jax_numpy.arange(3.0) + 1)
    assert f.cache_info().misses == 1


def test_python_scalars_and_host_arrays_still_dispatch() -> None:
    f = jt.jit(_mul)
    x = jt.device_put(np.ones(3, np.float32))
    for _ in range(3):
        assert_same(f(x, 2.0), jax.jit(_mul)(jax_numpy.ones(3, np.float32), 2.0))
    host_only = jnp.sin(jnp.zeros(3))  # an eager result: no device buffer yet
    for _ in range(2):
        assert_same(f(host_only, 3.0), jax_numpy.zeros(3, np.float32))


_CONSTANT = np.arange(4, dtype=np.float32)


def _with_constant(a: Any) -> Any:
    return a * jnp.asarray(_CONSTANT) if isinstance(a, jt.Array) else a * jax_numpy.asarray(_CONSTANT)


def _dict_and_pair(a: Any) -> Any:
    return {"z": a * 2, "a": (a - 1, None, _Pair(a, a + 1))}


def _weak_scalar(a: Any) -> Any:
    return a.sum() * 0 + 1.5


_CALLBACK_RUNS: list[int] = []


def _count_run(value: object) -> None:
    _CALLBACK_RUNS.append(1)


def _with_callback(a: Any) -> Any:
    """A host callback: its program runs through Executable.execute, not jaxlib's entry point."""
    (jt if isinstance(a, jt.Array) else jax).debug.callback(_count_run, a)
    return a * 2, a + 1


# (function, whether its memo hits take the shortest path, whether its
# result is rebuilt by jaxlib's treedef, whether jaxlib's entry point runs it)
_MEMO_PATHS: list[tuple[Callable[..., Any], bool, bool, bool]] = [
    (_plus_one_and_a_half, True, False, True),
    (_with_constant, False, False, True),  # a constant operand: not the shortest path
    (_dict_and_pair, False, True, True),
    (_weak_scalar, True, False, True),
    (_with_callback, False, True, False),
]


@pytest.mark.parametrize("fun,shortest,containers,launched", _MEMO_PATHS, ids=[f[0].__name__ for f in _MEMO_PATHS])
def test_memo_hit_paths_give_the_full_paths_results(
    fun: Callable[..., Any], shortest: bool, containers: bool, launched: bool
) -> None:
    """Each memo path (issue 19: the one-argument shortest path, constants,
    results rebuilt in C++, programs with host callbacks) returns what the
    full path returned, and JAX's."""
    value = np.linspace(-1.0, 2.0, 4).astype(np.float32)
    ours, theirs = _put_both(value)
    f = jt.jit(fun)
    expected = jax.block_until_ready(jax.jit(fun)(theirs))
    _CALLBACK_RUNS.clear()
    first = f(ours)  # the full path (compiles)
    results = [f(ours), f(ours)]  # fills the memo, then hits it
    (entry,) = f._cache.values()  # pyright: ignore[reportPrivateUsage]  # which path the hits took
    assert (entry.bare is not None) == shortest
    assert (entry.out_containers is not None) == containers
    assert (entry.launcher is not None) == launched
    for out in (first, *results):
        assert_same(out, expected, tree=True)
    assert type(results[1]) is type(first)
    assert f.cache_info().hits == 2
    assert len(_CALLBACK_RUNS) == (0 if launched else 3)  # the callback ran on each of our calls


def test_memo_last_hit_follows_signatures_config_and_clearing() -> None:
    """The one-argument memo's last hit (compared by the identity of the
    aval and the trace state) never serves another signature, sees a global
    config change, and goes with clear_cache."""
    f = jt.jit(_plus_one_and_a_half)
    g = jax.jit(_plus_one_and_a_half)
    small, large = (np.arange(n, dtype=np.float32) for n in (3, 4))
    ours_small, ours_large = jt.device_put(small), jt.device_put(large)
    for _ in range(3):  # alternating signatures replace the last hit each call
        assert_same(f(ours_small), g(jax_numpy.asarray(small)))
        assert_same(f(ours_large), g(jax_numpy.asarray(large)))
    chained = f(f(ours_small))  # results share their entry's aval object: the same signature
    assert_same(f(chained), g(g(g(jax_numpy.asarray(small)))))
    assert f.cache_info().misses == 2
    f(ours_small)  # the last hit
    with jt.enable_x64(True):  # the same aval object, another trace state: traced again
        assert_same(f(ours_small), g(jax_numpy.asarray(small)))
    assert f.cache_info().misses == 3
    negative = jt.device_put(np.float32(-1.0))
    log = jt.jit(jnp.log)
    _warm(log, negative)
    jt.config.update("jax_debug_nans", True)
    try:
        with pytest.raises(FloatingPointError):
            log(negative)
    finally:
        jt.config.update("jax_debug_nans", False)
    assert np.isnan(np.asarray(log(negative)))
    f.clear_cache()
    assert f._last_hit is None  # pyright: ignore[reportPrivateUsage]  # nothing of the cleared entries is kept
    assert_same(f(ours_small), g(jax_numpy.asarray(small)))
    assert f.cache_info().misses == 4  # traced again after the clear


def _weighted(params: dict[str, Any], x: Any, *, scale: Any) -> Any:
    return (params["w"] * x + params["b"]) * scale


def test_memo_last_container_hit_follows_signatures_config_and_clearing() -> None:
    """The memo's last hit for arguments in containers or by keyword
    (compared by structure, the identity of each leaf's aval and the trace
    state) never serves another signature, sees config scopes, and goes
    with clear_cache."""
    f = jt.jit(_weighted)
    g = jax.jit(_weighted)

    def both(w: np.ndarray[Any, Any], x: np.ndarray[Any, Any], scale: np.generic) -> tuple[Any, Any]:
        b = np.full(w.shape[-1:], 0.5, w.dtype)
        ours = f({"w": jt.device_put(w), "b": jt.device_put(b)}, jt.device_put(x), scale=jt.device_put(scale))
        theirs = g({"w": jax.device_put(w), "b": jax.device_put(b)}, jax.device_put(x), scale=jax.device_put(scale))
        return ours, theirs

    w3, w4 = (np.arange(n, dtype=np.float32) for n in (3, 4))
    x3, x4 = (np.linspace(-1.0, 1.0, n).astype(np.float32) for n in (3, 4))
    two = np.float32(2.0)
    for _ in range(3):  # alternating signatures replace the last hit each call
        assert_same(*both(w3, x3, two))
        assert_same(*both(w4, x4, two))
    assert_same(*both(w3, x3, np.int32(3)))  # one leaf's dtype differs: another signature
    assert_same(*both(w3, x3, np.float32(3.0)))
    assert f.cache_info().misses == 3

    params = {"w": jt.device_put(w3), "b": jt.device_put(np.zeros(3, np.float32))}
    x, scale = jt.device_put(x3), jt.device_put(two)
    f(params, x, scale=scale)  # the last hit
    renamed = {"w": params["w"], "c": params["b"]}  # the same avals, another structure
    with pytest.raises(KeyError):
        f(renamed, x, scale=scale)
    python_scale = f(params, x, scale=2.0)  # a Python scalar leaf: the full path's weak type
    assert_same(python_scale, g({"w": jax.device_put(w3), "b": jax.numpy.zeros(3)}, jax.device_put(x3), scale=2.0))
    f(params, x, scale=scale)
    with jt.enable_x64(True):  # the same aval objects, another trace state: traced again
        before = f.cache_info().misses
        assert_same(f(params, x, scale=scale), g({"w": jax.device_put(w3), "b": jax.numpy.zeros(3, np.float32)}, jax.device_put(x3), scale=jax.device_put(two)))
        assert f.cache_info().misses == before + 1
    f(params, x, scale=scale)
    assert f._last_tree_hit is not None  # pyright: ignore[reportPrivateUsage]  # the path this test is about was taken
    f.clear_cache()
    assert f._last_tree_hit is None  # pyright: ignore[reportPrivateUsage]  # nothing of the cleared entries is kept


def _sum_of_three(a: Any, b: Any, c: Any) -> Any:
    return a + b * c


@pytest.mark.parametrize("shape", ["one", "positional", "containers"])
def test_memo_serves_fresh_arrays_of_a_known_signature(shape: str) -> None:
    """Arrays made afresh for every call (a batch put on the device each
    step, an eager result) carry new aval objects: the memo finds their
    signature by value, without the full path (which adds a key per call),
    and never serves another signature (a weak type, another dtype)."""
    value = np.linspace(-1.0, 1.0, 6).astype(np.float32).reshape(2, 3)
    calls: dict[str, tuple[Callable[..., Any], Callable[[Any], tuple[Any, ...]]]] = {
        "one": (_plus_one_and_a_half, lambda a: (a,)),
        "positional": (_sum_of_three, lambda a: (a, a, a)),
        "containers": (_dict_last_minus_first, lambda a: ({"a": a, "c": a * 3},)),
    }
    fun, arguments = calls[shape]
    f = jt.jit(fun)
    expected = jax.jit(fun)(*arguments(jax.device_put(value)))
    for step in range(6):
        fresh = jt.device_put(value) if step % 2 == 0 else jnp.asarray(value) + 0  # put afresh, or an eager result
        assert_same(f(*arguments(fresh)), expected, tree=True)
    assert f.cache_info().misses == 1 and f.cache_info().hits == 5
    assert len(f._dispatch) == 1  # pyright: ignore[reportPrivateUsage]  # only the first call's key: no full path since
    weak = jnp.asarray(1.0) + value[0, 0]  # a weakly typed f32[]: another signature
    assert_same(f(*arguments(weak)), jax.jit(fun)(*arguments(jax.numpy.asarray(1.0) + value[0, 0])), tree=True)
    as_int = jt.device_put(np.ones((2, 3), np.int32))
    assert_same(f(*arguments(as_int)), jax.jit(fun)(*arguments(jax.device_put(np.ones((2, 3), np.int32)))), tree=True)
    assert f.cache_info().misses == 3


def _reciprocal_of_product(a: Any, s: Any) -> Any:
    return 1 / (a * s)


def test_memo_runs_python_scalar_arguments_as_the_full_path_does() -> None:
    """Python scalar arguments (a learning rate, a loop counter) hit the
    memo: each value gives its own result (a constant's device buffer is
    reused, never another value's: 0.0 and -0.0 differ), with JAX's dtypes
    and weak types; an int out of range still raises the full path's error."""
    value = np.linspace(0.5, 2.0, 4).astype(np.float32)
    ours, theirs = _put_both(value)
    f, g = jt.jit(_reciprocal_of_product), jax.jit(_reciprocal_of_product)
    scalars: list[bool | int | float | complex] = [2.0, 3.0, 2.0, 0.0, -0.0, 0.0, 3, -4, True, False, 2.5 + 1j, 7, 8, 7]
    for s in scalars:
        assert_same(f(ours, s), g(theirs, s), where=f"scale {s!r}")
    assert np.signbit(np.asarray(f(ours, -0.0))).all() and not np.signbit(np.asarray(f(ours, 0.0))).any()
    assert f.cache_info().misses == 4  # float, int, bool, complex: one trace each
    assert len(f._dispatch_by_value) == 4  # pyright: ignore[reportPrivateUsage]  # the memo served every repeat
    with pytest.raises(OverflowError, match="2199023255552"):
        f(ours, 2**41)
    doubled = jt.jit(_double)
    assert_same(_warm(doubled, 2.0), jax.jit(_double)(2.0))
    with jt.enable_x64(True):  # the x64 setting decides a scalar's dtype: not the float32 buffer
        assert doubled(2.0).dtype == np.float64 and doubled(2.0).weak_type
        wide = jt.device_put(value.astype(np.float64))
        assert f(wide, 2.0).dtype == np.float64 and f(wide, 2.0).weak_type is False
        assert np.allclose(np.asarray(f(wide, 2.0)), 1 / (value.astype(np.float64) * 2.0))
    jt.clear_caches()
    assert_same(f(ours, 2.0), g(theirs, 2.0))


def test_memo_runs_numpy_arguments_as_the_full_path_does() -> None:
    """NumPy arrays and scalars passed to a jitted function hit the memo:
    converted as the full path converts them (float64 to float32, copied),
    so a later write to the NumPy array changes only later calls; an
    unsupported dtype still gets the full path's error."""
    f, g = jt.jit(_reciprocal_of_product), jax.jit(_reciprocal_of_product)
    batch = np.linspace(0.5, 2.0, 6).reshape(2, 3)  # float64: canonicalised to float32, as JAX does
    first = [f(batch, np.float32(2.0)) for _ in range(3)]
    for out in first:
        assert_same(out, g(batch, np.float32(2.0)))
    batch[0, 0] = 4.0
    assert_same(f(batch, np.float32(2.0)), g(batch, np.float32(2.0)))
    assert float(np.asarray(first[0])[0, 0]) == pytest.approx(1.0)  # the earlier result kept its input
    assert_same(f(batch, np.int32(3)), g(batch, np.int32(3)))
    assert f.cache_info().misses == 2
    assert len(f._dispatch_by_value) == 2  # pyright: ignore[reportPrivateUsage]  # the memo served every repeat
    with pytest.raises(TypeError, match="object"):
        f(np.array([1, "a"], dtype=object), 2.0)


def _power(x: Any, k: Any, *, shift: Any = 0) -> Any:
    return x**k + shift


def test_general_memo_serves_static_arguments_by_value_and_type() -> None:
    """A function with static arguments is served by the general memo:
    each static value (compared with its type: 2 and 2.0 differ, as on the
    full path) gives its own program; static names by keyword; negative
    static_argnums; an unhashable static value keeps the full path's error."""
    value = np.linspace(0.5, 2.0, 4).astype(np.float32)
    ours, theirs = _put_both(value)
    f = jt.jit(_power, static_argnums=-1, static_argnames="shift")
    g = jax.jit(_power, static_argnums=-1, static_argnames="shift")
    for k in (2, 3, 2, 2, 2.0, 2.0, 3, 2.0):  # repeats in a row take the last hit, which compares types too
        assert_same(f(ours, k), g(theirs, k), where=f"k={k!r}")
    shorter_ours, shorter_theirs = _put_both(value[:2])
    for _ in range(2):  # the same static value with another shape: not the last hit's program
        assert_same(f(shorter_ours, 2.0), g(shorter_theirs, 2.0))
    assert_same(f(ours, 2.0), g(theirs, 2.0))
    assert_same(f(ours, 2, shift=1), g(theirs, 2, shift=1))
    assert_same(f(ours, 2, shift=1), g(theirs, 2, shift=1))
    assert_same(f(ours, 2, shift=1.5), g(theirs, 2, shift=1.5))
    assert f.cache_info().misses == 6
    assert len(f._general_dispatch) == 6  # pyright: ignore[reportPrivateUsage]  # every repeat was a memo hit
    with pytest.raises(JaxtypedValueError, match="non-hashable static argument"):
        f(ours, [2])
    negative = jt.device_put(np.array([-1.0, 4.0], np.float32))
    _warm(f, negative, 0.5)
    with jt.debug_nans(True), pytest.raises(FloatingPointError, match="_power"):
        f(negative, 0.5)  # a memo hit still checks the outputs in the scope
    with jt.disable_jit():
        assert isinstance(f(negative, 0.5), jt.Array)  # runs as Python
    f.clear_cache()
    assert not f._general_dispatch  # pyright: ignore[reportPrivateUsage]  # nothing of the cleared entries is kept


def _scaled_sum(x: Any, y: Any) -> Any:
    return x * y + x


def test_general_memo_donates_as_the_full_path_does() -> None:
    """Memo hits of a function with donated arguments delete the donated
    arrays (their buffers are reused), refuse a donated array passed twice,
    and never donate a Python scalar's shared array."""
    f = jt.jit(_scaled_sum, donate_argnums=0)
    g = jax.jit(_scaled_sum)
    value = np.arange(1024, dtype=np.float32)
    x = jt.jit(_double)(jt.device_put(value))
    for step in range(4):
        x = jt.jit(_double)(jt.device_put(value))  # a device-born array each step
        if step % 2:
            assert float(x[1]) == 2.0  # an eager read: a host view the donation must drop to reuse the buffer
        pointer = x.unsafe_buffer_pointer()
        out = f(x, jnp.float32(3.0))
        assert x.is_deleted() and out.unsafe_buffer_pointer() == pointer
        assert_same(out, g(jax.device_put(value * 2), jax_numpy.float32(3.0)))
    assert len(f._general_dispatch) == 1  # pyright: ignore[reportPrivateUsage]  # the memo served the repeats
    with pytest.raises(RuntimeError, match="deleted"):
        f(x, jnp.float32(3.0))  # donated by the last step: a memo hit refuses it as the full path does
    f(jt.jit(_double)(jt.device_put(value)), jt.device_put(value))  # memoises (array, array)
    twice = jt.jit(_double)(jt.device_put(value))
    with pytest.raises(JaxtypedValueError, match="donated argument 0 and again as argument 1"):
        f(twice, twice)
    for _ in range(3):  # a donated Python scalar: a new array each call
        assert_same(f(2.0, jnp.float32(3.0)), g(2.0, jax_numpy.float32(3.0)))
    assert f.cache_info().misses == 3  # (array, scalar), (array, array), (Python float, scalar)


@dataclasses.dataclass(frozen=True)
class _Layer:
    """A registered dataclass: ``w`` and ``b`` children, ``act`` meta data."""

    w: Any
    b: Any
    act: str = "tanh"


jt.tree_util.register_dataclass(_Layer, data_fields=["w", "b"], meta_fields=["act"])
jax.tree_util.register_dataclass(_Layer, data_fields=["w", "b"], meta_fields=["act"])


class _Checked:
    """A node whose unflatten reads its children (as a class checking
    shapes does), so it refuses the int probes of the C++ rebuild."""

    def __init__(self, x: Any) -> None:
        self.x = x
        self.shape = x.shape


def _checked_children(checked: _Checked) -> tuple[tuple[Any], None]:
    return (checked.x,), None


def _checked_from_children(_aux: None, children: tuple[Any, ...]) -> _Checked:
    return _Checked(children[0])


jt.tree_util.register_pytree_node(_Checked, _checked_children, _checked_from_children)
jax.tree_util.register_pytree_node(_Checked, _checked_children, _checked_from_children)


def _apply_layer(layer: _Layer, x: Any) -> tuple[_Layer, _Checked]:
    y = jnp.tanh(x * layer.w + layer.b) if layer.act == "tanh" else x * layer.w + layer.b
    return _Layer(layer.w * 2, y, layer.act), _Checked(y + 1)


def _apply_layer_jax(layer: _Layer, x: Any) -> tuple[_Layer, _Checked]:
    y = jax_numpy.tanh(x * layer.w + layer.b) if layer.act == "tanh" else x * layer.w + layer.b
    return _Layer(layer.w * 2, y, layer.act), _Checked(y + 1)


def test_memo_serves_registered_node_types() -> None:
    """Arguments in registered node types (a dataclass model, a class with
    its own flatten) are flattened by jaxlib's registry too (Note [node
    types shared with jaxlib]): calls hit the memo, meta data tells
    signatures apart, and results are rebuilt as the full path rebuilds them."""
    value = np.linspace(-1.0, 1.0, 3).astype(np.float32)
    f, g = jt.jit(_apply_layer), jax.jit(_apply_layer_jax)
    ours_x, theirs_x = _put_both(value)
    for act in ("tanh", "linear", "tanh"):
        ours_layer = _Layer(jt.device_put(value), jt.device_put(value + 1), act)
        theirs_layer = _Layer(jax.device_put(value), jax.device_put(value + 1), act)
        for _ in range(3):
            (layer, checked), (their_layer, their_checked) = f(ours_layer, ours_x), g(theirs_layer, theirs_x)
            assert type(layer) is _Layer and layer.act == act and type(checked) is _Checked
            assert_same(layer.w, their_layer.w)
            assert_same(layer.b, their_layer.b)
            assert_same(checked.x, their_checked.x)
    assert f.cache_info().misses == 2 and f.cache_info().hits == 7
    assert len(f._dispatch) == 2  # pyright: ignore[reportPrivateUsage]  # keyed by the memo: the repeats were hits


def test_memo_one_argument_path_transfers_a_host_born_array() -> None:
    """A single host-only argument (no device buffer yet) on the memo's
    one-argument path is transferred, as on the full path."""
    f = jt.jit(_plus_one_and_a_half)
    _warm(f, jt.device_put(np.zeros(3, np.float32)))
    host_only = jnp.sin(jnp.zeros(3))
    assert_same(f(host_only), jax.jit(_plus_one_and_a_half)(jax_numpy.zeros(3, np.float32)))
    assert f.cache_info() == (2, 1, 1, f.cache_info().maxsize)


def test_block_until_ready_waits_for_a_whole_tree_in_one_call() -> None:
    f = jt.jit(_dict_and_pair)
    x = jt.device_put(np.ones(3, np.float32))
    tree = {"out": f(x), "host": jnp.sin(jnp.zeros(2)), "scalar": 1.0, "list": [x, None]}
    assert jt.block_until_ready(tree) is tree
    assert all(leaf.is_ready() for leaf in jt.tree_util.tree_leaves(tree) if isinstance(leaf, ArrayImpl))
    results = {"plain": f(x), "node": _Swapped(f(x)["z"], x)}  # containers only, then a registered node
    assert jt.block_until_ready(results["plain"]) is results["plain"]
    assert jt.block_until_ready(results) is results
    assert all(leaf.is_ready() for leaf in jt.tree_util.tree_leaves(results) if isinstance(leaf, ArrayImpl))
    with pytest.raises(ValueError, match="mutually comparable"):
        jt.block_until_ready({1: x, "a": x})
    gone = jt.device_put(np.ones(2, np.float32))
    assert isinstance(gone, ArrayImpl)
    gone.delete()
    with pytest.raises(RuntimeError, match="deleted"):
        jt.block_until_ready([x, gone])
    donated = jt.device_put(np.ones(2, np.float32))
    jt.jit(_double, donate_argnums=0)(donated)
    with pytest.raises(RuntimeError, match="deleted"):
        jt.block_until_ready({"a": x, "b": donated})


# === eager shortcuts ===

_RNG = np.random.default_rng(1)


def _h(dtype: str, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    return host(dtype, _RNG.standard_normal(shape) * 3)


def _cases() -> list[Case]:
    f32, f16, bf16, i32, c64 = _h("float32", (3, 4)), _h("float16", (3, 4)), _h("bfloat16", (3, 4)), _h("int32", (3, 4)), _h("complex64", (3, 4))
    m, v, i8 = _h("float32", (4, 5)), _h("float32", (4,)), _h("int8", (4, 5))
    b = np.array([[True, False, True, True]] * 3)
    return [
        Case("promote-sin-f32", lambda L: L.sin(L.asarray(f32))),
        Case("promote-sin-weak", lambda L: L.sin(L.asarray(2.0) + 0)),
        Case("promote-sin-f16", lambda L: L.sin(L.asarray(f16)), rtol=1e-3, atol=1e-3),
        Case("promote-sin-bf16", lambda L: L.sin(L.asarray(bf16)), rtol=1e-2, atol=1e-2),
        Case("promote-sin-int", lambda L: L.sin(L.asarray(i32))),
        Case("promote-sin-bool", lambda L: L.sin(L.asarray(b))),
        Case("promote-add-same", lambda L: L.asarray(f32) + L.asarray(f32)),
        Case("promote-add-weak-weak", lambda L: (L.asarray(2.0) + 0) + (L.asarray(3.0) + 0)),
        Case("promote-add-weak-strong", lambda L: (L.asarray(2.0) + 0) + L.asarray(f32)),
        Case("promote-add-mixed", lambda L: L.asarray(i32) + L.asarray(f32)),
        Case("promote-add-bool", lambda L: L.asarray(b) + L.asarray(b)),
        Case("promote-add-broadcast", lambda L: L.asarray(f32) + L.asarray(v[:4])),
        Case("promote-add-0d", lambda L: L.asarray(np.float32(2.0)) + L.asarray(np.float32(3.0))),
        Case("promote-mul-complex", lambda L: L.asarray(c64) * L.asarray(c64), rtol=1e-5, atol=1e-5),
        Case("promote-subtract-bool", lambda L: L.subtract(L.asarray(b), L.asarray(b))),
        Case("promote-add-list", lambda L: L.add([1.0, 2.0], L.asarray(v[:2]))),
        Case("matmul-2d", lambda L: L.asarray(f32) @ L.asarray(m), rtol=1e-5, atol=1e-5),
        Case("matmul-vec-mat", lambda L: L.asarray(v) @ L.asarray(m), rtol=1e-5, atol=1e-5),
        Case("matmul-mat-vec", lambda L: L.asarray(f32) @ L.asarray(v), rtol=1e-5, atol=1e-5),
        Case("matmul-vec-vec", lambda L: L.asarray(v) @ L.asarray(v), rtol=1e-5, atol=1e-5),
        Case("matmul-int8", lambda L: L.asarray(i8).T @ L.asarray(i8)),
        Case("matmul-f16", lambda L: L.asarray(f16) @ L.asarray(f16).T, rtol=1e-2, atol=1e-2),
        Case("matmul-mixed", lambda L: L.asarray(i32) @ L.asarray(m), rtol=1e-5, atol=1e-4),
        Case("matmul-shapes", lambda L: L.asarray(f32) @ L.asarray(f32)),
        Case("matmul-lax-transposed", lambda L: library_lax(L).dot_general(L.asarray(m), L.asarray(f32), (((0,), (1,)), ((), ()))), rtol=1e-5, atol=1e-5),
        Case("sum-all", lambda L: L.sum(L.asarray(f32)), rtol=1e-5, atol=1e-5),
        Case("sum-axis", lambda L: L.sum(L.asarray(f32), axis=(1, 0)), rtol=1e-5, atol=1e-5),
        Case("sum-int8", lambda L: L.sum(L.asarray(i8), axis=0)),
        Case("sum-bool", lambda L: L.sum(L.asarray(b))),
        Case("sum-f16", lambda L: L.sum(L.asarray(f16)), rtol=1e-2, atol=1e-2),
        Case("sum-lax-unsorted", lambda L: library_lax(L).reduce_sum(L.asarray(f32), (1, 0)), rtol=1e-5, atol=1e-5),
        Case("sum-lax-list", lambda L: library_lax(L).reduce_sum(L.asarray(f32), [1]), rtol=1e-5, atol=1e-5),
        Case("sum-lax-out-of-range", lambda L: library_lax(L).reduce_sum(L.asarray(f32), (2,))),
        Case("index-read", lambda L: L.asarray(f32)[1]),
        Case("index-slice", lambda L: L.asarray(v)[1:3]),
        Case("lax-add-scalar", lambda L: library_lax(L).add(L.asarray(f32), 2.0)),
        Case("lax-add-mixed", lambda L: library_lax(L).add(L.asarray(f32), L.asarray(i32))),
        Case("lax-mul-inf", lambda L: library_lax(L).mul(L.asarray(np.array([np.inf, 0.0], np.float32)), L.asarray(np.array([0.0, 1.0], np.float32)))),
    ]


def library_lax(L: Any) -> Any:
    return jt.lax if L is jnp else jax.lax


TABLE = CaseTable("fast_paths", _cases, eager=True)


@pytest.mark.parametrize("group", TABLE.params())
def test_eager_shortcuts_match_jax(group: Group) -> None:
    TABLE.check(group)


def test_eager_shortcuts_twice_give_the_same() -> None:
    """The second application of a signature (the abstract-eval memo) gives
    the first's result."""
    x = jnp.asarray(_h("float32", (4, 4)))
    funs: list[Callable[[jt.Array], jt.Array]] = [
        jnp.sin, lambda a: a + a, lambda a: a @ a, jnp.sum, lambda a: a[3], lambda a: a[1:3]
    ]
    for fun in funs:
        first, second = fun(x), fun(x)
        assert first.aval == second.aval
        np.testing.assert_array_equal(np.asarray(first), np.asarray(second))


def test_eager_shortcuts_under_x64() -> None:
    with jt.enable_x64(True):
        x = jnp.asarray(np.arange(6.0).reshape(2, 3))
        assert (x @ x.T).dtype == np.float64
        assert jnp.sin(x).dtype == np.float64
        assert (jnp.asarray(np.arange(3)) + jnp.asarray(np.arange(3))).dtype == np.int64


def test_a_64_bit_array_from_an_x64_scope_keeps_its_dtype_outside_it() -> None:
    """Operands of one dtype need no promotion, even 64-bit ones made in an
    x64 scope and used after it (JAX keeps int64 + int64 an int64)."""
    with jt.enable_x64(True):
        wide = jnp.asarray(np.arange(3, dtype=np.int64))
        wide_float = jnp.asarray(np.arange(3, dtype=np.float64))
    with jax.enable_x64(True):
        their_wide = jax_numpy.asarray(np.arange(3, dtype=np.int64))
        their_wide_float = jax_numpy.asarray(np.arange(3, dtype=np.float64))
    assert_same(wide + wide, their_wide + their_wide)
    assert_same(jnp.sin(wide_float), jax_numpy.sin(their_wide_float))


def _first(a: Any, unused: Any) -> Any:
    return a * 2


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.arange(6, dtype=np.float32).reshape(2, 3),
        lambda: np.arange(6, dtype=np.float64).reshape(2, 3),  # canonicalised to float32
        lambda: np.arange(6, dtype=np.float32).reshape(3, 2).T,  # not contiguous
        lambda: np.arange(1 << 15, dtype=np.float32).reshape(-1, 2),  # 128 KiB: past the aliasing threshold
    ],
    ids=["f32", "f64", "transposed", "large"],
)
def test_numpy_arguments_on_memo_hits_are_copied_at_the_call(make: Callable[[], np.ndarray[Any, Any]]) -> None:
    # A memo hit copies a NumPy argument to the device during the call
    # (xla.put_copy): writing to it afterwards changes nothing already returned.
    f, g = jt.jit(_mul), jax.jit(_mul)
    value = make()
    dev = jt.device_put(np.ones(value.shape, np.float32))
    for _ in range(3):
        # JAX's result is waited for before the write: on the CPU, JAX may
        # alias a large NumPy argument and read it after the call returns
        # (JAX 0.10.2 gives value + 1 here for the 128 KiB case).
        expected = g(value, jax_numpy.ones(value.shape, np.float32)).block_until_ready()
        out = f(value, dev)
        value += 1  # the caller reuses its buffer
        assert_same(out, expected)
    assert f.cache_info().misses == 1
    unused = _warm(jt.jit(_first), value, np.zeros(3))  # an argument the program drops is not transferred
    assert_same(unused, jax.jit(_first)(value, np.zeros(3)))


def test_one_numpy_argument_takes_the_last_hit_only_for_its_type() -> None:
    """A function of one NumPy array reuses the last call's entry only for
    the same dtype and shape: NumPy arrays of other dtypes or shapes in
    turn give JAX's results, and each array is copied at the call."""
    f, g = jt.jit(_double), jax.jit(_double)
    values: list[np.ndarray[Any, Any]] = [
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.arange(6, dtype=np.int32).reshape(2, 3),
        np.arange(6, dtype=np.float64).reshape(2, 3),  # canonicalised to float32
        np.arange(6, dtype=np.float32).reshape(3, 2),
    ]
    for _ in range(3):
        for value in values:
            expected = g(value).block_until_ready()
            out = f(value)
            value += 1
            assert_same(out, expected)
    assert f.cache_info().misses == 3  # float32[2,3] serves the float64 arrays too
