#!/usr/bin/env bash
# The main job, live on loopback and offline, on the embedded fixture PKI (certs/), with no internet:
#   1. build pinctl and start a TLS server (openssl s_server) on 127.0.0.1 serving leaf + intermediate;
#   2. pinctl extract the pins the apps would ship, then pinctl check in the three pinning modes;
#   3. rotate the server to a rekeyed leaf and show which apps would break, and that a backup pin saves them;
#   4. pinctl verify the same rotation offline, before it ships;
#   5. the CI gate: one policy file of six apps (AFNetworking, Alamofire, TrustKit, ATS, OkHttp, Android NSC) checked
#      against the server, before and after a rotation that breaks one of them;
#   6. pinctl lint: which pin carries the load and what each rotation does; pinctl diagnose: a pin made wrong;
#      the Android app's pins read from its APK, and the rotation judged against what it ships;
#   7. when the team's store snapshot is beside the repository (../shared/stores, with real server chains in
#      ../shared/chains; the data is never committed), one real chain judged on Android and iOS versions.
# PINCTL_BINARY names a pinctl to run instead of building one. The server is stopped on exit, whatever happens.
# The fixture root stands in for the system trust store and --at fixes the time, so the demo gives the same verdicts
# every day.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

scripts/setup.sh
if [ -n "${PINCTL_BINARY:-}" ]; then
    # A pinctl already built or installed (CI's run of the Debian package's /usr/bin/pinctl): no build.
    pinctl=$PINCTL_BINARY
    echo "== using $pinctl ($("$pinctl" --version | head -n 1))"
else
    echo "== building pinctl"
    build_log=$(mktemp)
    if ! swift build --product pinctl >"$build_log" 2>&1; then
        # The compiler's own words: every error with the source lines it points at, else the end of the log.
        grep -A3 'error:' "$build_log" >&2 || tail -n 40 "$build_log" >&2
        echo "demo: the build failed (the full log: $build_log)" >&2
        exit 1
    fi
    tail -n 1 "$build_log"
    rm -f "$build_log"
    pinctl="$root/.build/debug/pinctl"
fi
work=$(mktemp -d)
server_pid=""
stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
    fi
}
trap 'stop_server; rm -rf "$work"' EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cd certs
start_server() {  # LEAF KEY [CHAIN]
    stop_server
    local chain=()
    [ $# -ge 3 ] && chain=(-cert_chain "$3")
    openssl s_server -accept "127.0.0.1:$port" -cert "$1" -key "$2" "${chain[@]}" -www -quiet \
        </dev/null >/dev/null 2>&1 &
    server_pid=$!
    for _ in $(seq 50); do  # wait until it accepts, at most 5 s
        if "$pinctl" chain "127.0.0.1:$port" --timeout 1 --format pem >/dev/null 2>&1; then return 0; fi
        sleep 0.1
    done
    echo "demo: the test server did not start on port $port" >&2
    exit 1
}

run() {
    echo
    echo "\$ pinctl $*"
    local status=0
    "$pinctl" "$@" || status=$?
    echo "(exit $status)"
}

common=(--ca-file root-ca.pem --at 2026-06-01T00:00:00Z)
target="localhost:$port"

echo
echo "== a server on $target sends leaf.pem + intermediate-ca.pem"
start_server leaf.pem leaf.key intermediate-ca.pem
run chain "$target" --ca-file root-ca.pem --at 2026-06-01T00:00:00Z
run extract "$target" --out "$work/pins" "${common[@]}"

echo
echo "== today's apps: the three pinning modes all connect"
run check "$target" "${common[@]}" --mode none
run check "$target" "${common[@]}" --mode certificate --pins "$work/pins/00-pinning.test.cer"
run check "$target" "${common[@]}" --mode publickey --pins "$work/pins/00-pinning.test.cer"

echo
echo "== rotation: the server now sends leaf-rekeyed.pem (a new key); apps that pinned only the leaf break"
start_server leaf-rekeyed.pem leaf-rekeyed.key intermediate-ca.pem
run check "$target" "${common[@]}" --mode certificate --pins "$work/pins/00-pinning.test.cer"
run check "$target" "${common[@]}" --mode publickey --pins "$work/pins/00-pinning.test.cer"
echo
echo "== apps that also pinned the intermediate (a backup pin) still connect"
run check "$target" "${common[@]}" --mode publickey --pins "$work/pins/00-pinning.test.cer" \
    --pins "$work/pins/01-pinctl-test-intermediate-ca.cer"
stop_server

echo
echo "== the same question offline, before the rotation ships: pinctl verify on the new chain"
run verify --chain leaf-rekeyed.pem --chain intermediate-ca.pem --host pinning.test "${common[@]}" \
    --mode publickey --pins pins/leaf.pin --quiet
run verify --chain leaf-rekeyed.pem --chain intermediate-ca.pem --host pinning.test "${common[@]}" \
    --mode publickey --pins pins/leaf.pin --pins pins/intermediate.pin --format json

echo
echo "== the CI gate: every shipped app of examples/pinctl.yaml, six libraries, against one server"
cd "$root"
start_server certs/libraries/leaf.pem certs/libraries/leaf.key certs/libraries/intermediate-ca.pem
gate=(check --config examples/pinctl.yaml "127.0.0.1:$port" --servername api.example.com --at 2026-06-01T00:00:00Z)
run "${gate[@]}"
echo
echo "== rotation: a new leaf key; the TrustKit app pinned the old key and a backup never deployed, and breaks"
start_server certs/libraries/leaf-rekeyed.pem certs/libraries/leaf-rekeyed.key certs/libraries/intermediate-ca.pem
run "${gate[@]}"
stop_server

echo
echo "== rotation safety: which pin carries the load, what each rotation does, and when the first break is due"
run lint --config examples/pinctl.yaml --chain certs/libraries/leaf-chain.pem --host api.example.com \
    --at 2026-06-01T00:00:00Z

echo
echo "== a pin that matches nothing: made from the whole certificate (a browser's fingerprint), not from its key"
fingerprint=$(openssl x509 -in certs/libraries/intermediate-ca.pem -noout -fingerprint -sha256 | cut -d= -f2)
run diagnose "$fingerprint" --chain certs/libraries/leaf-chain.pem --ca-file certs/libraries/root-ca.pem \
    --at 2026-06-01T00:00:00Z

echo
echo "== what the Android build really ships: its pins read from the APK itself (examples/android/app-release.apk)"
# The path as given: relative paths of a policy file are its folder's, and this one is written elsewhere.
apk="$root/examples/android/app-release.apk"
run config import "$apk" --name android-release
{ echo "apps:"; "$pinctl" config import "$apk" --name android-release; } >"$work/build.yaml"
run verify --config "$work/build.yaml" --chain certs/libraries/leaf-chain.pem --host api.example.com \
    --ca-file certs/libraries/root-ca.pem --at 2026-06-01T00:00:00Z
run verify --config "$work/build.yaml" --chain certs/libraries/leaf-rekeyed-chain.pem --host api.example.com \
    --ca-file certs/libraries/root-ca.pem --at 2026-06-01T00:00:00Z

echo
echo "== the devices apps run on: a real server's chain judged on each Android and iOS version's root store"
shared=$(cd "$root/.." && pwd)/shared
if [ -f "$shared/stores/FORMAT" ] && [ -f "$shared/chains/stackoverflow.com.pem" ]; then
    # stackoverflow.com's chain as the server presented it, ending at ISRG Root X1 (Let's Encrypt), at a time inside
    # its leaf's validity: untrusted where the store lacks that root.
    run stores --stores "$shared/stores" android@21-26 ios@15-26
    run verify --chain "$shared/chains/stackoverflow.com.pem" --host stackoverflow.com --at 2026-03-01T00:00:00Z \
        --stores "$shared/stores" --platform android@21-26 --platform ios@15-26
else
    echo "(skipped: no store snapshot at $shared/stores, or no real chains at $shared/chains: they are the team's"
    echo " data, not in the repository; scripts/build-stores.sh builds a snapshot, docs/platform-stores.md)"
fi
