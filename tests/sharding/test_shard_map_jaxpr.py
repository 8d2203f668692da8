"""``shard_map`` in ``make_jaxpr`` (issue 17 follow-up): one ``shard_map``
equation holding the per-device jaxpr over blocks, its collectives printed
as JAX prints them (``psum``, ``pmax``, ``all_gather``, ``reduce_scatter``,
``ppermute``, ``all_to_all``, ``axis_index``), compared with
``jax.make_jaxpr`` on the same (4, 2) mesh.

With ``check_vma=True`` (the default) every value inside carries the mesh
axes it varies along (``f32[2,2]{V:(a,b)}``, JEP 17111), ``psum`` binds
``psum_invariant`` and an operand varying along fewer axes than another gets
a ``pvary``: the texts are compared with JAX's with and without the check.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the bodies are lambdas over either library's lax, untyped by design)

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import jax

import jaxtyped as jt
import jaxtyped.sharding as jts

jsh: Any = pytest.importorskip("jax.sharding")
jt_any: Any = jt

X = np.arange(32.0, dtype=np.float32).reshape(8, 4)


def _jaxprs(body: Callable[[Any], Callable[..., Any]], in_specs: Any, out_specs: Any, check_vma: bool, *args: Any) -> tuple[str, str]:
    """``make_jaxpr`` of the same ``shard_map`` in both libraries; each spec
    is given as a function of the library's ``PartitionSpec``."""
    texts: list[str] = []
    for api, sh in ((jt_any, jts), (jax, jsh)):
        mesh = sh.Mesh(np.array(api.devices()).reshape(4, 2), ("a", "b"))
        f = api.shard_map(
            body(api.lax), mesh=mesh, in_specs=in_specs(sh.PartitionSpec), out_specs=out_specs(sh.PartitionSpec),
            check_vma=check_vma,
        )
        texts.append(str(api.make_jaxpr(f)(*args)))
    return texts[0], texts[1]


def _normalized(text: str) -> list[str]:
    """Lines without layout differences: a binder list JAX wraps is joined,
    and the set of manual axes is sorted (its print order is a set's)."""
    text = re.sub(
        r"newly_manual_axes=frozenset\(\{([^}]*)\}\)",
        lambda m: "newly_manual_axes=" + ",".join(sorted(a.strip() for a in m.group(1).split(","))),
        text,
    )
    # An equation whose params JAX's printer keeps on one line and ours
    # breaks (line width is layout): params without a jaxpr are joined.
    text = re.sub(
        r"\[\n((?:\s+[a-z_]+=[^\n{]*\n)+)\s*\]",
        lambda m: "[" + " ".join(p.strip() for p in m.group(1).splitlines()) + "]",
        text,
    )
    lines: list[str] = []
    for line in text.splitlines():
        previous = lines[-1] if lines else ""
        continues_binders = previous.endswith("]") and " = " not in previous and "lambda" not in previous
        if continues_binders and re.match(r"^\s+[a-z]+:\S+", line):
            lines[-1] = previous + " " + line.strip()
        else:
            lines.append(line.rstrip())
    return lines


# One collective per program: JAX prints a long inner jaxpr as a separate
# ``let`` binding, which is its printer's layout, not the program.
COLLECTIVES: list[tuple[str, Callable[[Any], Callable[..., Any]]]] = [
    ("psum", lambda L: lambda x: L.psum(x, "a")),
    ("pmax", lambda L: lambda x: L.pmax(x, ("a", "b"))),
    ("pmin", lambda L: lambda x: L.pmin(x, "b")),
    ("pmean", lambda L: lambda x: L.pmean(x, "a")),
    ("all_gather", lambda L: lambda x: L.all_gather(x, "b")),
    ("all_gather-tiled", lambda L: lambda x: L.all_gather(x, "a", axis=1, tiled=True)),
    ("psum_scatter", lambda L: lambda x: L.psum_scatter(x, "b", scatter_dimension=0, tiled=True)),
    ("ppermute", lambda L: lambda x: L.ppermute(x, "a", perm=[(0, 1), (1, 2), (2, 3), (3, 0)])),
    ("all_to_all", lambda L: lambda x: L.all_to_all(x, "b", 0, 1, tiled=True)),
    ("axis_size", lambda L: lambda x: L.axis_size("a") * L.psum(x, "b")),
    ("axis_index", lambda L: lambda x: L.axis_index("b") * x),
]


@pytest.mark.parametrize("check_vma", [False, True])
@pytest.mark.parametrize("name, body", COLLECTIVES, ids=[n for n, _ in COLLECTIVES])
def test_collectives_print_as_in_jax(name: str, body: Callable[[Any], Callable[..., Any]], check_vma: bool) -> None:
    ours, theirs = _jaxprs(body, lambda P: P("a", "b"), lambda P: P("a", "b"), check_vma, X)
    assert _normalized(ours) == _normalized(theirs), name
    assert ours.count("shard_map[") == 1


@pytest.mark.parametrize("check_vma", [False, True])
def test_one_shard_map_equation_with_jaxs_params(check_vma: bool) -> None:
    def body(L: Any) -> Callable[..., Any]:
        return lambda x, y: (L.psum(x * y, "a"), x)

    ours, theirs = _jaxprs(
        body, lambda P: (P("a", "b"), P()), lambda P: (P(None, "b"), P("a", "b")), check_vma, X, np.float32(2.0)
    )
    params = re.compile(r"^\s*(check_vma|in_specs|mesh|newly_manual_axes|out_specs)=.*$", re.M)
    assert params.findall(ours) == ["check_vma", "in_specs", "mesh", "newly_manual_axes", "out_specs"]
    ours_params = [line for line in _normalized(ours) if params.match(line)]
    theirs_params = [line for line in _normalized(theirs) if params.match(line)]
    assert ours_params == theirs_params
    # The outer program: the equation's binders and operands.
    outer = re.compile(r"^    [a-z]+:\S+ [a-z]+:\S+ = shard_map\[$", re.M)
    assert outer.findall(ours) == ["    c:f32[2,4] d:f32[8,4] = shard_map["]
    assert "] a b\n" in ours and "] a b\n" in theirs
    # The body is over blocks, with the collective as an equation; with
    # check_vma the whole body prints as JAX's, vma annotations included.
    if check_vma:
        assert _normalized(ours) == _normalized(theirs)
        assert "lambda ; e:f32[2,2]{V:(a,b)} f:f32[]. let" in ours
        assert "psum_invariant[axes=('a',)] h" in ours
    else:
        assert "lambda ; e:f32[2,2] f:f32[]. let" in ours
        assert "psum[axes=('a',) axis_index_groups=None]" in ours


# JEP 17111's typing rules, each program printed as JAX prints it. The
# meshes' axis orders differ, so vmas print in mesh order.
VMA_PROGRAMS: list[tuple[str, Callable[[Any], Callable[..., Any]], Callable[[Any], Any], Callable[[Any], Any]]] = [
    ("invariant-input-joins-varying", lambda L: lambda x, y: L.mul(x, y), lambda P: (P("a", "b"), P()),
     lambda P: P("a", "b")),
    ("literals-get-pvary", lambda L: lambda x, y: L.add(L.mul(x, 2.0), 1.0), lambda P: (P("a"), P()),
     lambda P: P("a")),
    ("psum-of-invariant-is-pvary-then-psum", lambda L: lambda x, y: L.psum(y, "a"), lambda P: (P("a"), P()),
     lambda P: P()),
    ("psum-leaves-other-axis", lambda L: lambda x, y: L.add(L.psum(x, "a"), x), lambda P: (P("a", "b"), P()),
     lambda P: P("a", "b")),
    ("two-specs-join", lambda L: lambda x, y: L.add(x, L.mul(y, y)), lambda P: (P("a"), P(None, "b")),
     lambda P: P("a", "b")),
    ("axis-index-varies", lambda L: lambda x, y: L.mul(L.convert_element_type(L.axis_index("b"), x.dtype), y),
     lambda P: (P("a"), P()), lambda P: P("b")),
    ("pmean", lambda L: lambda x, y: L.pmean(x, ("a", "b")), lambda P: (P("a", "b"), P()), lambda P: P()),
    ("pmax-of-varying", lambda L: lambda x, y: L.pmax(x, "b"), lambda P: (P("a", "b"), P()), lambda P: P("a")),
]  # fmt: skip


@pytest.mark.parametrize("axis_order", [("a", "b"), ("b", "a")])
@pytest.mark.parametrize("name, body, in_specs, out_specs", VMA_PROGRAMS, ids=[p[0] for p in VMA_PROGRAMS])
def test_vma_types_print_as_in_jax(
    name: str, body: Callable[[Any], Callable[..., Any]], in_specs: Any, out_specs: Any, axis_order: tuple[str, str]
) -> None:
    texts: list[str] = []
    sizes = dict(zip(axis_order, (4, 2)))
    # Every argument's block is f32[2,2]: its global shape follows its spec.
    args = [
        np.ones(tuple(2 * int(np.prod([sizes[a] for a in spec.axes_of(d)])) for d in range(2)), np.float32)
        for spec in in_specs(jts.PartitionSpec)
    ]
    for api, sh in ((jt_any, jts), (jax, jsh)):
        mesh = sh.Mesh(np.array(api.devices()).reshape(4, 2), axis_order)
        f = api.shard_map(body(api.lax), mesh=mesh, in_specs=in_specs(sh.PartitionSpec), out_specs=out_specs(sh.PartitionSpec))
        texts.append(str(api.make_jaxpr(f)(*args)))
    assert _normalized(texts[0]) == _normalized(texts[1]), name
    assert "{V:" in texts[0]


def test_shard_map_inside_jit_is_one_equation_of_the_jit_body() -> None:
    mesh = jts.Mesh(np.array(jt.devices()).reshape(4, 2), ("a", "b"))
    f = jt_any.shard_map(lambda x: jt_any.lax.psum(x, "b"), mesh=mesh, in_specs=jts.P("a", "b"), out_specs=jts.P("a"))
    text = str(jt_any.make_jaxpr(jt_any.jit(lambda x: f(x) * 2.0))(X))
    assert text.count("shard_map[") == 1 and "psum_invariant[axes=('b',)]" in text
    # ... and runs, with JAX's values.
    np.testing.assert_allclose(np.asarray(jt_any.jit(lambda x: f(x) * 2.0)(X)), 2.0 * (X[:, :2] + X[:, 2:]))


# Loops and branches inside the body: their inner jaxprs are traced with the
# operands' own vma (no pvary at the equation), as JAX does.
CONTROL_FLOW: list[tuple[str, Callable[[Any], Callable[..., Any]]]] = [
    ("fori_loop", lambda L: lambda x, y: L.fori_loop(0, 3, lambda i, c: c * y, x)),
    ("cond", lambda L: lambda x, y: L.cond(y > 0, lambda a, b: a * b, lambda a, b: a - b, x, y)),
    ("scan", lambda L: lambda x, y: L.scan(lambda c, r: (c + r * y, c), x[0], x)[1]),
]


@pytest.mark.parametrize("name, body", CONTROL_FLOW, ids=[n for n, _ in CONTROL_FLOW])
def test_control_flow_in_the_body_prints_as_in_jax(name: str, body: Callable[[Any], Callable[..., Any]]) -> None:
    ours, theirs = _jaxprs(body, lambda P: (P("a", "b"), P()), lambda P: P("a", "b"), True, X, np.float32(3.0))
    assert _normalized(ours) == _normalized(theirs), name
    assert "{V:(a,b)}" in ours


def test_jvp_and_vmap_of_shard_map_print_as_in_jax() -> None:
    """The shard_map's own rules: jvp and vmap are one shard_map of the
    transformed body (tangents split as their primals; the batch axis
    first and unsplit), the same program JAX prints."""
    xs = np.stack([X, X])
    texts: list[list[str]] = []
    for api, sh in ((jt_any, jts), (jax, jsh)):
        mesh = sh.Mesh(np.array(api.devices()).reshape(4, 2), ("a", "b"))
        P = sh.PartitionSpec
        f = api.shard_map(lambda x, y: api.lax.psum(x * y, "a"), mesh=mesh, in_specs=(P("a", "b"), P()),
                          out_specs=P(None, "b"))  # fmt: skip
        two = np.float32(2.0)
        texts.append([
            str(api.make_jaxpr(api.vmap(f, in_axes=(0, None)))(xs, two)),
            str(api.make_jaxpr(lambda x, t: api.jvp(lambda v: f(v, two), (x,), (t,)))(X, X)),
        ])  # fmt: skip
    for ours, theirs in zip(*texts, strict=True):
        assert _normalized(ours) == _normalized(theirs)
        assert ours.count("shard_map[") == 1
