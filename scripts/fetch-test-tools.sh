#!/usr/bin/env bash
# fetch-test-tools.sh — what the test suite needs besides Debian's packages: the SARIF 2.1.0 JSON schema (from the
# sdist of PyPI's sarif-om, which ships it) in .build/test-tools/, and Python's jsonschema. Run once per machine;
# .ci/run runs it. Prints the schema's path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.build/test-tools"
schema="$dir/sarif-schema-2.1.0.json"
if [ ! -s "$schema" ]; then
    mkdir -p "$dir"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$work" "sarif-om==1.0.4" >&2
    tar -xzf "$work"/sarif_om-1.0.4.tar.gz -C "$work" sarif_om-1.0.4/sarif-2.1.0-rtm.4.json
    cp "$work/sarif_om-1.0.4/sarif-2.1.0-rtm.4.json" "$schema"
fi
python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install --quiet jsonschema >&2
echo "$schema"
