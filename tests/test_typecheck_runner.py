"""Tests for typecheck/run.py on synthetic typing/ trees, with the real checkers.

All cases of one tree share a single runner invocation (one mypy and one
pyright run), so the whole module stays at a few seconds.
"""

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "typecheck" / "run.py"

TAKES_INT = "def takes_int(x: int) -> None: ...\n\n\n"

# Every way a file can go right or wrong, checked together in one run.
MIXED_TREE: dict[str, str] = {
    "pass/p_ok.py": "def double(x: int) -> int:\n    return 2 * x\n\n\ny: int = double(2)\n",
    "pass/p_reveal.py": "reveal_type(1)\n",
    "reveal/r_ok.py": 'from typing_extensions import assert_type\n\nassert_type(len("ab"), int)\n',
    "reveal/r_wrong.py": 'from typing_extensions import assert_type\n\nassert_type(len("ab"), str)\n',
    "fail/f_good.py": TAKES_INT
    + 'takes_int("no")  # expect: mypy[arg-type] pyright[reportArgumentType]\n'
    + "def half_typed(a: int, b) -> int:  # expect: mypy[no-untyped-def] "
    + "pyright[reportMissingParameterType, reportUnknownParameterType]  # remark\n"
    + "    return a\n",
    "fail/f_one_checker.py": "import os  # expect: pyright[reportUnusedImport]\n",
    "fail/f_missing.py": TAKES_INT + "takes_int(1)  # expect: mypy[arg-type] pyright[reportArgumentType]\n",
    "fail/f_unmarked.py": TAKES_INT
    + 'takes_int("no")  # expect: mypy[arg-type] pyright[reportArgumentType]\n'
    + 'z: int = "s"\n',
    "fail/f_wrong_code.py": TAKES_INT + 'takes_int("no")  # expect: mypy[call-arg] pyright[reportArgumentType]\n',
    "fail/f_no_expect.py": 'z: int = "s"\n',
    "fail/f_malformed.py": TAKES_INT + 'takes_int("no")  # expect: mipy[arg-type]\n',
    "fail/f_own_line.py": TAKES_INT + "# expect: mypy[arg-type]\n" + 'takes_int("no")\n',
    "pass/p_marker.py": "x = 1  # expect: mypy[misc]\n",
}

# The cases that pass: 1 pass file + 1 assert_type + 3 + 1 expectation lines.
CLEAN_NAMES = ("pass/p_ok.py", "reveal/r_ok.py", "fail/f_good.py", "fail/f_one_checker.py")
CLEAN_TREE: dict[str, str] = {name: MIXED_TREE[name] for name in CLEAN_NAMES}
CLEAN_CASES = 5


@dataclass(frozen=True)
class Run:
    """Parsed output of one runner invocation."""

    status: int
    output: str
    verdicts: dict[str, str]
    problems: dict[str, list[str]]


def make_root(root: Path, typing_files: dict[str, str]) -> Path:
    """A project root with the repo's checker configs and ``typing_files`` under typing/."""
    for config in ("mypy.ini", "pyrightconfig.json"):
        shutil.copy(REPO / config, root / config)
    for relative, text in typing_files.items():
        path = root / "typing" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def run_runner(root: Path, *args: str) -> Run:
    """Invoke the runner on ``root`` with ``args`` and parse its per-file report."""
    command = [sys.executable, str(RUNNER), "--root", str(root), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    verdicts: dict[str, str] = {}
    problems: dict[str, list[str]] = {}
    current = ""
    for line in done.stdout.splitlines():
        if line.startswith(("OK", "FAIL")) and " typing/" in line:
            verdict, current = line.split()[:2]
            verdicts[current], problems[current] = verdict, []
        elif line.startswith("        ") and current:
            problems[current].append(line.strip())
    return Run(done.returncode, done.stdout + done.stderr, verdicts, problems)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Run:
    root = make_root(tmp_path_factory.mktemp("mixed"), MIXED_TREE)
    return run_runner(root, "typing", "--min-cases", "1000")


def test_every_file_is_reported(mixed: Run) -> None:
    assert set(mixed.verdicts) == {f"typing/{name}" for name in MIXED_TREE}, mixed.output
    assert mixed.status == 1


@pytest.mark.parametrize("name", CLEAN_NAMES)
def test_matching_file_is_ok(mixed: Run, name: str) -> None:
    assert mixed.verdicts[f"typing/{name}"] == "OK", mixed.output


MISMATCHES = {
    "missing-expected-error": (
        "fail/f_missing.py",
        ["4: missing mypy[arg-type]", "4: missing pyright[reportArgumentType]"],
    ),
    "unexpected-on-unmarked-line": (
        "fail/f_unmarked.py",
        ["5: unexpected mypy[assignment]", "5: unexpected pyright[reportAssignmentType]"],
    ),
    "wrong-code": ("fail/f_wrong_code.py", ["4: unexpected mypy[arg-type]", "4: missing mypy[call-arg]"]),
    "no-expectation": ("fail/f_no_expect.py", ["fail file has no '# expect:' comment"]),
    "malformed-expectation": ("fail/f_malformed.py", ["4: unknown checker 'mipy'"]),
    "expectation-on-own-line": (
        "fail/f_own_line.py",
        ["4: an expectation must trail the code", "5: unexpected mypy[arg-type]"],
    ),
    "marker-outside-fail": ("pass/p_marker.py", ["1: expect comments belong in fail/"]),
    "wrong-assert-type": (
        "reveal/r_wrong.py",
        ["3: unexpected mypy[assert-type]", "3: unexpected pyright[reportAssertTypeFailure]"],
    ),
    # reveal_type: a mypy note on its own and a pyright "information" both count.
    "lone-note-and-information": (
        "pass/p_reveal.py",
        ["1: unexpected mypy[misc]", "1: unexpected pyright[information]"],
    ),
}


@pytest.mark.parametrize(("name", "expected"), list(MISMATCHES.values()), ids=list(MISMATCHES))
def test_mismatch_is_reported(mixed: Run, name: str, expected: list[str]) -> None:
    path = f"typing/{name}"
    assert mixed.verdicts[path] == "FAIL", mixed.output
    for fragment in expected:
        assert any(problem.startswith(fragment) for problem in mixed.problems[path]), mixed.output


def test_wrong_code_reports_exactly_the_difference(mixed: Run) -> None:
    assert len(mixed.problems["typing/fail/f_wrong_code.py"]) == 2, mixed.output


def test_too_few_cases_fail(mixed: Run) -> None:
    assert "fewer than --min-cases 1000" in mixed.output


def test_clean_tree_passes_and_counts_cases(tmp_path: Path) -> None:
    run = run_runner(make_root(tmp_path, CLEAN_TREE), "typing", "--min-cases", str(CLEAN_CASES))
    assert run.status == 0, run.output
    assert f"{CLEAN_CASES} typing cases" in run.output


def test_layout_problems_fail_before_checking(tmp_path: Path) -> None:
    tree = {
        "pass/same.py": "x = 1\n",
        "fail/same.py": "y: int = 's'  # expect: mypy[assignment] pyright[reportAssignmentType]\n",
        "reveal/__init__.py": "",
        "pass/numpy.py": "z = 1\n",
    }
    run = run_runner(make_root(tmp_path, tree), "typing", "--min-cases", "0")
    assert run.status == 1, run.output
    assert "duplicate module name 'same'" in run.output
    assert "typing/reveal/__init__.py: no __init__.py allowed under typing/" in run.output
    assert "shadows the importable module 'numpy'" in run.output
    assert "checkers not run" in run.output


def test_missing_typing_folder_still_counts_cases(tmp_path: Path) -> None:
    # A clean clone has no typing/ until someone commits a case: that must not pass.
    run = run_runner(make_root(tmp_path, {}), "--min-cases", "1")
    assert run.status == 1, run.output
    assert "fewer than --min-cases 1" in run.output
