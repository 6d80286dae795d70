#!/usr/bin/env bash
# What splitting a target into edges costs: `check --all-addresses --key-types rsa,ecdsa --tls 1.2,1.3` (4 edges:
# one address × two key types × two versions) against a plain `check` of the same loopback target, as whole
# processes, interleaved, RUNS times each (default 30); prints the mean wall time of each and their ratio.
# The target: openssl s_server on 127.0.0.1 holding an RSA (-cert) and an ECDSA (-dcert) certificate.
# Usage: scripts/bench-edges.sh [PINCTL]  (default: builds .build/release/pinctl). Everything it starts stops on exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${RUNS:-30}
if [ $# -ge 1 ]; then
    pinctl=$1
else
    swift build -c release --product pinctl 2>&1 | tail -n 1
    pinctl="$root/.build/release/pinctl"
fi

pid=
cleanup() { [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; }
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
openssl s_server -accept "127.0.0.1:$port" -cert certs/leaf-rsa.pem -key certs/leaf-rsa.key \
    -cert_chain certs/intermediate-ca.pem -dcert certs/leaf.pem -dkey certs/leaf.key \
    -dcert_chain certs/intermediate-ca.pem -quiet </dev/null >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

common=(check "pinning.test:$port" --resolve "pinning.test:$port:127.0.0.1" --ca-file certs/root-ca.pem --quiet)
plain=("$pinctl" "${common[@]}")
edges=("$pinctl" "${common[@]}" --all-addresses --key-types rsa,ecdsa --tls 1.2,1.3)
"${plain[@]}" || { echo "bench-edges: the plain check failed" >&2; exit 1; }
"${edges[@]}" || { echo "bench-edges: the edges check failed" >&2; exit 1; }

now() { date +%s%N; }
plain_ns=0
edges_ns=0
for _ in $(seq "$runs"); do
    start=$(now); "${plain[@]}"; plain_ns=$((plain_ns + $(now) - start))
    start=$(now); "${edges[@]}"; edges_ns=$((edges_ns + $(now) - start))
done
python3 - "$runs" "$plain_ns" "$edges_ns" <<'PY'
import sys
runs, plain, edges = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
print(f"plain check                         {plain / runs / 1e6:7.1f} ms")
print(f"4 edges (rsa,ecdsa x TLS 1.2,1.3)   {edges / runs / 1e6:7.1f} ms")
print(f"ratio                               {edges / plain:7.2f}  ({runs} runs each, interleaved)")
PY
