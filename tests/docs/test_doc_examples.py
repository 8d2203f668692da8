"""The examples in the docs and in public docstrings are run as doctests, so
they stay true."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

MODULES_WITH_EXAMPLES = [
    "jaxtyped._src.api",
    "jaxtyped._src.api_util",
    "jaxtyped._src.config",
    "jaxtyped._src.core.array",
    "jaxtyped._src.core.avals",
    "jaxtyped.numpy",
    "jaxtyped.typing",
    "jaxtyped._src.core.shape_annotations",
]


@pytest.mark.parametrize("name", MODULES_WITH_EXAMPLES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0, f"{name} has no examples"
    assert failures == 0


@pytest.mark.parametrize("page", ["quickstart.rst", "typing.rst"])
def test_docs_page_examples(page: str) -> None:
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / page), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert tried > 0
    assert failures == 0
