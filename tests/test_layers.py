"""Tests for tools/check_layers.py: the real tree passes, synthetic violations are caught."""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "check_layers.py"

# A clean synthetic package: one module per layer, each importing downwards.
CLEAN_TREE: dict[str, str] = {
    "jaxtyped/__init__.py": "from jaxtyped._src.api import jit\nfrom jaxtyped import numpy\n",
    "jaxtyped/numpy.py": "from jaxtyped._src.numpy.core import add\n",
    "jaxtyped/_src/__init__.py": "",
    "jaxtyped/_src/errors.py": "import os\n",
    "jaxtyped/_src/util.py": "from jaxtyped._src.errors import E\n",
    "jaxtyped/_src/config.py": "from jaxtyped._src import util\n",
    "jaxtyped/_src/dtypes.py": "from . import util, config\n",
    "jaxtyped/_src/core/__init__.py": "",
    "jaxtyped/_src/core/avals.py": "from jaxtyped._src import dtypes\n",
    "jaxtyped/_src/core/jaxpr.py": "from .avals import A\nfrom ..errors import E\n",
    "jaxtyped/_src/interpreters/__init__.py": "",
    "jaxtyped/_src/interpreters/jvp.py": "from jaxtyped._src.core import jaxpr\n",
    "jaxtyped/_src/lowering.py": "import jaxtyped._src.interpreters.jvp\n",
    "jaxtyped/_src/runtime/__init__.py": "",
    "jaxtyped/_src/runtime/xla.py": "import jaxlib\nfrom jaxtyped._src import lowering\n",
    "jaxtyped/_src/lax/__init__.py": "",
    "jaxtyped/_src/lax/ops.py": "from jaxtyped._src.runtime import xla\n",
    "jaxtyped/_src/api.py": (
        "from typing import TYPE_CHECKING\n"
        "from jaxtyped._src.lax import ops\n"
        "if TYPE_CHECKING:\n"
        "    from jaxtyped._src.numpy.core import add\n"
    ),
    "jaxtyped/_src/numpy/__init__.py": "",
    # Same-rank import of api; api's import back is TYPE_CHECKING-only, so no cycle.
    "jaxtyped/_src/numpy/core.py": "from jaxtyped._src.api import jit\n",
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` under ``root/src`` and return that src directory."""
    src = root / "src"
    for relative, text in files.items():
        path = src / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return src


def run_check(src: Path | None = None) -> tuple[int, str]:
    """Run the checker as a script; return (exit status, stdout + stderr)."""
    args = [sys.executable, str(SCRIPT)] + ([] if src is None else ["--src", str(src)])
    done = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    return done.returncode, done.stdout + done.stderr


def violations_with(tmp_path: Path, changes: dict[str, str]) -> tuple[int, list[str]]:
    """Check CLEAN_TREE with ``changes`` applied; return (status, violation lines)."""
    code, out = run_check(write_tree(tmp_path, {**CLEAN_TREE, **changes}))
    return code, [line for line in out.splitlines() if not line.startswith("layer check:")]


def test_real_tree_passes() -> None:
    code, out = run_check()
    assert code == 0, out


def test_clean_synthetic_tree_passes(tmp_path: Path) -> None:
    code, lines = violations_with(tmp_path, {})
    assert (code, lines) == (0, [])


@pytest.mark.parametrize(
    ("relative", "text", "expected"),
    [
        pytest.param(
            "jaxtyped/_src/core/avals.py",
            "from jaxtyped._src.lax import ops\n",
            "avals.py:1: jaxtyped._src.core.avals (L1) imports jaxtyped._src.lax.ops (L4): upward import",
            id="upward",
        ),
        pytest.param(
            "jaxtyped/_src/util.py",
            "def f() -> None:\n    from jaxtyped._src.core import avals\n",
            "util.py:2: jaxtyped._src.util (L0.1) imports jaxtyped._src.core.avals (L1): upward import",
            id="upward-inside-function",
        ),
        pytest.param(
            "jaxtyped/_src/errors.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import config\n",
            "errors.py:3: jaxtyped._src.errors (L0) imports jaxtyped._src.config (L0.1): upward import",
            id="upward-type-checking",
        ),
        pytest.param(
            "jaxtyped/_src/core/jaxpr.py",
            "import jax.numpy as jnp\n",
            "jaxpr.py:1: jaxtyped._src.core.jaxpr (L1) imports jax.numpy (external): src/ must not import the real JAX",
            id="jax-in-src",
        ),
        pytest.param(
            "jaxtyped/numpy.py",
            "from jax import lax\n",
            "numpy.py:1: jaxtyped.numpy (public) imports jax (external): src/ must not import the real JAX",
            id="jax-in-public",
        ),
        pytest.param(
            "jaxtyped/_src/lax/ops.py",
            "from jaxlib import xla_client\n",
            "ops.py:1: jaxtyped._src.lax.ops (L4) imports jaxlib (external): only JAXLIB_IMPORTERS may import jaxlib",
            id="jaxlib-not-allowed",
        ),
        pytest.param(
            "jaxtyped/_src/lax/ops.py",
            "import jaxtyped.numpy\n",
            "ops.py:1: jaxtyped._src.lax.ops (L4) imports jaxtyped.numpy (public): _src must not import the public API",
            id="src-to-public",
        ),
        pytest.param(
            "jaxtyped/_src/api.py",
            "from jaxtyped import numpy\n",
            "api.py:1: jaxtyped._src.api (L5) imports jaxtyped.numpy (public): _src must not import the public API",
            id="src-to-public-from",
        ),
        pytest.param(
            "jaxtyped/_src/api.py",
            "import jaxtyped\n",
            "api.py:1: jaxtyped._src.api (L5) imports jaxtyped (public): _src must not import the public API",
            id="src-to-top-level",
        ),
        pytest.param(
            "jaxtyped/_src/gadgets.py",
            "",
            "gadgets.py:1: jaxtyped._src.gadgets is not in the layer table (add it to LAYERS)",
            id="unlisted",
        ),
    ],
)
def test_violation_is_reported(tmp_path: Path, relative: str, text: str, expected: str) -> None:
    code, lines = violations_with(tmp_path, {relative: text})
    assert code == 1
    assert any(line.endswith(expected) for line in lines), lines
    # An upward import may also close a cycle; nothing else may be reported.
    assert all(line.endswith(expected) or " import cycle: " in line for line in lines), lines


def test_same_layer_cycle_is_reported(tmp_path: Path) -> None:
    code, lines = violations_with(
        tmp_path,
        {
            "jaxtyped/_src/dtypes.py": "from jaxtyped._src import tree_util\n",
            "jaxtyped/_src/tree_util.py": "import os\n\nfrom jaxtyped._src.dtypes import f\n",
        },
    )
    assert code == 1
    assert len(lines) == 1, lines
    assert lines[0].endswith(
        "dtypes.py:1: jaxtyped._src.dtypes (L0.2) import cycle: "
        "jaxtyped._src.dtypes -> jaxtyped._src.tree_util -> jaxtyped._src.dtypes"
    ), lines


def test_deferred_import_breaks_no_cycle(tmp_path: Path) -> None:
    code, lines = violations_with(
        tmp_path,
        {
            "jaxtyped/_src/dtypes.py": "from jaxtyped._src import tree_util\n",
            "jaxtyped/_src/tree_util.py": "def f() -> None:\n    from jaxtyped._src import dtypes\n",
        },
    )
    assert (code, lines) == (0, [])


def test_unparsable_module_is_reported(tmp_path: Path) -> None:
    code, lines = violations_with(tmp_path, {"jaxtyped/_src/util.py": "def (\n"})
    assert code == 1
    assert any("cannot parse jaxtyped._src.util" in line for line in lines), lines
