#!/bin/sh
# Issues leaves whose revocation URLs try request smuggling, under the CA of scripts/make-revocation-pki.sh, in the
# DIR that script made (it reads ca.pem and ca.key there):
#
#   scripts/make-hostile-revocation-certs.sh DIR URL
#
# URL is where the test listens (http://127.0.0.1:PORT/ocsp): the leaves point at it, so a test can see that nothing
# arrives. What follows URL in each leaf is written with the config file's \r\n escapes, so the certificate holds raw
# CR LF bytes in an IA5String, as a hostile CA (or a hostile server's self-made chain) can:
#
#   smuggle-ocsp.pem, .key   leaf whose OCSP responder (authorityInfoAccess) is URL, then CR LF, a header of its own,
#                            and a whole second request: PUT /latest/api/token to the cloud metadata host
#   smuggle-crl.pem, .key    leaf whose CRL distribution point is the same
#   NAME-chain.pem           the leaf and ca.pem, as a server sends them
set -eu

DIR=$1
URL=$2
cd "$DIR"
SMUGGLED='\r\nX-Smuggled: yes\r\n\r\nPUT /latest/api/token HTTP/1.1\r\nHost: 169.254.169.254\r\nX-Pad: x'

cat > hostile.cnf <<EOF_CNF
[ smuggle-ocsp ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:pinning.test, IP:127.0.0.1
authorityInfoAccess = OCSP;URI:$URL$SMUGGLED
[ smuggle-crl ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:pinning.test, IP:127.0.0.1
crlDistributionPoints = URI:$URL$SMUGGLED
EOF_CNF

serial=0x5000
for name in smuggle-ocsp smuggle-crl; do
    serial=$((serial + 1))
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$name.key" 2>/dev/null
    openssl req -new -key "$name.key" -out "$name.csr" -subj "/CN=$name.pinning.test"
    openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -set_serial "$serial" \
        -days 7300 -out "$name.pem" -extfile hostile.cnf -extensions "$name" 2>/dev/null
    cat "$name.pem" ca.pem > "$name-chain.pem"
done

# The raw CR bytes must be in the certificates, or the tests would prove nothing.
for name in smuggle-ocsp smuggle-crl; do
    crs=$(openssl x509 -in "$name.pem" -noout -text | tr -d -c '\r' | wc -c)
    [ "$crs" -ge 4 ] || { echo "$name.pem holds no CR LF in its URL" >&2; exit 1; }
done
