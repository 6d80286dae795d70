#!/usr/bin/env bash
# The binaries the Debian package ships and reads, in the release build (.build-release/release): pinctl,
# pinctl-serve, and swift-argument-parser's generate-manual, which writes the manual pages from pinctl's definitions.
# scripts/package-deb.sh runs it first; nothing is rebuilt when nothing changed.
#
# (Run beside the suite under ASan in CI, at nice 19, it saved nothing: the suite's step grew by about what the build
# takes, from 717 s to 1174 s, as the suite keeps both processors busier than its one test at a time suggests.)
#
# generate-manual is a product of a dependency, so it builds in the same scratch path with the same flags, reusing
# the ArgumentParser that pinctl's build compiled (15 s). Its plugin, or a build of the checkout on its own, would
# compile ArgumentParser again (about a minute).
set -euo pipefail
cd "$(dirname "$0")/.."

build() {
    local log
    log=$(mktemp)
    if ! scripts/build-release.sh --scratch-path .build-release "$@" >"$log" 2>&1; then
        grep -A3 'error:' "$log" >&2 || tail -n 40 "$log" >&2
        echo "build-package-binaries.sh: the build of $* failed (the full log: $log)" >&2
        exit 1
    fi
    rm -f "$log"
}
echo "build-package-binaries.sh: building pinctl, pinctl-serve and generate-manual (release)" >&2
build --product pinctl
build --product pinctl-serve
build --product generate-manual
