"""The supported jaxlib range (JEP 9419): jaxlib is a separate wheel with
its own version, checked when jaxtyped is imported.

``check_jaxlib_version`` must accept exactly the versions the ``jaxlib``
requirement in ``pyproject.toml`` accepts, and reject the others with a
message that names the installed version, the supported range and the fix.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

import jaxlib.version
import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from jaxtyped._src.runtime import xla

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def jaxlib_requirement() -> Requirement:
    """The ``jaxlib`` entry of the project's runtime dependencies."""
    with PYPROJECT.open("rb") as f:
        project = tomllib.load(f)["project"]
    dependencies: list[str] = project["dependencies"]
    matches = [Requirement(d) for d in dependencies if Requirement(d).name == "jaxlib"]
    assert len(matches) == 1, dependencies
    return matches[0]


def show(version: tuple[int, ...]) -> str:
    return ".".join(str(v) for v in version)


def accepts(version: str) -> bool:
    try:
        xla.check_jaxlib_version(version)
    except ImportError:
        return False
    return True


# === the check ===


def test_installed_jaxlib_is_supported() -> None:
    installed = jaxlib.version.__version__
    assert xla.jaxlib_version() == installed
    xla.check_jaxlib_version(installed)
    assert Version(installed) in jaxlib_requirement().specifier


@pytest.mark.parametrize("version", ["0.10.2", "0.8.3", "0.9.2", "0.10.0"])
def test_supported_versions_pass(version: str) -> None:
    xla.check_jaxlib_version(version)  # no exception


@pytest.mark.parametrize("version", ["0.7.0", "0.11.0", "0.8.2", "1.0.0"])
def test_unsupported_versions_raise_import_error_with_the_fix(version: str) -> None:
    with pytest.raises(ImportError) as info:
        xla.check_jaxlib_version(version)
    message = str(info.value)
    assert f"jaxlib {version} is installed" in message
    supported = f">={show(xla.MIN_JAXLIB)},<{show(xla.MAX_JAXLIB_EXCLUSIVE[:2])}"
    assert supported in message  # the supported range
    assert f"pip install 'jaxlib{supported}'" in message  # the fix, copy-pasteable


def test_unparseable_version_is_rejected() -> None:
    with pytest.raises(ImportError, match="garbage"):
        xla.check_jaxlib_version("garbage")


# === agreement with pyproject.toml ===


def test_range_constants_agree_with_pyproject() -> None:
    specifier = jaxlib_requirement().specifier
    bounds = {s.operator: s.version for s in specifier}
    assert set(bounds) == {">=", "<"}, specifier
    assert Version(bounds[">="]) == Version(show(xla.MIN_JAXLIB))
    assert Version(bounds["<"]) == Version(show(xla.MAX_JAXLIB_EXCLUSIVE))


RELEASES = [
    "0.7.0", "0.8.0", "0.8.2", "0.8.3", "0.8.4", "0.9", "0.9.0", "0.9.2", "0.10.0",
    "0.10.2", "0.10.99", "0.11.0", "0.11.1", "0.12.0", "1.0.0", "0.10.2.post1",
    "0.8.2.post1",
]


@pytest.mark.parametrize("version", RELEASES)
def test_check_agrees_with_the_pip_requirement(version: str) -> None:
    specifier: SpecifierSet = jaxlib_requirement().specifier
    assert accepts(version) == specifier.contains(version, prereleases=True), version


@pytest.mark.parametrize("version", ["0.8.2rc1", "0.8.3rc1"])
def test_prereleases_below_the_range_are_rejected(version: str) -> None:
    specifier: SpecifierSet = jaxlib_requirement().specifier
    assert not specifier.contains(version, prereleases=True)
    assert not accepts(version)


def test_two_part_version_at_the_upper_bound_is_rejected() -> None:
    specifier: SpecifierSet = jaxlib_requirement().specifier
    assert not specifier.contains("0.11", prereleases=True)
    assert not accepts("0.11")


@pytest.mark.parametrize("version", ["0.11.0rc1", "0.10.2.dev20260101", "0.10.3rc2"])
def test_prereleases_inside_or_above_the_range(version: str) -> None:
    specifier: SpecifierSet = jaxlib_requirement().specifier
    assert accepts(version) == specifier.contains(version, prereleases=True), version


# === at import time ===


def test_import_fails_with_an_unsupported_jaxlib() -> None:
    """The check runs when jaxtyped is imported (JEP 9419), before any
    jaxlib API is touched."""
    code = "import jaxlib.version as v; v.__version__ = '0.7.0'; import jaxtyped"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "ImportError: jaxtyped requires jaxlib" in result.stderr
    assert "jaxlib 0.7.0 is installed" in result.stderr
    assert "pip install" in result.stderr
