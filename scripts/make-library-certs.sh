#!/usr/bin/env bash
# make-library-certs.sh — (re)create certs/libraries/: the PKI the library-semantics tests use (DESIGN §6), with
# names under a real public suffix (example.com), since TrustKit refuses to pin a domain like pinning.test.
#
# Uses the openssl CLI only (OpenSSL 3.0.x). Dates are fixed, keys are fresh on every run; leaf keys are kept so
# the tests can serve the chains on loopback. Everything is built and checked with `openssl verify` in a temp dir
# first; only then is certs/libraries/ replaced. Nothing else in certs/ is touched.
#
# Usage: scripts/make-library-certs.sh        (no arguments, runnable from anywhere)
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
DEST="$REPO_ROOT/certs/libraries"
command -v openssl >/dev/null || { echo "make-library-certs.sh: openssl not found" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pinctl-make-libraries.XXXXXX")"
trap 'rm -rf -- "$WORK"' EXIT
OUT="$WORK/libraries"
DB="$WORK/ca-db"
mkdir -p "$OUT" "$DB/newcerts" "$WORK/csr" "$WORK/keys"
: >"$DB/index.txt"

AT_2026_06_01=1780272000    # the tests' fixed evaluation time

die() { echo "make-library-certs.sh: FAIL: $*" >&2; exit 1; }
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

[ leaf ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:api.example.com, DNS:www.example.com, DNS:example.com

[ wildcard ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:*.example.com, DNS:*.api.example.com

[ client ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = clientAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
subjectAltName         = DNS:api.example.com

[ nosan ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always

[ selfsigned ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectKeyIdentifier   = hash
subjectAltName         = DNS:api.example.com
EOF

gen_ec()  { run openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:"${2:-P-256}" -pkeyopt ec_param_enc:named_curve -out "$WORK/keys/$1.key"; }
gen_rsa() { run openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:"$2" -out "$WORK/keys/$1.key"; }

# sign NAME ISSUER(basename or "self") EXT START END SUBJECT
sign() {
    local name=$1 issuer=$2 ext=$3 start=$4 end=$5 subj=$6
    run openssl req -new -key "$WORK/keys/$name.key" -subj "$subj" -sha256 -out "$WORK/csr/$name.csr"
    local -a issuer_args
    if [[ $issuer == self ]]; then
        issuer_args=(-selfsign -keyfile "$WORK/keys/$name.key")
    else
        issuer_args=(-cert "$OUT/$issuer.pem" -keyfile "$WORK/keys/$issuer.key")
    fi
    run openssl ca -batch -notext -md sha256 -rand_serial -preserveDN -outdir "$DB/newcerts" "${issuer_args[@]}" \
        -startdate "$start" -enddate "$end" -extfile "$EXT" -extensions "$ext" \
        -in "$WORK/csr/$name.csr" -out "$OUT/$name.pem"
}

O="/O=pinctl Libraries"
S=20250101000000Z
E=21250101000000Z
while read -r name keygen keyarg issuer ext start end subj; do
    [[ -z $name || $name == \#* ]] && continue
    "$keygen" "$name" "$keyarg"
    sign "$name" "$issuer" "$ext" "$start" "$end" "$subj"
done <<EOF
root-ca                       gen_ec   P-256  self                       root          $S $E $O/CN=Libraries Root CA
intermediate-ca               gen_ec   P-256  root-ca                    intermediate  $S $E $O/CN=Libraries Intermediate CA
other-intermediate-ca         gen_ec   P-256  root-ca                    intermediate  $S $E $O/CN=Libraries Other Intermediate CA
leaf                          gen_ec   P-256  intermediate-ca            leaf          $S $E /CN=api.example.com
leaf-rekeyed                  gen_ec   P-256  intermediate-ca            leaf          $S $E /CN=api.example.com
leaf-other-intermediate       gen_ec   P-256  other-intermediate-ca      leaf          $S $E /CN=api.example.com
other-root-ca                 gen_ec   P-256  self                       root          $S $E $O/CN=Libraries Other Root CA
other-root-intermediate-ca    gen_ec   P-256  other-root-ca              intermediate  $S $E $O/CN=Libraries Other Root Intermediate CA
leaf-other-root               gen_ec   P-256  other-root-intermediate-ca leaf          $S $E /CN=api.example.com
expired-root-ca               gen_ec   P-256  self                       root          20200101000000Z 20250101000000Z $O/CN=Libraries Expired Root CA
leaf-under-expired-root       gen_ec   P-256  expired-root-ca            leaf          20200101000000Z $E /CN=api.example.com
leaf-p521                     gen_ec   P-521  intermediate-ca            leaf          $S $E /CN=api.example.com
leaf-rsa2048                  gen_rsa  2048   intermediate-ca            leaf          $S $E /CN=api.example.com
wildcard-leaf                 gen_ec   P-256  intermediate-ca            wildcard      $S $E /CN=*.example.com
client-auth-leaf              gen_ec   P-256  intermediate-ca            client        $S $E /CN=api.example.com
no-san-leaf                   gen_ec   P-256  intermediate-ca            nosan         $S $E /CN=api.example.com
self-signed                   gen_ec   P-256  self                       selfsigned    $S $E /CN=api.example.com
EOF

# ---------------------------------------------------------------------------
# Self-checks with openssl verify (the oracle): the chains verify as the tests assume.
# ---------------------------------------------------------------------------
cd "$OUT"
NCHECK=0
expect() {   # EXPECT(ok | error number) ARGS...
    local expected=$1; shift
    local out rc=0
    out=$(openssl verify -x509_strict -partial_chain -attime "$AT_2026_06_01" "$@" 2>&1) || rc=$?
    if [[ $expected == ok ]]; then
        [[ $rc -eq 0 ]] || die "expected OK: openssl verify $*"$'\n'"$out"
    else
        grep -q "^error $expected at" <<<"$out" || die "expected error $expected: openssl verify $*"$'\n'"$out"
    fi
    NCHECK=$((NCHECK + 1))
}
R=(-CAfile root-ca.pem)
for leaf in leaf leaf-rekeyed leaf-p521 leaf-rsa2048 wildcard-leaf no-san-leaf; do
    expect ok "${R[@]}" -untrusted intermediate-ca.pem -purpose sslserver $leaf.pem
done
expect ok  "${R[@]}" -untrusted other-intermediate-ca.pem -verify_hostname api.example.com leaf-other-intermediate.pem
expect ok  "${R[@]}" -untrusted intermediate-ca.pem -verify_hostname api.example.com leaf.pem
expect ok  "${R[@]}" -untrusted intermediate-ca.pem -verify_hostname a.example.com wildcard-leaf.pem
# (openssl's CLI reads the CN when there is no SAN, which pinctl never does: check that there is none.)
openssl x509 -in no-san-leaf.pem -noout -ext subjectAltName 2>/dev/null | grep -q DNS && die "no-san-leaf has a SAN"
expect 26  "${R[@]}" -untrusted intermediate-ca.pem -purpose sslserver client-auth-leaf.pem
expect 20  "${R[@]}" -untrusted other-root-intermediate-ca.pem leaf-other-root.pem
expect ok  -CAfile other-root-ca.pem -untrusted other-root-intermediate-ca.pem -verify_hostname api.example.com leaf-other-root.pem
expect 10  -CAfile expired-root-ca.pem leaf-under-expired-root.pem
expect 18  "${R[@]}" self-signed.pem
expect ok  -CAfile self-signed.pem -verify_hostname api.example.com self-signed.pem
openssl x509 -in leaf-p521.pem -noout -text | grep -q "NIST CURVE: P-521" || die "leaf-p521 is not P-521"
openssl x509 -in leaf-rsa2048.pem -noout -text | grep -q "Public-Key: (2048 bit)" || die "leaf-rsa2048 is not RSA 2048"

# Chain files, leaf first, as a server presents them.
cat leaf.pem intermediate-ca.pem >leaf-chain.pem
cat leaf-rekeyed.pem intermediate-ca.pem >leaf-rekeyed-chain.pem
cat leaf-other-intermediate.pem other-intermediate-ca.pem >leaf-other-intermediate-chain.pem
cat leaf-other-root.pem other-root-intermediate-ca.pem >leaf-other-root-chain.pem
cat leaf-p521.pem intermediate-ca.pem >leaf-p521-chain.pem
cat wildcard-leaf.pem intermediate-ca.pem >wildcard-leaf-chain.pem

# Leaf keys, to serve the chains on loopback.
for leaf in leaf leaf-rekeyed leaf-other-intermediate leaf-other-root self-signed; do
    cp "$WORK/keys/$leaf.key" "$leaf.key"
done

# Pins computed with the openssl CLI: the tests' oracle, never pinctl's own code.
{
    echo "# file sha256-SPKI-pin sha1-SPKI-pin (openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst)"
    for file in $(ls *.pem | grep -v -- '-chain.pem$' | LC_ALL=C sort); do
        der=$(openssl x509 -in "$file" -pubkey -noout | openssl pkey -pubin -outform der | base64 -w0)
        sha256=$(base64 -d <<<"$der" | openssl dgst -sha256 -binary | base64)
        sha1=$(base64 -d <<<"$der" | openssl dgst -sha1 -binary | base64)
        echo "$file sha256/$sha256 sha1/$sha1"
    done
} >spki-pins.txt

cat >README.md <<'EOF'
# certs/libraries/ (scripts/make-library-certs.sh)

Made by `scripts/make-library-certs.sh`; re-run it to regenerate (keys change, dates are fixed). The PKI of the
library-semantics tests (DESIGN §6). Names sit under a real public suffix because TrustKit refuses to pin a name
like `pinning.test`. Leaves carry SANs api.example.com, www.example.com and example.com with EKU serverAuth, EC
P-256, valid 2025-01-01 → 2125-01-01, unless stated. `spki-pins.txt` lists each certificate's SHA-256 and SHA-1
SPKI pins, computed with the openssl CLI.

| File | What it is |
|---|---|
| `root-ca.pem` | Self-signed root, CN=Libraries Root CA: the anchor standing for the system store (`--ca-file`) |
| `intermediate-ca.pem` | Intermediate under root-ca |
| `other-intermediate-ca.pem` | A second intermediate under root-ca (a new-intermediate rotation) |
| `leaf.pem`, `leaf.key` | The leaf under intermediate-ca |
| `leaf-rekeyed.pem`, `leaf-rekeyed.key` | The same names under intermediate-ca with a new key (a rekey rotation) |
| `leaf-other-intermediate.pem`, `.key` | The same names under other-intermediate-ca, new key |
| `other-root-ca.pem` | A second self-signed root, not in the store (a new-CA rotation; an Android `@raw` anchor) |
| `other-root-intermediate-ca.pem` | Intermediate under other-root-ca |
| `leaf-other-root.pem`, `.key` | The same names under other-root-intermediate-ca |
| `expired-root-ca.pem` | Self-signed root valid 2020-01-01 → 2025-01-01: expired at the tests' time (2026-06-01) |
| `leaf-under-expired-root.pem` | Leaf directly under expired-root-ca, valid 2020 → 2125 |
| `leaf-p521.pem` | Leaf with an EC P-521 key (TrustKit cannot hash it) |
| `leaf-rsa2048.pem` | Leaf with an RSA-2048 key |
| `wildcard-leaf.pem` | Leaf CN=*.example.com, SANs *.example.com and *.api.example.com |
| `client-auth-leaf.pem` | Leaf with EKU clientAuth only (not for TLS servers) |
| `no-san-leaf.pem` | Leaf CN=api.example.com without any SAN |
| `self-signed.pem`, `.key` | Self-signed end-entity certificate for api.example.com (CA:FALSE, serverAuth) |
| `*-chain.pem` | A leaf followed by its intermediate, as a server presents it: leaf, leaf-rekeyed, leaf-other-intermediate, leaf-other-root, leaf-p521, wildcard-leaf |
| `spki-pins.txt` | `file sha256/… sha1/…` for every certificate |
EOF

rm -rf -- "$DEST"
cp -R -- "$OUT" "$DEST"
# The example policy file pins these certificates: rewrite it with the new pins.
"$SCRIPT_DIR/make-example.sh"
echo "make-library-certs.sh: OK — $(find "$DEST" -type f | wc -l) files in certs/libraries/, $NCHECK openssl checks passed"
