#!/usr/bin/env bash
# The supported jaxlib range, tested (issue 21, item 4; JEP 9419):
#   bash tools/jaxlib_range.sh            (or: bash tools/test.sh jaxlib-range)
#
# The main suite runs on the newest jaxlib (.venv). This gate runs on the
# oldest supported one, the lower bound of the "jaxlib>=..." requirement in
# pyproject.toml (MIN_JAXLIB in src/jaxtyped/_src/runtime/xla.py), and on
# one older, unsupported release:
#   1. import-check: with the real jaxlib $JAXLIB_UNSUPPORTED installed,
#      "import jaxtyped" must fail with the ImportError that names the
#      installed version, the supported range and the pip command;
#   2. oldest: with jaxlib at the lower bound, the import succeeds and the
#      smoke subset of the test suite below passes, compared against the
#      JAX of the same version (the oracle must match the jaxlib);
#   3. newest: the smoke subset and the tests whose answers depend on XLA's
#      CPU emitters (EMITTER_SENSITIVE) pass on the jaxlib of the venv that
#      runs the other gates, compiled with XLA's default code generation.
# The source is used from src/ (PYTHONPATH), nothing is installed into .venv.
#
# Each jaxlib gets a venv of its own under $JAXLIB_RANGE_CACHE (default
# ~/.cache/jaxtyped-jaxlib-range), created once (needs PyPI) and reused;
# "bash tools/jaxlib_range.sh --prepare" only makes them (tools/test.sh
# runs that in the background while the other gates run). The smoke run's
# compilation caches (tests/conftest.py) go under $JAXTYPED_TEST_CACHE_DIR
# when it is set (tools/test.sh's, removed after the run), else under the
# venvs' cache.
# Both runs compile with XLA's default code generation, where the main suite
# uses optimisation level 1 and the classic emitters (tests/conftest.py):
# this gate runs the oracle comparisons as users compile, at both ends of
# the range.
# Environment: JAXLIB_UNSUPPORTED (default 0.7.2), JAXLIB_OLDEST (default:
# read from pyproject.toml), PYTEST_WORKERS (default 2), PYTHON (python3),
# NEWEST_PYTHON (the python on PATH: tools/test.sh puts .venv's first).

set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${JAXLIB_RANGE_CACHE:-$HOME/.cache/jaxtyped-jaxlib-range}"
PYTHON="${PYTHON:-python3}"
UNSUPPORTED="${JAXLIB_UNSUPPORTED:-0.7.2}"

# The lower and upper bound of the jaxlib requirement, e.g. "0.8.3 0.11".
read -r LOWER UPPER < <(
    "$PYTHON" - "$ROOT/pyproject.toml" <<'EOF'
import re, sys, tomllib
deps = tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]
spec = next(d for d in deps if re.match(r"^jaxlib\b", d))
print(re.search(r">=\s*([\d.]+)", spec).group(1), re.search(r"<\s*([\d.]+)", spec).group(1))
EOF
)
OLDEST="${JAXLIB_OLDEST:-$LOWER}"

# The smoke subset run on the oldest jaxlib, one or two files per layer,
# each compared with JAX $OLDEST (~90 s on 2 cores; the venvs, once made,
# are reused: making them takes ~3 min, mostly waiting on the network):
SMOKE=(
    # the version check and what differs across the range
    tests/test_versioning.py
    tests/test_jaxlib_range.py
    # core: effects in jaxprs
    tests/core/test_effects.py
    # jit, the runtime and lowering: compiled calls, device arrays, donation,
    # the persistent compilation cache (serialized executables), every
    # primitive lowered and compiled, lax arithmetic lowered
    tests/test_jit.py
    tests/test_jit_compiled_calls.py
    tests/test_device_arrays.py
    tests/test_persistent_cache.py
    tests/lowering/test_every_primitive_lowers.py
    tests/lax/test_lower_arithmetic.py
    # grad, jvp, vmap and their compositions
    tests/api/test_transform_composition.py
    # jax.numpy (indexing, gather/scatter)
    tests/numpy/test_jnp_indexing.py
    # random: keys, key data, samplers
    tests/random/test_random_keys.py
    # linalg: LAPACK kernels of this jaxlib
    tests/lax/test_lax_linalg_cholesky.py
    # control flow
    tests/test_control_flow_programs.py
    # refs, host callbacks, ordered effects, the FFI
    tests/state/test_refs_transforms.py
    tests/debug/test_callbacks.py
    tests/debug/test_ordered_effects.py
    tests/ffi/test_ffi.py
    # sharding: SPMD partitioning, several processes
    tests/sharding/test_sharded_lowering.py
    tests/sharding/test_distributed.py
)
# Files, not directories. Left out: tests that compare printed jaxprs or
# reprs with JAX 0.10's (tests/sharding/test_shard_map_jaxpr.py,
# tests/sharding/test_devices_and_shardings.py), and files whose oracle
# differs on JAX 0.8.3 in many cases (tests/lax/test_lax_table.py uses
# jax.lax names newer than 0.8.3; tests/numpy/test_jnp_promotion.py,
# tests/lax/test_lax_linalg_lu_qr.py and tests/sharding/test_shard_map.py
# fail on JAX 0.8.3's answers); the rest of the suite is left out for time.
# JAX 0.8.3 (the oracle) warns whenever a Mesh is made without axis_types;
# the suite turns warnings into errors, so that one warning is ignored.
# Deselected on the oldest jaxlib, each with its reason. All but the last
# group are differences of the oracle: JAX $OLDEST answers differently from
# JAX 0.10, which jaxtyped follows (the jaxtyped side of each passes).
DESELECT=(
    "tests/sharding/test_sharded_lowering.py::test_compiled_program_is_partitioned_and_runs_sharded  JAX 0.8.3 prints NamedSharding differently (PartitionSpec(...) for P(...), axis_types)"
    "tests/state/test_refs_transforms.py::test_refs_under_transformations_match_jax[reverse_mode_of_reads_accumulates]  JAX 0.8.3 raises a cotangent shape error"
    "tests/state/test_refs_transforms.py::test_refs_under_transformations_match_jax[vmap_of_internal_refs]  JAX 0.8.3 raises 'axis 1 is out of bounds'"
    "tests/debug/test_callbacks.py::test_printed_equations_as_jax  JAX 0.8.3 prints callback equations differently"
    "tests/random/test_random_keys.py::test_key_dtype_names_the_key_arrays_dtype  jax.random.key_dtype is newer than JAX 0.8.3"
    "tests/random/test_random_keys.py::test_key_dtype_of_another_impl  jax.random.key_dtype is newer than JAX 0.8.3"
    # Not the oracle: jaxlib before 0.10 lacks the dce_sink FFI target that ordered
    # effects inside loops and conditionals lower to; there jaxtyped raises a
    # JaxtypedNotImplementedError naming the version (tests/test_jaxlib_range.py).
    "tests/debug/test_ordered_effects.py::test_ordered_prints_in_loops_and_nested_jits_as_jax  needs dce_sink (jaxlib >= 0.10)"
    "tests/debug/test_ordered_effects.py::test_ordered_prints_around_a_cond_without_results  needs dce_sink (jaxlib >= 0.10)"
    "tests/debug/test_ordered_effects.py::test_ordered_prints_around_a_cond_with_results  needs dce_sink (jaxlib >= 0.10)"
)

# Run on the newest jaxlib beside the smoke subset, where the main suite's
# classic emitters could hide a difference: test_lax_special, whose
# reduce_precision NaN the emitters answer differently (as they do the
# signed zeros of complex products in test_lower_arithmetic, in SMOKE), and
# the transcendental lowering tests, whose edge values XLA's kernels compute
# (they pass with either emitter today).
EMITTER_SENSITIVE=(
    tests/lax/test_lax_special.py
    tests/lax/test_lower_transcendental.py
)

venv_for() {
    # venv_for VERSION EXTRA...: the python of a venv with jaxlib==VERSION (created once).
    local version="$1"; shift
    local venv="$CACHE/jaxlib-$version" stamp
    stamp="$(printf '%s ' "$version" "$@" | sha256sum | cut -c1-16)"
    if [[ ! -f "$venv/.stamp" || "$(cat "$venv/.stamp")" != "$stamp" ]]; then
        echo "jaxlib-range: creating $venv (jaxlib==$version)" >&2
        rm -rf "$venv"
        "$PYTHON" -m venv "$venv" >&2 || return 1
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "jaxlib==$version" "$@" >&2 || return 1
        echo "$stamp" >"$venv/.stamp"
    fi
    echo "$venv/bin/python"
}

# The runtime dependencies of pyproject.toml other than jaxlib.
mapfile -t RUNTIME < <(
    "$PYTHON" - "$ROOT/pyproject.toml" <<'EOF'
import re, sys, tomllib
for d in tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]:
    if not re.match(r"^jaxlib\b", d):
        print(d)
EOF
)

# What the oldest venv holds besides jaxlib: its JAX as the oracle, the
# runtime dependencies and what the smoke subset's tests import.
OLDEST_EXTRAS=("jax==$OLDEST" "${RUNTIME[@]}" pytest pytest-xdist hypothesis packaging)

if [[ "${1:-}" == --prepare ]]; then
    # Only make the two venvs (side by side: the time is the network's), e.g.
    # in the background while other gates run (tools/test.sh does).
    venv_for "$UNSUPPORTED" "${RUNTIME[@]}" >/dev/null &
    unsupported_pid=$!
    venv_for "$OLDEST" "${OLDEST_EXTRAS[@]}" >/dev/null || exit 1
    wait "$unsupported_pid" || exit 1
    exit 0
fi

failed=0

echo "== import-check: jaxlib $UNSUPPORTED (unsupported) must be refused at import"
old_python="$(venv_for "$UNSUPPORTED" "${RUNTIME[@]}")" || exit 1
installed="$("$old_python" -c 'import jaxlib.version; print(jaxlib.version.__version__)')"
message="$(cd "$ROOT" && PYTHONPATH=src "$old_python" -c 'import jaxtyped' 2>&1)"
status=$?
expected="ImportError: jaxtyped requires jaxlib >=$LOWER,<$UPPER, but jaxlib $installed is installed. Install a supported version with: pip install 'jaxlib>=$LOWER,<$UPPER'"
if [[ $status -ne 0 && "$message" == *"$expected"* ]]; then
    echo "ok: $expected"
else
    echo "FAIL: import with jaxlib $installed exited $status; expected the line: $expected" >&2
    echo "$message" | tail -5 >&2
    failed=1
fi

echo "== oldest: jaxlib $OLDEST, smoke subset (${#SMOKE[@]} paths)"
oldest_python="$(venv_for "$OLDEST" "${OLDEST_EXTRAS[@]}")" || exit 1
(cd "$ROOT" && PYTHONPATH=src "$oldest_python" -c \
    'import jaxlib.version, jaxtyped; print("jaxtyped imports with jaxlib", jaxlib.version.__version__)') || failed=1
deselect_args=()
for entry in "${DESELECT[@]}"; do deselect_args+=(--deselect "${entry%% *}"); done
(
    cd "$ROOT" &&
    PYTHONPATH=src JAXTYPED_TEST_XLA_BACKEND_OPT=default JAXTYPED_TEST_CACHE_DIR="${JAXTYPED_TEST_CACHE_DIR:-$CACHE}/compile-cache-$OLDEST" \
        "$oldest_python" -m pytest -q -p no:cacheprovider -n "${PYTEST_WORKERS:-2}" \
        -W "ignore:The default axis_types will change:DeprecationWarning" \
        "${deselect_args[@]}" "${SMOKE[@]}"
) || failed=1

newest_python="${NEWEST_PYTHON:-python}"
echo "== newest: jaxlib $("$newest_python" -c 'import jaxlib.version; print(jaxlib.version.__version__)'), smoke subset and emitter-sensitive tests, XLA's default code generation"
(
    cd "$ROOT" &&
    JAXTYPED_TEST_XLA_BACKEND_OPT=default JAXTYPED_TEST_CACHE_DIR="${JAXTYPED_TEST_CACHE_DIR:-$CACHE}/compile-cache-newest" \
        "$newest_python" -m pytest -q -p no:cacheprovider -n "${PYTEST_WORKERS:-2}" "${SMOKE[@]}" "${EMITTER_SENSITIVE[@]}"
) || failed=1

exit "$failed"
