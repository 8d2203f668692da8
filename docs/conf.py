"""Sphinx configuration for the jaxtyped documentation (``sphinx-build -W -b html docs docs/_build/html``)."""

import sys
from importlib import metadata
from pathlib import Path

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
