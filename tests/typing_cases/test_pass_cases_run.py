"""Execute every ``typing/pass/*.py`` file: the pass cases are idiomatic
user code that must type-check cleanly (checked by ``typecheck/run.py``)
*and* run. Each file is run in a fresh namespace with ``runpy.run_path``;
its own ``assert`` statements check the values."""

import runpy
from pathlib import Path

import pytest

import jaxtyped

PASS_DIR = Path(__file__).resolve().parents[2] / "typing" / "pass"
PASS_FILES = sorted(PASS_DIR.glob("*.py"))


def test_pass_cases_exist() -> None:
    assert len(PASS_FILES) >= 10, f"expected the typing pass cases under {PASS_DIR}"


@pytest.mark.parametrize("path", PASS_FILES, ids=[p.stem for p in PASS_FILES])
def test_pass_case_runs(path: Path) -> None:
    x64_before = jaxtyped.config.jax_enable_x64
    namespace = runpy.run_path(str(path), run_name="__typing_case__")
    assert namespace  # the module ran to its end
    assert jaxtyped.config.jax_enable_x64 == x64_before, f"{path.name} left jax_enable_x64 changed"
