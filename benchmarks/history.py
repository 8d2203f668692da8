"""Benchmark history: run benchmarks over a range of commits and jaxlib versions, find regressions.

    python -m benchmarks.history --commits A..B [--jaxlib 0.8.3,0.9.2,0.10.2] [--only REGEX]
    python -m benchmarks.history --commits A..B --bisect --threshold 1.15 [--only REGEX]

The two axes of seed 001's "investigating a regression" (JAX's nightly
builds crossed with XLA's): here, this repository's commits (each checked
out once in a git worktree under the cache directory) and the jaxlib
versions the package supports (one virtual environment per version, created
on first use under the cache directory and reused). Each (commit, jaxlib)
pair is a *column*.

Table mode runs every selected benchmark in every column, ``--rounds``
times, the columns interleaved (their order rotated each round, every run
in a fresh process) so that drift of the machine is spread over all
columns, and each run takes ``--samples`` timings. It prints, per
benchmark, the median time per call in each column, the spread (half the
interquartile range, relative to the median), the ratio to the first
column, and marks with ``*`` a step from the previous commit (with the same
jaxlib) that is larger than the noise (the two columns' interquartile
ranges do not overlap and the medians differ by more than ``--min-step``,
5% by default). It writes
all samples as JSON (``--json``) and, if matplotlib is installed,
a plot of the medians with their spreads (``--plot``).

Bisect mode measures the first commit of the range (the good one) and
drives ``git bisect run`` (in a worktree of its own: the checkout you work
in is never touched) with a step that measures the commit under test
interleaved with the good one; a commit is bad when any selected
benchmark's median ratio to the good commit exceeds ``--threshold``. It
prints the first bad commit.

Benchmarks come from a suite file (``--suite``; by default the workloads in
this file, ``SUITE`` below): a Python file defining ``BENCHMARKS``, a dict
from a name to a zero-argument factory that imports what it needs (the
package of the commit under test comes first on ``sys.path``), does the
set-up and returns the zero-argument callable to time. ``PACKAGE`` names
the package whose source directory (``--src``, ``src`` by default) each
worktree provides; each run checks that it imported that package from the
worktree. Only the standard library is imported by this module itself.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

# === the default suite: jaxtyped workloads that every commit of the history can run ===

PACKAGE = "jaxtyped"


def _jit_dispatch() -> Callable[[], object]:
    import jaxtyped as jt
    import jaxtyped.numpy as jnp

    from jaxtyped.typing import Array

    def add_one(a: Array) -> Array:
        return a + 1.0

    f, x = jt.jit(add_one), jnp.ones((4, 4))
    f(x)
    return lambda: jt.block_until_ready(f(x))


def _eager_sin() -> Callable[[], object]:
    import jaxtyped as jt
    import jaxtyped.numpy as jnp

    x = jnp.ones((4, 4))
    return lambda: jt.block_until_ready(jnp.sin(x))


def _make_jaxpr_chain() -> Callable[[], object]:
    import jaxtyped as jt
    import jaxtyped.numpy as jnp

    from jaxtyped.typing import Array

    def chain(x: Array) -> Array:
        for _ in range(100):
            x = jnp.sin(x) * 2.0
        return x

    x = jnp.ones(3)
    return lambda: jt.make_jaxpr(chain)(x)


def _mlp_grad_step() -> Callable[[], object]:
    import numpy as np

    import jaxtyped as jt
    import jaxtyped.numpy as jnp

    rng = np.random.default_rng(0)
    w1, w2 = jnp.asarray(rng.normal(size=(64, 128)).astype(np.float32)), jnp.asarray(
        rng.normal(size=(128, 10)).astype(np.float32)
    )
    x = jnp.asarray(rng.normal(size=(32, 64)).astype(np.float32))

    from jaxtyped.typing import Array

    def loss(params: tuple[Array, Array]) -> Array:
        a, b = params
        return jnp.sum(jnp.tanh(x @ a) @ b)

    step = jt.jit(jt.grad(loss))
    step((w1, w2))
    return lambda: jt.block_until_ready(step((w1, w2)))


BENCHMARKS: dict[str, Callable[[], Callable[[], object]]] = {
    "jit_dispatch": _jit_dispatch,
    "eager_sin": _eager_sin,
    "make_jaxpr_chain100": _make_jaxpr_chain,
    "mlp_grad_step": _mlp_grad_step,
}
SUITE = Path(__file__).resolve()

# === one run: a fresh process timing the selected benchmarks of one column ===

_RUNNER = r"""
import json, runpy, sys, time
spec = json.loads(sys.argv[1])
clock = time.process_time if spec["clock"] == "process" else time.perf_counter
sys.path.insert(0, spec["src"])
suite = runpy.run_path(spec["suite"])
out = {}
for name in spec["names"]:
    fn = suite["BENCHMARKS"][name]()
    fn()
    number = 1
    while True:  # calibrate: one sample takes at least min_time seconds
        start = clock()
        for _ in range(number):
            fn()
        took = clock() - start
        if took >= spec["min_time"] or number >= 1 << 20:
            break
        number *= 2
    samples = []
    for _ in range(spec["samples"]):
        start = clock()
        for _ in range(number):
            fn()
        samples.append((clock() - start) / number)
    out[name] = samples
package = sys.modules.get(suite.get("PACKAGE", ""))
origin = getattr(package, "__file__", None) or ""
if package is not None and not origin.startswith(spec["src"]):
    sys.exit(f"imported {package.__name__} from {origin}, not from {spec['src']}")
print("HISTORY-RESULT " + json.dumps(out))
"""


@dataclass(frozen=True)
class Column:
    """One (commit, jaxlib) pair: where its source is and which Python runs it."""

    commit: str
    subject: str
    jaxlib: str  # "" for the running interpreter's jaxlib
    src: Path
    python: str

    @property
    def label(self) -> str:
        return self.commit[:8] + (f"@{self.jaxlib}" if self.jaxlib else "")


@dataclass(frozen=True)
class Timing:
    """How one run times each benchmark: ``samples`` timings of at least ``min_time`` seconds each, on
    ``clock`` ("wall": ``perf_counter``; "process": the process's CPU time, which other processes
    sharing the machine disturb far less)."""

    samples: int
    min_time: float
    clock: str


def run_column(column: Column, suite: Path, names: Sequence[str], timing: Timing) -> dict[str, list[float]]:
    """Time ``names`` in a fresh process for ``column``; seconds per call, ``timing.samples`` of each."""
    spec = {
        "src": str(column.src), "suite": str(suite), "names": list(names),
        "samples": timing.samples, "min_time": timing.min_time, "clock": timing.clock,
    }
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(column.src), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("JAXTYPED_DEBUG", None)
    result = subprocess.run(
        [column.python, "-c", _RUNNER, json.dumps(spec)], env=env, capture_output=True, text=True, check=False
    )
    for line in result.stdout.splitlines():
        if line.startswith("HISTORY-RESULT "):
            parsed: dict[str, list[float]] = json.loads(line.removeprefix("HISTORY-RESULT "))
            return parsed
    raise RuntimeError(f"benchmarks failed at {column.label}:\n{result.stdout[-2000:]}{result.stderr[-4000:]}")


def measure(
    columns: Sequence[Column], suite: Path, names: Sequence[str], rounds: int, timing: Timing,
    progress: bool = True, tolerate_failures: bool = True,
) -> dict[str, dict[str, list[float]]]:
    """All samples, ``{benchmark: {column label: [seconds, ...]}}``; columns interleaved, rotated each round."""
    results: dict[str, dict[str, list[float]]] = {name: {c.label: [] for c in columns} for name in names}
    broken: set[str] = set()  # a column whose run failed once is not run again (its cells read "failed")
    for r in range(rounds):
        order = list(columns[r % len(columns):]) + list(columns[: r % len(columns)])
        for column in order:
            if column.label in broken:
                continue
            if progress:
                print(f"  round {r + 1}/{rounds}: {column.label} {column.subject[:50]}", file=sys.stderr, flush=True)
            try:
                timings = run_column(column, suite, names, timing)
            except RuntimeError as error:
                if not tolerate_failures:
                    raise
                print(f"  {error}", file=sys.stderr)
                broken.add(column.label)
                for name in names:
                    results[name][column.label].clear()
                continue
            for name, values in timings.items():
                results[name][column.label].extend(values)
    return results


# === statistics and the table ===


@dataclass(frozen=True)
class Summary:
    median: float
    q25: float
    q75: float

    @property
    def spread(self) -> float:
        """Half the interquartile range, relative to the median."""
        return (self.q75 - self.q25) / 2 / self.median if self.median else 0.0


def summarize(samples: Sequence[float]) -> Summary:
    if len(samples) < 2:
        return Summary(samples[0], samples[0], samples[0])
    q = statistics.quantiles(samples, n=4, method="inclusive")
    return Summary(statistics.median(samples), q[0], q[2])


MIN_STEP = 0.05


def is_step(before: Summary, after: Summary, min_step: float = MIN_STEP) -> bool:
    """A change larger than the noise: the two interquartile ranges do not overlap, and the medians
    differ by more than ``min_step`` (relative): separate processes running the same code differ by a
    few percent (memory layout), which the samples of one column do not show."""
    separated = after.q25 > before.q75 or after.q75 < before.q25
    return separated and abs(after.median / before.median - 1.0) > min_step


def _show_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g}{unit}"
    return f"{seconds / 1e-9:.3g}ns"


def table(
    columns: Sequence[Column], results: dict[str, dict[str, list[float]]], min_step: float = MIN_STEP
) -> tuple[str, list[dict[str, object]]]:
    """The printed table and the list of steps larger than the noise (see :func:`is_step`)."""
    lines: list[str] = []
    steps: list[dict[str, object]] = []
    for i, column in enumerate(columns):
        lines.append(f"  [{i}] {column.label:<20} {column.subject[:70]}")
    width = max(len(name) for name in results) if results else 10
    header = f"{'benchmark':<{width}} " + " ".join(f"{'[' + str(i) + ']':>24}" for i in range(len(columns)))
    lines += ["", header]
    for name, by_column in results.items():
        cells: list[str] = []
        previous_by_jaxlib: dict[str, Summary] = {}  # steps are along the commits, one jaxlib at a time
        measured = [by_column[c.label] for c in columns if by_column[c.label]]
        first = summarize(measured[0]) if measured else None
        for column in columns:
            if first is None or not by_column[column.label]:
                cells.append("failed")
                continue
            s = summarize(by_column[column.label])
            previous = previous_by_jaxlib.get(column.jaxlib)
            mark = "*" if previous is not None and is_step(previous, s, min_step) else " "
            if mark == "*" and previous is not None:
                steps.append({
                    "benchmark": name, "column": column.label, "commit": column.commit, "jaxlib": column.jaxlib,
                    "ratio_to_previous": s.median / previous.median,
                })
            cells.append(f"{_show_time(s.median):>8} ±{100 * s.spread:4.1f}% {s.median / first.median:5.2f}x{mark}")
            previous_by_jaxlib[column.jaxlib] = s
        lines.append(f"{name:<{width}} " + " ".join(f"{cell:>24}" for cell in cells))
    lines.append("")
    lines.append("cells: median time per call, ± half the interquartile range, ratio to the first measured column; "
                 f"* a step from the previous commit, same jaxlib, larger than the noise (IQRs apart and > {min_step:.0%})")
    return "\n".join(lines), steps


def plot(path: str, columns: Sequence[Column], results: dict[str, dict[str, list[float]]]) -> None:
    """Medians relative to the first column with interquartile bars, if matplotlib is installed."""
    try:  # an optional extra
        import importlib

        importlib.import_module("matplotlib").use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        print(f"--plot {path}: matplotlib is not installed; no plot written", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(max(5, len(columns) * 0.8), 3.5))
    xs = list(range(len(columns)))
    for name, by_column in results.items():
        kept = [(x, summarize(by_column[c.label])) for x, c in zip(xs, columns) if by_column[c.label]]
        if not kept:
            continue
        base = kept[0][1].median
        summaries = [s for _, s in kept]
        ax.errorbar(
            [x for x, _ in kept], [s.median / base for s in summaries],
            yerr=[[(s.median - s.q25) / base for s in summaries], [(s.q75 - s.median) / base for s in summaries]],
            label=name, marker="o", capsize=3,
        )
    ax.set_xticks(xs, [c.label for c in columns], rotation=45, ha="right")
    ax.set_ylabel("time / first column")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    print(f"wrote {path}", file=sys.stderr)


# === commits, worktrees and jaxlib environments ===


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


def resolve_commits(repo: Path, spec: str) -> list[str]:
    """``A..B``: A, then every commit after it up to B, oldest first; or a comma-separated list."""
    if ".." in spec:
        start, end = spec.split("..", 1)
        first = git(repo, "rev-parse", "--verify", start + "^{commit}")
        rest = git(repo, "rev-list", "--reverse", "--first-parent", f"{first}..{end or 'HEAD'}").split()
        return [first, *rest]
    return [git(repo, "rev-parse", "--verify", c + "^{commit}") for c in spec.split(",") if c]


def worktree(repo: Path, cache: Path, commit: str) -> Path:
    """A detached worktree of ``commit`` under the cache (created once, reused)."""
    path = cache / "worktrees" / commit
    if not (path / ".git").exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True, check=False)
        git(repo, "worktree", "add", "--detach", "--force", str(path), commit)
    return path


def runtime_requirements(repo: Path) -> list[str]:
    """The project's runtime dependencies other than jaxlib (read from pyproject.toml)."""
    import tomllib

    pyproject = repo / "pyproject.toml"
    if not pyproject.exists():
        return []
    with pyproject.open("rb") as f:
        dependencies: list[str] = tomllib.load(f).get("project", {}).get("dependencies", [])
    return [d for d in dependencies if not re.match(r"^jaxlib\b", d)]


def jaxlib_python(cache: Path, version: str, requirements: Sequence[str]) -> str:
    """The Python of a venv with ``jaxlib==version`` (created and installed once, then reused)."""
    venv = cache / "venvs" / f"jaxlib-{version}"
    python = venv / "bin" / "python"
    marker = venv / ".installed"
    if not marker.exists():
        print(f"creating {venv} (jaxlib=={version})", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", f"jaxlib=={version}", *requirements], check=True
        )
        marker.write_text(version)
    return str(python)


def build_columns(
    repo: Path, cache: Path, commits: Sequence[str], jaxlibs: Sequence[str], src: str
) -> list[Column]:
    pythons = {v: jaxlib_python(cache, v, runtime_requirements(repo)) for v in jaxlibs} or {"": sys.executable}
    columns: list[Column] = []
    for commit in commits:
        tree = worktree(repo, cache, commit)
        subject = git(repo, "log", "-1", "--format=%s", commit)
        for version, python in pythons.items():
            columns.append(Column(commit, subject, version, (tree / src).resolve(), python))
    return columns


def select(suite: Path, only: str | None) -> list[str]:
    """The benchmark names of ``suite`` matching ``only`` (a regular expression searched in each name)."""
    import runpy

    names = list(runpy.run_path(str(suite))["BENCHMARKS"])
    chosen = [n for n in names if only is None or re.search(only, n)]
    if not chosen:
        raise SystemExit(f"--only {only!r} matches none of {names}")
    return chosen


# === bisect ===


def remove_worktree(repo: Path, tree: Path) -> None:
    """Unregister and delete a worktree of ``repo`` if it exists (no error if it does not)."""
    for command in (["worktree", "remove", "--force", str(tree)], ["worktree", "prune"]):
        subprocess.run(["git", "-C", str(repo), *command], capture_output=True, check=False)


def bisect(args: argparse.Namespace, repo: Path, cache: Path, commits: Sequence[str]) -> str | None:
    """Drive ``git bisect run`` between the first (good) and last (bad) commit; the first bad commit."""
    good, bad = commits[0], commits[-1]
    tree = cache / "bisect"
    remove_worktree(repo, tree)
    git(repo, "worktree", "add", "--detach", "--force", str(tree), bad)
    step = [
        sys.executable, str(Path(__file__).resolve()), "--bisect-step", "--repo", str(repo), "--cache", str(cache),
        "--good", good, "--threshold", str(args.threshold), "--suite", str(args.suite), "--src", args.src,
        "--rounds", str(args.rounds), "--samples", str(args.samples), "--min-time", str(args.min_time),
        "--clock", args.clock, "--worktree", str(tree),
    ]
    if args.only:
        step += ["--only", args.only]
    if args.jaxlib:
        step += ["--jaxlib", args.jaxlib.split(",")[0]]
    try:
        git(tree, "bisect", "start", bad, good)
        run = subprocess.run(
            ["git", "-C", str(tree), "bisect", "run", *step], capture_output=True, text=True, check=False
        )
        print(run.stdout[-4000:], run.stderr[-4000:], sep="\n", file=sys.stderr)
        found = re.search(r"^([0-9a-f]{40}) is the first bad commit", run.stdout, re.M)
        return found.group(1) if found else None
    finally:
        subprocess.run(["git", "-C", str(tree), "bisect", "reset"], capture_output=True, check=False)
        remove_worktree(repo, tree)


def bisect_step(args: argparse.Namespace) -> int:
    """One ``git bisect run`` step: 0 (good), 1 (bad: slower than the threshold) or 125 (cannot test: skip)."""
    repo, cache = Path(args.repo), Path(args.cache)
    here = git(Path(args.worktree), "rev-parse", "HEAD")
    names = select(Path(args.suite), args.only)
    jaxlibs = [args.jaxlib] if args.jaxlib else []
    try:
        columns = build_columns(repo, cache, [args.good], jaxlibs, args.src)
        subject = git(repo, "log", "-1", "--format=%s", here)
        python = columns[0].python
        columns.append(Column(here, subject, columns[0].jaxlib, (Path(args.worktree) / args.src).resolve(), python))
        results = measure(
            columns, Path(args.suite), names, args.rounds, timing_of(args), progress=False, tolerate_failures=False,
        )
    except (RuntimeError, subprocess.CalledProcessError) as error:
        print(f"skipping {here[:8]}: {error}", file=sys.stderr)
        return 125
    worst = max(
        summarize(by[columns[1].label]).median / summarize(by[columns[0].label]).median for by in results.values()
    )
    verdict = "bad" if worst > args.threshold else "good"
    print(f"{here[:8]}: {worst:.3f}x the good commit ({verdict}, threshold {args.threshold})")
    return 1 if worst > args.threshold else 0


# === command line ===


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.history", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    p.add_argument("--commits", help="A..B (A and every commit after it up to B) or a comma-separated list")
    p.add_argument("--jaxlib", default="", help="comma-separated jaxlib versions (default: the running one)")
    p.add_argument("--only", default=None, help="regular expression selecting benchmarks by name")
    p.add_argument("--suite", default=str(SUITE), help="a Python file defining BENCHMARKS (default: this file's)")
    p.add_argument("--src", default="src", help="the directory in each commit that holds the package")
    p.add_argument("--repo", default=".", help="the git repository (default: the current directory)")
    p.add_argument("--cache", default=None, help="worktrees and jaxlib venvs (default: ~/.cache/jaxtyped-history)")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (a fresh process per column each)")
    p.add_argument("--samples", type=int, default=5, help="timings per benchmark per run")
    p.add_argument("--min-time", type=float, default=0.05, help="seconds one timing lasts at least")
    p.add_argument("--clock", choices=("wall", "process"), default="wall", help="wall time or the process's CPU time")
    p.add_argument("--json", default=None, help="write every sample and the steps here")
    p.add_argument("--plot", default=None, help="write a PNG of the medians (needs matplotlib)")
    p.add_argument("--bisect", action="store_true", help="find the first commit slower than --threshold")
    p.add_argument("--threshold", type=float, default=1.15, help="bisect: bad when median ratio exceeds this")
    p.add_argument(
        "--min-step", type=float, default=MIN_STEP,
        help="table: a step's medians also differ by more than this fraction (default 0.05)",
    )  # fmt: skip
    p.add_argument("--bisect-step", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--good", help=argparse.SUPPRESS)
    p.add_argument("--worktree", help=argparse.SUPPRESS)
    return p


def timing_of(args: argparse.Namespace) -> Timing:
    return Timing(args.samples, args.min_time, args.clock)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.bisect_step:
        return bisect_step(args)
    if not args.commits:
        parser().error("--commits is required")
    repo = Path(git(Path(args.repo), "rev-parse", "--show-toplevel"))
    cache = Path(args.cache or Path.home() / ".cache" / "jaxtyped-history").resolve()
    commits = resolve_commits(repo, args.commits)
    if args.bisect:
        if len(commits) < 2:
            parser().error("--bisect needs a range with at least two commits")
        first_bad = bisect(args, repo, cache, commits)
        if first_bad is None:
            print("bisect found no commit slower than the threshold (see the log above)")
            return 1
        subject = git(repo, "log", "-1", "--format=%s", first_bad)
        print(f"first commit slower than {args.threshold}x: {first_bad} {subject}")
        return 0
    jaxlibs = [v for v in args.jaxlib.split(",") if v]
    names = select(Path(args.suite), args.only)
    columns = build_columns(repo, cache, commits, jaxlibs, args.src)
    started = time.perf_counter()
    results = measure(columns, Path(args.suite), names, args.rounds, timing_of(args))
    text, steps = table(columns, results, args.min_step)
    print(text)
    seconds = time.perf_counter() - started
    print(f"({len(columns)} columns x {args.rounds} rounds x {args.samples} samples, {args.clock} clock, "
          f"{seconds:.0f}s)")
    if args.json:
        payload = {
            "columns": [
                {"label": c.label, "commit": c.commit, "subject": c.subject, "jaxlib": c.jaxlib} for c in columns
            ],
            "samples": results,
            "medians": {n: {k: summarize(v).median for k, v in by.items() if v} for n, by in results.items()},
            "steps": steps,
        }
        Path(args.json).write_text(json.dumps(payload, indent=1))
    if args.plot:
        plot(args.plot, columns, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
