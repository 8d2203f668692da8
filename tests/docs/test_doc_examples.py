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


# Pages whose examples another test runs.
DOCTESTED_ELSEWHERE = {"extending.rst": "tests/extend/test_extending_docs.py"}


def doc_pages() -> list[str]:
    """Every page of the docs, relative to ``docs/``."""
    return sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.rst") if "_build" not in p.parts)


def pages_with_examples() -> list[str]:
    return [page for page in doc_pages() if ">>> " in (ROOT / "docs" / page).read_text() and page not in DOCTESTED_ELSEWHERE]


def test_the_page_census_finds_the_tutorials() -> None:
    assert {"quickstart.rst", "typing.rst", "getting_started.rst", "errors.rst", "how_it_works.rst"} <= set(pages_with_examples())


@pytest.mark.parametrize("page", pages_with_examples())
def test_docs_page_examples(page: str) -> None:
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert tried > 0
    assert failures == 0


def literal_blocks(text: str) -> list[tuple[str, str]]:
    """The literal blocks of a reST page, dedented, with their language:
    ``.. code-block:: LANG`` gives LANG, a plain ``::`` block ``""``."""
    blocks: list[tuple[str, str]] = []
    for match in re.finditer(r"::[ ]*(\w*)[^\n]*\n\n((?:[ ]{3,}[^\n]*\n|\n)+)", text):
        lines = match.group(2).rstrip("\n").splitlines()
        indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
        blocks.append((match.group(1) or "", "\n".join(line[indent:] for line in lines) + "\n"))
    return blocks


def is_python(block: str) -> bool:
    try:
        compile(block, "<block>", "exec")
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize("page", doc_pages())
def test_every_python_block_of_a_page_runs(page: str) -> None:
    """A literal block that is Python but not a doctest (an import recipe) is
    executed; blocks that are not Python (shell commands, a layer diagram,
    printed jaxprs) are left alone, and doctests are run above."""
    namespace: dict[str, object] = {"__name__": "docs"}
    for language, block in literal_blocks((ROOT / "docs" / page).read_text()):
        if language in ("", "python") and ">>> " not in block and is_python(block):
            exec(compile(block, f"docs/{page}", "exec"), namespace)  # noqa: S102 - the docs' own examples


def test_the_block_finder_sees_literal_blocks() -> None:
    text = "Intro::\n\n   import math\n   x = 1\n\nAfter.\n\n.. code-block:: bash\n\n   ls -l\n"
    assert literal_blocks(text) == [("", "import math\nx = 1\n"), ("bash", "ls -l\n")]
    assert is_python("import math\n") and not is_python("bash tools/demo.sh\n")
