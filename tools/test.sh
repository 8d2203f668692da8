#!/usr/bin/env bash
# Run jaxtyped's quality gates: bash tools/test.sh [GATE ...]
#
# Gates, in order (all of them when none is named):
#   pytest        pytest -n 2
#   pytest-debug  the same with JAXTYPED_DEBUG=1, every beartype warning an error
#   layers        python tools/check_layers.py
#   typecheck     python typecheck/run.py: mypy (mypy.ini) and pyright
#                 (pyrightconfig.json), strict, side by side over src/, tests/ and
#                 typing/; src/ and tests/ must have no diagnostic at all, typing/
#                 exactly the expected ones; then the typing corpus
#   docs          sphinx-build -W --keep-going -j auto -b html docs docs/_build/html
#   api-types     python tools/check_api_types.py: the built wheel holds py.typed
#                 and every .pyi; pyright --verifytypes on the installed wheel
#                 at 100%; no Any in public results and parameters with Any as
#                 in tools/public_any_params.txt (tools/check_public_types.py);
#                 mypy.stubtest on every .pyi (stubs/README.md), no allowlist
#   jaxlib-range  bash tools/jaxlib_range.sh: the import-time check refuses a real
#                 unsupported jaxlib; the smoke subset named there passes on the
#                 oldest supported jaxlib (venvs cached under ~/.cache; needs PyPI
#                 on first use: they are made in the background while the gates
#                 before this one run)
# Named only (not in the default list, because typecheck runs the same
# checkers with the same configurations over the same files):
#   mypy          mypy (strict, mypy.ini) over src/ and tests/
#   pyright       pyright (strict, pyrightconfig.json) over src/ and tests/
# Every gate runs even after one fails; the exit status is 1 if any failed.
# When docs comes after typecheck, it runs beside it (its output comes at its turn).
#
# The pytest gates share one persistent compilation cache (jaxtyped's and the
# JAX oracle's, tests/conftest.py) and the JAX oracle's case-table results
# (tests/support/oracle_store.py), in a directory made for this run and
# removed at its end: the debug-mode run loads what the first run compiled
# and JAX's answers it computed.
#
# Environment: set-up is in tools/_setup.sh (creates .venv and installs on
# first use). JAXTYPED_VENV=/path/to/venv uses an existing venv untouched;
# PYTEST_WORKERS overrides the 2 xdist workers; JAXTYPED_TEST_CACHE_DIR=DIR
# uses (and keeps) DIR for the caches.

set -uo pipefail

ALL_GATES=(pytest pytest-debug layers typecheck docs api-types jaxlib-range)

gate_pytest() { python -m pytest -n "${PYTEST_WORKERS:-2}"; }
gate_pytest-debug() {
    JAXTYPED_DEBUG=1 python -m pytest -n "${PYTEST_WORKERS:-2}" \
        -W error::beartype.roar.BeartypeWarning
}
gate_mypy() { python -m mypy --config-file mypy.ini src tests; }
gate_pyright() { python -m pyright --project pyrightconfig.json --pythonpath "$(command -v python)" src tests; }
gate_layers() { python tools/check_layers.py; }
gate_typecheck() { python typecheck/run.py && python tools/typing_corpus.py --check --docs; }
gate_docs() { python -m sphinx -W --keep-going -j auto -b html docs docs/_build/html; }
gate_api-types() { python tools/check_api_types.py; }
gate_jaxlib-range() {
    if [[ -n "${JAXLIB_RANGE_PREPARE_PID:-}" ]]; then
        wait "$JAXLIB_RANGE_PREPARE_PID" || { cat "$JT_RUN_DIR/jaxlib-range-prepare.log"; return 1; }
    fi
    bash tools/jaxlib_range.sh
}

start_run() {
    # The run's scratch directory (the shared caches), removed at exit.
    JT_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/jaxtyped-test.XXXXXX")" || return 1
    trap 'rm -rf "$JT_RUN_DIR"' EXIT
    export JAXTYPED_TEST_CACHE_DIR="${JAXTYPED_TEST_CACHE_DIR:-$JT_RUN_DIR/compile-cache}"
    # One bytecode cache for every Python process of the run (the pytest
    # workers, the processes tests start, the gates after), kept out of the
    # tree. Where the machine sets PYTHONDONTWRITEBYTECODE, each process
    # otherwise compiles every test module anew (pytest's assertion
    # rewriting: 15 s a worker) and, in debug mode, re-applies beartype's
    # import hook to the whole package (3 s of its 10 s import).
    export PYTHONPYCACHEPREFIX="$JT_RUN_DIR/pycache"
    unset PYTHONDONTWRITEBYTECODE
    local gate
    for gate in "$@"; do
        if [[ "$gate" == jaxlib-range ]]; then
            # Making its venvs waits on the network, not the CPU: overlap it with the gates before.
            bash tools/jaxlib_range.sh --prepare >"$JT_RUN_DIR/jaxlib-range-prepare.log" 2>&1 &
            JAXLIB_RANGE_PREPARE_PID=$!
        fi
    done
}

usage() {
    # The comment block at the top of this file.
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

now() { date +%s.%N 2>/dev/null || date +%s; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

main() {
    local gate
    for gate in "$@"; do
        if [[ "$gate" == -h || "$gate" == --help ]]; then usage; return 0; fi
        if ! declare -F "gate_$gate" >/dev/null; then
            echo "test.sh: unknown gate '$gate' (gates: ${ALL_GATES[*]})" >&2
            return 2
        fi
    done
    local gates=("$@")
    [[ $# -eq 0 ]] && gates=("${ALL_GATES[@]}")

    source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
    jt_setup || return 1
    cd "$JT_ROOT" || return 1
    echo "Using $(python --version) from $JT_VENV"
    start_run "${gates[@]}" || return 1

    local results=() failed=0 start status seconds docs_pid="" docs_ran=""
    for gate in "${gates[@]}"; do
        if [[ "$gate" == typecheck && -z "$docs_ran" && " ${gates[*]} " == *" docs "* ]]; then
            # docs runs beside typecheck, its output shown at its turn: sphinx
            # keeps about one core busy, and typecheck leaves one idle once
            # pyright is done and mypy goes on.
            (gate_docs >"$JT_RUN_DIR/docs.log" 2>&1; echo $? >"$JT_RUN_DIR/docs.status") &
            docs_pid=$!
        fi
        echo
        echo "==================== $gate ===================="
        start="$(now)"
        if [[ "$gate" == docs && -n "$docs_pid" ]]; then
            wait "$docs_pid"
            cat "$JT_RUN_DIR/docs.log"
            status="$(cat "$JT_RUN_DIR/docs.status")"
            echo "(docs ran beside typecheck: the time below is what it took after typecheck)"
        else
            "gate_$gate"
            status=$?
        fi
        [[ "$gate" == docs ]] && docs_ran=1
        seconds="$(elapsed "$start" "$(now)")"
        if [[ $status -eq 0 ]]; then
            results+=("$(printf '%-14s %-6s %8ss' "$gate" PASS "$seconds")")
        else
            results+=("$(printf '%-14s %-6s %8ss  (exit %d)' "$gate" FAIL "$seconds" "$status")")
            failed=1
        fi
        echo "---- $gate: $([[ $status -eq 0 ]] && echo PASS || echo FAIL) in ${seconds}s"
    done

    echo
    echo "==================== summary ===================="
    printf '%-14s %-6s %9s\n' gate result time
    printf '%s\n' "${results[@]}"
    return "$failed"
}

main "$@"
