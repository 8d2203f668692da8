#!/usr/bin/env python3
"""Check the import layering of ``src/jaxtyped`` (usage: ``check_layers.py [--src DIR]``).

Every module of ``jaxtyped._src`` belongs to a layer (``LAYERS`` below) and may
import only from lower layers, or from its own layer while the module-level
import graph stays acyclic. ``_src`` never imports the public API; nothing in
``src/`` imports the real ``jax``; only ``JAXLIB_IMPORTERS`` import ``jaxlib``.
Imports inside functions count for the layer rules but not for cycles (a
deferred import cannot deadlock module initialisation), and neither do
``if TYPE_CHECKING:`` imports.
"""

import argparse
import ast
import fnmatch
import sys
from collections.abc import Iterator, Mapping, Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import Final


@dataclass(frozen=True)
class Layer:
    """A rank and the patterns of the first dotted name under ``jaxtyped._src``."""

    rank: float
    patterns: tuple[str, ...]


# Patterns match the first component below ``jaxtyped._src`` with fnmatch, so
# "core" covers the package ``_src/core/*`` and "lowering*" both
# ``_src/lowering.py`` and ``_src/lowering_xla/...``.
LAYERS: Final[tuple[Layer, ...]] = (
    # L0.0: the exception hierarchy; every layer raises these, so it imports nothing.
    Layer(0.0, ("errors",)),
    # L0.1: plain helpers and global flags, used from everywhere.
    Layer(0.1, ("util", "config", "debug_flag", "monitoring", "version")),
    # L0.2: the data model below avals: dtypes and pytrees.
    Layer(0.2, ("dtypes", "tree_util")),
    # sharding family (issue 17): meshes, partition specs, shardings (plain data).
    Layer(0.2, ("sharding",)),
    # L1: avals, Primitive, Jaxpr, interpreter context, Array base, evaluation.
    Layer(1, ("core",)),
    # L2: transformations as interpreters (jvp, batching, staging, partial eval,
    # transpose) and lowering of jaxprs; they know primitives only abstractly.
    Layer(2, ("interpreters", "lowering*")),
    # L3: executing lowered programs (XLA through jaxlib).
    Layer(3, ("runtime",)),
    # L4: the primitive library and features built on the transformations.
    Layer(4, ("lax", "ad", "ad_*", "pjit*", "custom_derivatives*", "linear_call", "custom_batching", "remat*", "refs*", "shard_map*")),
    # refs family (issue 16): mutable array references, threaded through staging by lax control flow.
    Layer(4, ("state",)),
    # L5: user-facing APIs; unlisted modules also land here (and are reported).
    Layer(5, ("api*", "numpy", "random*", "test_util*")),
    # special functions: scipy.special and scipy.stats family
    Layer(5, ("scipy*",)),
    # einsum family: jaxtyped.nn (imports scipy.special's softmax, same layer)
    Layer(5, ("nn*",)),
    # callbacks family (issue 16): debug.print, pure_callback, io_callback, debug.breakpoint
    Layer(5, ("callbacks*", "debugging*", "debugger*")),
    # extend family (issue 18): jaxtyped.extend's JAX-form primitives and jaxtyped.ffi
    Layer(5, ("extend", "ffi*")),
    # sharding family: inspecting and drawing arrays' layouts (jaxtyped.debug.visualize_*)
    Layer(5, ("sharding_visualization",)),
    # jaxtyped.image (JAX's jax.image): resize and scale_and_translate, built on numpy and lax
    Layer(5, ("image",)),
    # profiler: jaxlib's profiler sessions and spans (jaxtyped.profiler)
    Layer(5, ("profiler",)),
    # segment reductions: jaxtyped.ops (scatters into identity-filled rows, jnp reductions for buckets)
    Layer(5, ("ops",)),
    # jaxtyped.export: self-contained modules of jitted functions, their blobs and the call_exported primitive
    Layer(5, ("export",)),
    # jaxtyped.experimental: odeint (adaptive Dormand-Prince with an adjoint custom_vjp), multihost_utils, checkify, jet
    Layer(5, ("ode", "multihost*", "checkify*", "jet*")),
)
TOP_RANK: Final = 5.0
PACKAGE: Final = "jaxtyped"
SRC_PACKAGE: Final = "jaxtyped._src"
FORBIDDEN_ROOTS: Final = frozenset({"jax"})
# Modules allowed to import jaxlib: the runtime's bridge to XLA, nothing else.
JAXLIB_IMPORTERS: Final[frozenset[str]] = frozenset(
    {"jaxtyped._src.runtime.xla", "jaxtyped._src.runtime.host_callbacks"}  # host_callbacks: issue 16
    | {"jaxtyped._src.ffi"}  # registers FFI targets with jaxlib (issue 18)
    | {"jaxtyped._src.extend.sharding"}  # XLA sharding protos (issue 18)
    | {"jaxtyped._src.profiler"}  # jaxlib's profiler (jaxtyped.profiler)
)


@dataclass(frozen=True)
class Import:
    """One imported module name, and whether it runs at module import time."""

    target: str
    line: int
    at_import_time: bool


@dataclass(frozen=True)
class Module:
    """A parsed module of the package."""

    name: str
    path: Path
    imports: tuple[Import, ...]


def is_under(name: str, package: str) -> bool:
    """Whether dotted ``name`` is ``package`` or inside it."""
    return name == package or name.startswith(package + ".")


def layer_of(name: str) -> tuple[float, bool]:
    """Return (rank, listed) of a ``jaxtyped._src`` module name."""
    if name == SRC_PACKAGE:
        # Importing any _src module runs _src/__init__ first, so it must stay at the bottom.
        return 0.0, True
    first = name[len(SRC_PACKAGE) + 1 :].split(".")[0]
    for layer in LAYERS:
        if any(fnmatch.fnmatchcase(first, pattern) for pattern in layer.patterns):
            return layer.rank, True
    return TOP_RANK, False


def label(name: str) -> str:
    """The layer label printed after a module name."""
    if is_under(name, SRC_PACKAGE):
        return f"L{layer_of(name)[0]:g}"
    if is_under(name, PACKAGE):
        return "public"
    return "external"


def module_name(path: Path, src: Path) -> str:
    """Dotted name of ``path`` relative to the ``src`` directory."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class _ImportCollector(ast.NodeVisitor):
    """Collect imports, tracking function bodies and ``if TYPE_CHECKING:`` blocks."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.deferred = 0
        self.found: list[tuple[str, list[str], int, bool]] = []

    def _visit_deferred(self, node: ast.AST) -> None:
        self.deferred += 1
        self.generic_visit(node)
        self.deferred -= 1

    visit_FunctionDef = _visit_deferred
    visit_AsyncFunctionDef = _visit_deferred
    visit_Lambda = _visit_deferred

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if isinstance(test, ast.Name):
            name = test.id
        else:
            name = test.attr if isinstance(test, ast.Attribute) else ""
        if name != "TYPE_CHECKING":
            self.generic_visit(node)
            return
        self.visit(test)
        self.deferred += 1
        for stmt in node.body:
            self.visit(stmt)
        self.deferred -= 1
        for stmt in node.orelse:
            self.visit(stmt)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, [], node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            keep = len(parts) - (node.level - 1)
            anchor = ".".join(parts[:keep]) if keep > 0 else "<beyond top level>"
            base = f"{anchor}.{base}" if base else anchor
        self._add(base, [alias.name for alias in node.names], node.lineno)

    def _add(self, base: str, names: list[str], line: int) -> None:
        self.found.append((base, names, line, self.deferred == 0))


def resolve(base: str, names: list[str], known: AbstractSet[str]) -> Iterator[str]:
    """The module names a statement imports: ``from P import m`` names ``P.m`` when that is a module."""
    if not names:
        yield base
        return
    plain = False
    for name in names:
        candidate = f"{base}.{name}"
        # _src/__init__ defines nothing, so anything imported from it is a submodule.
        if candidate in known or (base == SRC_PACKAGE and name != "*"):
            yield candidate
        else:
            plain = True
    if plain:
        yield base


def parse_module(path: Path, src: Path, known: AbstractSet[str]) -> Module | str:
    """Parse one file, or return an error message if it does not parse."""
    name = module_name(path, src)
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError) as err:
        return f"{path}:{getattr(err, 'lineno', 1) or 1}: cannot parse {name}: {err}"
    collector = _ImportCollector(name, path.name == "__init__.py")
    collector.visit(tree)
    imports = tuple(
        Import(target, line, runtime)
        for base, names, line, runtime in collector.found
        for target in resolve(base, names, known)
    )
    return Module(name, path, imports)


def check_import(module: Module, imp: Import) -> str | None:
    """The reason ``imp`` breaks a rule, or None."""
    target, root = imp.target, imp.target.split(".")[0]
    if root in FORBIDDEN_ROOTS:
        return "src/ must not import the real JAX"
    if root == "jaxlib" and module.name not in JAXLIB_IMPORTERS:
        return "only JAXLIB_IMPORTERS may import jaxlib"
    if not is_under(module.name, SRC_PACKAGE) or not is_under(target, PACKAGE):
        return None
    if not is_under(target, SRC_PACKAGE):
        return "_src must not import the public API"
    if layer_of(target)[0] > layer_of(module.name)[0]:
        return "upward import"
    return None


def layer_violations(modules: Mapping[str, Module]) -> Iterator[tuple[Path, int, str]]:
    """Rule violations: unlisted modules and forbidden imports."""
    for module in modules.values():
        if is_under(module.name, SRC_PACKAGE) and module.path.name != "__init__.py":
            if not layer_of(module.name)[1]:
                yield module.path, 1, f"{module.name} is not in the layer table (add it to LAYERS)"
        for imp in module.imports:
            reason = check_import(module, imp)
            if reason is not None:
                message = (
                    f"{module.name} ({label(module.name)}) imports "
                    f"{imp.target} ({label(imp.target)}): {reason}"
                )
                yield module.path, imp.line, message


def known_prefix(name: str, modules: Mapping[str, Module]) -> str | None:
    """The longest prefix of ``name`` that is a module of the package."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in modules:
            return prefix
    return None


def import_graph(modules: Mapping[str, Module]) -> dict[str, dict[str, int]]:
    """Edges module -> imported module (with the line) for imports run at import time."""
    graph: dict[str, dict[str, int]] = {name: {} for name in modules}
    for module in modules.values():
        for imp in module.imports:
            target = known_prefix(imp.target, modules)
            if imp.at_import_time and target is not None and target != module.name:
                graph[module.name].setdefault(target, imp.line)
    return graph


def strongly_connected(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative); returns components with more than one node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    found.append(_pop_component(node, stack, on_stack))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return [component for component in found if len(component) > 1]


def _pop_component(node: str, stack: list[str], on_stack: set[str]) -> list[str]:
    component: list[str] = []
    while True:
        top = stack.pop()
        on_stack.discard(top)
        component.append(top)
        if top == node:
            return sorted(component)


def cycle_in(component: list[str], graph: Mapping[str, Mapping[str, int]]) -> list[str]:
    """One concrete cycle through the first module of a strongly connected component."""
    start, members = component[0], set(component)
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:  # breadth-first, so the reported cycle is a shortest one
        following: list[str] = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if child in members and child not in parent:
                    parent[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError("a strongly connected component always has a cycle")


def cycle_violations(modules: Mapping[str, Module]) -> Iterator[tuple[Path, int, str]]:
    """One report per import cycle, at the first edge of the cycle."""
    graph = import_graph(modules)
    for component in strongly_connected(graph):
        cycle = cycle_in(component, graph)
        first = modules[cycle[0]]
        line = graph[cycle[0]][cycle[1]]
        yield first.path, line, f"{first.name} ({label(first.name)}) import cycle: " + " -> ".join(cycle)


def load_modules(src: Path) -> tuple[dict[str, Module], list[str]]:
    """Parse every module under ``src/jaxtyped``; also return parse errors."""
    paths = sorted(p for p in (src / PACKAGE).rglob("*.py") if "__pycache__" not in p.parts)
    known = {module_name(p, src) for p in paths}
    modules: dict[str, Module] = {}
    errors: list[str] = []
    for path in paths:
        parsed = parse_module(path, src, known)
        if isinstance(parsed, str):
            errors.append(parsed)
        else:
            modules[parsed.name] = parsed
    return modules, errors


def shown(path: Path) -> str:
    """``path`` relative to the working directory when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def check(src: Path) -> tuple[list[str], int]:
    """All violations under ``src`` as printable lines (sorted), and the module count."""
    modules, errors = load_modules(src)
    found = sorted({*layer_violations(modules), *cycle_violations(modules)})
    lines = [f"{shown(path)}:{line}: {message}" for path, line, message in found]
    return errors + lines, len(modules) + len(errors)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; exit status 1 on any violation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    default_src = Path(__file__).resolve().parent.parent / "src"
    parser.add_argument("--src", type=Path, default=default_src, help="directory holding jaxtyped/")
    args = parser.parse_args(argv)
    src: Path = args.src
    if not (src / PACKAGE).is_dir():
        print(f"check_layers: no {PACKAGE}/ package under {src}", file=sys.stderr)
        return 2
    problems, count = check(src)
    for problem in problems:
        print(problem)
    print(f"layer check: {count} modules, {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
