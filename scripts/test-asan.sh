#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and LeakSanitizer, including the built pinctl that the end-to-end
# tests run. Its own scratch path (.build-asan) keeps the instrumented build apart from the normal one; the fuzz
# targets are built in it too (scripts/lib/instrumented-build.sh), for scripts/fuzz.sh. README's test command.
# Extra arguments go to `swift test`, e.g. scripts/test-asan.sh --filter CheckCommandTests
# Leaks found inside libcrypto show only its first frames: add ASAN_OPTIONS=fast_unwind_on_malloc=0 for the whole
# stack (much slower), or run the release binary under valgrind --leak-check=full.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

source scripts/lib/instrumented-build.sh
swift test "${instrumented[@]}" "$@"
