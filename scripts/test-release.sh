#!/usr/bin/env bash
# The end-to-end tests (pinctlTests) against pinctl as README installs it: the release build with the static
# standard library, linked by lld with packed relocations and the C++ runtime inside (Package.swift's
# releaseLinking), which the test builds do not exercise. The suites that run `pinctl serve` (the
# exporter's, and CommandAgreementTests, which compares serve's probe with check, verify and lint) need pinctl-serve
# beside pinctl and are left to the whole suite, which keeps this step to about two minutes.
# The tests run from the instrumented build the suite under ASan makes (scripts/test-asan.sh; built here if it is
# not there yet). Extra arguments go to `swift test`. With PINCTL_BINARY set (e.g.
# /usr/bin/pinctl from scripts/package-deb.sh's package), that binary is tested instead, serve's suites included,
# and no release build is made; PINCTL_TEST_INSTALLED tells InstalledStoresTests that the binary is installed, so
# that its snapshot copy (PREFIX/share/pinctl/stores, which the package carries) is the one to judge with.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

source scripts/lib/instrumented-build.sh
if [ -n "${PINCTL_BINARY:-}" ]; then
    # An installed pinctl (the Debian package's /usr/bin/pinctl): tested as it is, with the exporter beside it.
    echo "test-release.sh: testing $PINCTL_BINARY ($("$PINCTL_BINARY" --version | head -n 1))"
    PINCTL_TEST_INSTALLED=1 swift test "${instrumented[@]}" --filter pinctlTests "$@"
    exit
fi
scripts/build-release.sh --product pinctl --scratch-path .build-release 2>&1 | tail -n 1
PINCTL_BINARY="$root/.build-release/release/pinctl" \
    swift test "${instrumented[@]}" --filter pinctlTests \
        --skip 'pinctlTests\.(Serve[A-Za-z]*|CommandAgreement)Tests' "$@"
