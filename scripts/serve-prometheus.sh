#!/usr/bin/env bash
# pinctl serve under a real Prometheus (Debian's prometheus package), all on loopback:
#   1. two TLS servers (openssl s_server) for api.example.com: today's chain, and one whose leaf was re-keyed;
#   2. pinctl serve with a policy file of those two targets and two apps: okhttp-sdk pins the root's key (it survives
#      the re-key), ios-trustkit pins the leaf's key and a backup never deployed (it breaks);
#   3. Prometheus scraping /probe for both targets every second, relabelled as for the blackbox exporter;
#   4. its HTTP API queried until pinctl_probe_success shows 1 for the good target and 0 for the rotated one;
#   5. a device's TrustKit report of the re-keyed chain posted to /report, judged predicted;
#   6. the alerting rules pinctl ships (examples/prometheus/pinctl-alerts.yml, `for:` made 0s) loaded, until the
#      rotation's alert fires for the app it broke, and the field reports' alert for the report;
#   7. the fleet view at / as headless Chromium renders it, saved as a screenshot (FLEET_SCREENSHOT, default
#      .build/fleet.png).
# Every process it starts is stopped on exit, whatever happens, and checked to be gone.
# Usage: scripts/serve-prometheus.sh [PINCTL]   (default: builds and uses .build/debug/pinctl)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ $# -ge 1 ]; then
    pinctl=$1
else
    swift build --product pinctl 2>&1 | tail -n 1
    swift build --product pinctl-serve 2>&1 | tail -n 1   # what pinctl serve runs
    pinctl="$root/.build/debug/pinctl"
fi
for tool in prometheus chromium; do
    if ! command -v "$tool" >/dev/null; then
        echo "serve-prometheus: $tool is not installed (scripts/setup.sh --ci installs it)" >&2
        exit 1
    fi
done
screenshot=${FLEET_SCREENSHOT:-$root/.build/fleet.png}

work=$(mktemp -d)
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            echo "serve-prometheus: process $pid outlived its SIGTERM; killing it" >&2
            kill -9 "$pid" 2>/dev/null || true
            status=1
        fi
    done
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {  # SECONDS DESCRIPTION COMMAND...
    local seconds=$1 what=$2
    shift 2
    for _ in $(seq $((seconds * 10))); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.1
    done
    echo "serve-prometheus: $what did not happen within $seconds s" >&2
    return 1
}

libs=certs/libraries
good_port=$(free_port)
rotated_port=$(free_port)
openssl s_server -accept "127.0.0.1:$good_port" -cert $libs/leaf.pem -key $libs/leaf.key \
    -cert_chain $libs/intermediate-ca.pem -www -quiet </dev/null >/dev/null 2>&1 &
pids+=($!)
openssl s_server -accept "127.0.0.1:$rotated_port" -cert $libs/leaf-rekeyed.pem -key $libs/leaf-rekeyed.key \
    -cert_chain $libs/intermediate-ca.pem -www -quiet </dev/null >/dev/null 2>&1 &
pids+=($!)
for port in "$good_port" "$rotated_port"; do
    wait_for 10 "the TLS server on port $port" "$pinctl" chain "127.0.0.1:$port" --timeout 1 --format pem
done

pin() { grep "^$1 " $libs/spki-pins.txt | cut -d' ' -f2; }
cat > "$work/pinctl.yaml" <<YAML
version: 1
anchors: { ca-files: [$root/$libs/root-ca.pem] }
targets: ["127.0.0.1:$good_port", "127.0.0.1:$rotated_port"]
apps:
  - name: okhttp-sdk
    library: okhttp
    policy: { pins: { "**.example.com": [$(pin root-ca.pem)] } }
  - name: ios-trustkit
    versions: ["3.1"]
    library: trustkit
    policy:
      domains:
        api.example.com:
          publicKeyHashes: [$(pin leaf.pem | cut -c8-), $(pin leaf-other-intermediate.pem | cut -c8-)]
YAML

"$pinctl" serve --config "$work/pinctl.yaml" --listen 127.0.0.1:0 --at 2026-06-01T00:00:00Z 2>"$work/serve.log" &
serve_pid=$!
pids+=("$serve_pid")
wait_for 30 "pinctl serve listening" grep -q "serving /probe" "$work/serve.log"
exporter=$(grep -o 'on 127\.0\.0\.1:[0-9]*' "$work/serve.log" | head -n 1 | cut -d' ' -f2)
echo "== pinctl serve on $exporter; targets 127.0.0.1:$good_port (today's chain), 127.0.0.1:$rotated_port (re-keyed)"

# A device's TrustKit report of the re-keyed chain, as TrustKit's iOS reporter writes it (TSKPinFailureReport.m):
# pinctl rejects that chain for ios-trustkit too, so the report counts as predicted.
report_answer=$(python3 - "$exporter" "$libs/leaf-rekeyed-chain.pem" <<'PY'
import json, re, sys, urllib.request
pems = re.findall(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", open(sys.argv[2]).read(), re.S)
report = {
    "app-bundle-id": "com.example.App", "app-version": "3.1", "app-platform": "IOS", "app-platform-version": "17.2.0",
    "app-vendor-id": "6F1C4B0E-0D55-4B3A-9D43-5A3B1E0C7F21", "trustkit-version": "3.0.0",
    "hostname": "api.example.com", "port": 0, "noted-hostname": "api.example.com", "include-subdomains": False,
    "enforce-pinning": True, "date-time": "2026-06-01T00:00:00Z", "validated-certificate-chain": pems,
    "known-pins": [], "validation-result": 1, "known-pins-expiration-date": None,
}
request = urllib.request.Request("http://%s/report/ios-trustkit" % sys.argv[1], data=json.dumps(report).encode(),
                                 headers={"Content-Type": "application/json"})
print(urllib.request.urlopen(request, timeout=10).read().decode().strip())
PY
)
echo "$ curl -d @report.json 'http://$exporter/report/ios-trustkit'   # a TrustKit report of the re-keyed chain"
echo "$report_answer"
if [ "$report_answer" != "predicted: ios-trustkit rejects the reported chain (public-key-not-pinned)" ]; then
    echo "serve-prometheus: the report was not judged predicted" >&2
    exit 1
fi

prometheus_port=$(free_port)
# The alerting rules pinctl ships, each `for:` made 0s so that the rotation's alert fires within the run.
sed 's/^\( *for:\) .*/\1 0s/' examples/prometheus/pinctl-alerts.yml >"$work/pinctl-alerts.yml"
promtool check rules "$work/pinctl-alerts.yml" >/dev/null
cat > "$work/prometheus.yml" <<YAML
global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }
rule_files: ["$work/pinctl-alerts.yml"]
scrape_configs:
  - job_name: pinctl
    metrics_path: /probe
    params: { servername: [api.example.com] }
    static_configs:
      - targets: ["127.0.0.1:$good_port", "127.0.0.1:$rotated_port"]
    relabel_configs:
      - { source_labels: [__address__], target_label: __param_target }
      - { source_labels: [__param_target], target_label: instance }
      - { target_label: __address__, replacement: "$exporter" }
  - job_name: pinctl-exporter
    static_configs: [{ targets: ["$exporter"] }]
YAML
promtool check config "$work/prometheus.yml" >/dev/null
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
    --web.listen-address="127.0.0.1:$prometheus_port" --log.level=warn 2>"$work/prometheus.log" &
pids+=($!)
api="http://127.0.0.1:$prometheus_port/api/v1"
wait_for 30 "Prometheus answering" python3 -c "import urllib.request; urllib.request.urlopen('$api/status/buildinfo')"

# One line per series: instance, app ("-" for probe_success), reason (pinctl_verdict only), value.
query() {
    python3 - "$api" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
api, query = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(api + "/query?query=" + urllib.parse.quote(query), timeout=5) as answer:
    body = json.load(answer)
for series in body["data"]["result"]:
    labels = series["metric"]
    reason = [labels["reason"]] if "reason" in labels else []
    print(labels["instance"], labels.get("app", "-"), *reason, series["value"][1])
PY
}
expected=$(printf '%s\n' "127.0.0.1:$good_port ios-trustkit 1" "127.0.0.1:$good_port okhttp-sdk 1" \
    "127.0.0.1:$rotated_port ios-trustkit 0" "127.0.0.1:$rotated_port okhttp-sdk 1" | sort)
seen=""
for _ in $(seq 60); do
    seen=$(query 'pinctl_probe_success{job="pinctl"}' 2>/dev/null | sort || true)
    [ "$seen" = "$expected" ] && break
    sleep 1
done
echo "$ curl '$api/query?query=pinctl_probe_success'"
echo "$seen"
if [ "$seen" != "$expected" ]; then
    echo "serve-prometheus: expected" >&2
    echo "$expected" >&2
    echo "--- pinctl serve log" >&2; cat "$work/serve.log" >&2
    echo "--- prometheus log" >&2; cat "$work/prometheus.log" >&2
    exit 1
fi
overall=$(query 'probe_success{job="pinctl"}' | sort)
echo "$ curl '$api/query?query=probe_success'"
echo "$overall"
if [ "$overall" != "$(printf '%s\n' "127.0.0.1:$good_port - 1" "127.0.0.1:$rotated_port - 0" | sort)" ]; then
    echo "serve-prometheus: probe_success is not 1 for the good target and 0 for the rotated one" >&2
    exit 1
fi
reasons=$(query 'pinctl_verdict{job="pinctl"} == 0' | sort)
echo "$ curl '$api/query?query=pinctl_verdict == 0'"
echo "$reasons"

# The shipped rules fire: one line per firing alert of the name given (its host, else its instance).
alerts() {
    python3 - "$api" "$1" <<'PY'
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/alerts", timeout=5) as answer:
    body = json.load(answer)
for alert in body["data"]["alerts"]:
    labels = alert["labels"]
    if labels["alertname"] == sys.argv[2] and alert["state"] == "firing":
        print(labels.get("host", labels.get("instance")), labels["app"], labels["severity"], "--",
              alert["annotations"]["summary"])
PY
}
expect_alert() {
    local name=$1 expected=$2 fired=""
    for _ in $(seq 30); do
        fired=$(alerts "$name" 2>/dev/null || true)
        [ "$fired" = "$expected" ] && break
        sleep 1
    done
    echo "$ curl '$api/alerts'   # firing $name (examples/prometheus/pinctl-alerts.yml)"
    echo "$fired"
    if [ "$fired" != "$expected" ]; then
        echo "serve-prometheus: expected the alert: $expected" >&2
        echo "--- prometheus log" >&2; cat "$work/prometheus.log" >&2
        exit 1
    fi
}
# For the app the rotation broke, and only for it; and for the device's report.
expect_alert PinctlAppRejectsServedChain "127.0.0.1:$rotated_port ios-trustkit critical -- ios-trustkit rejects the \
chain 127.0.0.1:$rotated_port serves (public-key-not-pinned)"
expect_alert PinctlFieldReportsPredicted "api.example.com ios-trustkit critical -- devices running ios-trustkit fail \
to pin api.example.com, as pinctl predicted"

# The fleet view Prometheus's scrapes filled, as a browser shows it. --no-sandbox: Chromium refuses its sandbox as
# root, as CI runs.
mkdir -p "$(dirname "$screenshot")"
rm -f "$screenshot"
HOME="$work" timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$work/chromium" --window-size=1280,900 --screenshot="$screenshot" "http://$exporter/" \
    >"$work/chromium.log" 2>&1 || true
if [ ! -s "$screenshot" ]; then
    echo "serve-prometheus: headless Chromium wrote no screenshot of http://$exporter/" >&2
    cat "$work/chromium.log" >&2
    exit 1
fi
echo "== the fleet view at http://$exporter/, as Chromium renders it: $screenshot"

# The exporter drains and exits 0 on SIGTERM.
kill -TERM "$serve_pid"
status=0
wait "$serve_pid" || status=$?
if [ "$status" -ne 0 ]; then
    echo "serve-prometheus: pinctl serve exited $status on SIGTERM" >&2
    cat "$work/serve.log" >&2
    exit 1
fi
echo "== pinctl serve exited 0 on SIGTERM; Prometheus saw the rotation break ios-trustkit and not okhttp-sdk"
