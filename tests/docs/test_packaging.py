"""The packaging steps of the ``api-types`` gate (``tools/check_api_types.py``,
steps 5 and 6) find what they are meant to find."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def gate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_api_types", ROOT / "tools" / "check_api_types.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_smoke_test_refuses_a_jaxtyped_that_is_not_the_installed_one(tmp_path: Path) -> None:
    # Run from the source tree: jaxtyped does not come from the (empty) site.
    result = subprocess.run(
        [sys.executable, "-c", gate().SMOKE_TEST, str(tmp_path / "site")],
        env={"PATH": "", "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "not the installed wheel" in result.stderr


def test_the_sdist_holds_what_a_wheel_is_built_from(tmp_path: Path) -> None:
    module = gate()
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", source)
    shutil.copy2(ROOT / "README.md", source)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    step = module.check_sdist(tmp_path)
    assert step.ok, step.report
    # Without README.md (pyproject.toml's readme) the build fails, and the step says so.
    (source / "README.md").unlink()
    shutil.rmtree(tmp_path / "sdist")
    assert not module.check_sdist(tmp_path).ok
