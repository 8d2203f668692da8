#!/usr/bin/env python3
"""The ``api-types`` gate: the public types of the package as users install it
(usage: ``check_api_types.py [--keep DIR]``).

1. Build the wheel from a copy of the sources (so no ``build/`` or
   ``*.egg-info`` is left in the tree, and nothing stale gets in), and check
   that it contains ``jaxtyped/py.typed`` and every ``.pyi`` under
   ``src/jaxtyped``.
2. Install it into a scratch directory (``pip install --target``) and run
   ``pyright --verifytypes jaxtyped --ignoreexternal`` on it from outside the
   repository: the type completeness score must be 100% (pyright cannot see
   an editable install, hence the wheel).
3. Run ``tools/check_public_types.py`` on the installed package: no ``Any``
   in public results, parameters with ``Any`` exactly as allowlisted.
4. Run ``mypy.stubtest`` on every ``.pyi`` of the repository (the
   third-party stubs in ``stubs/`` and any under ``src/jaxtyped``) against
   the installed modules, with no allowlist (``--ignore-missing-stub``: the
   stubs are deliberately partial; ``--strict-type-check-only``).

5. Smoke-test the installed wheel as a user without the test extras would
   run it (issue 21, packaging): with the test-only packages (``jax``,
   ``pytest``, ``hypothesis``, ``mypy``) made unimportable, import
   ``jaxtyped`` from the scratch directory, compute a ``jit(grad)`` and run
   the demo (``python -m jaxtyped.demo``); the wheel's ``Requires-Dist``
   must name only the runtime dependencies.
6. Build the sdist from the same copy and check that it holds what a wheel
   is built from (``pyproject.toml``, ``README.md``, ``py.typed``, every
   ``.pyi``) and carries the SPDX license expression.

Steps 2-5 run in parallel. Exit status 0 when every step passes.
"""

import argparse
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
PACKAGE: Final = "jaxtyped"
# The sources a wheel is built from (pyproject.toml names README.md).
BUILD_INPUTS: Final = ("pyproject.toml", "README.md", "src")
# setuptools builds wheels itself (no `wheel` package) from 70.1 on, and reads
# pyproject.toml's SPDX license expression (PEP 639) from 77 on.
NATIVE_BDIST_WHEEL: Final = (77, 0)


@dataclass(frozen=True)
class Step:
    """A finished step: its name, whether it passed, its report, its time."""

    name: str
    ok: bool
    report: str
    seconds: float


# --- 1. the wheel -------------------------------------------------------------


def required_wheel_files(src: Path, package: str = PACKAGE) -> list[str]:
    """The wheel paths that must be present: ``py.typed`` and every ``.pyi``
    of the package's source tree."""
    base = src / package
    stubs = sorted(p.relative_to(src).as_posix() for p in base.rglob("*.pyi"))
    return [f"{package}/py.typed", *stubs]


def missing_from_wheel(names: Iterable[str], required: Sequence[str]) -> list[str]:
    """The ``required`` paths absent from a wheel holding ``names``."""
    present = set(names)
    return [name for name in required if name not in present]


def _setuptools_builds_wheels() -> bool:
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    parts = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
    return parts >= NATIVE_BDIST_WHEEL


def build_wheel(scratch: Path) -> tuple[Path | None, str]:
    """Build the wheel from a copy of the sources into ``scratch/dist``."""
    copy = scratch / "source"
    copy.mkdir()
    for name in BUILD_INPUTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, copy / name)
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check"]
    # Without build isolation when the environment can build wheels itself
    # (no network, faster); tools/_setup.sh installs setuptools for that.
    if _setuptools_builds_wheels():
        command.append("--no-build-isolation")
    command += ["-w", str(scratch / "dist"), str(copy)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted((scratch / "dist").glob(f"{PACKAGE}-*.whl"))
    if result.returncode != 0 or len(wheels) != 1:
        return None, f"pip wheel failed ({result.returncode}):\n{result.stdout}{result.stderr}"
    return wheels[0], ""


def check_wheel(wheel: Path) -> Step:
    start = time.perf_counter()
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    required = required_wheel_files(ROOT / "src")
    missing = missing_from_wheel(names, required)
    report = (
        f"{wheel.name}: missing " + ", ".join(missing)
        if missing
        else f"{wheel.name} has py.typed and the {len(required) - 1} .pyi file(s) of src/{PACKAGE}"
    )
    return Step("wheel contents", not missing, report, time.perf_counter() - start)


def check_sdist(scratch: Path) -> Step:
    """Build the sdist from the copy :func:`build_wheel` made and check its
    contents (step 6)."""
    start = time.perf_counter()
    out = scratch / "sdist"
    out.mkdir()
    build = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    result = subprocess.run(
        [sys.executable, "-c", build, str(out)], cwd=scratch / "source", capture_output=True, text=True, check=False
    )
    archives = sorted(out.glob(f"{PACKAGE}-*.tar.gz"))
    if result.returncode != 0 or len(archives) != 1:
        return Step("sdist", False, f"build_sdist failed ({result.returncode}):\n{result.stdout}{result.stderr}", time.perf_counter() - start)
    with tarfile.open(archives[0]) as archive:
        names = archive.getnames()
        top = names[0].split("/")[0]
        member = archive.extractfile(f"{top}/PKG-INFO")
        metadata = member.read().decode() if member is not None else ""
    relative = {name.partition("/")[2] for name in names}
    required = ["pyproject.toml", "README.md", *(f"src/{name}" for name in required_wheel_files(ROOT / "src"))]
    missing = [name for name in required if name not in relative]
    problems = [f"missing {', '.join(missing)}"] if missing else []
    if "License-Expression: Apache-2.0" not in metadata:
        problems.append("PKG-INFO has no 'License-Expression: Apache-2.0'")
    report = "; ".join(problems) or f"{archives[0].name} holds pyproject.toml, README.md, py.typed and every .pyi; SPDX license"
    return Step("sdist", not problems, report, time.perf_counter() - start)


def install(wheel: Path, site: Path) -> str:
    """Install ``wheel`` (no dependencies) into ``site``; an error text or ''."""
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check"]
    result = subprocess.run([*command, "--target", str(site), str(wheel)], capture_output=True, text=True, check=False)
    return "" if result.returncode == 0 else f"pip install failed:\n{result.stdout}{result.stderr}"


# --- 2-4. the checks on the installed package -----------------------------------


def _installed_env(site: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(site)
    env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] = "1"
    return env


# --- 5. the smoke test: the installed wheel without the test extras ------------

# Installed with the test extras, but never needed by the package at run time.
TEST_ONLY: Final = ("jax", "pytest", "hypothesis", "mypy")
# pyproject.toml's runtime dependencies, by distribution name.
RUNTIME_DEPENDENCIES: Final = ("numpy", "jaxlib", "ml_dtypes", "ml-dtypes", "typing-extensions", "typing_extensions", "beartype", "opt_einsum", "opt-einsum")

SMOKE_TEST: Final = f"""
import importlib.metadata, re, runpy, sys
for name in {TEST_ONLY!r}:
    sys.modules[name] = None  # an import of a test-only package fails
site = sys.argv[1]
import jaxtyped as jt, jaxtyped.numpy as jnp
assert jt.__file__.startswith(site), f"jaxtyped imported from {{jt.__file__}}, not the installed wheel"
g = jt.jit(jt.grad(lambda x: jnp.sum(jnp.sin(x) ** 2)))(jnp.arange(3.0))
assert jnp.allclose(g, jnp.sin(2 * jnp.arange(3.0)), atol=1e-6), g
requires = importlib.metadata.distribution("jaxtyped").requires or []
runtime = [r for r in requires if "extra ==" not in r]
names = {{re.split(r"[<>=!~ ;\\[]", r, maxsplit=1)[0].lower() for r in runtime}}
assert names <= set({RUNTIME_DEPENDENCIES!r}), names
sys.argv = ["jaxtyped.demo"]
runpy.run_module("jaxtyped.demo", run_name="__main__")
print("import, jit(grad) and the demo ran without", ", ".join({TEST_ONLY!r}))
"""


def verifytypes_command() -> list[str]:
    return [
        sys.executable, "-m", "pyright", "--verifytypes", PACKAGE, "--ignoreexternal", "--outputjson",
        "--pythonpath", sys.executable,
    ]  # fmt: skip


def verifytypes_report(output: str) -> tuple[bool, str]:
    """Read pyright's ``--verifytypes --outputjson`` output: passed (a score
    of 1 and no errors), and a report naming each incomplete symbol."""
    try:
        data = json.loads(output)
    except json.JSONDecodeError:
        return False, f"pyright printed no JSON:\n{output[-2000:]}"
    completeness = data.get("typeCompleteness", {})
    score = float(completeness.get("completenessScore", 0.0))
    lines = [
        f"{completeness.get('exportedSymbolCounts', {})}; completeness score {score:.1%}",
    ]
    errors = 0
    for symbol in completeness.get("symbols", []):
        for diagnostic in symbol.get("diagnostics", []):
            if diagnostic.get("severity") == "error":
                errors += 1
                lines.append(f"  {symbol.get('name')}: {diagnostic.get('message', '').splitlines()[0]}")
    return score >= 1.0 and errors == 0, "\n".join(lines)


def stub_modules(stub_roots: Iterable[Path]) -> list[str]:
    """The module of every ``.pyi`` under ``stub_roots`` (``pkg/__init__.pyi``
    is ``pkg``)."""
    modules: list[str] = []
    for root in stub_roots:
        for path in sorted(root.rglob("*.pyi")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules.append(".".join(parts))
    return sorted(set(modules))


def stubtest_command(scratch: Path) -> list[str] | None:
    """stubtest over every ``.pyi`` of the repository (None if there are
    none). mypy reads the stubs from ``stubs/`` and ``src/`` (``mypy_path``);
    the runtime modules are the installed ones."""
    roots = [ROOT / "stubs", ROOT / "src"]
    # stubtest also checks the stubs of a package's submodules, so a stub
    # package is named once, by its top level (naming a submodule too would
    # give mypy the same file twice); a .pyi in src/ is named exactly, so
    # that the .py files beside it are not checked as stubs.
    modules = sorted({m.split(".")[0] for m in stub_modules([ROOT / "stubs"])}) + stub_modules([ROOT / "src"])
    if not modules:
        return None
    config = scratch / "stubtest.ini"
    config.write_text("[mypy]\nmypy_path = " + os.pathsep.join(str(r) for r in roots) + "\n")
    return [
        sys.executable, "-m", "mypy.stubtest", "--mypy-config-file", str(config),
        "--ignore-missing-stub", "--strict-type-check-only", "--concise", *modules,
    ]  # fmt: skip


def run_checks(scratch: Path, site: Path) -> list[Step]:
    """verifytypes, the public-Any check and stubtest, in parallel."""
    env = _installed_env(site)
    outside = scratch / "cwd"  # not the repository: pyright must not find src/ there
    outside.mkdir()
    commands: dict[str, list[str]] = {
        "verifytypes": verifytypes_command(),
        "public Any": [sys.executable, str(ROOT / "tools" / "check_public_types.py")],
        "smoke test": [sys.executable, "-c", SMOKE_TEST, str(site)],
    }
    stubtest = stubtest_command(scratch)
    if stubtest is not None:
        commands["stubtest"] = stubtest
    started = {
        name: (time.perf_counter(), subprocess.Popen(command, cwd=outside, env=env, stdout=subprocess.PIPE,
                                                     stderr=subprocess.STDOUT, text=True))
        for name, command in commands.items()
    }  # fmt: skip
    steps: list[Step] = []
    for name, (start, process) in started.items():
        output, _ = process.communicate()
        seconds = time.perf_counter() - start
        if name == "verifytypes":
            ok, report = verifytypes_report(output)
        else:
            ok, report = process.returncode == 0, output.strip() or "no findings"
        steps.append(Step(name, ok, report, seconds))
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build and install here (kept) instead of a temporary directory")
    args = parser.parse_args(argv)
    keep: Path | None = args.keep
    if keep is not None:
        shutil.rmtree(keep, ignore_errors=True)
        keep.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="jaxtyped-api-types-") as temporary:
        scratch = keep if keep is not None else Path(temporary)
        steps = _run(scratch)
    for step in steps:
        print(f"---- {step.name}: {'PASS' if step.ok else 'FAIL'} ({step.seconds:.1f}s)")
        print(step.report)
    return 0 if steps and all(step.ok for step in steps) else 1


def _run(scratch: Path) -> list[Step]:
    start = time.perf_counter()
    wheel, error = build_wheel(scratch)
    if wheel is None:
        return [Step("build wheel", False, error, time.perf_counter() - start)]
    steps = [Step("build wheel", True, wheel.name, time.perf_counter() - start), check_wheel(wheel)]
    start = time.perf_counter()
    site = scratch / "site"
    error = install(wheel, site)
    steps.append(Step("install wheel", not error, error or str(site), time.perf_counter() - start))
    steps.append(check_sdist(scratch))
    if error:
        return steps
    return steps + run_checks(scratch, site)


if __name__ == "__main__":
    sys.exit(main())
