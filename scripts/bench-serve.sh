#!/usr/bin/env bash
# Throughput and memory of pinctl serve: 200 concurrent probes of one loopback target for 20 s.
#   - the target: openssl s_server on 127.0.0.1 presenting certs/libraries/ (ECDSA P-256 leaf + intermediate);
#   - the exporter: a release pinctl serve, --max-probes 200 (MAX_PROBES), a policy file of two apps;
#   - the load: wrk with 200 connections, each sending GET /probe?target=… again as soon as it is answered;
#   - measured: probes per second (wrk's requests/s; non-2xx answers are counted apart), latency, and the
#     exporter's resident memory (VmRSS sampled every 0.2 s, and the kernel's high-water mark VmHWM).
# Usage: scripts/bench-serve.sh [PINCTL]  (default: builds .build-release/release/pinctl); DURATION=20 CONNECTIONS=200.
# Needs wrk (apt-get install wrk) and openssl. Everything it starts is stopped on exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${DURATION:-20}
connections=${CONNECTIONS:-200}
max_probes=${MAX_PROBES:-200}
. "$root/scripts/lib/serve-binary.sh"
choose_serve_pinctl "$@"
command -v wrk >/dev/null || { echo "bench-serve: wrk is not installed (apt-get install wrk)" >&2; exit 1; }

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
libs=certs/libraries
openssl s_server -accept "127.0.0.1:$port" -cert $libs/leaf.pem -key $libs/leaf.key \
    -cert_chain $libs/intermediate-ca.pem -www -quiet </dev/null >/dev/null 2>&1 &
pids+=($!)
pin() { grep "^$1 " $libs/spki-pins.txt | cut -d' ' -f2; }
cat > "$work/pinctl.yaml" <<YAML
version: 1
anchors: { ca-files: [$root/$libs/root-ca.pem] }
targets: ["127.0.0.1:$port"]
apps:
  - name: okhttp-sdk
    library: okhttp
    policy: { pins: { "**.example.com": [$(pin root-ca.pem)] } }
  - name: ios-trustkit
    library: trustkit
    policy:
      domains:
        api.example.com:
          publicKeyHashes: [$(pin leaf.pem | cut -c8-), $(pin leaf-other-intermediate.pem | cut -c8-)]
YAML
"$pinctl" serve --config "$work/pinctl.yaml" --listen 127.0.0.1:0 --max-probes "$max_probes" --log-level notice \
    2>"$work/serve.log" &
serve_pid=$!
pids+=("$serve_pid")
for _ in $(seq 100); do grep -q "serving /probe" "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
exporter=$(grep -o 'on 127\.0\.0\.1:[0-9]*' "$work/serve.log" | head -n 1 | cut -d' ' -f2)
url="http://$exporter/probe?target=127.0.0.1:$port&servername=api.example.com"
curl -fsS "$url" | grep -q '^probe_success 1' || { echo "bench-serve: a single probe did not succeed" >&2; exit 1; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$serve_pid/status"; }
idle=$(rss_kib)

( peak=0; while kill -0 "$serve_pid" 2>/dev/null; do
      now=$(rss_kib 2>/dev/null || echo 0); [ "${now:-0}" -gt "$peak" ] && peak=$now; echo "$peak" > "$work/peak"
      sleep 0.2
  done ) &
sampler=$!
pids+=("$sampler")

echo "\$ wrk -t2 -c$connections -d${duration}s --latency '$url'   # pinctl serve --max-probes $max_probes"
wrk -t2 -c"$connections" -d"${duration}s" --timeout 10s --latency "$url" | tee "$work/wrk.txt"
sampled=$(cat "$work/peak")
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$serve_pid/status")
threads=$(awk '/^Threads/ {print $2}' "/proc/$serve_pid/status")
after=$(rss_kib)
curl -fsS "http://$exporter/metrics" \
    | grep -E '^pinctl_exporter_(probes_total|requests_refused_total\{reason="busy"\}|probes_in_flight_peak)' || true
echo "exporter RSS: idle $((idle / 1024)) MiB, peak sampled under load $((sampled / 1024)) MiB, high-water mark" \
    "$((hwm / 1024)) MiB, after the run $((after / 1024)) MiB; $threads threads"
