#!/usr/bin/env bash
# Makes a venv with colour-science (PyPI) in the shared cache, then writes the fixture .cube
# files with it (tests/looks/colour-science-cubes.py says which and why). Not part of make test:
# the files it writes are committed.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${LOOKS_VENV:-/var/cache/backdrop-looks/venv}
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import colour' 2>/dev/null; then
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q colour-science
fi
"$venv/bin/python" tests/looks/colour-science-cubes.py Tests/LooksTests/Fixtures
