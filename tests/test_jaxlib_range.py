"""What differs across the supported jaxlib range (issue 21, item 4).

The main suite runs on the newest jaxlib; ``tools/jaxlib_range.sh`` runs
this file (and a smoke subset of the suite) on the oldest supported one,
where the tests marked for it run instead of being skipped.

jaxlib 0.8.3 lacks the ``dce_sink`` FFI target that the lowering of ordered
effects inside loops and conditionals uses: there such a program must fail
with a clear JaxtypedNotImplementedError naming the jaxlib version, not
with XLA's bare "No FFI handler registered".
"""

import re
from pathlib import Path

import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import JaxtypedNotImplementedError
from jaxtyped._src.runtime import xla

HAS_SINK = xla.has_ffi_target("dce_sink")


def ordered_prints_in_a_loop(x: jt.Array) -> jt.Array:
    def body(i: jt.Array, c: jt.Array) -> jt.Array:
        jt.debug.print("step {i}", i=i, ordered=True)
        return c + 1.0

    return jt.lax.fori_loop(0, 2, body, x)


@pytest.mark.skipif(HAS_SINK, reason="this jaxlib has dce_sink: the program runs (tests/debug cover it)")
def test_ordered_effects_in_loops_need_dce_sink() -> None:
    with pytest.raises(JaxtypedNotImplementedError, match=rf"jaxlib {xla.jaxlib_version()} does not provide"):
        jt.jit(ordered_prints_in_a_loop)(jnp.zeros(()))


@pytest.mark.skipif(not HAS_SINK, reason="this jaxlib lacks dce_sink (the test above runs instead)")
def test_ordered_effects_in_loops_run(capfd: pytest.CaptureFixture[str]) -> None:
    out = jt.jit(ordered_prints_in_a_loop)(jnp.zeros(()))
    jt.block_until_ready(out)
    assert float(out) == 2.0
    assert capfd.readouterr().out == "step 0\nstep 1\n"


def test_compile_errors_name_their_cause() -> None:
    missing = xla.compile_error(RuntimeError("NOT_FOUND: No FFI handler registered for dce_sink on Host"), "module")
    assert isinstance(missing, JaxtypedNotImplementedError) and isinstance(missing, RuntimeError)
    assert f"jaxlib {xla.jaxlib_version()} does not provide" in str(missing)
    other = xla.compile_error(ValueError("bad op"), "module @m {}")
    assert type(other) is RuntimeError
    assert str(other).startswith("XLA could not compile the lowered module: bad op")


def _bash_array(script: str, name: str) -> list[str]:
    """The entries of the bash array ``NAME=( ... )`` in ``script`` (one per
    line; quoted entries keep their text up to the closing quote)."""
    match = re.search(rf"^{name}=\(\n(.*?)^\)", script, re.MULTILINE | re.DOTALL)
    assert match is not None, f"{name}=( ... ) not found"
    entries: list[str] = []
    for line in match.group(1).splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            entries.append(line.strip('"'))
    return entries


def test_the_smoke_subset_names_existing_tests() -> None:
    """tools/jaxlib_range.sh runs a stated subset on the oldest jaxlib (and,
    with the emitter-sensitive files, on the newest): every path in them
    exists, and every deselected test is in the subset and gives a reason."""
    root = Path(__file__).resolve().parent.parent
    script = (root / "tools" / "jaxlib_range.sh").read_text()
    smoke = _bash_array(script, "SMOKE")
    assert smoke and all((root / path.split("::")[0]).is_file() for path in smoke), smoke
    files = {path.split("::")[0] for path in smoke}
    for entry in _bash_array(script, "DESELECT"):
        node, _, reason = entry.partition("  ")
        assert node.split("::")[0] in files and reason.strip(), entry
    assert "tests/test_jaxlib_range.py" in files and "tests/test_versioning.py" in files
    emitter_sensitive = _bash_array(script, "EMITTER_SENSITIVE")
    assert emitter_sensitive and all((root / path).is_file() for path in emitter_sensitive), emitter_sensitive
