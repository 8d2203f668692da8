# Shared set-up for tools/test.sh and tools/demo.sh; source it, then call jt_setup.
#
# jt_setup sets JT_ROOT (the repository root) and JT_VENV, and puts the venv
# first on PATH. By default the venv is $JT_ROOT/.venv: created with
# "${PYTHON:-python3} -m venv" when missing, then "pip install -e .[test,docs]"
# (pip upgraded first). The install is skipped while pyproject.toml is
# unchanged since the last successful one (stamp file inside the venv);
# JAXTYPED_REINSTALL=1 forces it.
#
# JAXTYPED_VENV=/path/to/venv uses an existing environment as it is: nothing
# is created or installed (e.g. JAXTYPED_VENV=/tmp/venv bash tools/test.sh layers).

jt_python_ok() {
    # Python >= 3.11, as pyproject.toml requires.
    "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

jt_create_venv() {
    local python="${PYTHON:-python3}"
    if ! command -v "$python" >/dev/null 2>&1 || ! jt_python_ok "$python"; then
        echo "setup: need Python >= 3.11 as '$python' (set PYTHON=/path/to/python3.11)" >&2
        return 1
    fi
    echo "setup: creating $JT_VENV with $("$python" --version 2>&1)"
    if ! "$python" -m venv "$JT_VENV"; then
        # Debian/Ubuntu ship venv's pip bootstrap separately.
        echo "setup: '$python -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2
        rm -rf "$JT_VENV"
        return 1
    fi
}

jt_install() {
    local py="$JT_VENV/bin/python" stamp="$JT_VENV/.jaxtyped-install-stamp" want
    want="$("$py" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' \
        "$JT_ROOT/pyproject.toml")" || return 1
    if [[ "${JAXTYPED_REINSTALL:-0}" != 1 && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        return 0
    fi
    echo "setup: installing jaxtyped[test,docs] into $JT_VENV"
    "$py" -m pip install --quiet --disable-pip-version-check --upgrade pip || return 1
    (cd "$JT_ROOT" && "$py" -m pip install --quiet --disable-pip-version-check -e ".[test,docs]") || return 1
    echo "$want" >"$stamp"
}

jt_setup() {
    JT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
    if [[ -n "${JAXTYPED_VENV:-}" ]]; then
        JT_VENV="$JAXTYPED_VENV"
        if [[ ! -x "$JT_VENV/bin/python" ]]; then
            echo "setup: JAXTYPED_VENV=$JT_VENV has no bin/python" >&2
            return 1
        fi
    else
        JT_VENV="$JT_ROOT/.venv"
        if [[ ! -x "$JT_VENV/bin/python" ]]; then
            jt_create_venv || return 1
        elif ! jt_python_ok "$JT_VENV/bin/python"; then
            echo "setup: $JT_VENV is broken or older than Python 3.11; delete it and rerun" >&2
            return 1
        fi
        jt_install || { echo "setup: pip install failed" >&2; return 1; }
    fi
    export VIRTUAL_ENV="$JT_VENV"
    export PATH="$JT_VENV/bin:$PATH"
    unset PYTHONHOME
    # pyright-python would otherwise query PyPI for a newer pyright on every run.
    export PYRIGHT_PYTHON_IGNORE_WARNINGS=1
}
