"""The examples in the docs and in public docstrings are run as doctests, so
they stay true."""

import doctest
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

import pytest

import jaxtyped

ROOT = Path(__file__).resolve().parents[2]


def modules_with_examples() -> list[str]:
    """Every module of the package whose source has a ``>>>`` example (the
    demo runs as a program and has its own test)."""
    found: list[str] = []
    for info in pkgutil.walk_packages(jaxtyped.__path__, "jaxtyped."):
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec is not None else None
        if info.name != "jaxtyped.demo" and origin and origin.endswith(".py") and ">>> " in Path(origin).read_text():
            found.append(info.name)
    return sorted(found)


def test_the_example_census_finds_the_known_modules() -> None:
    assert {"jaxtyped._src.api", "jaxtyped.numpy", "jaxtyped.typing"} <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0, f"{name} has no examples"
    assert failures == 0


def readme_python_blocks() -> list[str]:
    """The fenced ``python`` blocks of the README, in order."""
    text = (ROOT / "README.md").read_text()
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_every_readme_python_block_runs() -> None:
    blocks = readme_python_blocks()
    assert blocks, "the README has python examples"
    namespace: dict[str, object] = {"__name__": "readme"}
    for i, block in enumerate(blocks):
        code = compile(block, f"README.md python block {i}", "exec")
        exec(code, namespace)  # noqa: S102 - the README's own examples


@pytest.mark.parametrize("page", ["quickstart.rst", "typing.rst"])
def test_docs_page_examples(page: str) -> None:
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / page), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert tried > 0
    assert failures == 0
