#!/usr/bin/env bash
# make-certs.sh — (re)create the pinctl test-fixture PKI in certs/.
#
# Uses the openssl CLI only (tested with OpenSSL 3.0.x). Every validity date
# is fixed (never derived from "now"); keys are fresh on every run. The PKI is
# built and self-tested in a temp dir first; certs/ is only replaced if all
# self-tests pass. See certs/README.md (generated below) for the file list.
#
# Usage: scripts/make-certs.sh        (no arguments, runnable from anywhere)
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
DEST="$REPO_ROOT/certs"
START_TIME=$SECONDS

# Sanity check before we ever rm -rf anything.
if [[ -z "$REPO_ROOT" || ! -f "$REPO_ROOT/scripts/make-certs.sh" ]]; then
    echo "make-certs.sh: cannot locate repository root" >&2
    exit 1
fi
command -v openssl >/dev/null || { echo "make-certs.sh: openssl not found" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pinctl-make-certs.XXXXXX")"
trap 'rm -rf -- "$WORK"' EXIT
OUT="$WORK/certs"          # staging copy of certs/
DB="$WORK/ca-db"           # throwaway `openssl ca` database
mkdir -p "$OUT/pins" "$DB/newcerts" "$WORK/csr"
: >"$DB/index.txt"

# Fixed dates (openssl ca -startdate/-enddate, YYYYMMDDHHMMSSZ; openssl encodes
# dates before 2050 as UTCTime and later ones as GeneralizedTime, per RFC 5280).
D_2020_01_01=20200101000000Z
D_2020_06_01=20200601000000Z
D_2021_01_01=20210101000000Z
D_2025_01_01=20250101000000Z
D_2026_01_01=20260101000000Z
D_2120_01_01=21200101000000Z
D_2125_01_01=21250101000000Z
D_2125_06_01=21250601000000Z
# Verification time for the self-tests: 2026-06-01T00:00:00Z.
AT_2026_06_01=1780272000

die() { echo "make-certs.sh: FAIL: $*" >&2; exit 1; }

# ---------------------------------------------------------------------------
# Hermetic OpenSSL configuration (ignore the system openssl.cnf).
# ---------------------------------------------------------------------------
export OPENSSL_CONF="$WORK/openssl.cnf"
cat >"$OPENSSL_CONF" <<EOF
[ req ]
distinguished_name = req_dn
string_mask        = utf8only
utf8               = yes
[ req_dn ]

[ ca ]
default_ca = CA_default

[ CA_default ]
database        = $DB/index.txt
new_certs_dir   = $DB/newcerts
serial          = $DB/serial      # must be set, but unused (-rand_serial)
default_md      = sha256
policy          = policy_any
unique_subject  = no
copy_extensions = none
email_in_dn     = no
preserve        = yes

[ policy_any ]
organizationName = optional
commonName       = supplied
EOF

# X.509 v3 extension profiles (passed with -extfile/-extensions).
EXT="$WORK/ext.cnf"
cat >"$EXT" <<'EOF'
[ v3_root ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always   # plain "keyid" is omitted on self-signed certs by OpenSSL 3.0

[ v3_intermediate ]
basicConstraints       = critical, CA:TRUE, pathlen:0
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ san_pinning ]
DNS.1 = pinning.test
DNS.2 = localhost
IP.1  = 127.0.0.1
IP.2  = ::1

# EC server leaf (leaf, leaf-renewed, leaf-rekeyed, expired, not-yet-valid,
# leaf-under-expired-intermediate)
[ v3_leaf ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = @san_pinning

# RSA server leaf (leaf-rsa, other-leaf)
[ v3_leaf_rsa ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = @san_pinning

[ v3_client_auth ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = clientAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = @san_pinning

[ v3_wildcard ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:*.pinning.test

[ v3_wrong_host ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:wrong.test

# No subjectAltName at all.
[ v3_cn_only ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

# Self-signed end-entity: SKI only, no AKI.
[ v3_self_signed ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
subjectAltName         = @san_pinning
EOF

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------
# run CMD... : run quietly, dump the output only if it fails.
run() {
    local log="$WORK/last.log"
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        die "command failed: $*"
    fi
}

gen_ec()  { run openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
                -pkeyopt ec_param_enc:named_curve -out "$OUT/$1.key"; }
gen_rsa() { run openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
                -out "$OUT/$1.key"; }

# csr NAME KEYFILE SUBJECT
csr() {
    run openssl req -new -key "$1" -subj "$3" -sha256 -out "$WORK/csr/$2.csr"
}

# sign NAME ISSUER EXT_SECTION START END [KEYFILE] [SUBJECT]
#   ISSUER is the basename of the issuing CA in $OUT, or "self".
#   KEYFILE defaults to $OUT/NAME.key; SUBJECT must be given.
sign() {
    local name=$1 issuer=$2 ext=$3 start=$4 end=$5 key=$6 subj=$7
    csr "$key" "$name" "$subj"
    local -a issuer_args
    if [[ $issuer == self ]]; then
        issuer_args=(-selfsign -keyfile "$key")
    else
        issuer_args=(-cert "$OUT/$issuer.pem" -keyfile "$OUT/$issuer.key")
    fi
    run openssl ca -batch -notext -md sha256 -rand_serial -preserveDN \
        -outdir "$DB/newcerts" "${issuer_args[@]}" \
        -startdate "$start" -enddate "$end" \
        -extfile "$EXT" -extensions "$ext" \
        -in "$WORK/csr/$name.csr" -out "$OUT/$name.pem"
}

spki_b64() {   # SHA-256 over the DER SubjectPublicKeyInfo of a cert, base64
    openssl x509 -in "$1" -pubkey -noout \
        | openssl pkey -pubin -outform der \
        | openssl dgst -sha256 -binary \
        | openssl base64 -A
}

MAIN_O="/O=pinctl Test"
OTHER_O="/O=Other Test"
LEAF_SUBJ="/CN=pinning.test"

# ---------------------------------------------------------------------------
# Main PKI ("pinctl Test"), ECDSA P-256
# ---------------------------------------------------------------------------
gen_ec root-ca
sign root-ca self v3_root "$D_2025_01_01" "$D_2125_01_01" \
    "$OUT/root-ca.key" "$MAIN_O/CN=pinctl Test Root CA"

gen_ec intermediate-ca
sign intermediate-ca root-ca v3_intermediate "$D_2025_01_01" "$D_2125_01_01" \
    "$OUT/intermediate-ca.key" "$MAIN_O/CN=pinctl Test Intermediate CA"

gen_ec expired-intermediate-ca
sign expired-intermediate-ca root-ca v3_intermediate "$D_2020_01_01" "$D_2021_01_01" \
    "$OUT/expired-intermediate-ca.key" "$MAIN_O/CN=pinctl Test Expired Intermediate CA"

# name keygen issuer ext start end subject
while read -r name keygen issuer ext start end subj; do
    [[ -z $name || $name == \#* ]] && continue
    "$keygen" "$name"
    sign "$name" "$issuer" "$ext" "${!start}" "${!end}" "$OUT/$name.key" "$subj"
done <<'EOF'
leaf                            gen_ec  intermediate-ca          v3_leaf        D_2025_01_01 D_2125_01_01 /CN=pinning.test
leaf-rekeyed                    gen_ec  intermediate-ca          v3_leaf        D_2025_01_01 D_2125_01_01 /CN=pinning.test
leaf-rsa                        gen_rsa intermediate-ca          v3_leaf_rsa    D_2025_01_01 D_2125_01_01 /CN=pinning.test
wildcard                        gen_ec  intermediate-ca          v3_wildcard    D_2025_01_01 D_2125_01_01 /CN=*.pinning.test
wrong-host                      gen_ec  intermediate-ca          v3_wrong_host  D_2025_01_01 D_2125_01_01 /CN=wrong.test
cn-only                         gen_ec  intermediate-ca          v3_cn_only     D_2025_01_01 D_2125_01_01 /CN=pinning.test
expired                         gen_ec  intermediate-ca          v3_leaf        D_2020_01_01 D_2021_01_01 /CN=pinning.test
not-yet-valid                   gen_ec  intermediate-ca          v3_leaf        D_2120_01_01 D_2125_01_01 /CN=pinning.test
client-auth                     gen_ec  intermediate-ca          v3_client_auth D_2025_01_01 D_2125_01_01 /CN=pinning.test
leaf-under-expired-intermediate gen_ec  expired-intermediate-ca  v3_leaf        D_2020_06_01 D_2125_01_01 /CN=pinning.test
self-signed                     gen_ec  self                     v3_self_signed D_2025_01_01 D_2125_01_01 /CN=pinning.test
EOF

# Renewal: same key as leaf.pem, same subject/SANs, new serial, new dates.
sign leaf-renewed intermediate-ca v3_leaf "$D_2026_01_01" "$D_2125_06_01" \
    "$OUT/leaf.key" "$LEAF_SUBJ"

# ---------------------------------------------------------------------------
# Second independent PKI ("Other Test"), RSA-2048
# ---------------------------------------------------------------------------
gen_rsa other-root-ca
sign other-root-ca self v3_root "$D_2025_01_01" "$D_2125_01_01" \
    "$OUT/other-root-ca.key" "$OTHER_O/CN=Other Test Root CA"
gen_rsa other-intermediate-ca
sign other-intermediate-ca other-root-ca v3_intermediate "$D_2025_01_01" "$D_2125_01_01" \
    "$OUT/other-intermediate-ca.key" "$OTHER_O/CN=Other Test Intermediate CA"
gen_rsa other-leaf
sign other-leaf other-intermediate-ca v3_leaf_rsa "$D_2025_01_01" "$D_2125_01_01" \
    "$OUT/other-leaf.key" "$LEAF_SUBJ"

# ---------------------------------------------------------------------------
# Bundles, DER copies, pin files
# ---------------------------------------------------------------------------
cat "$OUT/leaf.pem" "$OUT/intermediate-ca.pem"                    >"$OUT/leaf-chain.pem"
cat "$OUT/leaf.pem" "$OUT/intermediate-ca.pem" "$OUT/root-ca.pem" >"$OUT/leaf-fullchain.pem"
cat "$OUT/other-leaf.pem" "$OUT/other-intermediate-ca.pem"        >"$OUT/other-leaf-chain.pem"

for n in leaf intermediate-ca root-ca; do
    run openssl x509 -in "$OUT/$n.pem" -outform der -out "$OUT/$n.der"
done

{
    echo "# pinctl test pin: SPKI SHA-256 of certs/leaf.pem (generated by scripts/make-certs.sh)"
    echo "sha256/$(spki_b64 "$OUT/leaf.pem")  # CN=pinning.test"
} >"$OUT/pins/leaf.pin"
{
    echo "# pinctl test pin: SPKI SHA-256 of certs/intermediate-ca.pem, RFC 7469 form (generated by scripts/make-certs.sh)"
    echo "pin-sha256=\"$(spki_b64 "$OUT/intermediate-ca.pem")\"  # CN=pinctl Test Intermediate CA"
} >"$OUT/pins/intermediate.pin"
{
    echo "# pinctl test pin: SPKI SHA-256 of certs/root-ca.pem (generated by scripts/make-certs.sh)"
    echo "sha256/$(spki_b64 "$OUT/root-ca.pem")  # CN=pinctl Test Root CA"
} >"$OUT/pins/root.pin"

# Every individual certificate (not bundles), in a stable order.
CERTS=(
    root-ca intermediate-ca leaf leaf-renewed leaf-rekeyed leaf-rsa
    wildcard wrong-host cn-only expired not-yet-valid client-auth
    expired-intermediate-ca leaf-under-expired-intermediate self-signed
    other-root-ca other-intermediate-ca other-leaf
)
for n in "${CERTS[@]}"; do
    echo "$n.pem sha256/$(spki_b64 "$OUT/$n.pem")"
done >"$OUT/spki-pins.txt"

# ---------------------------------------------------------------------------
# README
# ---------------------------------------------------------------------------
cat >"$OUT/README.md" <<'EOF'
# pinctl test certificates

Every file in this directory is generated by `scripts/make-certs.sh` (re-run it to regenerate; keys change on every run, dates are fixed) and is for tests only — the private keys are included deliberately and must never be trusted or used outside the test suite.

Key types: "EC" = ECDSA P-256 (named curve), "RSA" = RSA-2048; all signatures SHA-256; keys are unencrypted PKCS#8 PEM. Main PKI subjects carry `O=pinctl Test`, Other PKI CAs carry `O=Other Test`; leaf subjects are just `CN=...`. "Leaf SANs" = DNS:pinning.test, DNS:localhost, IP:127.0.0.1, IP:::1. Dates are UTC, 00:00:00Z.

| File | What it is | Validity | Key | Test scenario |
|---|---|---|---|---|
| `root-ca.pem` | Self-signed root CA, CN=pinctl Test Root CA (CA:TRUE, keyCertSign+cRLSign) | 2025-01-01 → 2125-01-01 | EC | Trust anchor of the main PKI (`-CAfile`); CA/root pinning |
| `root-ca.key` | Private key of root-ca.pem | — | EC | Signing; not normally needed by tests |
| `root-ca.der` | root-ca.pem in DER | 2025-01-01 → 2125-01-01 | EC | Loading DER certificates / DER trust anchors |
| `intermediate-ca.pem` | Intermediate CA, CN=pinctl Test Intermediate CA, signed by root-ca (pathlen:0) | 2025-01-01 → 2125-01-01 | EC | Issuer of all main leaves; intermediate pinning; `-untrusted` chain element |
| `intermediate-ca.key` | Private key of intermediate-ca.pem | — | EC | Signing; not normally needed by tests |
| `intermediate-ca.der` | intermediate-ca.pem in DER | 2025-01-01 → 2125-01-01 | EC | Loading DER certificates |
| `leaf.pem` | Server leaf CN=pinning.test, leaf SANs, serverAuth, signed by intermediate-ca | 2025-01-01 → 2125-01-01 | EC | The baseline valid server certificate: everything should pass |
| `leaf.key` | Private key of leaf.pem **and** leaf-renewed.pem | — | EC | TLS test server key for leaf.pem / leaf-renewed.pem |
| `leaf.der` | leaf.pem in DER | 2025-01-01 → 2125-01-01 | EC | Loading DER certificates; certificate-hash pinning over DER bytes |
| `leaf-renewed.pem` | Renewal of leaf.pem: same key (leaf.key), same subject/SANs/issuer, new serial | 2026-01-01 → 2125-06-01 | EC (= leaf.key) | Renewal: public-key (SPKI) pinning survives, certificate pinning does not |
| `leaf-rekeyed.pem` | Re-issued leaf with a NEW key, same subject/SANs/issuer | 2025-01-01 → 2125-01-01 | EC | Re-key: both SPKI pin and certificate pin of leaf.pem must fail; chain still valid |
| `leaf-rekeyed.key` | Private key of leaf-rekeyed.pem | — | EC | TLS test server key |
| `leaf-rsa.pem` | Same names as leaf, RSA key (digitalSignature+keyEncipherment), signed by the EC intermediate | 2025-01-01 → 2125-01-01 | RSA | RSA SPKI hashing/pinning; mixed RSA leaf under EC CA |
| `leaf-rsa.key` | Private key of leaf-rsa.pem | — | RSA | TLS test server key |
| `wildcard.pem` | Leaf CN=*.pinning.test, SAN DNS:*.pinning.test only | 2025-01-01 → 2125-01-01 | EC | Wildcard hostname matching (matches foo.pinning.test, not pinning.test) |
| `wildcard.key` | Private key of wildcard.pem | — | EC | TLS test server key |
| `wrong-host.pem` | Leaf CN=wrong.test, SAN DNS:wrong.test only | 2025-01-01 → 2125-01-01 | EC | Chain valid but hostname mismatch for pinning.test |
| `wrong-host.key` | Private key of wrong-host.pem | — | EC | TLS test server key |
| `cn-only.pem` | Leaf CN=pinning.test with NO subjectAltName extension | 2025-01-01 → 2125-01-01 | EC | Legacy CN-only name: pinctl, like Apple, never takes a name from the CN (hostname-mismatch); `openssl verify` would fall back to it |
| `cn-only.key` | Private key of cn-only.pem | — | EC | TLS test server key |
| `expired.pem` | Like leaf (leaf SANs) but expired | 2020-01-01 → 2021-01-01 | EC | Expired leaf: `openssl verify` error 10 (certificate has expired) |
| `expired.key` | Private key of expired.pem | — | EC | TLS test server key |
| `not-yet-valid.pem` | Like leaf (leaf SANs) but valid only in the future | 2120-01-01 → 2125-01-01 | EC | Not-yet-valid leaf: error 9 (certificate is not yet valid) |
| `not-yet-valid.key` | Private key of not-yet-valid.pem | — | EC | TLS test server key |
| `client-auth.pem` | Like leaf (leaf SANs) but extendedKeyUsage clientAuth only | 2025-01-01 → 2125-01-01 | EC | Wrong EKU: `-purpose sslserver` error 26 ("unsuitable certificate purpose" in OpenSSL 3.0); also a client certificate for mTLS tests |
| `client-auth.key` | Private key of client-auth.pem | — | EC | TLS client key |
| `expired-intermediate-ca.pem` | Second intermediate, CN=pinctl Test Expired Intermediate CA, signed by root-ca, expired | 2020-01-01 → 2021-01-01 | EC | Expired intermediate in the chain |
| `expired-intermediate-ca.key` | Private key of expired-intermediate-ca.pem | — | EC | Signing; not normally needed by tests |
| `leaf-under-expired-intermediate.pem` | Valid leaf (leaf SANs) signed by expired-intermediate-ca | 2020-06-01 → 2125-01-01 | EC | Leaf itself valid but chain fails: error 10 at depth 1 (use `-untrusted expired-intermediate-ca.pem`) |
| `leaf-under-expired-intermediate.key` | Private key of leaf-under-expired-intermediate.pem | — | EC | TLS test server key |
| `self-signed.pem` | Self-signed end-entity CN=pinning.test, leaf SANs, CA:FALSE, serverAuth, SKI, no AKI | 2025-01-01 → 2125-01-01 | EC | Untrusted self-signed server cert: error 18 against root-ca; pin-only (trust-on-pin) scenarios |
| `self-signed.key` | Private key of self-signed.pem | — | EC | TLS test server key |
| `other-root-ca.pem` | Independent self-signed root, CN=Other Test Root CA | 2025-01-01 → 2125-01-01 | RSA | Second trust anchor: RSA CA; pins of the main PKI must not match it; cross-PKI failures (error 20) |
| `other-root-ca.key` | Private key of other-root-ca.pem | — | RSA | Signing; not normally needed by tests |
| `other-intermediate-ca.pem` | Intermediate CN=Other Test Intermediate CA, signed by other-root-ca (pathlen:0) | 2025-01-01 → 2125-01-01 | RSA | RSA intermediate; intermediate pinning with RSA SPKI |
| `other-intermediate-ca.key` | Private key of other-intermediate-ca.pem | — | RSA | Signing; not normally needed by tests |
| `other-leaf.pem` | Leaf CN=pinning.test, leaf SANs, digitalSignature+keyEncipherment, serverAuth, signed by other-intermediate-ca | 2025-01-01 → 2125-01-01 | RSA | Valid for pinning.test but from a different PKI: CA-pin/leaf-pin mismatch (e.g. MITM with another CA) |
| `other-leaf.key` | Private key of other-leaf.pem | — | RSA | TLS test server key |
| `leaf-chain.pem` | Bundle: leaf.pem + intermediate-ca.pem | — | EC | What a server sends (`-cert_chain`); chain building without the root |
| `leaf-fullchain.pem` | Bundle: leaf.pem + intermediate-ca.pem + root-ca.pem | — | EC | Server sends the full chain including the root |
| `other-leaf-chain.pem` | Bundle: other-leaf.pem + other-intermediate-ca.pem | — | RSA | Server chain for the Other PKI |
| `pins/leaf.pin` | Pin file: `#` header, then `sha256/BASE64  # CN=pinning.test` for leaf.pem's SPKI | — | — | Leaf SPKI pin; matches leaf.pem and leaf-renewed.pem, not leaf-rekeyed.pem |
| `pins/intermediate.pin` | Pin file: `#` header, then RFC 7469 `pin-sha256="BASE64"  # CN=...` for intermediate-ca.pem | — | — | Intermediate SPKI pin in RFC 7469 syntax; matches every main-PKI leaf chain through intermediate-ca |
| `pins/root.pin` | Pin file: `#` header, then `sha256/BASE64  # CN=...` for root-ca.pem | — | — | Root (trust-anchor) SPKI pin |
| `spki-pins.txt` | One line per certificate file: `FILE sha256/BASE64` (SHA-256 of DER SPKI) | — | — | Expected pin values for every individual .pem certificate above (no bundles) |
| `README.md` | This file | — | — | Documentation |
EOF

# ---------------------------------------------------------------------------
# Self-tests (run on the staging copy; certs/ is replaced only if all pass)
# ---------------------------------------------------------------------------
cd "$OUT"
NCHECK=0
ok() { NCHECK=$((NCHECK + 1)); }

# 1. exact file list
EXPECTED_FILES=$(
    {
        for n in "${CERTS[@]}"; do echo "$n.pem"; [[ $n == leaf-renewed ]] || echo "$n.key"; done
        printf '%s\n' leaf.der intermediate-ca.der root-ca.der \
            leaf-chain.pem leaf-fullchain.pem other-leaf-chain.pem \
            pins/leaf.pin pins/intermediate.pin pins/root.pin spki-pins.txt README.md
    } | LC_ALL=C sort
)
ACTUAL_FILES=$(find . -type f | sed 's|^\./||' | LC_ALL=C sort)
[[ "$EXPECTED_FILES" == "$ACTUAL_FILES" ]] \
    || die "file list mismatch:"$'\n'"$(diff <(echo "$EXPECTED_FILES") <(echo "$ACTUAL_FILES") || true)"
ok
# ... and README.md documents every file
while read -r f; do
    grep -qF "| \`$f\` |" README.md || die "README.md does not describe $f"
done <<<"$ACTUAL_FILES"
ok

# 2. dates
expect_dates() {   # FILE "notBefore" "notAfter"   (openssl x509 -dates format)
    local got want
    got=$(openssl x509 -in "$1" -noout -startdate -enddate | tr '\n' '|')
    want="notBefore=$2|notAfter=$3|"
    [[ $got == "$want" ]] || die "$1 dates: got '$got', want '$want'"
    ok
}
DEF_NB="Jan  1 00:00:00 2025 GMT"; DEF_NA="Jan  1 00:00:00 2125 GMT"
for n in root-ca intermediate-ca leaf leaf-rekeyed leaf-rsa wildcard wrong-host \
         cn-only client-auth self-signed other-root-ca other-intermediate-ca other-leaf; do
    expect_dates "$n.pem" "$DEF_NB" "$DEF_NA"
done
expect_dates leaf-renewed.pem  "Jan  1 00:00:00 2026 GMT" "Jun  1 00:00:00 2125 GMT"
expect_dates expired.pem       "Jan  1 00:00:00 2020 GMT" "Jan  1 00:00:00 2021 GMT"
expect_dates not-yet-valid.pem "Jan  1 00:00:00 2120 GMT" "Jan  1 00:00:00 2125 GMT"
expect_dates expired-intermediate-ca.pem "Jan  1 00:00:00 2020 GMT" "Jan  1 00:00:00 2021 GMT"
expect_dates leaf-under-expired-intermediate.pem "Jun  1 00:00:00 2020 GMT" "Jan  1 00:00:00 2125 GMT"

# 3. keys: each cert matches its key; key types; renewal/re-key relations
pub_of_cert() { openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der | openssl base64 -A; }
pub_of_key()  { openssl pkey -in "$1" -pubout -outform der | openssl base64 -A; }
for n in "${CERTS[@]}"; do
    k="$n.key"; [[ $n == leaf-renewed ]] && k=leaf.key
    [[ $(pub_of_cert "$n.pem") == "$(pub_of_key "$k")" ]] || die "$n.pem does not match $k"
    ok
    case $n in
        leaf-rsa|other-*) want="RSA-2048" ;;
        *)                want="EC-P-256" ;;
    esac
    txt=$(openssl pkey -in "$k" -noout -text_pub)
    if [[ $want == RSA-2048 ]]; then
        grep -q "Public-Key: (2048 bit)" <<<"$txt" && grep -q "^Modulus" <<<"$txt" \
            || die "$k is not RSA-2048"
    else
        grep -q "ASN1 OID: prime256v1" <<<"$txt" && grep -q "NIST CURVE: P-256" <<<"$txt" \
            || die "$k is not a named-curve P-256 key"
    fi
    ok
    openssl x509 -in "$n.pem" -noout -text | grep -q "Signature Algorithm: .*[Ss][Hh][Aa]256" \
        || die "$n.pem is not signed with SHA-256"
    ok
    openssl x509 -in "$n.pem" -noout -text | grep -q "Version: 3 (0x2)" || die "$n.pem is not v3"
    ok
done
[[ $(pub_of_cert leaf-rekeyed.pem) != "$(pub_of_cert leaf.pem)" ]] || die "leaf-rekeyed has the same key as leaf"
ok
[[ $(openssl x509 -in leaf-renewed.pem -noout -serial) != "$(openssl x509 -in leaf.pem -noout -serial)" ]] \
    || die "leaf-renewed has the same serial as leaf"
ok
# SKI on every cert; AKI (= issuer's SKI) on every cert except the self-signed leaf
ski() { openssl x509 -in "$1" -noout -ext subjectKeyIdentifier 2>/dev/null | sed -n '2s/^ *//p'; }
aki() { openssl x509 -in "$1" -noout -ext authorityKeyIdentifier 2>/dev/null | sed -n '2s/^ *\(keyid:\)\{0,1\}//p'; }
issuer_of() {
    case $1 in
        root-ca|self-signed)                    echo "$1" ;;
        intermediate-ca|expired-intermediate-ca) echo root-ca ;;
        leaf-under-expired-intermediate)         echo expired-intermediate-ca ;;
        other-root-ca)                           echo other-root-ca ;;
        other-intermediate-ca)                   echo other-root-ca ;;
        other-leaf)                              echo other-intermediate-ca ;;
        *)                                       echo intermediate-ca ;;
    esac
}
for n in "${CERTS[@]}"; do
    [[ -n $(ski "$n.pem") ]] || die "$n.pem has no subjectKeyIdentifier"
    if [[ $n == self-signed ]]; then
        [[ -z $(aki "$n.pem") ]] || die "self-signed.pem unexpectedly has an AKI"
    else
        [[ $(aki "$n.pem") == "$(ski "$(issuer_of "$n").pem")" && -n $(aki "$n.pem") ]] \
            || die "$n.pem AKI does not match the SKI of $(issuer_of "$n").pem"
    fi
    ok
done
# all serials unique
[[ $(for n in "${CERTS[@]}"; do openssl x509 -in "$n.pem" -noout -serial; done | sort | uniq -d) == "" ]] \
    || die "duplicate serial numbers"
ok
# cn-only really has no SAN; the pin files agree with spki-pins.txt
! openssl x509 -in cn-only.pem -noout -ext subjectAltName 2>/dev/null | grep -q . \
    || die "cn-only.pem has a subjectAltName"
ok
grep -qxF "leaf.pem $(grep -o 'sha256/[A-Za-z0-9+/=]*' pins/leaf.pin)" spki-pins.txt || die "pins/leaf.pin mismatch"
grep -qxF "root-ca.pem $(grep -o 'sha256/[A-Za-z0-9+/=]*' pins/root.pin)" spki-pins.txt || die "pins/root.pin mismatch"
grep -qxF "intermediate-ca.pem sha256/$(sed -n 's/^pin-sha256="\([^"]*\)".*/\1/p' pins/intermediate.pin)" spki-pins.txt \
    || die "pins/intermediate.pin mismatch"
ok
[[ $(openssl x509 -in leaf.der -inform der -outform pem) == "$(openssl x509 -in leaf.pem)" ]] || die "leaf.der mismatch"
ok

# 4. chain verification in strict mode at 2026-06-01
# verify_expect EXPECT(ok|"ERR@DEPTH ...") ARGS...   (EXPECT lists every error line expected, in order)
verify_expect() {
    local expect=$1; shift
    local out rc=0 errs
    out=$(openssl verify -x509_strict -attime "$AT_2026_06_01" "$@" 2>&1) || rc=$?
    errs=$(sed -n 's/^error \([0-9]*\) at \([0-9]*\) depth lookup.*/\1@\2/p' <<<"$out" | tr '\n' ' ' | sed 's/ $//')
    if [[ $expect == ok ]]; then
        [[ $rc -eq 0 && -z $errs && $out == *": OK" ]] || die "expected OK: openssl verify $*"$'\n'"$out"
    else
        [[ $rc -ne 0 && $errs == "$expect" ]] \
            || die "expected error(s) '$expect', got '$errs' (rc=$rc): openssl verify $*"$'\n'"$out"
    fi
    ok
}
MAIN=(-CAfile root-ca.pem -untrusted intermediate-ca.pem)
OTHER=(-CAfile other-root-ca.pem -untrusted other-intermediate-ca.pem)

verify_expect ok "${MAIN[@]}" intermediate-ca.pem
verify_expect ok -CAfile root-ca.pem root-ca.pem
for n in leaf leaf-renewed leaf-rekeyed leaf-rsa wildcard wrong-host cn-only; do
    verify_expect ok "${MAIN[@]}" "$n.pem"
    verify_expect ok "${MAIN[@]}" -purpose sslserver "$n.pem"
done
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_hostname pinning.test leaf.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_hostname localhost leaf.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_ip 127.0.0.1 leaf.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_ip ::1 leaf.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_hostname pinning.test leaf-renewed.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_hostname pinning.test leaf-rekeyed.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_hostname pinning.test leaf-rsa.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_hostname foo.pinning.test wildcard.pem
verify_expect "62@0" "${MAIN[@]}" -purpose sslserver -verify_hostname pinning.test wildcard.pem
verify_expect "62@0" "${MAIN[@]}" -purpose sslserver -verify_hostname pinning.test wrong-host.pem
verify_expect ok "${MAIN[@]}" -purpose sslserver -verify_hostname pinning.test cn-only.pem
verify_expect ok -CAfile root-ca.pem -untrusted leaf-chain.pem -purpose sslserver leaf.pem
verify_expect ok -CAfile root-ca.pem -untrusted leaf-fullchain.pem -purpose sslserver leaf.pem

verify_expect "10@0" "${MAIN[@]}" -purpose sslserver expired.pem
verify_expect "9@0"  "${MAIN[@]}" -purpose sslserver not-yet-valid.pem
verify_expect ok     "${MAIN[@]}" -purpose sslclient client-auth.pem
verify_expect "26@0" "${MAIN[@]}" -purpose sslserver client-auth.pem
verify_expect "10@1" -CAfile root-ca.pem -untrusted expired-intermediate-ca.pem -purpose sslserver \
    leaf-under-expired-intermediate.pem
verify_expect "18@0" -CAfile root-ca.pem -purpose sslserver self-signed.pem
verify_expect ok -CAfile self-signed.pem -purpose sslserver -verify_hostname pinning.test self-signed.pem

verify_expect ok "${OTHER[@]}" other-intermediate-ca.pem
verify_expect ok "${OTHER[@]}" -purpose sslserver -verify_hostname pinning.test other-leaf.pem
verify_expect ok -CAfile other-root-ca.pem -untrusted other-leaf-chain.pem -purpose sslserver other-leaf.pem
verify_expect "20@1" -CAfile other-root-ca.pem -untrusted intermediate-ca.pem -purpose sslserver leaf.pem
verify_expect "20@1" -CAfile root-ca.pem -untrusted other-intermediate-ca.pem -purpose sslserver other-leaf.pem

# ---------------------------------------------------------------------------
# Install: replace certs/ with the verified staging copy.
# ---------------------------------------------------------------------------
chmod 0644 -- "$OUT"/*.key   # test-only keys: readable like every other fixture
cd "$REPO_ROOT"
# certs/limbo/ and its section of README.md belong to scripts/make-limbo-certs.sh: carry them over.
LIMBO_SECTION="## certs/limbo/ (scripts/make-limbo-certs.sh)"
if [[ -d "$DEST/limbo" ]]; then
    cp -R -- "$DEST/limbo" "$OUT/limbo"
    printf '\n' >>"$OUT/README.md"
    awk -v section="$LIMBO_SECTION" '$0 == section { found = 1 } found { print }' "$DEST/README.md" >>"$OUT/README.md"
fi
rm -rf -- "$DEST"
cp -R -- "$OUT" "$DEST"

echo "make-certs.sh: OK — $(find "$DEST" -type f | wc -l) files in ${DEST#"$REPO_ROOT"/}/, $NCHECK self-checks passed ($((SECONDS - START_TIME))s)"
