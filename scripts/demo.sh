#!/usr/bin/env bash
# The main job on the embedded fixture PKI, offline: build pinctl, then evaluate certs/ in the three pinning
# modes, a pass and a rotation failure in each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

echo "== building pinctl"
swift build --product pinctl 2>&1 | tail -n 1
pinctl="$root/.build/debug/pinctl"
cd certs

# The fixture root stands in for the system store; the time is fixed so the demo never ages.
common=(--ca-file root-ca.pem --host pinning.test --at 2026-06-01T00:00:00Z)
run() {
    echo
    echo "\$ pinctl $*"
    set +e
    "$pinctl" "$@"
    local status=$?
    set -e
    echo "(exit $status)"
    return 0
}

echo
echo "== today: the server sends leaf.pem + intermediate-ca.pem; apps pin leaf.pem"
run verify --chain leaf-chain.pem "${common[@]}" --mode none
run verify --chain leaf-chain.pem "${common[@]}" --mode certificate --pins leaf.pem
run verify --chain leaf-chain.pem "${common[@]}" --mode publickey --pins pins/leaf.pin

echo
echo "== rotation: the server will send leaf-rekeyed.pem (a new key); apps still pin leaf.pem"
run verify --chain leaf-rekeyed.pem --chain intermediate-ca.pem "${common[@]}" --mode certificate --pins leaf.pem
run verify --chain leaf-rekeyed.pem --chain intermediate-ca.pem "${common[@]}" --mode publickey --pins pins/leaf.pin

echo
echo "== a backup pin on the intermediate lets the same rotation pass"
run verify --chain leaf-rekeyed.pem --chain intermediate-ca.pem "${common[@]}" --mode publickey \
    --pins pins/leaf.pin --pins pins/intermediate.pin
