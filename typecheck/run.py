#!/usr/bin/env python3
"""Run mypy and pyright once over src/, tests/ and typing/ and compare with expectations.

Usage: ``python typecheck/run.py [PATH ...] [--min-cases N] [--root DIR]``
(``--help`` for the rest). PATHs are relative to the root (default: the repo).
One mypy run and one pyright run, side by side, cover all PATHs; the exit
status is 0 only when every file matches, nothing went wrong in the checkers
themselves (reported under ``<run>``: crashes, a mypy blocking error that
stopped it early, files pyright skipped) and there are at least
``--min-cases`` typing cases (when typing/ is among the PATHs).

Expectations:

* ``typing/fail/**.py``: a line that must be rejected ends with a comment
  ``# expect: mypy[<code>,...] pyright[<rule>,...]``. On that line the set of
  codes each checker reports must equal the listed set exactly; a checker left
  out of the comment must report nothing there (so a known divergence is
  written ``# expect: pyright[reportFoo]``). Text after a second ``#`` is a free
  remark. Any diagnostic on an unmarked line fails, as does a fail file
  without expectations (a fail case that cannot fail). Checkers may blame
  different lines of a multi-line statement; put each checker's expectation on
  the line it reports.
* every other file (``src/``, ``tests/``, ``typing/pass``, ``typing/reveal``):
  zero diagnostics from both checkers. A reveal file must call ``assert_type``.

What counts as one diagnostic:

* mypy: one JSON record of ``mypy -O json``. Notes attached to an error arrive
  in its ``hint`` and are part of it; a note on its own (``reveal_type``) is a
  diagnostic of its own, with mypy's code for it (``misc``). Records without a
  code (duplicate module, ...) get the code ``-``.
* pyright: every entry of ``--outputjson``, whatever its severity (error,
  warning and information alike: a stray ``reveal_type`` must fail). Entries
  without a rule (syntax errors, ``reveal_type``) are keyed by severity, e.g.
  ``pyright[information]``. Unnecessary ignore comments are ordinary errors
  (``reportUnnecessaryTypeIgnoreComment``) under pyrightconfig.json.

Cases counted for ``--min-cases``: one per pass file, one per ``assert_type``
call in reveal files, one per expectation line in fail files.

Layout rules (checked before running anything): no ``__init__.py`` anywhere
under typing/ (``typing/__init__.py`` would shadow the standard library), and
no two package-less files with the same module name among the checked files
(mypy maps ``pass/x.py`` and ``fail/x.py`` both to module ``x`` and stops),
nor one named like an importable module (``numpy.py`` would shadow numpy).
Typing files cannot import each other: pyright does not search their folders.
"""

import argparse
import ast
import importlib.machinery
import io
import json
import os
import re
import subprocess
import sys
import time
import tokenize
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

CHECKERS: Final = ("mypy", "pyright")
DEFAULT_PATHS: Final = ("src", "tests", "typing")
GLOBAL: Final = "<run>"  # pseudo-file for problems not tied to a file
# Checked by their own runner (tools/typing_corpus.py) in several modes, not here.
SEPARATELY_CHECKED: Final = ("typing/corpus",)
EXPECT_RE: Final = re.compile(r"#\s*expect\s*:(?P<body>[^#]*)")
GROUP_RE: Final = re.compile(r"(?P<checker>[\w-]+)\[(?P<codes>[^\]]*)\]")

# line -> checker -> expected codes
Expectations = dict[int, dict[str, frozenset[str]]]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One diagnostic, located at a root-relative file and a 1-based line (0: whole file)."""

    file: str
    line: int
    checker: str
    code: str
    message: str

    def render(self) -> str:
        """``checker[code]: message`` on one line."""
        text = " / ".join(part.strip() for part in self.message.splitlines() if part.strip())
        return f"{self.checker}[{self.code}]: {text}"


@dataclass
class Outcome:
    """What one checker run produced."""

    diagnostics: list[Diagnostic] = field(default_factory=list[Diagnostic])
    seconds: float = 0.0


@dataclass(frozen=True)
class Settings:
    """Resolved command-line settings."""

    root: Path
    paths: tuple[str, ...]
    typing_dir: Path
    mypy_config: Path
    pyright_config: Path
    python: str
    min_cases: int
    count_cases: bool  # typing/ was asked for, so --min-cases applies (even if it is missing)


# ---------------------------------------------------------------- files and layout


def collect_files(root: Path, paths: Iterable[str]) -> list[Path]:
    """Every ``.py``/``.pyi`` file under ``paths``, skipping hidden and cache folders."""
    found: set[Path] = set()
    for name in paths:
        path = root / name
        candidates = [path] if path.is_file() else path.rglob("*.py*")
        for candidate in candidates:
            parts = candidate.relative_to(root).parts
            if candidate.suffix not in (".py", ".pyi") or any(
                part.startswith(".") or part == "__pycache__" for part in parts
            ):
                continue
            if path.is_dir() and any("/".join(parts).startswith(f"{skip}/") for skip in SEPARATELY_CHECKED):
                continue
            found.add(candidate.resolve())
    return sorted(found)


def is_under(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies inside ``folder``."""
    return path.is_relative_to(folder)


def shadowed_modules(names: Iterable[str], root: Path) -> set[str]:
    """The names among ``names`` that are importable already (stdlib or installed)."""
    here = {str(Path(__file__).resolve().parent), str(root), ""}
    search = [entry for entry in sys.path if entry not in here]
    return {
        name
        for name in names
        if name in sys.stdlib_module_names
        or importlib.machinery.PathFinder.find_spec(name, search) is not None
    }


def layout_errors(files: Sequence[Path], settings: Settings) -> list[str]:
    """Problems that would make the checkers' results meaningless."""
    errors: list[str] = []
    typing_dir = settings.typing_dir
    if typing_dir.is_dir():
        for init in sorted(typing_dir.rglob("__init__.py*")):
            errors.append(f"{rel(init, settings.root)}: no __init__.py allowed under typing/")
    by_module: dict[str, set[Path]] = defaultdict(set)
    for path in files:
        if not (path.parent / "__init__.py").exists() and path.stem != "__init__":
            by_module[path.stem].add(path.with_suffix(""))  # x.py beside x.pyi is one module
    for module, paths in sorted(by_module.items()):
        if len(paths) > 1:
            shown = ", ".join(rel(path, settings.root) for path in sorted(paths))
            errors.append(f"duplicate module name {module!r} (mypy maps each to {module!r}): {shown}")
    typing_names = {p.stem for p in files if is_under(p, typing_dir)}
    for module in sorted(shadowed_modules(typing_names, settings.root)):
        errors.append(f"typing file named {module!r} shadows the importable module {module!r}")
    return errors


def rel(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (posix), or absolute when outside it."""
    resolved = path.resolve()
    return resolved.relative_to(root).as_posix() if is_under(resolved, root) else resolved.as_posix()


# ---------------------------------------------------------------- expectations


def parse_expect_body(body: str) -> dict[str, frozenset[str]] | str:
    """Parse ``mypy[a,b] pyright[c]``; return the mapping or an error message."""
    groups: dict[str, frozenset[str]] = {}
    for match in GROUP_RE.finditer(body):
        checker = match["checker"]
        codes = frozenset(code.strip() for code in match["codes"].split(",") if code.strip())
        if checker not in CHECKERS:
            return f"unknown checker {checker!r} (use mypy[...] or pyright[...])"
        if checker in groups:
            return f"{checker}[...] given twice"
        if not codes:
            return f"{checker}[] lists no code"
        groups[checker] = codes
    if GROUP_RE.sub("", body).strip():
        return f"cannot parse expectation {body.strip()!r}"
    if not groups:
        return "expectation lists no checker"
    return groups


def parse_expectations(source: str) -> tuple[Expectations, list[tuple[int, str]]]:
    """Expectations of a fail file, and (line, message) for malformed comments."""
    expectations: Expectations = {}
    errors: list[tuple[int, str]] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError) as err:
        return {}, [(1, f"cannot tokenize: {err}")]
    for token in tokens:
        match = EXPECT_RE.match(token.string) if token.type == tokenize.COMMENT else None
        if match is None:
            continue
        line = token.start[0]
        parsed = parse_expect_body(match["body"])
        if isinstance(parsed, str):
            errors.append((line, parsed))
        elif token.line.lstrip().startswith("#"):
            errors.append((line, "an expectation must trail the code it is about"))
        else:
            expectations[line] = parsed
    return expectations, errors


def count_assert_type(source: str) -> int:
    """Number of ``assert_type(...)`` calls (plain or attribute) in ``source``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0
    names = (
        node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
    )
    return sum(1 for name in names if name == "assert_type")


# ---------------------------------------------------------------- running the checkers


def run_command(command: Sequence[str], cwd: Path) -> tuple[int, str, str, float]:
    """Run ``command``; return (status, stdout, stderr, seconds)."""
    start = time.perf_counter()
    # Without this pyright-python asks PyPI for a newer version on every run.
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1", "NO_COLOR": "1"}
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, check=False)
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - start


def json_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed as a JSON object (values are Any: it is JSON), or None."""
    try:
        value: object = json.loads(text)
    except json.JSONDecodeError:
        return None
    return cast("dict[str, Any]", value) if isinstance(value, dict) else None


def run_mypy(settings: Settings, paths: Sequence[str]) -> Outcome:
    """One mypy run (JSON output) over ``paths``."""
    command = [
        sys.executable, "-m", "mypy", "--config-file", str(settings.mypy_config),
        "-O", "json", "--soft-error-limit=-1", *paths,
    ]  # fmt: skip
    status, out, err, seconds = run_command(command, settings.root)
    return Outcome(parse_mypy(status, out, err, settings.root), seconds)


def parse_mypy(status: int, out: str, err: str, root: Path) -> list[Diagnostic]:
    """Diagnostics from ``mypy -O json`` output; anything unparsable becomes a global one."""
    found: list[Diagnostic] = []
    for text in out.splitlines():
        record = json_object(text)
        if record is None:
            if text.strip():
                found.append(Diagnostic(GLOBAL, 0, "mypy", "output", text))
            continue
        found.append(mypy_diagnostic(record, root))
    if status not in (0, 1):
        # A blocking error stops mypy: whatever it did not check would pass silently.
        message = f"mypy exited with {status}, results are incomplete: {err.strip()}"
        found.append(Diagnostic(GLOBAL, 0, "mypy", "status", message))
    elif status == 1 and not found:
        message = f"mypy failed without diagnostics: {err.strip()}"
        found.append(Diagnostic(GLOBAL, 0, "mypy", "status", message))
    return found


def mypy_diagnostic(record: dict[str, Any], root: Path) -> Diagnostic:
    """Convert one JSON record; its ``hint`` holds the notes attached to the error."""
    hint = f"\n{record['hint']}" if record.get("hint") else ""
    line = max(int(record.get("line") or 0), 0)  # -1: about the whole file
    file = rel(root / str(record["file"]), root) if record.get("file") else GLOBAL
    code = str(record.get("code") or "-")
    return Diagnostic(file, line, "mypy", code, f"{record.get('message', '')}{hint}")


def run_pyright(settings: Settings, paths: Sequence[str], expected_files: int) -> Outcome:
    """One pyright run (``--outputjson``) over ``paths``."""
    command = [
        sys.executable, "-m", "pyright", "--outputjson", "--project", str(settings.pyright_config),
        "--pythonpath", settings.python, *paths,
    ]  # fmt: skip
    status, out, err, seconds = run_command(command, settings.root)
    return Outcome(parse_pyright(status, out, err, settings.root, expected_files), seconds)


def parse_pyright(
    status: int, out: str, err: str, root: Path, expected_files: int
) -> list[Diagnostic]:
    """Diagnostics from ``pyright --outputjson``; a broken run becomes a global diagnostic."""
    report = json_object(out)
    if report is None:
        message = f"pyright exited with {status}: {(out + err).strip()}"
        return [Diagnostic(GLOBAL, 0, "pyright", "status", message)]
    entries: list[dict[str, Any]] = report.get("generalDiagnostics") or []
    found = [pyright_diagnostic(entry, root) for entry in entries]
    summary: dict[str, Any] = report.get("summary") or {}
    analyzed = int(summary.get("filesAnalyzed") or 0)
    if analyzed < expected_files:
        # A file pyright skipped (excluded, unreadable) would otherwise pass unseen.
        message = f"pyright analyzed {analyzed} of {expected_files} files"
        found.append(Diagnostic(GLOBAL, 0, "pyright", "files", message))
    if status not in (0, 1) or (status == 1 and not found):
        message = f"pyright exited with {status}: {err.strip()}"
        found.append(Diagnostic(GLOBAL, 0, "pyright", "status", message))
    return found


def pyright_diagnostic(entry: dict[str, Any], root: Path) -> Diagnostic:
    """Convert one ``generalDiagnostics`` entry (JSON, hence Any)."""
    span: dict[str, Any] = entry.get("range") or {}
    start: dict[str, Any] = span.get("start") or {}
    line = int(start.get("line", -1)) + 1
    file = rel(Path(str(entry["file"])), root) if entry.get("file") else GLOBAL
    code = str(entry.get("rule") or entry.get("severity") or "-")
    return Diagnostic(file, line, "pyright", code, str(entry.get("message", "")))


def run_checkers(settings: Settings, paths: Sequence[str], file_count: int) -> dict[str, Outcome]:
    """mypy and pyright side by side (each is single-process; two cores are the CI machine)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        mypy = pool.submit(run_mypy, settings, paths)
        pyright = pool.submit(run_pyright, settings, paths, file_count)
        return {"mypy": mypy.result(), "pyright": pyright.result()}


# ---------------------------------------------------------------- comparing


def compare(diagnostics: Sequence[Diagnostic], expectations: Expectations) -> list[str]:
    """Problems of one file: unexpected diagnostics and missing expected codes."""
    got: dict[tuple[int, str], list[Diagnostic]] = defaultdict(list)
    for diagnostic in diagnostics:
        got[diagnostic.line, diagnostic.checker].append(diagnostic)
    keys = set(got) | {(line, checker) for line, groups in expectations.items() for checker in groups}
    problems: list[str] = []
    for line, checker in sorted(keys):
        expected = expectations.get(line, {}).get(checker, frozenset())
        for diagnostic in got[line, checker]:
            if diagnostic.code not in expected:
                problems.append(f"{line}: unexpected {diagnostic.render()}")
        for code in sorted(expected - {d.code for d in got[line, checker]}):
            problems.append(f"{line}: missing {checker}[{code}]")
    return problems


@dataclass
class FileResult:
    """The verdict on one file."""

    path: str
    problems: list[str]
    cases: int = 0
    expected: int = 0


def typing_kind(path: Path, settings: Settings) -> str | None:
    """``fail``, ``pass``, ``reveal`` (any first folder under typing/), or None outside it."""
    if not is_under(path, settings.typing_dir):
        return None
    parts = path.relative_to(settings.typing_dir).parts
    return parts[0] if len(parts) > 1 else "typing"


def judge_file(path: Path, settings: Settings, diagnostics: Sequence[Diagnostic]) -> FileResult:
    """Compare one checked file with its expectations."""
    name = rel(path, settings.root)
    kind = typing_kind(path, settings)
    source = path.read_text(encoding="utf-8", errors="replace")
    # src/ and tests/ may say "# expect: ..." in prose; only typing/ files carry markers.
    expectations, errors = parse_expectations(source) if kind is not None else ({}, [])
    if kind != "fail" and expectations:
        # Outside fail/ every diagnostic is unexpected, so a marker there is a mistake.
        errors += [(line, "expect comments belong in fail/") for line in sorted(expectations)]
        expectations = {}
    problems = [f"{line}: {message}" for line, message in errors]
    if kind == "fail" and not expectations and not errors:
        problems.append("fail file has no '# expect:' comment, so it cannot fail")
    counts = {
        "fail": len(expectations),
        "reveal": count_assert_type(source),
        "pass": int(path.suffix == ".py"),  # x.pyi beside x.py is the same case
    }
    cases = counts.get(kind or "", 0)
    if kind == "reveal" and cases == 0:
        problems.append("reveal file calls no assert_type")
    problems += compare(diagnostics, expectations)
    expected = sum(len(codes) for groups in expectations.values() for codes in groups.values())
    return FileResult(name, problems, cases, expected)


def judge(
    files: Sequence[Path], settings: Settings, outcomes: Mapping[str, Outcome]
) -> list[FileResult]:
    """Verdicts for every checked file plus any other file the checkers complained about."""
    by_file: dict[str, list[Diagnostic]] = defaultdict(list)
    for outcome in outcomes.values():
        for diagnostic in outcome.diagnostics:
            by_file[diagnostic.file].append(diagnostic)
    results = [judge_file(path, settings, by_file.pop(rel(path, settings.root), [])) for path in files]
    for name, diagnostics in sorted(by_file.items()):
        results.append(FileResult(name, compare(diagnostics, {})))
    return results


# ---------------------------------------------------------------- reporting


def report(
    results: Sequence[FileResult], outcomes: Mapping[str, Outcome], settings: Settings
) -> int:
    """Print one line per file and a summary; return the exit status."""
    for result in results:
        detail = f"  ({result.expected} expected diagnostics)" if result.expected else ""
        print(f"{'FAIL' if result.problems else 'OK  '}  {result.path}{detail}")
        for problem in result.problems:
            print(f"        {problem}")
    failed = sum(1 for result in results if result.problems)
    cases = sum(result.cases for result in results)
    too_few = settings.count_cases and cases < settings.min_cases
    times = ", ".join(f"{name} {outcome.seconds:.1f}s" for name, outcome in outcomes.items())
    print(
        f"typecheck: {len(results)} files, {len(results) - failed} OK, {failed} FAIL; "
        f"{cases} typing cases (minimum {settings.min_cases}); {times or 'checkers not run'}"
    )
    if too_few:
        print(f"typecheck: FAIL: only {cases} typing cases, fewer than --min-cases {settings.min_cases}")
    return 1 if failed or too_few else 0


# ---------------------------------------------------------------- entry point


def parse_settings(argv: Sequence[str] | None) -> Settings | str:
    """Settings from the command line, or an error message."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    default = " ".join(DEFAULT_PATHS)
    parser.add_argument("paths", nargs="*", help=f"relative to --root (default: {default})")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--typing-dir", default="typing", help="folder holding pass/ fail/ reveal/")
    parser.add_argument("--mypy-config", default="mypy.ini")
    parser.add_argument("--pyright-config", default="pyrightconfig.json")
    parser.add_argument("--python", default=sys.executable, help="interpreter whose packages pyright sees")
    parser.add_argument("--min-cases", type=int, default=15)
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    typing_dir = (root / args.typing_dir).resolve()
    requested = [(root / p).resolve() for p in args.paths or DEFAULT_PATHS]
    count_cases = any(is_under(p, typing_dir) or is_under(typing_dir, p) for p in requested)
    # A clean clone may lack a default folder (git keeps no empty typing/fail/).
    paths: list[str] = args.paths or [p for p in DEFAULT_PATHS if (root / p).exists()]
    missing = [p for p in paths if not (root / p).exists()]
    if missing:
        return f"no such path under {root}: {', '.join(missing)}"
    configs = (root / args.mypy_config, root / args.pyright_config)
    return Settings(root, tuple(paths), typing_dir, *configs, args.python, args.min_cases, count_cases)


def checker_paths(settings: Settings, files: Sequence[Path]) -> list[str]:
    """What to hand the checkers: each requested folder, except that a folder
    holding a SEPARATELY_CHECKED one is replaced by its collected files (the
    checkers would otherwise report on the skipped folder too)."""
    skipped = [(settings.root / s).resolve() for s in SEPARATELY_CHECKED]
    paths: list[str] = []
    for name in settings.paths:
        folder = (settings.root / name).resolve()
        inside = [f for f in files if is_under(f, folder)]
        if not inside:
            continue  # mypy refuses a folder without Python files
        if folder.is_dir() and any(is_under(s, folder) for s in skipped):
            paths.extend(str(f.relative_to(settings.root)) for f in inside)
        else:
            paths.append(name)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    """Run everything; exit status 0 only if every file matches its expectations."""
    settings = parse_settings(argv)
    if isinstance(settings, str):
        print(f"typecheck: {settings}", file=sys.stderr)
        return 2
    files = collect_files(settings.root, settings.paths)
    problems = layout_errors(files, settings)
    if problems:
        for problem in problems:
            print(f"FAIL  {problem}")
        print(f"typecheck: FAIL: {len(problems)} layout problem(s); checkers not run")
        return 1
    paths = checker_paths(settings, files)
    outcomes = run_checkers(settings, paths, len(files)) if files else {}
    return report(judge(files, settings, outcomes), outcomes, settings)


if __name__ == "__main__":
    sys.exit(main())
