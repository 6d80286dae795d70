#!/usr/bin/env bash
# index-stores.sh — writes DIR/roots.index, the name hashes of a snapshot directory's roots, so that pinctl reads
# only the roots a chain can reach (docs/platform-stores.md). scripts/build-stores.sh writes it with every snapshot;
# this indexes one built before, or a copy (scripts/package-deb.sh indexes the package's).
#   scripts/index-stores.sh [--force] DIR      --force replaces an index DIR has
set -euo pipefail
exec python3 "$(dirname "$0")/index_stores.py" "$@"
