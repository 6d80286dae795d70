#!/usr/bin/env bash
# pinctl serve against prometheus-blackbox-exporter (issue #22): the same loopback target, the same load, one run.
#   - the target: nginx on 127.0.0.1 when it is installed, else openssl s_server (both single-process here), each
#     presenting certs/libraries/ (ECDSA P-256 leaf + intermediate); the line "target:" says which;
#   - pinctl serve (release build): a policy file of one OkHttp app pinning the leaf, anchored at the fixture root;
#   - blackbox_exporter: its tcp prober with tls: true, verifying the chain against the same root (tls_config.ca_file)
#     for the same server name: a full handshake and a chain verification, as pinctl's probe has;
#   - the load: wrk -c8 (CONNECTIONS) on each exporter's /probe for DURATION seconds, ROUNDS times, pinctl and
#     blackbox alternating so that a neighbour's load falls on both alike;
#   - measured per exporter: successful probes/s (answers with probe_success 1, counted by wrk), CPU per probe
#     (utime+stime of the exporter's process from /proc/PID/stat over its runs ÷ its successful probes), and peak
#     RSS (the kernel's VmHWM at the end); then the three ratios pinctl/blackbox. The figures vary with the
#     machine's other load: compare the ratios of one run, not absolute figures across runs;
#   - the floor, in each round after the exporters: scripts/openssl-handshake-loop.c, a bare C client of this
#     machine's OpenSSL doing only a probe's TLS part (the same handshake and chain verification, CONNECTIONS
#     threads, no HTTP, no policy), and its CPU per handshake. What pinctl serve spends above it is pinctl's own;
#     blackbox_exporter, on Go's TLS, is not bound by it, and neither is pinctl, which has RSA and EC keys decoded by
#     OpenSSL's built-in key methods (Sources/OpenSSLWrapper/BuiltinKeyMethods.swift) where the floor does not.
# Usage: scripts/bench-exporter.sh [PINCTL]  (default: builds .build-release/release/pinctl); DURATION=10 ROUNDS=2
# CONNECTIONS=8 WARMUP=10 (seconds of the same load on each exporter before the first round, not counted: without
# it, blackbox's CPU per probe fell over a run's first rounds, 1.07 to 0.94 ms, while pinctl's stayed level).
# Needs wrk, openssl and prometheus-blackbox-exporter (scripts/setup.sh --bench installs them).
# No network beyond loopback; everything it starts is stopped, and its temporary directory removed, on exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${DURATION:-10}
rounds=${ROUNDS:-2}
connections=${CONNECTIONS:-8}
warmup=${WARMUP:-10}
[[ "$warmup" =~ ^[0-9]+$ ]] || { echo "bench-exporter: WARMUP=$warmup is not a whole number of seconds" >&2; exit 2; }
. "$root/scripts/lib/serve-binary.sh"
choose_serve_pinctl "$@"
for tool in wrk openssl prometheus-blackbox-exporter; do
    command -v $tool >/dev/null || {
        echo "bench-exporter: $tool is not installed (scripts/setup.sh --bench installs it)" >&2; exit 1
    }
done
compiler=$(command -v cc || command -v clang || true)
[ -n "$compiler" ] || { echo "bench-exporter: no C compiler (cc or clang) for the OpenSSL floor" >&2; exit 1; }

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
"$compiler" -O2 -o "$work/openssl-handshake-loop" "$root/scripts/openssl-handshake-loop.c" -lssl -lcrypto -lpthread

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {   # FILE PATTERN: until the log line is there (10 s at most)
    for _ in $(seq 100); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    echo "bench-exporter: no '$2' in $1:" >&2; cat "$1" >&2; exit 1
}
libs=$root/certs/libraries
port=$(free_port)
cat "$libs/leaf.pem" "$libs/intermediate-ca.pem" > "$work/chain.pem"
if command -v nginx >/dev/null; then
    mkdir -p "$work/nginx"
    cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;
    uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
    server {
        listen 127.0.0.1:$port ssl;
        ssl_certificate $work/chain.pem;
        ssl_certificate_key $libs/leaf.key;
        location / { return 204; }
    }
}
NGINX
    nginx -c "$work/nginx.conf" -p "$work/nginx" -e "$work/nginx/error.log" 2>"$work/target.log" &
    echo "target: nginx (1 worker) on 127.0.0.1:$port"
else
    openssl s_server -accept "127.0.0.1:$port" -cert "$libs/leaf.pem" -key "$libs/leaf.key" \
        -cert_chain "$libs/intermediate-ca.pem" -www -quiet </dev/null >/dev/null 2>"$work/target.log" &
    echo "target: openssl s_server on 127.0.0.1:$port (nginx is not installed)"
fi
target_pid=$!
pids+=("$target_pid")

leaf_pin=$(grep "^leaf.pem " "$libs/spki-pins.txt" | cut -d' ' -f2)
cat > "$work/pinctl.yaml" <<YAML
version: 1
anchors: { ca-files: [$libs/root-ca.pem] }
targets: ["127.0.0.1:$port"]
apps:
  - name: okhttp-leaf
    library: okhttp
    policy: { pins: { "api.example.com": [$leaf_pin] } }
YAML
"$pinctl" serve --config "$work/pinctl.yaml" --listen 127.0.0.1:0 --log-level notice 2>"$work/serve.log" &
pinctl_pid=$!
pids+=("$pinctl_pid")

cat > "$work/blackbox.yml" <<YAML
modules:
  tls:
    prober: tcp
    timeout: 5s
    tcp:
      tls: true
      tls_config:
        ca_file: $libs/root-ca.pem
        server_name: api.example.com
YAML
blackbox_port=$(free_port)
prometheus-blackbox-exporter --config.file="$work/blackbox.yml" --web.listen-address="127.0.0.1:$blackbox_port" \
    --log.level=warn 2>"$work/blackbox.log" &
blackbox_pid=$!
pids+=("$blackbox_pid")

wait_for "$work/serve.log" "serving /probe"
pinctl_address=$(grep -o 'on 127\.0\.0\.1:[0-9]*' "$work/serve.log" | head -n 1 | cut -d' ' -f2)
declare -A url pid
url[pinctl]="http://$pinctl_address/probe?target=127.0.0.1:$port&servername=api.example.com"
url[blackbox]="http://127.0.0.1:$blackbox_port/probe?module=tls&target=127.0.0.1:$port"
pid[pinctl]=$pinctl_pid pid[blackbox]=$blackbox_pid
for exporter in pinctl blackbox; do
    for _ in $(seq 100); do curl -fsS "${url[$exporter]}" >"$work/one.txt" 2>/dev/null && break; sleep 0.1; done
    grep -q '^probe_success 1' "$work/one.txt" || {
        echo "bench-exporter: a single probe of $exporter did not succeed:" >&2; cat "$work/one.txt" >&2; exit 1
    }
done

# wrk counts answers; this counts the ones whose probe succeeded, summed over wrk's threads.
cat > "$work/count.lua" <<'LUA'
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) ok = 0; failed = 0 end
function response(status, headers, body)
    if status == 200 and body:find("\nprobe_success 1", 1, true) then ok = ok + 1 else failed = failed + 1 end
end
function done(summary, latency, requests)
    local o, f = 0, 0
    for _, thread in ipairs(threads) do o = o + thread:get("ok"); f = f + thread:get("failed") end
    io.write(string.format("successful %d failed %d\n", o, f))
end
LUA

ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # utime + stime; field 2 (comm) has no space here
target_ticks() {   # the target's process and its children (nginx's worker)
    local total=0 process
    for process in "$target_pid" $(pgrep -P "$target_pid" || true); do total=$((total + $(cpu_ticks "$process"))); done
    echo "$total"
}
declare -A successful failed ticks_used round_ok round_ticks
successful[pinctl]=0 successful[blackbox]=0 failed[pinctl]=0 failed[blackbox]=0
ticks_used[pinctl]=0 ticks_used[blackbox]=0
if [ "$warmup" -gt 0 ]; then
    for exporter in pinctl blackbox; do
        wrk -t2 -c"$connections" -d"${warmup}s" --timeout 10s "${url[$exporter]}" >/dev/null
    done
    echo "warm-up: ${warmup} s of the same load on each exporter, not counted"
fi
target_before=$(target_ticks)
for round in $(seq "$rounds"); do
    for exporter in pinctl blackbox; do
        before=$(cpu_ticks "${pid[$exporter]}")
        wrk -t2 -c"$connections" -d"${duration}s" --timeout 10s -s "$work/count.lua" "${url[$exporter]}" \
            >"$work/wrk.txt"
        after=$(cpu_ticks "${pid[$exporter]}")
        read -r _ ok _ bad < <(grep '^successful' "$work/wrk.txt")
        successful[$exporter]=$((successful[$exporter] + ok))
        failed[$exporter]=$((failed[$exporter] + bad))
        ticks_used[$exporter]=$((ticks_used[$exporter] + after - before))
        round_ok[$exporter]=$ok round_ticks[$exporter]=$((after - before))
        printf 'round %d %-8s %6d successful probes, %d failed, %5.2f s of CPU\n' "$round" "$exporter" "$ok" "$bad" \
            "$(echo "($after - $before) / $ticks" | bc -l)"
    done
    # The ratios of this round alone: their spread over the rounds says how much of a difference is the machine's.
    printf 'round %d ratios: probes/s %.2f, CPU per probe %.2f\n' "$round" \
        "$(echo "${round_ok[pinctl]} / ${round_ok[blackbox]}" | bc -l)" \
        "$(echo "${round_ticks[pinctl]} * ${round_ok[blackbox]} / (${round_ticks[blackbox]} * ${round_ok[pinctl]})" | bc -l)"
    read -r _ ok _ bad _ cpu < <("$work/openssl-handshake-loop" 127.0.0.1 "$port" api.example.com "$libs/root-ca.pem" \
        "$connections" "$duration")
    [ -n "$ok" ] || { echo "bench-exporter: the OpenSSL floor (openssl-handshake-loop) printed no figures" >&2; exit 1; }
    [ "$bad" -eq 0 ] || { echo "bench-exporter: $bad of the floor's handshakes failed" >&2; exit 1; }
    floor_handshakes=$((${floor_handshakes:-0} + ok))
    floor_cpu=$(echo "${floor_cpu:-0} + $cpu" | bc -l)
    printf 'round %d %-8s %6d handshakes, %5.2f s of CPU\n' "$round" "floor" "$ok" "$cpu"
done
target_after=$(target_ticks)

seconds=$((rounds * duration))
declare -A rate cpu_ms rss_mib
for exporter in pinctl blackbox; do
    rate[$exporter]=$(echo "${successful[$exporter]} / $seconds" | bc -l)
    cpu_ms[$exporter]=$(echo "${ticks_used[$exporter]} * 1000 / $ticks / ${successful[$exporter]}" | bc -l)
    rss_mib[$exporter]=$(awk '/^VmHWM/ {print $2 / 1024}' "/proc/${pid[$exporter]}/status")
done
echo "target: $(echo "($target_after - $target_before) / $ticks / (2 * $seconds) * 100" | bc -l | cut -c1-4)% of" \
    "one core over the runs (a target near 100% would be the bottleneck, not the exporters)"
printf '%-24s %14s %14s %8s\n' "" "pinctl serve" "blackbox" "ratio"
row() {   # NAME FORMAT PINCTL BLACKBOX
    printf "%-24s %14s %14s %8.2f\n" "$1" "$(printf "$2" "$3")" "$(printf "$2" "$4")" "$(echo "$3 / $4" | bc -l)"
}
row "successful probes/s" "%.0f" "${rate[pinctl]}" "${rate[blackbox]}"
row "CPU per probe (ms)" "%.3f" "${cpu_ms[pinctl]}" "${cpu_ms[blackbox]}"
row "peak RSS (MiB)" "%.1f" "${rss_mib[pinctl]}" "${rss_mib[blackbox]}"
echo "(wrk -t2 -c$connections, $rounds × ${duration} s each, alternating; the issue wants ≥ 1.0, ≤ 1.0, ≤ 1.2)"
floor_ms=$(echo "$floor_cpu * 1000 / $floor_handshakes" | bc -l)
printf '%-24s %14.3f   pinctl serve %.2f, blackbox %.2f of it\n' "OpenSSL floor (ms)" "$floor_ms" \
    "$(echo "${cpu_ms[pinctl]} / $floor_ms" | bc -l)" "$(echo "${cpu_ms[blackbox]} / $floor_ms" | bc -l)"
echo "(the floor: CPU per handshake of $(openssl version | cut -d' ' -f1-2)" \
    "alone, handshake and chain verification, $connections threads, no HTTP)"
