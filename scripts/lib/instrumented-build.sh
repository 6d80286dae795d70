# The one instrumented build (sourced, from the repository's root): the test suite under AddressSanitizer and
# LeakSanitizer (scripts/test-asan.sh, scripts/test-release.sh) and the libFuzzer targets (scripts/fuzz.sh) share
# its flags and its scratch path, so whichever runs second builds nothing. Sets `instrumented`, the `swift build` /
# `swift test` arguments, and exports PINCTL_FUZZ_RUNTIME, which puts the fuzz targets in the package (Package.swift).
#
# The release configuration at -Onone, with -enable-testing for the suites' @testable imports: in the debug
# configuration ArgumentParser validates every option group each time it reflects a command (#if DEBUG,
# ParsableArgumentsValidation.swift), which nesting multiplies: 0.8 of the 0.85 s of a pinctl run under ASan, most of
# the suite's time (450 s; now 157 s). -Onone keeps ASan's reports exact and the build as quick as a debug one (-O
# made it 496 s); what differs from a debug build is chiefly that #if DEBUG code (none of it ours) is left out.
# Coverage instrumentation everywhere (what `-sanitize=fuzzer` adds when it compiles) costs the suite little, and
# lets the fuzz targets link libFuzzer's runtime alone, with no second build of the package for them.

# Exported, so the test process passes them on to every pinctl it starts (PinctlProcess copies the environment).
#   exitcode=23         a leak or memory error in pinctl must not pass for one of its exit codes (1 is "rejected")
#   handle_sigill=1     a Swift trap gets ASan's stack trace, since the Swift backtracer is off (below)
#   print_suppressions  off: a suppression that matches must print nothing on a stderr the tests read
# Options already in the environment come last, so they win.
export ASAN_OPTIONS="detect_leaks=1:exitcode=23:handle_sigill=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
suppressions="$PWD/scripts/lsan-suppressions.txt"
export LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The Swift backtracer reads other threads' stacks, which ASan reports as an overflow; the backtracer then hangs,
# and `swift test` with it.
export SWIFT_BACKTRACE=enable=no
# The APKs the tests build (scripts/make-apk.sh), kept between runs: the suite and test-release.sh build the same ones.
export PINCTL_APK_CACHE="$PWD/.build/test-apks"

fuzz_runtime=$(find "$(dirname "$(readlink -f "$(command -v swift)")")/../lib/clang" \
    -path '*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a' 2>/dev/null | head -n 1)
if [ -z "$fuzz_runtime" ]; then
    echo "$(basename "$0"): the Swift toolchain has no libclang_rt.fuzzer_no_main-x86_64.a (lib/clang/*/lib/linux)" >&2
    exit 1
fi
export PINCTL_FUZZ_RUNTIME=$fuzz_runtime
coverage=edge,inline-8bit-counters,pc-table,trace-cmp
instrumented=(-c release -Xswiftc -Onone -Xswiftc -enable-testing --sanitize address --scratch-path .build-asan
    -Xswiftc "-sanitize-coverage=$coverage" -Xcc "-fsanitize-coverage=${coverage#edge,}")
