# Sourced by the serve benchmarks (bench-serve.sh, bench-exporter.sh), after they set `root`.

# Sets `pinctl` to the binary to measure: the one given, else the release build README installs, made now in
# .build-release with pinctl-serve beside it (what `pinctl serve` execs).
choose_serve_pinctl() {
    if [ $# -ge 1 ]; then
        pinctl=$1
        return
    fi
    "$root/scripts/build-release.sh" --scratch-path "$root/.build-release" --product pinctl 2>&1 | tail -n 1
    "$root/scripts/build-release.sh" --scratch-path "$root/.build-release" --product pinctl-serve 2>&1 | tail -n 1
    pinctl="$root/.build-release/release/pinctl"
}
