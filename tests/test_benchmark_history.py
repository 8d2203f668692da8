"""``benchmarks/history.py`` (issue 21, item 3; seed 001's "investigating a regression").

A synthetic git history is built in a temporary directory: a tiny package
``tinypkg`` (under ``src/``) whose ``work()`` sums squares, committed six
times; the fourth commit makes ``work()`` ten times slower and the
others change only a comment. Table mode must mark a step larger than the
noise at that commit and at no other, and bisect mode must name it as the
first bad commit. Both run the real command line in subprocesses (worktrees,
``git bisect run``), with a suite file of one benchmark.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAST = "def work() -> int:\n    return sum(i * i for i in range(3000))\n"
SLOW = "def work() -> int:\n    return sum(i * i for i in range(30000))\n"
SUITE = """
PACKAGE = "tinypkg"


def _work():
    import tinypkg

    return tinypkg.work


BENCHMARKS = {"work": _work}
"""
SLOW_COMMIT = 3  # 0-based: the fourth commit


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True, text=True, check=True,
    ).stdout.strip()


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The repository and its six commits, oldest first."""
    repo = tmp_path_factory.mktemp("history") / "repo"
    (repo / "src" / "tinypkg").mkdir(parents=True)
    git(repo.parent, "init", "-q", str(repo))
    commits: list[str] = []
    for i in range(6):
        body = SLOW if i >= SLOW_COMMIT else FAST
        (repo / "src" / "tinypkg" / "__init__.py").write_text(f"# revision {i}\n{body}")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"revision {i}" + (" (slower)" if i == SLOW_COMMIT else ""))
        commits.append(git(repo, "rev-parse", "HEAD"))
    (repo.parent / "suite.py").write_text(SUITE)
    return repo, commits


def run_history(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable, "-m", "benchmarks.history", "--repo", str(repo), "--suite", str(repo.parent / "suite.py"),
        "--cache", str(repo.parent / "cache"), "--samples", "3", "--min-time", "0.01", "--clock", "process", *args,
    ]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_table_marks_the_injected_slowdown(history: tuple[Path, list[str]]) -> None:
    repo, commits = history
    out = repo.parent / "history.json"
    # The injected step is 10x. Beside another test worker, columns of the
    # same code have read 5.2% apart with separate quartiles, and on a slower
    # machine 171 us then 257 us (1.5x): the test asks for steps over 200%,
    # not the default 5%, which is the tool's sensitivity, not what this
    # test checks.
    result = run_history(
        repo, "--commits", f"{commits[0]}..{commits[-1]}", "--rounds", "3", "--min-step", "2", "--json", str(out)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    payload = json.loads(out.read_text())
    assert [c["commit"] for c in payload["columns"]] == commits
    assert [s["commit"] for s in payload["steps"]] == [commits[SLOW_COMMIT]], result.stdout
    assert payload["steps"][0]["ratio_to_previous"] > 2.0
    assert len(payload["samples"]["work"][commits[0][:8]]) == 9  # 3 rounds x 3 samples
    row = next(line for line in result.stdout.splitlines() if line.startswith("work"))
    assert row.count("*") == 1  # the mark in the table, on the slow commit's column


def test_bisect_names_the_injected_slowdown(history: tuple[Path, list[str]]) -> None:
    repo, commits = history
    # As in the table test, the threshold sits far below the injected 10x
    # and far above the noise: at the default 1.15, a CI run beside another
    # test worker read an unchanged commit as slower and named revision 1.
    result = run_history(
        repo, "--commits", f"{commits[0]}..{commits[-1]}", "--rounds", "2", "--bisect", "--threshold", "3"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"first commit slower than 3.0x: {commits[SLOW_COMMIT]} revision 3 (slower)" in result.stdout
    assert "bisect" not in git(repo, "worktree", "list")  # the bisect worktree is removed again
    assert "bisecting" not in git(repo, "status")  # and the user's checkout was never bisected


def test_only_must_match_a_benchmark(history: tuple[Path, list[str]]) -> None:
    repo, commits = history
    result = run_history(repo, "--commits", f"{commits[0]}..{commits[1]}", "--only", "nothing-matches")
    assert result.returncode != 0 and "matches none of ['work']" in result.stderr
