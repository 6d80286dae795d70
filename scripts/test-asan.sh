#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and LeakSanitizer, including the built pinctl that the end-to-end
# tests run. Its own scratch path (.build-asan) keeps the instrumented build apart from the normal one.
# Extra arguments go to `swift test`, e.g. scripts/test-asan.sh --filter CheckCommandTests
# Leaks found inside libcrypto show only its first frames: add ASAN_OPTIONS=fast_unwind_on_malloc=0 for the whole
# stack (much slower), or run the release binary under valgrind --leak-check=full.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Exported, so the test process passes them on to every pinctl it starts (PinctlProcess copies the environment).
#   exitcode=23         a leak or memory error in pinctl must not pass for one of its exit codes (1 is "rejected")
#   handle_sigill=1     a Swift trap gets ASan's stack trace, since the Swift backtracer is off (below)
#   print_suppressions  off: a suppression that matches must print nothing on a stderr the tests read
# Options already in the environment come last, so they win.
export ASAN_OPTIONS="detect_leaks=1:exitcode=23:handle_sigill=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
suppressions="$root/scripts/lsan-suppressions.txt"
export LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The Swift backtracer reads other threads' stacks, which ASan reports as an overflow; the backtracer then hangs,
# and `swift test` with it.
export SWIFT_BACKTRACE=enable=no

# The release configuration at -Onone, with -enable-testing for the suites' @testable imports: in the debug
# configuration ArgumentParser validates every option group each time it reflects a command (#if DEBUG,
# ParsableArgumentsValidation.swift), which nesting multiplies: 0.8 of the 0.85 s of a pinctl run under ASan, most of
# the suite's time (450 s; now 157 s). -Onone keeps ASan's reports exact and the build as quick as a debug one (-O
# made it 496 s); what differs from a debug build is chiefly that #if DEBUG code (none of it ours) is left out.
swift test -c release -Xswiftc -Onone -Xswiftc -enable-testing --sanitize address --scratch-path .build-asan "$@"
