"""The documentation covers the public API: every public module has a page
that documents all of its ``__all__``, every public function and class has a
docstring, and every error class has an entry on the error reference."""

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

import jaxtyped
import jaxtyped.errors

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Modules of the package that are not part of the API (a runnable program).
NOT_API = {"jaxtyped.demo"}


def public_modules() -> list[str]:
    """Every importable module of the package outside ``_src`` that declares
    ``__all__`` (a package without it, such as ``jaxtyped.scipy``, only
    groups subpackages)."""
    found = ["jaxtyped"]
    for info in pkgutil.walk_packages(jaxtyped.__path__, "jaxtyped."):
        if "._" in info.name or info.name in NOT_API:
            continue
        if hasattr(importlib.import_module(info.name), "__all__"):
            found.append(info.name)
    return sorted(found)


def documented_modules() -> set[str]:
    """Modules some page documents whole: an ``automodule`` directive with
    both ``:members:`` and ``:undoc-members:`` (so no ``__all__`` name is
    skipped for want of a docstring)."""
    found: set[str] = set()
    pattern = re.compile(r"^\.\. automodule:: (\S+)\n((?:[ ]{3}:[^\n]*\n)*)", re.M)
    for page in DOCS.rglob("*.rst"):
        for match in pattern.finditer(page.read_text()):
            options = match.group(2)
            if ":members:" in options and ":undoc-members:" in options:
                found.add(match.group(1))
    return found


def test_the_module_census_finds_the_known_modules() -> None:
    assert {"jaxtyped", "jaxtyped.numpy", "jaxtyped.lax", "jaxtyped.random", "jaxtyped.errors"} <= set(public_modules())


@pytest.mark.parametrize("name", public_modules())
def test_every_public_module_has_a_page(name: str) -> None:
    assert name in documented_modules(), (
        f"no page documents {name}: add docs/modules/{name}.rst "
        "(automodule with :members: and :undoc-members:) and list it in docs/modules/index.rst"
    )


def own_docstring(obj: object) -> str:
    """The docstring ``obj`` itself carries (a class's, not its base's)."""
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
        return doc if isinstance(doc, str) else ""
    return inspect.getdoc(obj) or ""


def undocumented(module: ModuleType) -> list[str]:
    """Public functions and classes of ``module`` without a docstring.
    Constants and type aliases (``jnp.pi``, ``ArrayLike``, ``KeyEntry =
    Hashable``) and what is re-exported from NumPy or the standard library
    (``jnp.dtype``) are documented by the module's page and docstring, or
    upstream, not by a docstring of their own."""
    missing: list[str] = []
    for name in module.__all__:
        obj = getattr(module, name)
        ours = str(getattr(obj, "__module__", "")).startswith("jaxtyped")
        if ours and (inspect.isclass(obj) or inspect.isroutine(obj)) and not own_docstring(obj).strip():
            missing.append(name)
    return missing


@pytest.mark.parametrize("name", public_modules())
def test_every_public_function_and_class_has_a_docstring(name: str) -> None:
    assert undocumented(importlib.import_module(name)) == []


def test_a_missing_docstring_is_found() -> None:
    module = ModuleType("fake")
    setattr(module, "__all__", ["f", "g"])  # noqa: B010 - a module built for the test

    def f() -> None:
        pass

    def g() -> None:
        """Documented."""

    f.__module__ = g.__module__ = "jaxtyped.fake"  # as if jaxtyped defined them
    setattr(module, "f", f)  # noqa: B010 - as above
    setattr(module, "g", g)  # noqa: B010 - as above
    assert undocumented(module) == ["f"]


def test_every_error_class_is_on_the_error_page() -> None:
    text = (DOCS / "errors.rst").read_text()
    titles = set(re.findall(r"^``(\w+)``\n-+\n", text, flags=re.M))
    assert set(jaxtyped.errors.__all__) <= titles, sorted(set(jaxtyped.errors.__all__) - titles)
    # Each entry has its cause, a runnable example and the fix.
    for section in re.split(r"^``\w+``\n-+\n", text, flags=re.M)[1:]:
        assert "**Cause.**" in section and "**Example**::" in section and ">>> " in section and "**Fix.**" in section


def test_every_page_is_in_a_table_of_contents() -> None:
    """Sphinx warns about orphan pages too; this names them without a build."""
    listed: set[str] = set()
    for page in DOCS.rglob("*.rst"):
        for block in re.findall(r"^\.\. toctree::\n((?:[ ]{3}[^\n]*\n|\n)*)", page.read_text(), flags=re.M):
            base = page.parent.relative_to(DOCS)
            for entry in re.findall(r"^[ ]{3}([\w./-]+)$", block, flags=re.M):
                listed.add(str(base / entry))
    pages = {str(p.relative_to(DOCS).with_suffix("")) for p in DOCS.rglob("*.rst") if "_build" not in p.parts}
    assert pages - listed == {"index"}
