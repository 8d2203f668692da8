#!/usr/bin/env bash
# Run the jaxtyped demo: bash tools/demo.sh [ARGS ...] (passed to python -m jaxtyped.demo).
# Set-up (.venv creation, install, JAXTYPED_VENV override) is shared with
# tools/test.sh through tools/_setup.sh.

set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_setup.sh"
jt_setup || exit 1
cd "$JT_ROOT" || exit 1
if ! python -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("jaxtyped.demo") is None)'; then
    echo "demo.sh: the module jaxtyped.demo does not exist yet (src/jaxtyped/demo.py)" >&2
    exit 1
fi
exec python -m jaxtyped.demo "$@"
