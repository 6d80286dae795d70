#!/usr/bin/env bash
# make-platform-certs.sh — (re)create certs/platforms/: chains that one platform version's verifier rules refuse and
# another's accept (DESIGN §12): Apple's TLS server policy of iOS 13 / macOS 10.15 on (server-auth EKU, validity
# maximums, EC key sizes) and Android's PKIX validation, which never checks a trust anchor's dates.
#
# Uses the openssl CLI only (OpenSSL 3.0.x). Dates are fixed, keys are fresh on every run. The files are built and
# checked with `openssl verify` in a temp dir first: every chain verifies for OpenSSL (the platform rules are what
# refuses them), except the one under the expired root. Only then is certs/platforms/ replaced and its section of
# certs/README.md rewritten in place. Nothing else in certs/ is touched.
#
# Usage: scripts/make-platform-certs.sh        (no arguments, runnable from anywhere)
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
DEST="$REPO_ROOT/certs/platforms"
README="$REPO_ROOT/certs/README.md"
# shellcheck source=lib/certs-section.sh
source "$SCRIPT_DIR/lib/certs-section.sh"
SECTION="## certs/platforms/ (scripts/make-platform-certs.sh)"

[[ -f "$REPO_ROOT/scripts/make-platform-certs.sh" && -f "$README" ]] \
    || { echo "make-platform-certs.sh: cannot locate the repository's certs/" >&2; exit 1; }
command -v openssl >/dev/null || { echo "make-platform-certs.sh: openssl not found" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pinctl-make-platforms.XXXXXX")"
trap 'rm -rf -- "$WORK"' EXIT
OUT="$WORK/platforms"
KEYS="$WORK/keys"
DB="$WORK/ca-db"
mkdir -p "$OUT" "$KEYS" "$DB/newcerts" "$WORK/csr"
: >"$DB/index.txt"

AT_2026_06_01=1780272000    # the tests' fixed evaluation time

die() { echo "make-platform-certs.sh: FAIL: $*" >&2; exit 1; }
run() {
    if ! "$@" >"$WORK/last.log" 2>&1; then
        cat "$WORK/last.log" >&2
        die "command failed: $*"
    fi
}

export OPENSSL_CONF="$WORK/openssl.cnf"
cat >"$OPENSSL_CONF" <<EOF
[ req ]
distinguished_name = req_dn
string_mask        = utf8only
[ req_dn ]
[ ca ]
default_ca = CA_default
[ CA_default ]
database        = $DB/index.txt
new_certs_dir   = $DB/newcerts
serial          = $DB/serial
policy          = policy_any
unique_subject  = no
copy_extensions = none
email_in_dn     = no
preserve        = yes
[ policy_any ]
organizationName = optional
commonName       = supplied
EOF

EXT="$WORK/ext.cnf"
cat >"$EXT" <<'EOF'
[ root ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ intermediate ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ intermediate_client ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
extendedKeyUsage       = clientAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ leaf ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:platforms.test

[ leaf_no_eku ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:platforms.test
EOF

gen_ec() { run openssl genpkey -algorithm EC -pkeyopt "ec_paramgen_curve:${2:-P-256}" \
    -pkeyopt ec_param_enc:named_curve -out "$KEYS/$1.key"; }

# sign NAME KEY ISSUER(basename or "self") EXT SUBJECT START END
sign() {
    local name=$1 key=$2 issuer=$3 ext=$4 subj=$5 start=$6 end=$7
    run openssl req -new -key "$KEYS/$key.key" -subj "$subj" -sha256 -out "$WORK/csr/$name.csr"
    local -a issuer_args
    if [[ $issuer == self ]]; then
        issuer_args=(-selfsign -keyfile "$KEYS/$key.key")
    else
        issuer_args=(-cert "$OUT/$issuer.pem" -keyfile "$KEYS/$issuer.key")
    fi
    run openssl ca -batch -notext -md sha256 -rand_serial -preserveDN -outdir "$DB/newcerts" "${issuer_args[@]}" \
        -startdate "$start" -enddate "$end" -extfile "$EXT" -extensions "$ext" \
        -in "$WORK/csr/$name.csr" -out "$OUT/$name.pem"
}

O="/O=pinctl Platforms"
LONG_START=20250101000000Z
LONG_END=21250101000000Z
gen_ec root; sign root root self root "$O/CN=Platforms Root CA" $LONG_START $LONG_END
gen_ec intermediate; sign intermediate intermediate root intermediate "$O/CN=Platforms Intermediate CA" \
    $LONG_START $LONG_END
gen_ec client-intermediate
sign client-intermediate client-intermediate root intermediate_client "$O/CN=Platforms Client-Auth Intermediate CA" \
    $LONG_START $LONG_END
# A root that expired before the evaluation time, and an intermediate under it that has not.
gen_ec expired-root; sign expired-root expired-root self root "$O/CN=Platforms Expired Root CA" \
    20150101000000Z 20250101000000Z
gen_ec under-expired-intermediate
sign under-expired-intermediate under-expired-intermediate expired-root intermediate \
    "$O/CN=Platforms Intermediate CA Under The Expired Root" 20150101000000Z $LONG_END

# Leaves, all CN=platforms.test, valid at 2026-06-01.
gen_ec leaf; sign leaf leaf intermediate leaf "/CN=platforms.test" 20251201000000Z 20261201000000Z
gen_ec leaf-no-eku; sign leaf-no-eku leaf-no-eku intermediate leaf_no_eku "/CN=platforms.test" \
    20251201000000Z 20261201000000Z
gen_ec leaf-730-days; sign leaf-730-days leaf-730-days intermediate leaf "/CN=platforms.test" \
    20250601000000Z 20270601000000Z
gen_ec leaf-900-days; sign leaf-900-days leaf-900-days intermediate leaf "/CN=platforms.test" \
    20250601000000Z 20271118000000Z
gen_ec leaf-p224 P-224; sign leaf-p224 leaf-p224 intermediate leaf "/CN=platforms.test" \
    20251201000000Z 20261201000000Z
gen_ec leaf-under-client-ca
sign leaf-under-client-ca leaf-under-client-ca client-intermediate leaf "/CN=platforms.test" \
    20251201000000Z 20261201000000Z
gen_ec leaf-under-expired-root
sign leaf-under-expired-root leaf-under-expired-root under-expired-intermediate leaf "/CN=platforms.test" \
    20251201000000Z 20261201000000Z

# The presented chains, leaf first.
for leaf in leaf leaf-no-eku leaf-730-days leaf-900-days leaf-p224; do
    cat "$OUT/$leaf.pem" "$OUT/intermediate.pem" >"$OUT/$leaf-chain.pem"
done
cat "$OUT/leaf-under-client-ca.pem" "$OUT/client-intermediate.pem" >"$OUT/leaf-under-client-ca-chain.pem"
cat "$OUT/leaf-under-expired-root.pem" "$OUT/under-expired-intermediate.pem" \
    >"$OUT/leaf-under-expired-root-chain.pem"
# Only the roots and the chains are kept.
find "$OUT" -name '*.pem' ! -name '*-chain.pem' ! -name root.pem ! -name expired-root.pem -delete
rm -f "$OUT"/*.key

# ---------------------------------------------------------------------------
# Self-checks: OpenSSL (no purpose on the intermediates, as pinctl) verifies every chain but the expired root's.
# ---------------------------------------------------------------------------
cd "$OUT"
NCHECK=0
ok() { NCHECK=$((NCHECK + 1)); }
verify_expect() {
    local expect=$1 chain=$2 root=$3
    local out rc=0
    out=$(openssl verify -x509_strict -auth_level 2 -attime "$AT_2026_06_01" -CAfile "$root" -untrusted "$chain" \
        "$chain" 2>&1) || rc=$?
    if [[ $expect == ok ]]; then
        [[ $rc -eq 0 ]] || die "expected OK: $chain"$'\n'"$out"
    else
        [[ $rc -ne 0 && $out == *"error $expect "* ]] || die "expected error $expect: $chain"$'\n'"$out"
    fi
    ok
}
for chain in leaf leaf-no-eku leaf-730-days leaf-900-days leaf-p224 leaf-under-client-ca; do
    verify_expect ok "$chain-chain.pem" root.pem
done
verify_expect 10 leaf-under-expired-root-chain.pem expired-root.pem
# The facts the tests rest on, read back with the openssl CLI.
[[ $(openssl x509 -in leaf-no-eku-chain.pem -noout -ext extendedKeyUsage 2>&1) != *"Server Authentication"* ]] \
    || die "leaf-no-eku has an EKU"; ok
[[ $(openssl x509 -in leaf-p224-chain.pem -noout -text) == *"224 bit"* ]] || die "leaf-p224 is not P-224"; ok

# ---------------------------------------------------------------------------
# Catalogue: one line per file, as a section of certs/README.md.
# ---------------------------------------------------------------------------
catalogue() {
    cat <<'EOF'
## certs/platforms/ (scripts/make-platform-certs.sh)

Made by `scripts/make-platform-certs.sh` (re-run it to regenerate; keys change, dates are fixed). Chains that a platform version's own rules refuse (DESIGN §12) while OpenSSL verifies them. CAs carry `O=pinctl Platforms`; leaves are CN=platforms.test with SAN DNS:platforms.test, EKU serverAuth unless stated, EC P-256 unless stated; every leaf is valid at 2026-06-01. "openssl" = `openssl verify -x509_strict -auth_level 2` at 2026-06-01, checked by the script. Chains hold the leaf and its intermediate.

| File | What it is | Expected |
|---|---|---|
| `platforms/root.pem` | Self-signed root CN=Platforms Root CA, 2025-01-01 → 2125-01-01 | The anchor of every chain but the last |
| `platforms/expired-root.pem` | Self-signed root CN=Platforms Expired Root CA, 2015-01-01 → 2025-01-01 | openssl: 10 (expired) at depth 2; Android ignores an anchor's dates |
| `platforms/leaf-chain.pem` | Leaf 2025-12-01 → 2026-12-01 (365 days) | Trusted everywhere |
| `platforms/leaf-no-eku-chain.pem` | Leaf without an extendedKeyUsage extension, 365 days | openssl OK; Apple (iOS 13+) refuses it on a system or app anchor, not on a user root |
| `platforms/leaf-730-days-chain.pem` | Leaf 2025-06-01 → 2027-06-01 (730 days) | openssl OK; Apple refuses it on a system root (398 days from 2020-09-01), not on a user root (825) |
| `platforms/leaf-900-days-chain.pem` | Leaf 2025-06-01 → 2027-11-18 (900 days) | openssl OK; Apple refuses it on any root (825 days from 2019-07-01) |
| `platforms/leaf-p224-chain.pem` | Leaf with an EC P-224 key, 365 days | openssl OK (224 bits is level 2's floor); Apple asks P-256 or larger |
| `platforms/leaf-under-client-ca-chain.pem` | Leaf under CN=Platforms Client-Auth Intermediate CA, whose EKU is clientAuth only | openssl OK (no purpose); Apple refuses a system-anchored chain whose intermediate's EKU lacks serverAuth |
| `platforms/leaf-under-expired-root-chain.pem` | Leaf under an intermediate (2015 → 2125) of the expired root | openssl 10 at 2; trusted on Android, refused elsewhere |
EOF
}
catalogue >"$WORK/section.md"
check_catalogue platforms "$WORK/section.md" || die "the catalogue and the files differ"
ok

# Install: certs/platforms/ and this script's section of certs/README.md.
install_certs "$OUT" "$DEST" "$README" "$SECTION" "$WORK/section.md"

echo "make-platform-certs.sh: OK — $(find "$DEST" -type f | wc -l) files in certs/platforms/," \
    "$NCHECK self-checks passed"
