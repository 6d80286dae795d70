#!/usr/bin/env bash
# make-path-certs.sh — (re)create certs/paths/: chains in the manner of Netflix's bettertls path-building tests,
# where the path OpenSSL 3.0 builds fails and another path through the same certificates verifies (DESIGN §12),
# and roots in `TRUSTED CERTIFICATE` form.
#
# Uses the openssl CLI only (OpenSSL 3.0.x). Dates are fixed, keys are fresh on every run; only the key of the leaf
# the live tests serve is kept. The files are built and checked with `openssl verify` in a temp dir first (which
# must FAIL where pinctl must backtrack); only then is certs/paths/ replaced and its section of certs/README.md
# rewritten in place. Nothing else in certs/ is touched.
#
# Usage: scripts/make-path-certs.sh        (no arguments, runnable from anywhere)
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
DEST="$REPO_ROOT/certs/paths"
README="$REPO_ROOT/certs/README.md"
# shellcheck source=lib/certs-section.sh
source "$SCRIPT_DIR/lib/certs-section.sh"
SECTION="## certs/paths/ (scripts/make-path-certs.sh)"

[[ -f "$REPO_ROOT/scripts/make-path-certs.sh" && -f "$README" ]] \
    || { echo "make-path-certs.sh: cannot locate the repository's certs/" >&2; exit 1; }
command -v openssl >/dev/null || { echo "make-path-certs.sh: openssl not found" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pinctl-make-paths.XXXXXX")"
trap 'rm -rf -- "$WORK"' EXIT
OUT="$WORK/paths"
KEYS="$WORK/keys"
DB="$WORK/ca-db"
mkdir -p "$OUT" "$KEYS" "$DB/newcerts" "$WORK/csr"
: >"$DB/index.txt"

START=20250101000000Z
END=21250101000000Z
AT_2026_06_01=1780272000    # the tests' fixed evaluation time

die() { echo "make-path-certs.sh: FAIL: $*" >&2; exit 1; }
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

[ intermediate_email ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
extendedKeyUsage       = emailProtection
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ leaf ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:paths.test, IP:127.0.0.1
EOF

gen_ec() { run openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -pkeyopt ec_param_enc:named_curve \
    -out "$KEYS/$1.key"; }

# sign NAME KEY ISSUER(basename or "self") EXT DIGEST SUBJECT [START END]
sign() {
    local name=$1 key=$2 issuer=$3 ext=$4 md=$5 subj=$6 start=${7:-$START} end=${8:-$END}
    run openssl req -new -key "$KEYS/$key.key" -subj "$subj" -"$md" -out "$WORK/csr/$name.csr"
    local -a issuer_args
    if [[ $issuer == self ]]; then
        issuer_args=(-selfsign -keyfile "$KEYS/$key.key")
    else
        issuer_args=(-cert "$OUT/$issuer.pem" -keyfile "$KEYS/$issuer.key")
    fi
    run openssl ca -batch -notext -md "$md" -rand_serial -preserveDN -outdir "$DB/newcerts" "${issuer_args[@]}" \
        -startdate "$start" -enddate "$end" -extfile "$EXT" -extensions "$ext" \
        -in "$WORK/csr/$name.csr" -out "$OUT/$name.pem"
}

O="/O=pinctl Paths"
gen_ec root-a; sign root-a root-a self root sha256 "$O/CN=Paths Root A"
gen_ec root-b; sign root-b root-b self root sha256 "$O/CN=Paths Root B"
# Root B again, same name and key, expired: the anchor at the end of the first path in the expired-root case.
sign root-b-expired root-b self root sha256 "$O/CN=Paths Root B" 20200101000000Z 20210101000000Z
# One intermediate key, cross-signed: by Root B (valid, and once with SHA-1, which Apple's policy refuses) and by
# Root A.
gen_ec intermediate
cp "$KEYS/intermediate.key" "$KEYS/intermediate-by-a.key"
sign intermediate-by-b intermediate root-b intermediate sha256 "$O/CN=Paths Intermediate CA"
sign intermediate-by-a intermediate root-a intermediate sha256 "$O/CN=Paths Intermediate CA"
sign intermediate-by-b-sha1 intermediate root-b intermediate sha1 "$O/CN=Paths Intermediate CA"
# The same name and key by Root A once more, for e-mail only (bettertls's EKU cases): the other path goes through it.
sign intermediate-email-by-a intermediate root-a intermediate_email sha256 "$O/CN=Paths Intermediate CA"
gen_ec leaf; sign leaf leaf intermediate-by-a leaf sha256 "/CN=paths.test"

# Two issuers named alike whose key identifier is the same, one with the wrong key (a borrowed SKI).
gen_ec keyid-ca; sign keyid-ca keyid-ca root-a intermediate sha256 "$O/CN=Paths Key-ID CA"
SKI=$(openssl x509 -in "$OUT/keyid-ca.pem" -noout -ext subjectKeyIdentifier | sed -n '2s/[[:space:]:]//gp')
[[ ${#SKI} -eq 40 ]] || die "cannot read keyid-ca.pem's subject key identifier"
sed "s/^subjectKeyIdentifier   = hash\$/subjectKeyIdentifier   = $SKI/" "$EXT" >"$WORK/ext-borrowed.cnf"
awk '/^\[ intermediate \]/{p=1} p&&/^$/{exit} p' "$WORK/ext-borrowed.cnf" | sed 's/\[ intermediate \]/[ borrowed ]/' \
    >>"$EXT"
gen_ec impostor-ca; sign impostor-ca impostor-ca root-a borrowed sha256 "$O/CN=Paths Key-ID CA"
gen_ec keyid-leaf; sign keyid-leaf keyid-leaf keyid-ca leaf sha256 "/CN=paths.test"

# Root A in `TRUSTED CERTIFICATE` form: trusted for TLS servers; for e-mail only; rejected for TLS servers.
run openssl x509 -in "$OUT/root-a.pem" -addtrust serverAuth -trustout -out "$OUT/root-a-trusted-serverauth.pem"
run openssl x509 -in "$OUT/root-a.pem" -addtrust emailProtection -trustout -out "$OUT/root-a-trusted-email.pem"
run openssl x509 -in "$OUT/root-a.pem" -addreject serverAuth -trustout -out "$OUT/root-a-rejected-serverauth.pem"

# The presented chains, leaf first, in the order a misconfigured server sends them.
cat "$OUT/leaf.pem" "$OUT/intermediate-by-b.pem" "$OUT/intermediate-by-a.pem" >"$OUT/cross-signed-chain.pem"
cat "$OUT/leaf.pem" "$OUT/intermediate-by-b-sha1.pem" "$OUT/intermediate-by-a.pem" >"$OUT/sha1-cross-signed-chain.pem"
cat "$OUT/keyid-leaf.pem" "$OUT/impostor-ca.pem" "$OUT/keyid-ca.pem" >"$OUT/borrowed-key-id-chain.pem"
cat "$OUT/leaf.pem" "$OUT/intermediate-by-b.pem" "$OUT/intermediate-email-by-a.pem" >"$OUT/email-cross-signed-chain.pem"
cp "$KEYS/leaf.key" "$OUT/leaf.key"

# ---------------------------------------------------------------------------
# Self-checks: OpenSSL 3.0 fails each of these chains on the path it builds, and verifies the other path.
# ---------------------------------------------------------------------------
cd "$OUT"
NCHECK=0
ok() { NCHECK=$((NCHECK + 1)); }
# verify_expect EXPECT(ok | "ERR@DEPTH ...") ARGS...
verify_expect() {
    local expect=$1; shift
    local out rc=0 errs
    out=$(openssl verify -x509_strict -auth_level 2 -purpose sslserver -attime "$AT_2026_06_01" "$@" 2>&1) || rc=$?
    errs=$(sed -n 's/^error \([0-9]*\) at \([0-9]*\) depth lookup.*/\1@\2/p' <<<"$out" | tr '\n' ' ' | sed 's/ $//')
    if [[ $expect == ok ]]; then
        [[ $rc -eq 0 && -z $errs && $out == *": OK" ]] || die "expected OK: openssl verify $*"$'\n'"$out"
    else
        [[ $rc -ne 0 && $errs == "$expect" ]] \
            || die "expected error(s) '$expect', got '$errs' (rc=$rc): openssl verify $*"$'\n'"$out"
    fi
    ok
}
cat intermediate-by-b.pem intermediate-by-a.pem >"$WORK/by-b-then-a.pem"
cat intermediate-by-b-sha1.pem intermediate-by-a.pem >"$WORK/sha1-then-a.pem"
cat impostor-ca.pem keyid-ca.pem >"$WORK/impostor-then-good.pem"
cat root-a.pem root-b-expired.pem >"$WORK/a-and-expired-b.pem"
cat root-a.pem root-b.pem >"$WORK/a-and-b.pem"
cat intermediate-by-b.pem intermediate-email-by-a.pem >"$WORK/by-b-then-email.pem"
# Dead end: OpenSSL takes the first time-valid issuer, intermediate-by-b, whose root is not an anchor (20).
verify_expect 20@1 -CAfile root-a.pem -untrusted "$WORK/by-b-then-a.pem" leaf.pem
verify_expect ok   -CAfile root-a.pem -untrusted intermediate-by-a.pem leaf.pem
# Expired root on the first path (10 at the anchor); the other root is valid.
verify_expect 10@2 -CAfile "$WORK/a-and-expired-b.pem" -untrusted "$WORK/by-b-then-a.pem" leaf.pem
# A SHA-1 cross-sign on the first path (68 at 1).
verify_expect 68@1 -CAfile "$WORK/a-and-b.pem" -untrusted "$WORK/sha1-then-a.pem" leaf.pem
# A borrowed key identifier: OpenSSL matches the impostor by name and key id, and the signature fails (7 at 0).
verify_expect 7@0  -CAfile root-a.pem -untrusted "$WORK/impostor-then-good.pem" keyid-leaf.pem
verify_expect ok   -CAfile root-a.pem -untrusted keyid-ca.pem keyid-leaf.pem
# The other path's CA is for e-mail only: refused for a TLS server (26 at 1), so no path verifies.
verify_expect 20@1 -CAfile root-a.pem -untrusted "$WORK/by-b-then-email.pem" leaf.pem
verify_expect 26@1 -CAfile root-a.pem -untrusted intermediate-email-by-a.pem leaf.pem
# Trust settings: serverAuth anchors a TLS server chain; e-mail only, or serverAuth rejected, does not (28 at 2).
verify_expect ok   -CAfile root-a-trusted-serverauth.pem -untrusted intermediate-by-a.pem leaf.pem
verify_expect 28@2 -CAfile root-a-trusted-email.pem -untrusted intermediate-by-a.pem leaf.pem
verify_expect 28@2 -CAfile root-a-rejected-serverauth.pem -untrusted intermediate-by-a.pem leaf.pem

# ---------------------------------------------------------------------------
# Catalogue: one line per file, as a section of certs/README.md.
# ---------------------------------------------------------------------------
catalogue() {
    cat <<'EOF'
## certs/paths/ (scripts/make-path-certs.sh)

Made by `scripts/make-path-certs.sh` (re-run it to regenerate; keys change, dates are fixed 2025-01-01 → 2125-01-01 unless stated). Chains in the manner of bettertls's path-building tests: OpenSSL 3.0 builds one path and fails, another path through the same certificates verifies, and pinctl (DESIGN §12) must find it. Subjects of CAs carry `O=pinctl Paths`; leaves are CN=paths.test with SAN DNS:paths.test, IP:127.0.0.1, all keys EC P-256. "openssl" = `openssl verify -x509_strict -auth_level 2 -purpose sslserver` at 2026-06-01, checked by the script.

| File | What it is | Expected |
|---|---|---|
| `paths/root-a.pem` | Self-signed root CN=Paths Root A | The anchor of every path that should verify |
| `paths/root-b.pem` | Self-signed root CN=Paths Root B | Anchor of the SHA-1 case; absent from the store in the dead-end case |
| `paths/root-b-expired.pem` | Root B again (same name and key), valid 2020-01-01 → 2021-01-01 | The expired anchor at the end of the first path |
| `paths/intermediate-by-a.pem` | CN=Paths Intermediate CA, signed by root-a | The issuer on the path that verifies |
| `paths/intermediate-by-b.pem` | The same name and key, signed by root-b | The cross-sign OpenSSL takes first (presented first) |
| `paths/intermediate-by-b-sha1.pem` | The same name and key, signed by root-b with ecdsa-with-SHA1 | A cross-sign refused for its SHA-1 signature |
| `paths/intermediate-email-by-a.pem` | The same name and key, signed by root-a, EKU emailProtection only | openssl: 26 (unsupported purpose) at depth 1 |
| `paths/leaf.pem` | Leaf CN=paths.test under the intermediate key | The leaf of the four cross-signed chains |
| `paths/leaf.key` | Private key of leaf.pem | TLS test server key (the live tests) |
| `paths/cross-signed-chain.pem` | leaf, intermediate-by-b, intermediate-by-a | Anchors root-a: openssl 20 at 1 (dead end); pinctl trusts leaf → intermediate-by-a → root-a. Anchors root-a and root-b-expired: openssl 10 at 2; pinctl trusts the same path |
| `paths/sha1-cross-signed-chain.pem` | leaf, intermediate-by-b-sha1, intermediate-by-a | Anchors root-a and root-b: openssl 68 at 1; pinctl trusts leaf → intermediate-by-a → root-a |
| `paths/email-cross-signed-chain.pem` | leaf, intermediate-by-b, intermediate-email-by-a | Anchor root-a: openssl 20 at 1; the other path's CA is for e-mail only, so pinctl refuses it too |
| `paths/keyid-ca.pem` | CN=Paths Key-ID CA, signed by root-a | The right issuer of keyid-leaf |
| `paths/impostor-ca.pem` | CN=Paths Key-ID CA too, signed by root-a, another key but keyid-ca's subject key identifier | An issuer matched by name and key id whose signature does not verify |
| `paths/keyid-leaf.pem` | Leaf CN=paths.test under keyid-ca | Leaf of the borrowed-key-id chain |
| `paths/borrowed-key-id-chain.pem` | keyid-leaf, impostor-ca, keyid-ca | Anchor root-a: openssl 7 at 0; pinctl trusts keyid-leaf → keyid-ca → root-a |
| `paths/root-a-trusted-serverauth.pem` | root-a as `TRUSTED CERTIFICATE`, trusted for serverAuth | Anchors a TLS server chain (openssl OK with -purpose sslserver) |
| `paths/root-a-trusted-email.pem` | root-a as `TRUSTED CERTIFICATE`, trusted for emailProtection only | Does not anchor a TLS server chain: 28 at 2 |
| `paths/root-a-rejected-serverauth.pem` | root-a as `TRUSTED CERTIFICATE`, serverAuth rejected | Does not anchor a TLS server chain: 28 at 2 |
EOF
}
catalogue >"$WORK/section.md"
# Every file is catalogued, and nothing else.
check_catalogue paths "$WORK/section.md" || die "the catalogue and the files differ"
ok

# Install: certs/paths/ and this script's section of certs/README.md.
install_certs "$OUT" "$DEST" "$README" "$SECTION" "$WORK/section.md"

echo "make-path-certs.sh: OK — $(find "$DEST" -type f | wc -l) files in certs/paths/, $NCHECK self-checks passed"
