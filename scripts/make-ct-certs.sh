#!/usr/bin/env bash
# make-ct-certs.sh — (re)create certs/ct/: leaves with embedded Signed Certificate Timestamps (RFC 6962) from test
# CT logs, and those logs as Apple's log list (log_list.json, schema v5), for Apple's Certificate Transparency policy
# (DESIGN §12). scripts/make_ct_certs.py issues them with the openssl CLI; Python only assembles RFC 6962's TLS
# structures.
#
# Dates are fixed, keys are fresh on every run. Everything is built and checked in a temp dir first: every chain
# verifies with `openssl verify`, the SCTs are where `openssl x509 -text` shows them, and `openssl s_client -ct`
# validates the SCTs of a leaf served by `openssl s_server` against the logs (signatures checked by OpenSSL, not by
# pinctl). Only then is certs/ct/ replaced and its section of certs/README.md rewritten in place.
#
# Usage: scripts/make-ct-certs.sh        (no arguments, runnable from anywhere)
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
DEST="$REPO_ROOT/certs/ct"
README="$REPO_ROOT/certs/README.md"
SECTION="## certs/ct/ (scripts/make-ct-certs.sh)"
# shellcheck source=lib/certs-section.sh
source "$SCRIPT_DIR/lib/certs-section.sh"

[[ -f "$README" ]] || { echo "make-ct-certs.sh: cannot locate the repository's certs/" >&2; exit 1; }
command -v openssl >/dev/null || { echo "make-ct-certs.sh: openssl not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "make-ct-certs.sh: python3 not found" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pinctl-make-ct.XXXXXX")"
SERVER_PID=
cleanup() {
    [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    rm -rf -- "$WORK"
}
trap cleanup EXIT
OUT="$WORK/ct"
mkdir -p "$OUT" "$WORK/work"
die() { echo "make-ct-certs.sh: FAIL: $*" >&2; exit 1; }

export OPENSSL_CONF=/dev/null
python3 "$SCRIPT_DIR/make_ct_certs.py" "$OUT" "$WORK/work"

# ---------------------------------------------------------------------------
# Self-checks, with the openssl CLI.
# ---------------------------------------------------------------------------
cd "$OUT"
NCHECK=0
ok() { NCHECK=$((NCHECK + 1)); }
AT_2026_06_01=1780272000
AT_2019_01_01=1546300800
for chain in *-chain.pem; do
    at=$AT_2026_06_01
    [[ $chain == leaf-2018-* ]] && at=$AT_2019_01_01
    out=$(openssl verify -x509_strict -auth_level 2 -attime "$at" -CAfile root.pem -untrusted "$chain" "$chain" 2>&1) \
        || die "openssl verify: $chain"$'\n'"$out"
    ok
done
count_scts() { openssl x509 -in "$1" -noout -text | grep -c "Signed Certificate Timestamp:" || true; }
for expect in leaf-2-scts:2 leaf-1-sct:1 leaf-no-scts:0 leaf-2-scts-one-log:2 leaf-365-days-3-scts:3 \
    leaf-unknown-log-after-list:3; do
    name=${expect%%:*}
    [[ $(count_scts "$name-chain.pem") == "${expect##*:}" ]] || die "$name: expected ${expect##*:} SCTs"
    ok
done

# OpenSSL validates the SCTs of a served leaf against the logs it is given (A, B and C); a tampered signature and a
# log it does not know are not valid. (The server takes two connections: the probe that it listens, and the client.)
served_status() {
    local chain=$1 port
    shift
    local -a extra=("$@")
    openssl x509 -in "$chain" -out "$WORK/served-leaf.pem"
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 20000))
        openssl s_server -quiet -accept "127.0.0.1:$port" -cert "$WORK/served-leaf.pem" -key leaf.key \
            -cert_chain "$chain" -naccept 2 ${extra[@]+"${extra[@]}"} >/dev/null 2>&1 &
        SERVER_PID=$!
        for _ in $(seq 50); do
            (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
            sleep 0.1
        done
        kill -0 "$SERVER_PID" 2>/dev/null && break
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=
    done
    [[ -n $SERVER_PID ]] || die "openssl s_server did not start for $chain"
    openssl s_client -connect "127.0.0.1:$port" -servername ct.test -attime $AT_2026_06_01 -CAfile root.pem -ct \
        -ctlogfile ct-logs.cnf \
        </dev/null 2>/dev/null | sed -n 's/^SCT validation status: //p' | sort | uniq -c | tr -s ' ' | sed 's/^ //'
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}
expect_status() {
    local chain=$1 expected=$2 got
    shift 2
    got=$(served_status "$chain" "$@" | paste -sd ';' -)
    [[ $got == "$expected" ]] || die "$chain: openssl s_client -ct says '$got', expected '$expected'"
    ok
}
expect_status leaf-2-scts-chain.pem "2 valid"
expect_status leaf-365-days-3-scts-chain.pem "3 valid"
expect_status leaf-bad-signature-chain.pem "1 invalid;1 valid"
expect_status leaf-unknown-log-after-list-chain.pem "1 unknown log;2 valid"
# SCTs in the TLS extension (TLS 1.2's ServerHello, where s_server's serverinfo puts them).
expect_status leaf-no-scts-chain.pem "2 valid" -serverinfo tls-scts-two-logs.serverinfo -tls1_2
expect_status leaf-no-scts-chain.pem "1 valid" -serverinfo tls-scts-one-log.serverinfo -tls1_2

# ---------------------------------------------------------------------------
# Catalogue: one line per file, as a section of certs/README.md.
# ---------------------------------------------------------------------------
catalogue() {
    cat <<'EOF'
## certs/ct/ (scripts/make-ct-certs.sh)

Made by `scripts/make-ct-certs.sh` (re-run it to regenerate; keys change, dates are fixed). Leaves with embedded SCTs (RFC 6962 §3.3) from test CT logs, for Apple's Certificate Transparency policy (DESIGN §12). CAs carry `O=pinctl CT`; every leaf is CN=ct.test, SAN DNS:ct.test, EKU serverAuth, EC P-256, issued by CN=CT Intermediate CA with one key (`leaf.key`), and valid at 2026-06-01 but the last. Chains hold the leaf and its intermediate; SCTs are a day older than their leaf. Logs A, B (usable), C (qualified, a tiled log) and Retired (retired 2025-06-01) are in `log_list.json`, Rejected is there as rejected, Unknown is not. The script checks every chain with `openssl verify` and the SCTs of four leaves with `openssl s_client -ct` against logs A–C.

| File | What it is | Expected |
|---|---|---|
| `ct/root.pem` | Self-signed root CN=CT Root CA (and its intermediate), 2015-01-01 → 2125-01-01 | The anchor of every chain |
| `ct/leaf.key` | The key of every leaf | For a loopback server |
| `ct/log_list.json` | Apple's log list (schema v5) of the test logs | What build-stores.sh reads from security_certificates |
| `ct/ct-logs.cnf` | Logs A, B and C as OpenSSL's CT log file | `openssl s_client -ct -ctlogfile` |
| `ct/unknown-log-id.txt` | The log id (base64) of the log the list lacks | What a warning names |
| `ct/leaf-2-scts-chain.pem` | 90 days from 2026-04-01, SCTs from A and B | s_client: 2 valid; Apple: CT (2 for ≤ 180 days) |
| `ct/leaf-1-sct-chain.pem` | 90 days, an SCT from A | Apple: not CT (1 of 2) |
| `ct/leaf-no-scts-chain.pem` | 90 days, no SCTs | Apple: not CT |
| `ct/leaf-2-scts-one-log-chain.pem` | 90 days, two SCTs from A | Apple: not CT (1 distinct log of 2) |
| `ct/leaf-bad-signature-chain.pem` | 90 days, SCTs from A and B, B's signed over other bytes | s_client: 1 valid, 1 invalid; Apple: not CT |
| `ct/leaf-retired-log-chain.pem` | 90 days, SCTs from A and Retired (after it retired) | Apple: not CT |
| `ct/leaf-rejected-log-chain.pem` | 90 days, SCTs from A and Rejected | Apple: not CT |
| `ct/leaf-365-days-2-scts-chain.pem` | 365 days from 2025-12-01, SCTs from A and B | Apple: not CT (3 for 181–825 days) |
| `ct/leaf-365-days-3-scts-chain.pem` | 365 days from 2025-12-01, SCTs from A, B and C | s_client: 3 valid; Apple: CT |
| `ct/leaf-unknown-log-after-list-chain.pem` | 365 days from 2025-12-01, SCTs from A, B and Unknown | s_client: 2 valid, 1 unknown log; Apple with a list older than 2025-11-30: unknown, not refused |
| `ct/leaf-unknown-log-before-list-chain.pem` | 365 days from 2025-08-01, SCTs from A, B and Unknown | Apple with a list of 2025-09-01 or later: not CT |
| `ct/tls-scts-two-logs.serverinfo` | For `openssl s_server -serverinfo` (TLS 1.2): SCTs from A and B over leaf-no-scts, in the TLS extension | s_client: 2 valid; Apple: CT (2 logs, one sent by the server) |
| `ct/tls-scts-one-log.serverinfo` | The same with A's SCT alone | s_client: 1 valid; Apple: not CT |
| `ct/leaf-2018-no-scts-chain.pem` | 365 days from 2018-10-01, no SCTs | Apple: CT not required (issued before 2018-10-16); valid in 2019 |
EOF
}
catalogue >"$WORK/section.md"
check_catalogue ct "$WORK/section.md" || die "the catalogue and the files differ"
ok

# Install: certs/ct/ and this script's section of certs/README.md.
install_certs "$OUT" "$DEST" "$README" "$SECTION" "$WORK/section.md"

echo "make-ct-certs.sh: OK — $(find "$DEST" -type f | wc -l) files in certs/ct/, $NCHECK self-checks passed"
