"""Sphinx configuration for the jaxtyped documentation (``sphinx-build -W -b html docs docs/_build/html``)."""

import sys
from importlib import metadata
from pathlib import Path

from sphinx.application import Sphinx

# Document the working tree even where the package is not installed (editable or not).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

project = "jaxtyped"
author = "The jaxtyped authors"
copyright = "2026, The jaxtyped authors"
try:
    release = metadata.version("jaxtyped")
except metadata.PackageNotFoundError:
    release = "0.0.0+unknown"
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",  # Google-style "Args:/Returns:/Raises:" sections
    "sphinx.ext.viewcode",
]
napoleon_google_docstring = True
napoleon_numpy_docstring = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
nitpicky = False

exclude_patterns = ["_build"]
html_theme = "alabaster"


def _skip_foreign_class_members(app: object, what: str, name: str, obj: object, skip: bool, options: object) -> bool | None:
    """On the module pages, a class's members are documented only where
    jaxtyped defines them: NumPy's ``dtype`` (``jnp.dtype``) or the methods
    a ``NamedTuple`` or an exception inherits are documented upstream."""
    if what not in ("class", "exception"):
        return None
    owner = getattr(obj, "__objclass__", None)
    module = getattr(obj, "__module__", None) or getattr(owner, "__module__", None) or ""
    if isinstance(obj, property):
        module = getattr(obj.fget, "__module__", "") or ""
    return True if not str(module).startswith("jaxtyped") else None


def setup(app: Sphinx) -> None:
    app.connect("autodoc-skip-member", _skip_foreign_class_members)
