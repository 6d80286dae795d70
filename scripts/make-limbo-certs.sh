#!/usr/bin/env bash
# make-limbo-certs.sh — (re)create certs/limbo/: chains that OpenSSL's defaults accept but Apple's TLS policy
# (and so pinctl, DESIGN §2) must reject, in the manner of x509-limbo, plus the controls that must still pass.
#
# Uses the openssl CLI only (OpenSSL 3.0.x). Dates are fixed, keys are fresh on every run. The files are built
# and checked with `openssl verify` in a temp dir first; only then is certs/limbo/ replaced and its section of
# certs/README.md rewritten. Nothing else in certs/ is touched.
#
# Usage: scripts/make-limbo-certs.sh        (no arguments, runnable from anywhere)
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
DEST="$REPO_ROOT/certs/limbo"
README="$REPO_ROOT/certs/README.md"
SECTION="## certs/limbo/ (scripts/make-limbo-certs.sh)"

[[ -f "$REPO_ROOT/scripts/make-limbo-certs.sh" && -f "$README" ]] \
    || { echo "make-limbo-certs.sh: cannot locate the repository's certs/" >&2; exit 1; }
command -v openssl >/dev/null || { echo "make-limbo-certs.sh: openssl not found" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pinctl-make-limbo.XXXXXX")"
trap 'rm -rf -- "$WORK"' EXIT
OUT="$WORK/limbo"
KEYS="$WORK/keys"          # keys are not committed: nothing signs with them after this run
DB="$WORK/ca-db"
mkdir -p "$OUT" "$KEYS" "$DB/newcerts" "$WORK/csr"
: >"$DB/index.txt"

START=20250101000000Z
END=21250101000000Z
AT_2026_06_01=1780272000    # the tests' fixed evaluation time

die() { echo "make-limbo-certs.sh: FAIL: $*" >&2; exit 1; }
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

# CAs without a key usage extension: RFC 5280 §6.1.4 (n) checks keyCertSign only when the extension is present.
[ root_no_ku ]
basicConstraints       = critical, CA:TRUE
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

# No pathlen: with one and no keyCertSign, strict OpenSSL adds error 81, a rule of its own kept as it is.
[ intermediate_no_ku ]
basicConstraints       = critical, CA:TRUE
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ excluding ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
nameConstraints        = critical, excluded;DNS:test.example.com

[ permitting ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
nameConstraints        = critical, permitted;DNS:permitted.test

# Name constraints not in RFC 5280's form, which OpenSSL applies as they are: not critical; a DNS subtree with a
# leading period; in a leaf.
[ permitting_noncritical ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
nameConstraints        = permitted;DNS:limbo.test

[ permitting_leading_period ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
nameConstraints        = critical, permitted;DNS:.limbo.test

[ leaf_constraining ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:limbo.test
nameConstraints        = critical, permitted;DNS:limbo.test

[ leaf_ca ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:limbo.test

[ leaf_sub ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:a.limbo.test

[ leaf ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:limbo.test

[ leaf_rsa ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:limbo.test

[ leaf_wildcard_excluded ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:*.example.com

[ leaf_wildcard_outside ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:*.other.example.com

# An IP SAN only: with no DNS SAN, OpenSSL falls back to the CN for name constraints unless told never to.
[ leaf_ip_only ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = IP:127.0.0.1

[ leaf_san_outside ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:outside.test
EOF

gen() {   # NAME ALGORITHM-ARGS...
    local name=$1; shift
    run openssl genpkey "$@" -out "$KEYS/$name.key"
}
gen_ec()      { gen "$1" -algorithm EC -pkeyopt ec_paramgen_curve:"${2:-P-256}" -pkeyopt ec_param_enc:named_curve; }
gen_rsa()     { gen "$1" -algorithm RSA -pkeyopt rsa_keygen_bits:"$2"; }
gen_ed25519() { gen "$1" -algorithm ED25519; }
gen_dsa() {
    run openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:2048 -out "$WORK/dsa-params.pem"
    run openssl genpkey -paramfile "$WORK/dsa-params.pem" -out "$KEYS/$1.key"
}

# sign NAME ISSUER(basename or "self") EXT DIGEST SUBJECT [NOT-AFTER]
sign() {
    local name=$1 issuer=$2 ext=$3 md=$4 subj=$5 end=${6:-$END}
    # Ed25519 keys cannot sign a request with a digest; the request's own signature does not matter here.
    local -a req_md=(-"$md")
    [[ $(openssl pkey -in "$KEYS/$name.key" -noout -text 2>/dev/null | head -1) == ED25519* ]] && req_md=()
    run openssl req -new -key "$KEYS/$name.key" -subj "$subj" "${req_md[@]}" -out "$WORK/csr/$name.csr"
    local -a issuer_args
    if [[ $issuer == self ]]; then
        issuer_args=(-selfsign -keyfile "$KEYS/$name.key")
    else
        issuer_args=(-cert "$OUT/$issuer.pem" -keyfile "$KEYS/$issuer.key")
    fi
    run openssl ca -batch -notext -md "$md" -rand_serial -preserveDN -outdir "$DB/newcerts" "${issuer_args[@]}" \
        -startdate "$START" -enddate "$end" -extfile "$EXT" -extensions "$ext" \
        -in "$WORK/csr/$name.csr" -out "$OUT/$name.pem"
}

O="/O=pinctl Limbo"

# name                           keygen       key-arg   issuer                  ext                     digest subject
while read -r name keygen keyarg issuer ext md subj; do
    [[ -z $name || $name == \#* ]] && continue
    [[ $keyarg == - ]] && keyarg=""
    "$keygen" "$name" $keyarg
    sign "$name" "$issuer" "$ext" "$md" "$subj"
done <<EOF
root-ca                          gen_ec       P-256     self                    root                    sha256 $O/CN=Limbo Root CA
intermediate-ca                  gen_ec       P-256     root-ca                 intermediate            sha256 $O/CN=Limbo Intermediate CA
rsa1024-leaf                     gen_rsa      1024      intermediate-ca         leaf_rsa                sha256 /CN=rsa1024.limbo.test
rsa1024-intermediate-ca          gen_rsa      1024      root-ca                 intermediate            sha256 $O/CN=Limbo RSA-1024 Intermediate CA
leaf-under-rsa1024-intermediate  gen_ec       P-256     rsa1024-intermediate-ca leaf                    sha256 /CN=under-rsa1024.limbo.test
rsa1024-root-ca                  gen_rsa      1024      self                    root                    sha256 $O/CN=Limbo RSA-1024 Root CA
leaf-under-rsa1024-root          gen_ec       P-256     rsa1024-root-ca         leaf                    sha256 /CN=under-rsa1024-root.limbo.test
p192-leaf                        gen_ec       P-192     intermediate-ca         leaf                    sha256 /CN=p192.limbo.test
dsa-leaf                         gen_dsa      -         intermediate-ca         leaf                    sha256 /CN=dsa.limbo.test
ed25519-leaf                     gen_ed25519  -         intermediate-ca         leaf                    sha256 /CN=ed25519.limbo.test
dsa-root-ca                      gen_dsa      -         self                    root                    sha256 $O/CN=Limbo DSA Root CA
leaf-under-dsa-root              gen_ec       P-256     dsa-root-ca             leaf                    sha256 /CN=under-dsa-root.limbo.test
sha1-intermediate-ca             gen_ec       P-256     root-ca                 intermediate            sha1   $O/CN=Limbo SHA-1 Intermediate CA
leaf-under-sha1-intermediate     gen_ec       P-256     sha1-intermediate-ca    leaf                    sha256 /CN=under-sha1.limbo.test
sha1-root-ca                     gen_ec       P-256     self                    root                    sha1   $O/CN=Limbo SHA-1 Root CA
leaf-under-sha1-root             gen_ec       P-256     sha1-root-ca            leaf                    sha256 /CN=under-sha1-root.limbo.test
excluding-ca                     gen_ec       P-256     root-ca                 excluding               sha256 $O/CN=Limbo Excluding CA
wildcard-in-excluded             gen_ec       P-256     excluding-ca            leaf_wildcard_excluded  sha256 /CN=wildcard.example.com
wildcard-outside-excluded        gen_ec       P-256     excluding-ca            leaf_wildcard_outside   sha256 /CN=wildcard.other.example.com
permitting-ca                    gen_ec       P-256     root-ca                 permitting              sha256 $O/CN=Limbo Permitting CA
cn-outside-permitted             gen_ec       P-256     permitting-ca           leaf_ip_only            sha256 /CN=outside.test
san-outside-permitted            gen_ec       P-256     permitting-ca           leaf_san_outside        sha256 /CN=outside.test
noncritical-nc-ca                gen_ec       P-256     root-ca                 permitting_noncritical  sha256 $O/CN=Limbo Non-critical NC CA
leaf-under-noncritical-nc        gen_ec       P-256     noncritical-nc-ca       leaf                    sha256 /CN=limbo.test
leading-period-nc-ca             gen_ec       P-256     root-ca                 permitting_leading_period sha256 $O/CN=Limbo Leading-period NC CA
leaf-under-leading-period-nc     gen_ec       P-256     leading-period-nc-ca    leaf_sub                sha256 /CN=a.limbo.test
leaf-with-nc                     gen_ec       P-256     intermediate-ca         leaf_constraining       sha256 /CN=limbo.test
rsa2052-leaf                     gen_rsa      2052      intermediate-ca         leaf_rsa                sha256 /CN=rsa2052.limbo.test
ca-leaf                          gen_ec       P-256     intermediate-ca         leaf_ca                 sha256 /CN=limbo.test
no-ku-root-ca                    gen_ec       P-256     self                    root_no_ku              sha256 $O/CN=Limbo No-KU Root CA
leaf-under-no-ku-root            gen_ec       P-256     no-ku-root-ca           leaf                    sha256 /CN=limbo.test
no-ku-intermediate-ca            gen_ec       P-256     root-ca                 intermediate_no_ku      sha256 $O/CN=Limbo No-KU Intermediate CA
leaf-under-no-ku-intermediate    gen_ec       P-256     no-ku-intermediate-ca   leaf                    sha256 /CN=limbo.test
EOF

# A serial number of zero: `openssl ca` takes the next serial from its serial file when not told -rand_serial.
gen_ec serial-zero-leaf P-256
run openssl req -new -key "$KEYS/serial-zero-leaf.key" -subj "/CN=limbo.test" -sha256 -out "$WORK/csr/serial-zero.csr"
echo 00 >"$DB/serial"
run openssl ca -batch -notext -md sha256 -preserveDN -outdir "$DB/newcerts" -cert "$OUT/intermediate-ca.pem" \
    -keyfile "$KEYS/intermediate-ca.key" -startdate "$START" -enddate "$END" -extfile "$EXT" -extensions leaf \
    -in "$WORK/csr/serial-zero.csr" -out "$OUT/serial-zero-leaf.pem"
openssl x509 -in "$OUT/serial-zero-leaf.pem" -noout -serial | grep -qx 'serial=00' || die "serial-zero-leaf.pem: serial not 0"

# A leaf whose notAfter is the tests' evaluation time, to the second: valid at that second (RFC 5280 §4.1.2.5).
gen_ec expires-at-evaluation-leaf P-256
sign expires-at-evaluation-leaf intermediate-ca leaf sha256 /CN=limbo.test \
    "$(date -u -d "@$AT_2026_06_01" +%Y%m%d%H%M%SZ)"

# ---------------------------------------------------------------------------
# Self-checks on the staging copy: key types and digests, then `openssl verify` at auth level 2 (the oracle).
# ---------------------------------------------------------------------------
cd "$OUT"
NCHECK=0
ok() { NCHECK=$((NCHECK + 1)); }

expect_key() {   # FILE GREP-PATTERN (in `openssl x509 -noout -text`)
    openssl x509 -in "$1" -noout -text | grep -qE "$2" || die "$1: key is not /$2/"
    ok
}
expect_key rsa1024-leaf.pem            "Public-Key: \(1024 bit\)"
expect_key rsa1024-intermediate-ca.pem "Public-Key: \(1024 bit\)"
expect_key rsa1024-root-ca.pem         "Public-Key: \(1024 bit\)"
expect_key p192-leaf.pem               "NIST CURVE: P-192"
expect_key dsa-leaf.pem                "Public Key Algorithm: dsaEncryption"
expect_key dsa-root-ca.pem             "Public Key Algorithm: dsaEncryption"
expect_key ed25519-leaf.pem            "Public Key Algorithm: ED25519"
expect_key root-ca.pem                 "NIST CURVE: P-256"
expect_key sha1-intermediate-ca.pem    "Signature Algorithm: ecdsa-with-SHA1"
expect_key sha1-root-ca.pem            "Signature Algorithm: ecdsa-with-SHA1"
expect_key leaf-under-sha1-intermediate.pem "Signature Algorithm: ecdsa-with-SHA256"
expect_key excluding-ca.pem            "Excluded:"
expect_key permitting-ca.pem           "Permitted:"

# verify_expect EXPECT(ok | "ERR@DEPTH ...") ARGS...    (at VERIFY_AT when set, else the tests' time)
verify_expect() {
    local expect=$1; shift
    local out rc=0 errs
    out=$(openssl verify -x509_strict -attime "${VERIFY_AT:-$AT_2026_06_01}" "$@" 2>&1) || rc=$?
    errs=$(sed -n 's/^error \([0-9]*\) at \([0-9]*\) depth lookup.*/\1@\2/p' <<<"$out" | tr '\n' ' ' | sed 's/ $//')
    if [[ $expect == ok ]]; then
        [[ $rc -eq 0 && -z $errs && $out == *": OK" ]] || die "expected OK: openssl verify $*"$'\n'"$out"
    else
        [[ $rc -ne 0 && $errs == "$expect" ]] \
            || die "expected error(s) '$expect', got '$errs' (rc=$rc): openssl verify $*"$'\n'"$out"
    fi
    ok
}
ROOT=(-CAfile root-ca.pem)
AUTH=(-auth_level 2 -purpose sslserver)

# Without an auth level OpenSSL takes every one of these; at level 2 it refuses weak keys and SHA-1 signatures
# (66 EE key too weak, 67 CA key too weak, 68 CA signature digest too weak), the anchor's key included.
verify_expect ok   "${ROOT[@]}" -untrusted intermediate-ca.pem rsa1024-leaf.pem
verify_expect 66@0 "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem rsa1024-leaf.pem
verify_expect ok   "${ROOT[@]}" -untrusted rsa1024-intermediate-ca.pem leaf-under-rsa1024-intermediate.pem
verify_expect 67@1 "${ROOT[@]}" "${AUTH[@]}" -untrusted rsa1024-intermediate-ca.pem leaf-under-rsa1024-intermediate.pem
verify_expect 67@1 -CAfile rsa1024-root-ca.pem "${AUTH[@]}" leaf-under-rsa1024-root.pem
verify_expect ok   "${ROOT[@]}" -untrusted intermediate-ca.pem p192-leaf.pem
verify_expect 66@0 "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem p192-leaf.pem
verify_expect ok   "${ROOT[@]}" -untrusted sha1-intermediate-ca.pem leaf-under-sha1-intermediate.pem
verify_expect 68@1 "${ROOT[@]}" "${AUTH[@]}" -untrusted sha1-intermediate-ca.pem leaf-under-sha1-intermediate.pem
# The anchor's own signature is not checked: a SHA-1 self-signed root still anchors a chain.
verify_expect ok   -CAfile sha1-root-ca.pem "${AUTH[@]}" leaf-under-sha1-root.pem
# Key types: OpenSSL accepts DSA and Ed25519 at level 2; Apple evaluates only RSA and EC keys (pinctl's own check).
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem dsa-leaf.pem
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem ed25519-leaf.pem
verify_expect ok   -CAfile dsa-root-ca.pem "${AUTH[@]}" leaf-under-dsa-root.pem
# CVE-2025-61727's case: OpenSSL 3.0 lets *.example.com through a CA excluding test.example.com, even when the
# very name excluded is the host checked. pinctl rejects it; the wildcard outside the subtree passes everywhere.
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted excluding-ca.pem wildcard-in-excluded.pem
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted excluding-ca.pem -verify_hostname test.example.com \
    wildcard-in-excluded.pem
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted excluding-ca.pem -verify_hostname a.other.example.com \
    wildcard-outside-excluded.pem
# With no DNS SAN, OpenSSL checks the CN (outside.test) against the permitted subtree: 47. pinctl, like Apple,
# never reads a name from the CN, so that chain must pass; a SAN outside the subtree must still fail.
verify_expect 47@0 "${ROOT[@]}" "${AUTH[@]}" -untrusted permitting-ca.pem cn-outside-permitted.pem
verify_expect 47@0 "${ROOT[@]}" "${AUTH[@]}" -untrusted permitting-ca.pem -verify_ip 127.0.0.1 cn-outside-permitted.pem
verify_expect 47@0 "${ROOT[@]}" "${AUTH[@]}" -untrusted permitting-ca.pem san-outside-permitted.pem
# Name constraints out of RFC 5280's form: OpenSSL applies them as written and accepts each chain; pinctl refuses.
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted noncritical-nc-ca.pem leaf-under-noncritical-nc.pem
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted leading-period-nc-ca.pem leaf-under-leading-period-nc.pem
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem leaf-with-nc.pem
# Forms OpenSSL accepts and RFC 5280 / the Baseline Requirements do not: an RSA modulus that is not whole bytes, a
# leaf that is a CA.
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem rsa2052-leaf.pem
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem ca-leaf.pem
verify_expect ok   "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem serial-zero-leaf.pem
# OpenSSL 3.0 counts the second of notAfter as expired (10 at 0); the second before is valid.
openssl x509 -in expires-at-evaluation-leaf.pem -noout -enddate | grep -qx 'notAfter=Jun  1 00:00:00 2026 GMT' \
    || die "expires-at-evaluation-leaf.pem: notAfter is not 2026-06-01T00:00:00Z"
verify_expect 10@0 "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem expires-at-evaluation-leaf.pem
VERIFY_AT=$((AT_2026_06_01 - 1)) verify_expect ok "${ROOT[@]}" "${AUTH[@]}" -untrusted intermediate-ca.pem \
    expires-at-evaluation-leaf.pem
# A CA without key usage: OpenSSL's strict mode alone refuses it (92), the root as much as an intermediate.
verify_expect 92@1 -CAfile no-ku-root-ca.pem "${AUTH[@]}" leaf-under-no-ku-root.pem
verify_expect 92@1 "${ROOT[@]}" "${AUTH[@]}" -untrusted no-ku-intermediate-ca.pem leaf-under-no-ku-intermediate.pem
openssl x509 -in no-ku-intermediate-ca.pem -noout -ext keyUsage 2>/dev/null | grep -q . \
    && die "no-ku-intermediate-ca.pem has a key usage extension"
ok
# The control: the intermediate of the weak leaves is itself fine.
verify_expect ok   "${ROOT[@]}" -auth_level 2 intermediate-ca.pem

# ---------------------------------------------------------------------------
# Catalogue: one line per file, as a section of certs/README.md.
# ---------------------------------------------------------------------------
catalogue() {
    cat <<'EOF'
## certs/limbo/ (scripts/make-limbo-certs.sh)

Made by `scripts/make-limbo-certs.sh` (not by make-certs.sh; re-run it to regenerate, keys change, dates are fixed 2025-01-01 → 2125-01-01 for every file unless stated). Chains in the manner of x509-limbo that OpenSSL's defaults accept but Apple's TLS policy (DESIGN §2) rejects, and the controls that must still pass. Private keys are not kept. Subjects of CAs carry `O=pinctl Limbo`; leaves have SAN DNS:limbo.test unless stated. "openssl" = `openssl verify -x509_strict -auth_level 2 -purpose sslserver`, checked by the script.

| File | What it is | Key | Expected |
|---|---|---|---|
| `limbo/root-ca.pem` | Self-signed root, CN=Limbo Root CA | EC P-256 | Anchor of every limbo chain unless stated |
| `limbo/intermediate-ca.pem` | Intermediate CN=Limbo Intermediate CA under root-ca | EC P-256 | Issuer of the weak-key leaves below; passes |
| `limbo/rsa1024-leaf.pem` | Leaf CN=rsa1024.limbo.test under intermediate-ca | RSA-1024 | openssl 66 at 0; pinctl rejects #0 (key of 1024 bits) |
| `limbo/rsa1024-intermediate-ca.pem` | Intermediate CN=Limbo RSA-1024 Intermediate CA under root-ca | RSA-1024 | Issuer of leaf-under-rsa1024-intermediate |
| `limbo/leaf-under-rsa1024-intermediate.pem` | Leaf under rsa1024-intermediate-ca | EC P-256 | openssl 67 at 1; pinctl rejects #1 |
| `limbo/rsa1024-root-ca.pem` | Self-signed root CN=Limbo RSA-1024 Root CA | RSA-1024 | Weak anchor: the auth level checks the anchor's key too |
| `limbo/leaf-under-rsa1024-root.pem` | Leaf under rsa1024-root-ca | EC P-256 | With rsa1024-root-ca as anchor: openssl 67 at 1; pinctl rejects the anchor |
| `limbo/p192-leaf.pem` | Leaf CN=p192.limbo.test under intermediate-ca | EC P-192 | openssl 66 at 0; pinctl rejects #0 (EC below 224 bits) |
| `limbo/dsa-leaf.pem` | Leaf CN=dsa.limbo.test under intermediate-ca | DSA-2048 | openssl OK; pinctl rejects #0 (only RSA and EC keys) |
| `limbo/ed25519-leaf.pem` | Leaf CN=ed25519.limbo.test under intermediate-ca | Ed25519 | openssl OK; pinctl rejects #0 (only RSA and EC keys) |
| `limbo/dsa-root-ca.pem` | Self-signed root CN=Limbo DSA Root CA (dsa_with_SHA256) | DSA-2048 | Anchor with a DSA key |
| `limbo/leaf-under-dsa-root.pem` | Leaf under dsa-root-ca | EC P-256 | With dsa-root-ca as anchor: openssl OK; pinctl rejects the anchor (DSA key) |
| `limbo/sha1-intermediate-ca.pem` | Intermediate CN=Limbo SHA-1 Intermediate CA, signed by root-ca with ecdsa-with-SHA1 | EC P-256 | Issuer of leaf-under-sha1-intermediate |
| `limbo/leaf-under-sha1-intermediate.pem` | Leaf (SHA-256) under sha1-intermediate-ca | EC P-256 | openssl 68 at 1; pinctl rejects #1 (SHA-1 signature) |
| `limbo/sha1-root-ca.pem` | Self-signed root CN=Limbo SHA-1 Root CA, self-signature ecdsa-with-SHA1 | EC P-256 | Control: an anchor's own signature is not checked |
| `limbo/leaf-under-sha1-root.pem` | Leaf (SHA-256) under sha1-root-ca | EC P-256 | With sha1-root-ca as anchor: passes in openssl and pinctl |
| `limbo/excluding-ca.pem` | Intermediate CN=Limbo Excluding CA under root-ca, nameConstraints excluded DNS:test.example.com | EC P-256 | Issuer of the wildcard leaves |
| `limbo/wildcard-in-excluded.pem` | Leaf CN=wildcard.example.com, SAN DNS:*.example.com only, under excluding-ca | EC P-256 | CVE-2025-61727's case: openssl OK (even for host test.example.com); pinctl rejects #0 (the wildcard covers test.example.com) |
| `limbo/wildcard-outside-excluded.pem` | Leaf CN=wildcard.other.example.com, SAN DNS:*.other.example.com only, under excluding-ca | EC P-256 | Control: passes in openssl and pinctl (host a.other.example.com) |
| `limbo/permitting-ca.pem` | Intermediate CN=Limbo Permitting CA under root-ca, nameConstraints permitted DNS:permitted.test | EC P-256 | Issuer of the two leaves below |
| `limbo/cn-outside-permitted.pem` | Leaf CN=outside.test, SAN IP:127.0.0.1 only, under permitting-ca | EC P-256 | openssl 47 at 0 (it checks the CN when there is no DNS SAN); pinctl passes, for host 127.0.0.1 and with no host |
| `limbo/san-outside-permitted.pem` | Leaf CN=outside.test, SAN DNS:outside.test, under permitting-ca | EC P-256 | Control: openssl 47 at 0; pinctl rejects #0 too |
| `limbo/noncritical-nc-ca.pem` | Intermediate CN=Limbo Non-critical NC CA under root-ca, nameConstraints permitted DNS:limbo.test, not critical | EC P-256 | Issuer of the leaf below |
| `limbo/leaf-under-noncritical-nc.pem` | Leaf CN=limbo.test, SAN DNS:limbo.test, under noncritical-nc-ca | EC P-256 | openssl OK; pinctl rejects #1: RFC 5280 requires name constraints critical |
| `limbo/leading-period-nc-ca.pem` | Intermediate CN=Limbo Leading-period NC CA under root-ca, nameConstraints permitted DNS:.limbo.test | EC P-256 | Issuer of the leaf below |
| `limbo/leaf-under-leading-period-nc.pem` | Leaf CN=a.limbo.test, SAN DNS:a.limbo.test, under leading-period-nc-ca | EC P-256 | openssl OK; pinctl rejects #1: a DNS constraint has no leading period |
| `limbo/leaf-with-nc.pem` | Leaf CN=limbo.test, SAN DNS:limbo.test, under intermediate-ca, itself carrying nameConstraints | EC P-256 | openssl OK; pinctl rejects #0: only a CA may carry name constraints |
| `limbo/rsa2052-leaf.pem` | Leaf CN=rsa2052.limbo.test, SAN DNS:limbo.test, under intermediate-ca | RSA 2052 | openssl OK; pinctl rejects #0: the modulus is not whole bytes (BR §6.1.5) |
| `limbo/ca-leaf.pem` | Leaf CN=limbo.test, SAN DNS:limbo.test, under intermediate-ca, basicConstraints cA TRUE | EC P-256 | openssl OK; pinctl rejects #0: a server's certificate is an end entity |
| `limbo/expires-at-evaluation-leaf.pem` | Leaf CN=limbo.test, SAN DNS:limbo.test, under intermediate-ca, notAfter 2026-06-01T00:00:00Z (the tests' evaluation time) | EC P-256 | openssl 10 at 0 at that second; pinctl passes then (notAfter is inclusive, RFC 5280 §4.1.2.5) and rejects a second later |
| `limbo/no-ku-root-ca.pem` | Self-signed root CN=Limbo No-KU Root CA, basicConstraints cA TRUE, no keyUsage | EC P-256 | Anchor of the leaf below |
| `limbo/leaf-under-no-ku-root.pem` | Leaf CN=limbo.test, SAN DNS:limbo.test, under no-ku-root-ca | EC P-256 | With no-ku-root-ca as anchor: openssl 92 at 1 (strict mode); pinctl passes (RFC 5280 §6.1.4 (n)) |
| `limbo/no-ku-intermediate-ca.pem` | Intermediate CN=Limbo No-KU Intermediate CA under root-ca, no keyUsage | EC P-256 | Issuer of the leaf below |
| `limbo/leaf-under-no-ku-intermediate.pem` | Leaf CN=limbo.test, SAN DNS:limbo.test, under no-ku-intermediate-ca | EC P-256 | openssl 92 at 1 (strict mode); pinctl passes |
| `limbo/serial-zero-leaf.pem` | Leaf CN=limbo.test, SAN DNS:limbo.test, under intermediate-ca, serial number 0 | EC P-256 | openssl OK; pinctl rejects #0: a serial MUST be positive (RFC 5280 §4.1.2.2) |
EOF
}
catalogue >"$WORK/section.md"
# Every file is catalogued, and nothing else.
diff <(ls | sed 's|^|limbo/|' | LC_ALL=C sort) \
    <(sed -n 's/^| `\(limbo\/[^`]*\)` |.*/\1/p' "$WORK/section.md" | LC_ALL=C sort) >/dev/null \
    || die "the catalogue and the files differ"
ok

# ---------------------------------------------------------------------------
# Install: replace certs/limbo/ and the README section, up to the next section (the rest of README.md belongs to
# the other scripts: it was dropped when this section was taken to run to the end).
# ---------------------------------------------------------------------------
rm -rf -- "$DEST"
cp -R -- "$OUT" "$DEST"
# Command substitution drops the trailing blank lines before the section.
printf '%s\n\n' "$(awk -v section="$SECTION" '$0 == section { exit } { print }' "$README")" >"$WORK/README.md"
cat "$WORK/section.md" >>"$WORK/README.md"
# The sections after this one, from the next heading on, stay as they are.
awk -v section="$SECTION" 'found && /^## / { rest = 1 } rest { print } $0 == section { found = 1 }' "$README" \
    >"$WORK/rest.md"
if [[ -s "$WORK/rest.md" ]]; then printf '\n' >>"$WORK/README.md"; cat "$WORK/rest.md" >>"$WORK/README.md"; fi
cp -- "$WORK/README.md" "$README"

echo "make-limbo-certs.sh: OK — $(find "$DEST" -type f | wc -l) files in certs/limbo/, $NCHECK self-checks passed"
