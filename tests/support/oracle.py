"""The JAX oracle, shared by every test that compares jaxtyped with JAX.

A *case* is written once as a function of a namespace ``L`` (either
``jaxtyped.numpy`` or ``jax.numpy``, same API by contract), so both
libraries run literally the same code. A :class:`CaseTable` runs all of
JAX's cases in one ``jax.jit`` (one mostly constant-folded compilation
instead of hundreds of eager dispatches) and caches the results (for the
debug-mode run of ``tools/test.sh`` too: ``oracle_store``); where JAX
raises while tracing a case, jaxtyped must raise the same kind of error.

Usage::

    from oracle import Case, CaseTable, call, host

    TABLE = CaseTable("sorting", lambda: [Case("sort-1d", call("sort", host("float32", [3, 1, 2])))])

    @pytest.mark.parametrize("group", TABLE.params())
    def test_sorting(group: Group) -> None:
        TABLE.check(group)

The module is on pytest's path (``pythonpath`` in ``pyproject.toml``) and on
the type checkers' (``mypy_path``, pyright's ``extraPaths``).
"""

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, overload

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors

import oracle_store

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")
jax_config: Any = pytest.importorskip("jax._src.config")

__all__ = [
    "Namespace", "Case", "Group", "CaseTable", "Raised", "debug_violations", "as_tuple", "widen",
    "assert_same", "assert_same_value", "host", "library_case", "random_host", "call", "tol", "jax", "jax_numpy", "jax_config",
    "ERROR_KINDS", "error_kind", "expect_same_error", "raises_as_jax", "library", "jitted", "vmapped", "grad_of_sum", "unary_fn", "binary_fn", "call_in",
    "sample", "exact", "printed_by", "XLA_DEFAULT_EMITTERS", "jax_with_default_emitters",
    "mesh_sharding",  # sharding family (issue 17)
]  # fmt: skip

Namespace = Any  # jaxtyped.numpy or jax.numpy: same API by contract


def debug_violations() -> tuple[type[Exception], ...]:
    """The debug mode's error for an ill-typed call (beartype reports it
    before jaxtyped's own checks do), else nothing."""
    return (errors.DebugTypeError,) if jt.DEBUG else ()


@dataclass(frozen=True)
class Case:
    """``fn(L)`` for ``L`` in (jaxtyped.numpy, jax.numpy) must agree."""

    id: str
    fn: Callable[[Namespace], Any]
    rtol: float = 1e-5
    atol: float = 1e-6


Group = tuple[Case, ...]  # the cases one test runs


class Raised:
    """JAX raised this exception while tracing a case."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"Raised({type(self.error).__name__}: {self.error})"


# The error kinds compared: ours must be an instance of the first of these
# JAX's error is an instance of.
ERROR_KINDS: tuple[type[Exception], ...] = (
    TypeError, ValueError, IndexError, OverflowError, ZeroDivisionError, NotImplementedError,
)  # fmt: skip


def error_kind(error: Exception) -> type[Exception]:
    """The kind ``error`` is compared by: the first of :data:`ERROR_KINDS`
    it is an instance of, else ``Exception``."""
    return next((k for k in ERROR_KINDS if isinstance(error, k)), Exception)


def expect_same_error(theirs: Exception, run: Callable[[], object]) -> None:
    """``run()`` raises an error of the same kind as JAX's ``theirs``."""
    kind: Any = error_kind(theirs)
    if kind is TypeError and jt.DEBUG:
        # Under JAXTYPED_DEBUG=1 an ill-typed call is caught by beartype first.
        kind = (TypeError, *debug_violations())
    with pytest.raises(kind):
        run()


def raises_as_jax(program: Callable[[Any], object], *, ill_typed: bool = False) -> None:
    """``program(jax)`` raises, and ``program(jaxtyped)`` raises an error of
    the same kind: an error program written once for both libraries.
    ``ill_typed``: the call is outside jaxtyped's static types, so under the
    debug mode beartype may report it first."""
    try:
        program(jax)
    except Exception as theirs:  # noqa: BLE001 - compared with ours
        if ill_typed and jt.DEBUG:
            with pytest.raises((type(theirs), *debug_violations())):
                program(jt)
            return
        expect_same_error(theirs, lambda: program(jt))
    else:
        pytest.fail("JAX accepted the program")


class CaseTable:
    """A named list of cases whose JAX results come from one ``jax.jit``.

    ``make_cases`` is called once, lazily. ``params()`` gives one pytest
    parameter per function (the part of the case ids before the first
    ``-``); ``check(group)`` compares every case of a group and reports
    every mismatch, one line each.
    """

    def __init__(
        self, name: str, make_cases: Callable[[], Sequence[Case]], *, x64: bool = False, eager: bool = False
    ) -> None:
        self.name = name
        self.x64 = x64
        # eager: run JAX's cases without jit, for functions whose results are
        # static (Python values, shapes) or that cannot be traced.
        self.eager = eager
        self._make_cases = make_cases

    @functools.cached_property
    def cases(self) -> tuple[Case, ...]:
        return tuple(self._make_cases())

    def params(self) -> list[Any]:
        groups: dict[str, list[Case]] = {}
        for case in self.cases:
            groups.setdefault(case.id.split("-")[0], []).append(case)
        return [pytest.param(tuple(group), id=name) for name, group in groups.items()]

    @functools.cached_property
    def jax_results(self) -> dict[str, Any]:
        """JAX's result (or :class:`Raised`) of every case, from one jit."""
        raised: dict[str, Raised] = {}

        def run_all() -> dict[str, Any]:
            out: dict[str, Any] = {}
            for case in self.cases:
                try:
                    out[case.id] = case.fn(jax_numpy)
                except Exception as error:  # noqa: BLE001 - compared with ours
                    raised[case.id] = Raised(error)
            return out

        case_ids = [case.id for case in self.cases]
        previous = bool(getattr(jax.config, "jax_enable_x64"))
        jax.config.update("jax_enable_x64", self.x64)  # loading too: a stored f64 array is put on the device as one
        try:
            stored = oracle_store.load(self.name, self.x64, case_ids)
            if stored is not None:  # the first of tools/test.sh's two runs computed them
                return stored
            with jax_config.traceback_filtering("off"):
                values: dict[str, Any] = run_all() if self.eager else jax.jit(run_all)()
        finally:
            jax.config.update("jax_enable_x64", previous)
        results = {**values, **raised}
        # JAX's errors as plain ones of their compared kind: JAX's own
        # classes need a tracer to be rebuilt, which pickle cannot carry.
        storable = {**values, **{key: Raised(error_kind(r.error)(str(r.error))) for key, r in raised.items()}}
        oracle_store.save(self.name, self.x64, case_ids, storable)
        return results

    def check(self, group: Group) -> None:
        """Run the cases and compare them with JAX (under this table's x64
        setting, in both libraries)."""
        previous = jt.config.jax_enable_x64
        expected_all = self.jax_results
        jt.config.update("jax_enable_x64", self.x64)
        problems: list[str] = []
        try:
            for case in group:
                try:
                    expected = expected_all[case.id]
                    if isinstance(expected, Raised):
                        expect_same_error(expected.error, lambda: case.fn(jnp))
                    else:
                        assert_same(case.fn(jnp), expected, case.rtol, case.atol)
                except Exception as error:  # noqa: BLE001 - reported, never swallowed
                    problems.append(f"{case.id}: {type(error).__name__}: {error}")
        finally:
            jt.config.update("jax_enable_x64", previous)
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)


def as_tuple(x: Any) -> tuple[Any, ...]:
    """A function's outputs as a tuple (a single array becomes a 1-tuple)."""
    if isinstance(x, (list, tuple)):
        items: list[Any] = list(x)  # pyright: ignore[reportUnknownArgumentType]  # outputs are Any
        return tuple(items)
    return (x,)


def widen(x: Any) -> np.ndarray[Any, Any]:
    """Values as float64 (complex128 for complex): NumPy compares those
    exactly (bfloat16 NaNs, for one, do not compare equal otherwise)."""
    value = np.asarray(x)
    return value.astype(np.complex128 if value.dtype.kind == "c" else np.float64)


def assert_same(
    ours: Any,
    theirs: Any,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    where: str = "result",
    *,
    weak: bool = True,
    kind: type[Any] = jt.Array,
    tree: bool = False,
) -> None:
    """``ours`` is a jaxtyped Array (or a tuple/list of them, or a pytree of
    dicts) equal to JAX's ``theirs`` in shape, dtype, weak type and values.

    ``weak=False`` leaves the weak type out; ``kind`` is the class ``ours``
    must be (``jax.Array`` to compare JAX with itself); float0 arrays (of
    integer tangents) are equal in shape and dtype. ``tree``: any pytrees
    of the same structure as ``jax.tree_util`` prints it (container and
    NamedTuple types, dict keys, ``None``), compared leaf by leaf, each leaf
    of JAX's as ``jax.numpy.asarray`` of it (JAX hands back a float0 tangent
    as a NumPy array, an untouched loop carry as the Python scalar it got)."""
    if tree:
        ours_leaves, ours_def = jax.tree_util.tree_flatten(ours)
        theirs_leaves, theirs_def = jax.tree_util.tree_flatten(theirs)
        assert str(ours_def) == str(theirs_def), f"{where}: tree {ours_def} != JAX's {theirs_def}"
        for i, (a, b) in enumerate(zip(ours_leaves, theirs_leaves, strict=True)):
            assert_same(a, jax_numpy.asarray(b), rtol, atol, f"{where} leaf {i}", weak=weak, kind=kind)
        return
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), f"{where}: {type(ours).__name__} is not a dict"
        expected_tree = dict[Any, Any](theirs)  # pyright: ignore[reportUnknownArgumentType]  # a pytree of Any
        ours_tree = dict[Any, Any](ours)  # pyright: ignore[reportUnknownArgumentType]  # a pytree of Any
        assert sorted(map(str, ours_tree)) == sorted(map(str, expected_tree)), f"{where}: keys differ"
        for key, value in expected_tree.items():
            assert_same(ours_tree[key], value, rtol, atol, f"{where}[{key!r}]", weak=weak, kind=kind)
        return
    if isinstance(theirs, (tuple, list)):
        mine, expected = as_tuple(ours), as_tuple(theirs)
        assert isinstance(ours, (tuple, list)) and len(mine) == len(expected), where
        for i, (a, b) in enumerate(zip(mine, expected)):
            assert_same(a, b, rtol, atol, f"{where}[{i}]", weak=weak, kind=kind)
        return
    if not isinstance(theirs, jax.Array) and getattr(theirs, "dtype", None) != jnp.float0:
        # A Python or NumPy value (a static result): equal as such.
        assert not isinstance(ours, jt.Array) or ours.ndim == 0, f"{where}: {ours!r} != JAX's {theirs!r}"
        np.testing.assert_allclose(widen(ours), widen(theirs), rtol=rtol, atol=atol, err_msg=where)
        return
    assert isinstance(ours, kind), f"{where}: {type(ours).__name__} is not a {kind.__name__}"
    assert ours.shape == theirs.shape, f"{where}: shape {ours.shape} != JAX's {theirs.shape}"
    assert ours.dtype == theirs.dtype, f"{where}: dtype {ours.dtype} != JAX's {theirs.dtype}"
    # JAX's float0 tangents (of integer inputs) are NumPy arrays, with a weak type or without.
    if weak and hasattr(theirs, "weak_type"):
        assert ours.weak_type == theirs.weak_type, f"{where}: weak_type {ours.weak_type} != JAX's {theirs.weak_type}"
    if theirs.dtype != jnp.float0:
        assert_same_value(ours, theirs, rtol, atol, where)


def assert_same_value(ours: Any, theirs: Any, rtol: float = 1e-5, atol: float = 1e-6, where: str = "result") -> None:
    """Equal values (NaNs equal), compared in float64/complex128."""
    np.testing.assert_allclose(widen(ours), widen(theirs), rtol=rtol, atol=atol, err_msg=where)


# The test run compiles with XLA's classic CPU emitters (tests/conftest.py:
# they compile faster). Where the emitter decides a result (a NaN's fate in
# reduce_precision, the sign of a complex product's zero part), our eager
# rules follow what users' programs compute, XLA's default MLIR fusion
# emitters; these compile options give one JAX program those back.
XLA_DEFAULT_EMITTERS: dict[str, bool] = {"xla_cpu_use_fusion_emitters": True}


def jax_with_default_emitters(fn: Callable[..., Any], *args: Any, static_argnums: tuple[int, ...] = ()) -> np.ndarray[Any, Any]:
    """``jax.jit(fn, static_argnums=...)(*args)`` compiled with XLA's
    default CPU emitters (:data:`XLA_DEFAULT_EMITTERS`), as a NumPy array."""
    compiled = jax.jit(fn, static_argnums=static_argnums).lower(*args).compile(compiler_options=XLA_DEFAULT_EMITTERS)
    return np.asarray(compiled(*[a for i, a in enumerate(args) if i not in static_argnums]))


def host(dtype: str, values: Any) -> np.ndarray[Any, Any]:
    """``values`` as a NumPy array of ``dtype`` (bfloat16 included)."""
    return np.asarray(values).astype(jnp.dtype(dtype))


def call(name: str, *args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """A case that calls ``L.name(*args, **kwargs)`` (a dotted name reaches
    into submodules: ``"linalg.norm"``), NumPy arrays among the arguments
    converted with ``L.asarray`` first."""

    def fn(L: Namespace) -> Any:
        def convert(value: Any) -> Any:
            return L.asarray(value) if isinstance(value, np.ndarray) else value

        target: Any = L
        for part in name.split("."):
            target = getattr(target, part)
        return target(*map(convert, args), **{k: convert(v) for k, v in kwargs.items()})

    return fn


def call_in(module_of: Callable[[Namespace], Any], name: str, *args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """A case that calls ``module_of(L).name(*args, **kwargs)`` (``module_of``
    picks the library's module that goes with ``L``, e.g. its ``nn``), NumPy
    arrays among the positional arguments converted with ``L.asarray``."""

    def fn(L: Namespace) -> Any:
        converted = [L.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        return getattr(module_of(L), name)(*converted, **kwargs)

    return fn


def sample(name: str, seed: int, *args: Any, legacy: bool = False, **kwargs: Any) -> Callable[[Namespace], Any]:
    """A PRNG case: ``random.name(key(seed), *args, **kwargs)`` in the
    library's ``random`` (``PRNGKey`` for ``legacy``), NumPy arrays among
    the arguments converted with ``L.asarray`` (added with the continuous
    distributions)."""

    def fn(L: Namespace) -> Any:
        random = library(L).random
        key = random.PRNGKey(seed) if legacy else random.key(seed)

        def convert(value: Any) -> Any:
            return L.asarray(value) if isinstance(value, np.ndarray) else value

        return getattr(random, name)(key, *map(convert, args), **{k: convert(v) for k, v in kwargs.items()})

    return fn


def exact(case_id: str, fn: Callable[[Namespace], Any]) -> Case:
    """A case compared bit for bit (0 ulp)."""
    return Case(case_id, fn, rtol=0.0, atol=0.0)


def tol(dtype: str) -> float:
    """A relative tolerance for results of ``dtype``."""
    return 2e-2 if dtype in ("float16", "bfloat16") else 1e-5


def library(L: Namespace) -> Any:
    """The library the numpy namespace ``L`` belongs to, as
    ``.api`` (jit, vmap, jvp, grad, ...), ``.lax``, ``.np`` and ``.random``, so that a
    case can use transformations, lax and the PRNG as well (added with the sorting tests)."""
    if L is jnp:
        return SimpleNamespace(api=jt, lax=jt.lax, np=jnp, random=jt.random)
    return SimpleNamespace(api=jax, lax=jax.lax, np=L, random=jax.random)


def library_case(id_: str, fn: Callable[[Any], Any], rtol: float = 1e-5, atol: float = 1e-5) -> Case:
    """A case written against ``library(L)`` (``.api``, ``.lax``, ``.np``);
    NumPy inputs are closed over."""
    return Case(id_, lambda L: fn(library(L)), rtol, atol)


def random_host(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> Any:
    """Standard-normal values of ``dtype`` (both parts for a complex dtype),
    as :func:`host` gives them."""
    values = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return host(dtype, values)


# Case builders: ``fn(L, *inputs)`` under one of the library's own
# transformations, each NumPy input converted with ``L.asarray`` (and traced).


# One overload per arity, so that a lambda's parameters get their types.
@overload
def jitted(fn: Callable[[Namespace, Any], Any], x: Any, /) -> Callable[[Namespace], Any]: ...
@overload
def jitted(fn: Callable[[Namespace, Any, Any], Any], x: Any, y: Any, /) -> Callable[[Namespace], Any]: ...
def jitted(fn: Callable[..., Any], *inputs: Any) -> Callable[[Namespace], Any]:
    """``fn(L, *inputs)`` under the library's own ``jit`` (every input traced)."""

    def case(L: Namespace) -> Any:
        def traced(*args: Any) -> Any:
            return fn(L, *args)

        return library(L).api.jit(traced)(*(L.asarray(x) for x in inputs))

    return case


def vmapped(fn: Callable[[Namespace, Any], Any], x: Any) -> Callable[[Namespace], Any]:
    """``fn(L, row)`` for each row of ``x`` under the library's own ``vmap``."""

    def case(L: Namespace) -> Any:
        def per_row(row: Any) -> Any:
            return fn(L, row)

        return library(L).api.vmap(per_row)(L.asarray(x))

    return case


@overload
def grad_of_sum(fn: Callable[[Namespace, Any], Any], x: Any, /) -> Callable[[Namespace], Any]: ...
@overload
def grad_of_sum(fn: Callable[[Namespace, Any, Any], Any], x: Any, y: Any, /) -> Callable[[Namespace], Any]: ...
def grad_of_sum(fn: Callable[..., Any], *inputs: Any) -> Callable[[Namespace], Any]:
    """The gradient of ``L.sum(fn(L, *inputs))`` in the library's own
    ``grad``, with respect to every input (a tuple of gradients for several)."""

    def case(L: Namespace) -> Any:
        def total(*args: Any) -> Any:
            return L.sum(fn(L, *args))

        argnums = 0 if len(inputs) == 1 else tuple(range(len(inputs)))
        return library(L).api.grad(total, argnums=argnums)(*(L.asarray(x) for x in inputs))

    return case


# Identity functions that give a lambda handed to an untyped transformation
# (``library(L).api.grad`` is Any) typed parameters, for the strict checkers.


def unary_fn(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``fn``, a function of one argument."""
    return fn


def binary_fn(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``fn``, a function of two arguments."""
    return fn


def printed_by(capsys: pytest.CaptureFixture[str], run: Callable[[Any], object]) -> tuple[str, str]:
    """What ``run(jaxtyped)`` and ``run(jax)`` print on stdout (each after its
    library's ``effects_barrier``, so prints of compiled code are in): the
    callbacks family (issue 16) compares its output with JAX's this way."""
    texts: list[str] = []
    for lib in (jt, jax):
        capsys.readouterr()
        run(lib)
        lib.effects_barrier()
        texts.append(capsys.readouterr().out)
    return texts[0], texts[1]


def mesh_sharding(ours: bool, *spec: Any) -> Any:
    """A ``NamedSharding`` with ``spec`` on a 2-device mesh with one Auto axis
    ``"a"``, in jaxtyped (``ours``) or in JAX (sharding family, issue 17)."""
    if ours:
        import jaxtyped.sharding as jts

        return jts.NamedSharding(jts.Mesh(np.array(jt.devices()[:2]), ("a",)), jts.P(*spec))
    jsh = jax.sharding
    return jsh.NamedSharding(jsh.Mesh(np.array(jax.devices()[:2]), ("a",)), jsh.PartitionSpec(*spec))


def mesh_shard_map(ours: bool, f: "Callable[[Any], Any] | Callable[[Any, Any], Any]", in_specs: tuple[tuple[Any, ...], ...], out_spec: tuple[Any, ...]) -> Any:
    """``shard_map(f)`` over the 2-device mesh of :func:`mesh_sharding`, in
    jaxtyped (``ours``) or in JAX; each spec is given as the entries of its
    ``PartitionSpec`` (sharding family, issue 17: JEP 17111's primitives)."""
    if ours:
        import jaxtyped.sharding as jts

        mesh: Any = jts.Mesh(np.array(jt.devices()[:2]), ("a",))
        make: Any = jts.P
        api: Any = jt
    else:
        mesh = jax.sharding.Mesh(np.array(jax.devices()[:2]), ("a",))
        make = jax.sharding.PartitionSpec
        api = jax
    return api.shard_map(f, mesh=mesh, in_specs=tuple(make(*s) for s in in_specs), out_specs=make(*out_spec))
