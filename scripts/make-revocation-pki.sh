#!/bin/sh
# Makes a small PKI for revocation tests with the openssl CLI, in DIR:
#
#   scripts/make-revocation-pki.sh DIR OCSP_URL CRL_URL
#
# The leaves name OCSP_URL as their OCSP responder (authorityInfoAccess) and CRL_URL as their CRL distribution point,
# so the tests start `openssl ocsp -port` and an HTTP server there. `openssl ocsp` always signs with thisUpdate = now
# (it has no option to backdate), so nothing here can be fixed in the past: certificates, responses and the CRL are
# valid from now for 20 years, and the tests evaluate `--at` a fixed time inside that span (2036-01-01), never the
# clock. staple-stale.der is the one exception: it expires a day after it is made.
#
#   root.pem             self-signed root, the anchor (--ca-file)
#   ca.pem, ca.key       intermediate CA, issuer of every leaf below and of the CRL
#   responder.pem, .key  delegated OCSP responder: issued by ca.pem, extendedKeyUsage OCSPSigning
#   good.pem, .key       leaf, valid in index.txt
#   revoked.pem, .key    leaf, revoked in index.txt (keyCompromise) and listed in ca.crl
#   unknown.pem, .key    leaf issued by ca.pem but never recorded in index.txt: the responder answers "unknown"
#   noaia.pem, .key      leaf without an OCSP responder or a CRL distribution point
#   NAME-chain.pem       the leaf and ca.pem, as a server sends them
#   index.txt            the CA database `openssl ocsp -index` reads
#   ca.crl               the CRL, DER (ca.crl.pem: PEM)
#   staple-NAME.der      OCSP responses for good, revoked and unknown, signed by the responder (s_server -status_file)
#   staple-forged.der    a response for good signed by rogue.pem, a key the CA never certified
#   staple-other.der     the response for revoked, stapled by a server presenting good: about another certificate
#   staple-stale.der     a response for good whose nextUpdate is a day after it was made
set -eu

DIR=$1
OCSP_URL=$2
CRL_URL=$3
mkdir -p "$DIR"
cd "$DIR"
mkdir -p newcerts
: > index.txt
echo 1000 > serial
echo 1000 > crlnumber

cat > ca.cnf <<EOF
[ ca ]
default_ca = CA
[ CA ]
dir = .
database = index.txt
new_certs_dir = newcerts
serial = serial
crlnumber = crlnumber
certificate = ca.pem
private_key = ca.key
default_md = sha256
default_days = 7300
default_crl_days = 7300
policy = anything
unique_subject = no
email_in_dn = no
[ anything ]
commonName = supplied
[ leaf ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:pinning.test, IP:127.0.0.1
authorityInfoAccess = OCSP;URI:$OCSP_URL
crlDistributionPoints = URI:$CRL_URL
[ noaia ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:pinning.test, IP:127.0.0.1
[ responder ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
[ intermediate ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }

key root
openssl req -x509 -new -key root.key -out root.pem -subj "/O=pinctl Revocation Test/CN=Revocation Root CA" \
    -days 7300 -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"

key ca
openssl req -new -key ca.key -out ca.csr -subj "/O=pinctl Revocation Test/CN=Revocation Issuing CA"
openssl x509 -req -in ca.csr -CA root.pem -CAkey root.key -set_serial 2 -days 7300 -out ca.pem \
    -extfile ca.cnf -extensions intermediate 2>/dev/null

issue() { # NAME EXTENSIONS
    key "$1"
    openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$1.pinning.test"
    openssl ca -config ca.cnf -batch -notext -extensions "$2" -in "$1.csr" -out "$1.pem" 2>/dev/null
    cat "$1.pem" ca.pem > "$1-chain.pem"
}
issue good leaf
issue revoked leaf
issue responder responder
issue noaia noaia
openssl ca -config ca.cnf -revoke revoked.pem -crl_reason keyCompromise 2>/dev/null

# Issued outside the CA database: the responder has never heard of it.
key unknown
openssl req -new -key unknown.key -out unknown.csr -subj "/CN=unknown.pinning.test"
openssl x509 -req -in unknown.csr -CA ca.pem -CAkey ca.key -set_serial 0x7777 -days 7300 -out unknown.pem \
    -extfile ca.cnf -extensions leaf 2>/dev/null
cat unknown.pem ca.pem > unknown-chain.pem

openssl ca -config ca.cnf -gencrl -out ca.crl.pem 2>/dev/null
openssl crl -in ca.crl.pem -outform DER -out ca.crl

respond() { # NAME SIGNER OUT
    openssl ocsp -issuer ca.pem -cert "$1.pem" -no_nonce -reqout "$1.req" 2>/dev/null
    openssl ocsp -index index.txt -CA ca.pem -rsigner "$2.pem" -rkey "$2.key" -ndays "${4:-7300}" -reqin "$1.req" \
        -respout "$3" 2>/dev/null
}
respond good responder staple-good.der
respond revoked responder staple-revoked.der
respond unknown responder staple-unknown.der
cp staple-revoked.der staple-other.der

key rogue
openssl req -x509 -new -key rogue.key -out rogue.pem -subj "/CN=Rogue OCSP Signer" -days 7300 \
    -addext "extendedKeyUsage=OCSPSigning"
respond good rogue staple-forged.der
respond good responder staple-stale.der 1
