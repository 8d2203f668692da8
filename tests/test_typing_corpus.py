"""The typing corpus (``typing/corpus/``, issue 20): every program runs, each
imports the library through one block that ``tools/typing_corpus.py`` can swap
for JAX, and the runner's parsing and bookkeeping work.

Type-checking the corpus in five checker modes takes minutes, so it is not
run here but in the ``typecheck`` gate (``python tools/typing_corpus.py
--check --docs``); set ``JAXTYPED_TYPING_CORPUS=1`` to run it from pytest.
"""

import contextlib
import importlib.util
import io
import os
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "typing" / "corpus"
FILES = sorted(CORPUS.glob("*.py"))


def corpus_tool() -> ModuleType:
    name = "typing_corpus_tool"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / "typing_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_the_corpus_is_big_enough() -> None:
    assert len(FILES) >= 40
    assert sum(len(f.read_text().splitlines()) for f in FILES) >= 1500


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_corpus_program_runs(path: Path) -> None:
    source = path.read_text()
    namespace: dict[str, object] = {"__name__": "__main__"}
    # reveal_type prints the run-time type to stderr; debug prints go to stdout.
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, str(path), "exec"), namespace)  # noqa: S102 - our own corpus programs


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_one_import_block_swaps_the_library(path: Path) -> None:
    tool = corpus_tool()
    source = path.read_text()
    block: list[int] = tool.import_block(source)
    lines = source.splitlines()
    assert any(lines[i].startswith("import jaxtyped as jt") for i in block), "imports jaxtyped as jt"
    outside = [n + 1 for n, line in enumerate(lines) if "jaxtyped" in line and n not in block]
    assert not outside, f"jaxtyped named outside the import block, lines {outside}"
    swapped: str = tool.swap_to_jax(source)
    assert "jaxtyped" not in swapped and "import jax as jt" in swapped
    assert swapped.count("\n") == source.count("\n")
    assert "reveal_type(" in source, "every program reveals some types"


def test_swap_touches_only_the_import_block() -> None:
    tool = corpus_tool()
    source = '"""Doc."""\nimport math\n\nimport jaxtyped as jt\nfrom jaxtyped import lax\n\nx = "jaxtyped"\n'
    assert tool.swap_to_jax(source) == '"""Doc."""\nimport math\n\nimport jax as jt\nfrom jax import lax\n\nx = "jaxtyped"\n'


def test_reveals_are_classified() -> None:
    tool = corpus_tool()
    assert tool.is_imprecise('Revealed type is "Any"')
    assert tool.is_imprecise('Type of "x" is "dict[str, Unknown]"')
    assert not tool.is_imprecise('Revealed type is "jaxtyped._src.core.array.Array"')
    assert not tool.is_imprecise('Type of "x" is "AnyStr"')


def test_expectations_follow_the_rules() -> None:
    tool = corpus_tool()
    expected = tool.load_expected()
    files = expected.get("files", {})
    notes = expected.get("notes", {})
    assert tool.expectation_problems(files, notes) == []
    assert set(files) <= {f.name for f in FILES}, "expectations for files that do not exist"
    # A non-strict error, or a strict one about our types, needs a note.
    bad = {"x.py": {"pyright-standard": {"reportArgumentType": 1}, "mypy-strict": {"no-untyped-def": 2}}}
    assert tool.expectation_problems(bad, {}) == ['x.py pyright-standard: reportArgumentType expected without a note in "notes"']
    assert tool.expectation_problems(bad, {"x.py": "known bug"}) == []


def test_differences_are_exact() -> None:
    tool = corpus_tool()
    result = tool.FileResult(errors=Counter({"reportUnknownLambdaType": 2}))
    actual = tool.counts_of({"pyright-strict": {"a.py": result, "b.py": tool.FileResult()}})
    assert actual == {"a.py": {"pyright-strict": {"reportUnknownLambdaType": 2}}}
    assert tool.differences(actual, actual) == []
    assert tool.differences({}, actual) == [
        "a.py pyright-strict: expected no errors, got {'reportUnknownLambdaType': 2}"
    ]


def test_docs_blocks_are_extracted() -> None:
    tool = corpus_tool()
    page = "Intro::\n\n   import math\n   x = 1\n\n>>> y = 2\n>>> y\n2\n\n.. code-block:: bash\n\n   ls -l\n"
    assert tool.rst_blocks(page) == ["import math\nx = 1\n", "y = 2\n", "y\n"]
    assert tool.readme_blocks("a\n```python\nx = 1\n```\n```bash\nls\n```\n") == ["x = 1\n"]
    programs: dict[str, str] = tool.docs_programs()
    assert {"docs_README.py", "docs_typing.py", "docs_quickstart.py"} <= set(programs)


def test_the_typecheck_gate_leaves_the_corpus_to_its_runner() -> None:
    spec = importlib.util.spec_from_file_location("typecheck_run_for_corpus", ROOT / "typecheck" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["typecheck_run_for_corpus"] = module
    spec.loader.exec_module(module)
    walked: list[Path] = module.collect_files(ROOT, ["typing"])
    assert walked and not [p for p in walked if "corpus" in p.parts]
    assert module.collect_files(ROOT, [str(FILES[0].relative_to(ROOT))]) == [FILES[0]]


@pytest.mark.skipif(os.environ.get("JAXTYPED_TYPING_CORPUS") != "1", reason="slow: the typecheck gate runs it")
def test_the_corpus_type_checks_as_expected() -> None:
    assert corpus_tool().main(["--check", "--docs"]) == 0
