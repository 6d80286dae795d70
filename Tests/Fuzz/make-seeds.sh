#!/usr/bin/env bash
# Writes the committed seed corpus, Tests/Fuzz/corpus/<target>/, from certs/, the test fixtures and the openssl CLI.
#   Tests/Fuzz/make-seeds.sh [TARGET...]     (no target: all of them)
# Seeds are starting points: a few dozen small, real inputs per target, covering each accepted form and the
# common ways to get one wrong. Re-running replaces a target's seeds (the extra certificates get new keys, so name
# the targets whose seeds should change); the corpus libFuzzer grows while it runs lives under .build-fuzz/ and is
# never committed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
certs="$root/certs"
fixtures="$root/Tests/Fixtures"
corpus="$root/Tests/Fuzz/corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
targets=("$@")

wanted() {  # TARGET: whether its seeds are to be written
    [ ${#targets[@]} -eq 0 ] || [[ " ${targets[*]} " == *" $1 "* ]]
}

fresh() {  # TARGET: an empty seed directory
    rm -rf "${corpus:?}/$1"
    mkdir -p "$corpus/$1"
    echo "$corpus/$1"
}

if wanted FuzzCertificates || wanted FuzzCertificateDER; then

# Self-signed certificates of the kinds certs/ lacks, so each key type and SAN type has a seed:
# NAME KEY-OPTIONS... (the subject and SANs are the same for all).
extra() {
    local name=$1
    shift
    openssl genpkey "$@" -out "$work/$name.key" 2>/dev/null
    openssl req -x509 -new -key "$work/$name.key" -days 36500 -set_serial 0x00ff01 -utf8 \
        -subj "/CN=fuzz-$name.test/O=Fuzz Seed Ümlaut/OU=テスト" \
        -addext "subjectAltName=DNS:fuzz.test,IP:192.0.2.1,IP:2001:db8::1,email:a@fuzz.test,URI:https://fuzz.test/" \
        -out "$work/$name.pem" 2>/dev/null
    openssl x509 -in "$work/$name.pem" -outform DER -out "$work/$name.der"
}
extra ed25519 -algorithm ED25519
extra ed448 -algorithm ED448
extra rsa-pss -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:1024
extra secp256k1 -algorithm EC -pkeyopt ec_paramgen_curve:secp256k1
extra p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384
extra dsa -paramfile <(openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:1024 2>/dev/null)
# A DER certificate with the PEM marker in its subject: once read as PEM text and rejected (fixed, see
# Tests/OpenSSLWrapperTests/FuzzFindingTests.swift, which reads this seed).
openssl req -x509 -new -key "$certs/leaf.key" -days 36500 -subj "/CN=-----BEGIN marker in a name" \
    -outform DER -out "$work/pem-marker-in-subject.der" 2>/dev/null
trusted_body() {  # PEM-FILE: the DER inside `BEGIN TRUSTED CERTIFICATE`: the certificate, then its trust settings
    openssl x509 -in "$1" -trustout -addtrust serverAuth -addreject clientAuth -setalias "fuzz alias" \
        | sed '1d;$d' | base64 -d
}

fi

# FuzzCertificates: whole certificate files, PEM or DER.
if wanted FuzzCertificates; then
dir=$(fresh FuzzCertificates)
for name in leaf root-ca intermediate-ca leaf-rsa other-root-ca cn-only wildcard self-signed expired; do
    cp "$certs/$name.pem" "$dir/$name.pem"
done
for name in leaf-chain leaf-fullchain other-leaf-chain; do cp "$certs/$name.pem" "$dir/$name.pem"; done
for name in leaf root-ca intermediate-ca; do cp "$certs/$name.der" "$dir/$name.der"; done
cat "$certs/leaf.der" "$certs/intermediate-ca.der" "$certs/root-ca.der" >"$dir/fullchain.der"
cat "$certs/leaf.pem" "$certs/leaf.key" >"$dir/leaf-then-key.pem"
cat "$certs/leaf-rsa.key" "$certs/leaf-rsa.pem" "$certs/intermediate-ca.pem" >"$dir/rsa-key-then-chain.pem"
cp "$certs/leaf.key" "$dir/key-only.pem"
openssl pkey -in "$certs/leaf.key" -pubout -out "$dir/public-key-only.pem"
openssl x509 -in "$certs/leaf.pem" -text >"$dir/leaf-text-then-pem.pem"
openssl x509 -in "$certs/root-ca.pem" -trustout -addtrust serverAuth -setalias "fuzz alias" >"$dir/trusted.pem"
sed 's/$/\r/' "$certs/leaf-chain.pem" >"$dir/leaf-chain-crlf.pem"
sed 's/CERTIFICATE/X509 CERTIFICATE/' "$certs/leaf.pem" >"$dir/x509-label.pem"
head -n 5 "$certs/leaf.pem" >"$dir/truncated.pem"
{ cat "$certs/leaf.pem"; printf -- '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n'; } \
    >"$dir/good-then-bad.pem"
head -c 200 "$certs/leaf.der" >"$dir/truncated.der"
{ cat "$certs/leaf.der"; printf '\n'; } >"$dir/der-then-newline.der"
for name in ed25519 ed448 rsa-pss secp256k1 p384 dsa; do cp "$work/$name.pem" "$dir/extra-$name.pem"; done
cp "$work/ed25519.der" "$dir/extra-ed25519.der"
cp "$work/pem-marker-in-subject.der" "$dir/regression-pem-marker-in-subject.der"

fi

# FuzzCertificateDER: the DER of one certificate, optionally followed by its trust settings.
if wanted FuzzCertificateDER; then
dir=$(fresh FuzzCertificateDER)
for name in leaf root-ca intermediate-ca; do cp "$certs/$name.der" "$dir/$name.der"; done
for name in leaf-rsa other-root-ca cn-only wildcard self-signed expired client-auth; do
    openssl x509 -in "$certs/$name.pem" -outform DER -out "$dir/$name.der"
done
for name in ed25519 ed448 rsa-pss secp256k1 p384 dsa; do cp "$work/$name.der" "$dir/extra-$name.der"; done
trusted_body "$certs/root-ca.pem" >"$dir/root-ca-trusted.der"
trusted_body "$work/ed25519.pem" >"$dir/extra-ed25519-trusted.der"
cat "$certs/leaf.der" "$certs/root-ca.der" >"$dir/two-certificates.der"
cp "$work/pem-marker-in-subject.der" "$dir/regression-pem-marker-in-subject.der"

fi

# FuzzPinFile: .pin files.
if wanted FuzzPinFile; then
dir=$(fresh FuzzPinFile)
cp "$certs/pins/"*.pin "$dir/"
leaf=$(grep '^leaf.pem ' "$certs/spki-pins.txt" | cut -d' ' -f2)
root=$(grep '^root-ca.pem ' "$certs/spki-pins.txt" | cut -d' ' -f2)
cut -d' ' -f2 "$certs/spki-pins.txt" >"$dir/every-fixture.pin"
printf '%s\r\n# backup\r\n%s\r\n' "$leaf" "$root" >"$dir/crlf.pin"
printf 'pin-sha256="%s";\n\t%s  ;  # with semicolons\n' "${leaf#sha256/}" "$root" >"$dir/rfc7469.pin"
printf '# only comments\n\n   \n# and blank lines\n' >"$dir/comments-only.pin"
printf '%s\n%s\n' "$leaf" "${root%?}" >"$dir/truncated-base64.pin"
printf '%s\n' "${leaf%????}" >"$dir/short-hash.pin"
printf 'pin-sha256=%s\n' "${leaf#sha256/}" >"$dir/unquoted.pin"
printf 'sha1/%s\n' "${leaf#sha256/}" >"$dir/wrong-algorithm.pin"
printf '\xef\xbb\xbf%s\n' "$leaf" >"$dir/byte-order-mark.pin"
printf '%s\xe2\x80\xa8%s\n' "$leaf" "$root" >"$dir/line-separator.pin"
printf '%s\n\xff\xfe\n' "$leaf" >"$dir/not-utf8.pin"
printf '%s' "$leaf" >"$dir/no-final-newline.pin"
cat "$certs/leaf.pem" >"$dir/certificate-by-mistake.pin"

fi

# FuzzTargetSyntax: targets as written on the command line.
if wanted FuzzTargetSyntax; then
dir=$(fresh FuzzTargetSyntax)
n=0
for target in pinning.test pinning.test:8443 127.0.0.1 127.0.0.1:443 '[::1]:8443' ::1 '[::1]' \
    https://pinning.test 'https://user:secret@pinning.test:8443/path?query#fragment' 'HTTPS://[2001:db8::1]:443/' \
    ::ffff:192.0.2.1 '[::ffff:192.0.2.1]:65535' xn--bcher-kva.example:1 http://pinning.test '[::1' '[1.2.3.4]:80' \
    pinning.test:0 pinning.test:65536 pinning.test: :443 'fe80::1%eth0' 'bücher.example' 'a b' 'host:+80' \
    'https://pinning.test@evil.test/' 'https://[::1]x'; do
    n=$((n + 1))
    printf '%s' "$target" >"$dir/$(printf '%02d' $n)"
done

fi

# FuzzTimestamp: --at values.
if wanted FuzzTimestamp; then
dir=$(fresh FuzzTimestamp)
n=0
for at in 2026-01-31T12:00:00Z 2026-01-31T12:00Z 2026-01-31T14:00:00+02:00 2026-01-31 @0 @1780272000 \
    @-62135596800 @253402300799 0001-01-01T00:00:00Z 9999-12-31T23:59:59Z 2024-02-29 2023-02-29 2100-02-29 \
    2000-02-29T23:59:59.999999-05:30 2026-01-31T12:00:00,5z 2026-01-31t12:00:00Z 10000-01-01 0000-01-01 \
    2026-13-01 2026-01-31T24:00:00Z 2026-01-31T23:59:60Z @ @1e9 '@ 5' 0001-01-01T00:00:00+00:01 \
    9999-12-31T23:59:59-00:01 2026-1-31 '2026-01-31 12:00:00Z'; do
    n=$((n + 1))
    printf '%s' "$at" >"$dir/$(printf '%02d' $n)"
done
fi

# FuzzPolicyFile: pinctl.yaml files. The target reads each as examples/pinctl.yaml, so the paths below are the
# example's own files: a pin folder, an Android config, the libraries' root.
if wanted FuzzPolicyFile; then
dir=$(fresh FuzzPolicyFile)
cp "$root/examples/pinctl.yaml" "$dir/example.yaml"
pin=$(grep '^leaf.pem ' "$certs/libraries/spki-pins.txt" | cut -d' ' -f2)
seed() { printf '%s\n' "$2" >"$dir/$1.yaml"; }  # NAME TEXT
seed every-library "version: 1
anchors: { ca-files: [../certs/libraries/root-ca.pem], ca-paths: ios/pins/ }
targets: [api.example.com, 'cdn.example.com:8443', 'https://[::1]:443/']
apps:
  - { name: afn, library: afnetworking, versions: ['4.2', 4.10], hosts: api.example.com,
      policy: { mode: certificate, allowInvalidCertificates: false, validatesDomainName: true, pins: [ios/pins/] } }
  - { name: afn-bundle, library: afnetworking, hosts: [api.example.com], config: ios/pins, mode: publickey }
  - { name: alamofire, library: alamofire, hosts: [api.example.com], config: ios/pins/, evaluator: public-keys }
  - name: trustkit
    library: trustkit
    policy: { domains: { example.com: { includeSubdomains: true, enforcePinning: false,
              expirationDate: 2030-01-01, publicKeyHashes: [${pin#sha256/}, ${pin#sha256/}] } } }
  - { name: okhttp, library: okhttp, policy: { pins: { '*.example.com': [$pin], api.example.com: [$pin] } } }
  - { name: nsc, library: nsc, config: android/res/xml/network_security_config.xml, debuggable: true }"
seed alias "targets: &hosts [api.example.com]
apps:
  - name: alias
    library: okhttp
    hosts: *hosts
    policy: { pins: { api.example.com: [$pin] } }"
seed no-apps "version: 1
targets: api.example.com"
seed unknown-key "apps:
  - name: typo
    library: okhtp
    polcy: {}"
seed duplicate-names "apps: [{ name: a, library: okhttp, policy: { pins: {} } }, { name: a, library: okhttp, policy: { pins: {} } }]"
seed tab-indented "apps:
	- name: tab"
seed unclosed-flow "apps: [{ name: a, library: nsc"
seed version-two "version: 2"
seed missing-config "apps: [{ name: gone, library: trustkit, config: ios/Info.plist }]"
printf '' >"$dir/empty.yaml"
printf 'apps:\r\n  - name: crlf\r\n    library: afnetworking\r\n    policy: { mode: none }\r\n' >"$dir/crlf.yaml"
printf 'apps: [{ name: "\xff", library: okhttp }]\n' >"$dir/not-utf8.yaml"
# Files without a final newline, whose end libyaml put on a line after the last (fixed, see
# Tests/PolicyEngineTests/FuzzFindingTests.swift, which reads these seeds).
printf 'version: 1\nanchors: {' >"$dir/regression-flow-open-at-end.yaml"
printf 'apps:' >"$dir/regression-empty-value-at-end.yaml"
fi

# FuzzNSCXML: the NSC fixtures (the target reads each from their res/xml/, so @raw/ names their certificates). The
# _debug companions are read as files of their own: the target has none.
if wanted FuzzNSCXML; then
dir=$(fresh FuzzNSCXML)
cp "$fixtures/nsc/res/xml/"*.xml "$dir/"
# An expiration past the year 9999, which the export wrote cut to ten characters, 51013-06-3 (fixed, see
# Tests/PolicyEngineTests/FuzzFindingTests.swift, which reads this seed).
pin=$(grep '^intermediate-ca.pem ' "$certs/libraries/spki-pins.txt" | cut -d' ' -f2)
cat >"$dir/regression-five-digit-year.xml" <<EOF
<network-security-config>
  <domain-config>
    <domain>example.com</domain>
    <pin-set expiration="51013-06-30"><pin digest="SHA-256">${pin#sha256/}</pin></pin-set>
  </domain-config>
</network-security-config>
EOF
fi

# FuzzTrustKitPlist: the TrustKit and ATS fixtures, XML and binary plists and JSON, accepted and refused.
if wanted FuzzTrustKitPlist; then
dir=$(fresh FuzzTrustKitPlist)
cp "$fixtures/trustkit/"*.plist "$fixtures/trustkit/"*.json "$dir/"
# The same bytes are read as App Transport Security's NSPinnedDomains too.
cp "$fixtures/ats/Info.plist" "$dir/ats-Info.plist"
# A binary plist holding a set, { TSKPinnedDomains: set { "abc" } }, on which Foundation crashed (fixed, see
# Tests/PolicyEngineTests/FuzzFindingTests.swift): four objects at offsets 8, 11, 30 and 32, the table at 36.
{
    printf 'bplist00\xd1\x01\x02\x5f\x10\x10TSKPinnedDomains\xc1\x03\x53abc'
    printf '\x00\x08\x00\x0b\x00\x1e\x00\x20'
    printf '\x00\x00\x00\x00\x00\x00\x02\x01'
    printf '\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x24'
} >"$dir/regression-set.plist"
fi

# FuzzOkHttpSource: the OkHttp fixtures, Kotlin, Java and text lists (the target reads each as all three).
if wanted FuzzOkHttpSource; then
dir=$(fresh FuzzOkHttpSource)
cp "$fixtures/okhttp/"*.kt "$fixtures/okhttp/"*.java "$fixtures/okhttp/"*.txt "$dir/"
# The escaping rule of Java and Kotlin text (issue 17): Java's \u translated before lexing (JLS §3.3), a \u000a in a
# comment that hides an add from javac, one that shows one, the even-backslash rule; pins with whitespace (okio skips
# it), which an export must write as escapes.
cat >"$dir/unicode-escapes.java" <<'SEED'
CertificatePinner p = new CertificatePinner.Builder()
    .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=")
    // off for now \u000a /*
    .add("hidden.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=")
    // */
    /* off \u002a/ .add("live.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=") /* */
    // \\u000a .add("x.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=")
    .add("\uuuu0061.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=\u0020")
    .build();
SEED
cat >"$dir/pin-whitespace.kt" <<'SEED'
val p = CertificatePinner.Builder()
    // \u000a .add("x.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=")
    .add("a.example.com", "sha1/ Gw\tKn5zcAMBw5UyIYgPT5548op1M=\n")
    .build()
SEED
cat >"$dir/pin-whitespace.java" <<'SEED'
CertificatePinner p = new CertificatePinner.Builder()
    .add("a.example.com", "sha1/\11Gw\rKn5zcAMBw5UyIYgPT5548op1M=\s");
SEED
fi

# FuzzGradleBuildConfig: build scripts in Kotlin and Groovy (the target reads each as both), per variant and not, and
# what the one lexer of Kotlin-family text must read as the compilers do (issue 32): nested Kotlin comments, templates
# holding quoted strings, Groovy's dollar-slashy, slashy and triple-quoted strings, comments that do not nest, \u.
if wanted FuzzGradleBuildConfig; then
dir=$(fresh FuzzGradleBuildConfig)
pin=sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=
other=sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=
cat >"$dir/variants.gradle.kts" <<SEED
android {
    defaultConfig { buildConfigField("String", "PIN", "\"$pin\"") }
    buildTypes {
        getByName("release") { buildConfigField("String", "PIN", "\"$other\"") }
        debug { }
    }
    productFlavors { create("staging") { buildConfigField("String", "PIN", "\"$pin\"") } }
}
SEED
cat >"$dir/groovy-no-parentheses.gradle" <<SEED
android {
    defaultConfig {
        buildConfigField 'String', 'PIN', '"$pin"'
    }
    buildTypes { release { buildConfigField "String", "PIN", "\"$other\"" } }
}
SEED
cat >"$dir/kotlin-nested-comment.gradle.kts" <<SEED
android {
    defaultConfig {
        /* retired: /* see below */ buildConfigField("String", "PIN", "\"$other\"") """ */
        buildConfigField("String", "PIN", "\"$pin\"")
        /* """ */
    }
}
SEED
cat >"$dir/kotlin-template-quotes.gradle.kts" <<SEED
android {
    defaultConfig {
        val note = "\${ """ buildConfigField("String", "PIN", "\"$other\"") """ }\${ "\"" }"
        buildConfigField("String", "PIN", "\"$pin\"")
    }
}
SEED
cat >"$dir/groovy-dollar-slashy.gradle" <<SEED
android {
    defaultConfig {
        def note = \$/ buildConfigField 'String', 'PIN', '"$other"' ''' /\$
        buildConfigField 'String', 'PIN', '"$pin"'
        def end = \$/ ''' \$\$ \$/ /\$
    }
}
SEED
cat >"$dir/groovy-comment-gstring.gradle" <<SEED
def half = total / 2
android {
    defaultConfig {
        /* retired: /* buildConfigField 'String', 'PIN', '"$other"' */
        buildConfigField 'String', 'PIN', '"$pin"'
        def note = "\${" buildConfigField 'String', 'PIN', '\"$other\"' "}"
        def pattern = /buildConfigField 'String', 'PIN', '"hidden"'/
        def triple = '''a''''
    }
}
SEED
printf 'android { defaultConfig {\n  def n = size\n  /x/\n} }\n' >"$dir/groovy-slash-after-line-break.gradle"
printf '%s\n' 'android { defaultConfig {' "  // \\u002a/ buildConfigField 'String', 'PIN', '\"x\"'" '} }' \
    >"$dir/groovy-unicode-escape.gradle"
printf '%s\n' 'android { defaultConfig { /* /* */ buildConfigField("String", "PIN", "\"x\"") } }' \
    >"$dir/unterminated-nested-comment.gradle.kts"
printf 'android { defaultConfig { buildConfigField("String", "PIN", "\\"%s\\"" + suffix) } }\n' "$pin" \
    >"$dir/concatenated.gradle.kts"
fi

# FuzzOutputEscaping: text pinctl prints: terminal controls, GitHub Actions workflow commands (##[ anywhere, :: at a
# line's start, with ignorable or blank characters around), what XML 1.0 cannot hold, and what GitHub's Markdown
# links or ends a code span or a table cell at.
if wanted FuzzOutputEscaping; then
dir=$(fresh FuzzOutputEscaping)
printf 'api ##[stop-commands]tok1' >"$dir/stop-commands-in-a-name"
printf '##[error]forged' >"$dir/legacy-error"
printf '  ::error title=x::forged' >"$dir/leading-command"
printf '#\xc2\xad#[error]soft hyphen between' >"$dir/ignorable-between"
printf '\xc2\xa0::warning::after a no-break space' >"$dir/nbsp-before-command"
printf 'evil\x1b[2J\x1b]0;owned\x07.test' >"$dir/terminal-controls"
printf 'nul\x00 del\x7f c1\xc2\x9b bidi\xe2\x80\xae' >"$dir/nul-del-c1-bidi"
printf 'cr\rlf\ntab\t<&"'"'"'> -- x-' >"$dir/xml-specials-and-breaks"
printf '\xef\xbf\xbe\xef\xbf\xbf' >"$dir/noncharacters"
printf '\\x1B \\x23#[ already escaped' >"$dir/already-escaped"
printf 'bad utf8 \xff\xfe' >"$dir/not-utf8"
printf 'ops@example.com www.example.org https://evil.example/ @octocat #123 :tada: ![i](x)' >"$dir/markdown-autolinks"
printf '`` a ` b ```' >"$dir/markdown-backtick-runs"
printf ' a\\|b | c\\ ' >"$dir/markdown-pipes-backslashes-spaces"
fi

# FuzzCTLogList: apple-ct-logs.cnf as scripts/build_stores.py writes it, with the test logs' keys of certs/ct/, and
# the ways a hand-edited or hostile one goes wrong (variables, directives, quotes, times, keys).
if wanted FuzzCTLogList; then
dir=$(fresh FuzzCTLogList)
key() { sed -n "/^\[$1\]/,/^key/s/^key = //p" "$certs/ct/ct-logs.cnf"; }
a=$(key a)
b=$(key b)
c=$(key c)
rsa=$(openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 2>/dev/null | openssl pkey -pubout -outform DER \
    | base64 -w0)
list() {  # DESCRIPTION-OF-A EXTRA-LINES-OF-A
    printf '# pinctl store snapshot: Apple'"'"'s CT log list (written by scripts/build-stores.sh)\n'
    printf 'list_date = 2025-09-01\nlist_source = security_certificates 0123abcd (security_certificates-55313.0.8)\n'
    printf 'enabled_logs = a,c,r\nuntrusted_logs = b\n\n'
    printf '[a]\ndescription = %s\nkey = %s\noperator = Operator A\n%s\n' "$1" "$a" "$2"
    printf '[b]\ndescription = CT Log B\nkey = %s\noperator = Operator B\nuntrusted = rejected 2025-06-01T00:00:00Z\n\n' "$b"
    printf '[c]\ndescription = CT Log C\nkey = %s\noperator = \nretired = 2025-06-01T00:00:00Z\n\n' "$c"
    printf '[r]\ndescription = RSA log\nkey = %s\noperator = Operator R\n' "$rsa"
}
list 'CT Log A' 'readonly = 2025-07-01T00:00:00Z' >"$dir/builder-form.cnf"
list 'CT Log A' $'shard_start = 2025-01-01T00:00:00Z\nshard_end = 2026-01-01T00:00:00Z' >"$dir/sharded.cnf"
list "Cloudflare \\'Nimbus\\' \\\"x\\\" \\\$HOME \\# \\\\" '' >"$dir/escapes.cnf"
list 'CT Log A $ENV::HOME ${HOME}' '' >"$dir/variables.cnf"
list "it's" '' >"$dir/unescaped-quote.cnf"
list 'CT Log A' '.include /etc/hostname' >"$dir/include.cnf"
list 'CT Log A' 'url = https://a.ct.test/' >"$dir/unknown-key.cnf"
list 'CT Log A' 'readonly = 2025-02-30T00:00:00Z' >"$dir/no-such-day.cnf"
list 'CT Log A' 'untrusted = pending 2025-06-01T00:00:00Z' >"$dir/trusted-and-untrusted.cnf"
list $'CT Log A \xe2\x80\xae' '' >"$dir/bidi-override.cnf"
list 'CT Log A' '' | sed 's/$/\r/' >"$dir/crlf.cnf"
list 'CT Log A' '' | sed "s|^key = $a|key = ${a%==}AA==|" >"$dir/key-trailing-byte.cnf"
list 'CT Log A' '' | sed 's/^enabled_logs = a,c,r/enabled_logs = a,c,r,b/' >"$dir/listed-twice.cnf"
printf 'list_date = 2025-09-01\nlist_source = none\nenabled_logs = \n' >"$dir/no-logs.cnf"
printf 'PATH=/usr/bin\0TOKEN=x\0' >"$dir/environ"
fi

# FuzzStoreSnapshotFile: membership files as scripts/build_stores.py writes them, and the ways one goes wrong.
if wanted FuzzStoreSnapshotFile; then
dir=$(fresh FuzzStoreSnapshotFile)
id() { openssl x509 -in "$certs/$1" -pubkey -noout | openssl pkey -pubin -outform DER | sha256sum | cut -c1-64; }
root=$(id root-ca.pem)
other=$(id other-root-ca.pem)
suffix=$(openssl x509 -in "$certs/root-ca.pem" -outform DER | sha256sum | cut -c1-8)
block() {  # VERSION LABEL DATE ROOT...
    local version=$1 label=$2 date=$3
    shift 3
    printf 'version %s\nlabel %s\ndate %s\nsource system/ca-certificates 0123abcd (android-%s)\n' \
        "$version" "$label" "$date" "$version"
    for id in "$@"; do printf 'root %s\n' "$id"; done
}
{
    printf '# pinctl store snapshot: android (written by scripts/build-stores.sh; docs/platform-stores.md)\n\n'
    block 24 'Android 7.0 (API 24)' 2016-08-01 "$root"
    printf '\n'
    block 25 'Android 7.1.1 (API 25)' 2016-12-05 "$other" "$root" "$root-$suffix"
} >"$dir/builder-form.txt"
{ block 10.14 'macOS 10.14' 2018-09-10 "$root"; block 10.15 'macOS 10.15' 2019-09-10; block 11 'macOS 11' \
    2020-09-10 "$other"; } >"$dir/dotted-versions.txt"
sed 's/$/\r/' "$dir/builder-form.txt" >"$dir/crlf.txt"
block 24 'Android 7.0 (API 24)' 2016-08-01 "$root" | grep -v '^label' >"$dir/no-label.txt"
block 24 'Android 7.0 (API 24)' 2016-08-01 "$root" | grep -v '^date' >"$dir/no-date.txt"
{ block 24 'a' 2016-08-01; block 24 'b' 2016-08-02; } >"$dir/version-twice.txt"
block 24 'Android 7.0 (API 24)' 2016-8-1 >"$dir/short-date.txt"
block 24 'Android 7.0 (API 24)' 2016-08-01 "${root^^}" "$root-zz" >"$dir/bad-root-ids.txt"
block 24 $'Android \x1b[2J' 2016-08-01 >"$dir/control-in-label.txt"
printf 'label before any version\nversion 24\n' >"$dir/key-before-version.txt"
printf 'ghp_0123456789abcdefTOKEN extra\n' >"$dir/token-line.txt"
printf 'PATH=/usr/bin\0TOKEN=x y\0' >"$dir/environ"
fi

# FuzzBuildArchive: IPAs scripts/make_ipa.py builds (binary plist, universal encrypted, bundled certificate), their
# executables alone, and a few broken zips.
if wanted FuzzBuildArchive; then
dir=$(fresh FuzzBuildArchive)
make_ipa="$root/scripts/make_ipa.py"
printf '{"TSKConfiguration": {"TSKPinnedDomains": {"a.test": {"TSKPublicKeyHashes": ["%s"]}}}}' \
    "$(openssl x509 -in "$certs/root-ca.pem" -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 \
        -binary | base64)" >"$work/info.json"
"$make_ipa" "$dir/binary-plist.ipa" --name A --info "$work/info.json" --binary-plist
"$make_ipa" "$dir/fat-encrypted.ipa" --name B --encrypted --fat
"$make_ipa" "$dir/bundled-certificate.ipa" --name C --resource "$certs/root-ca.der"
python3 - "$dir" <<'PY'
import sys, zipfile
out = sys.argv[1]
for name, app in (("binary-plist", "A"), ("fat-encrypted", "B")):
    with zipfile.ZipFile(f"{out}/{name}.ipa") as z:
        open(f"{out}/{name}.macho", "wb").write(z.read(f"Payload/{app}.app/{app}"))
data = open(f"{out}/binary-plist.ipa", "rb").read()
open(f"{out}/cut-short.ipa", "wb").write(data[: len(data) // 2])
with zipfile.ZipFile(f"{out}/stored-twice.ipa", "w") as z:
    for name, data in (("Payload/D.app/Info.plist", b"<plist/>"), ("Payload/D.app/skip", b"x" * 100)):
        z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
PY
# An APK of an NSC fixture with a @raw anchor and OkHttp pins in its DEX, and its binary XML, resource table and DEX
# alone.
tree="$work/apk"
mkdir -p "$tree/res/xml" "$tree/res/raw" "$tree/smali/com/example"
cat >"$tree/smali/com/example/Net.smali" <<'SMALI'
.class public final Lcom/example/Net;
.super Ljava/lang/Object;

.method public static pinner(Z)Lokhttp3/CertificatePinner;
    .registers 8
    new-instance v0, Lokhttp3/CertificatePinner$Builder;
    invoke-direct {v0}, Lokhttp3/CertificatePinner$Builder;-><init>()V
    const-string v1, "fuzz.test"
    const-string v2, "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="
    if-eqz p0, :other
    const-string v2, "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="
    :other
    filled-new-array {v2}, [Ljava/lang/String;
    move-result-object v3
    invoke-virtual {v0, v1, v3}, Lokhttp3/CertificatePinner$Builder;->add(Ljava/lang/String;[Ljava/lang/String;)Lokhttp3/CertificatePinner$Builder;
    const/4 v4, 0x1
    new-array v3, v4, [Ljava/lang/String;
    const/4 v5, 0x0
    aput-object v2, v3, v5
    invoke-virtual/range {v0 .. v1}, Lokhttp3/CertificatePinner$Builder;->add(Ljava/lang/String;[Ljava/lang/String;)Lokhttp3/CertificatePinner$Builder;
    packed-switch v4, :table
    invoke-virtual {v0}, Lokhttp3/CertificatePinner$Builder;->build()Lokhttp3/CertificatePinner;
    move-result-object v0
    return-object v0
    :table
    .packed-switch 0x0
        :other
    .end packed-switch
.end method
SMALI
cp "$fixtures/nsc/res/xml/raw_anchors.xml" "$tree/res/xml/network_security_config.xml"
cp "$fixtures/nsc/res/raw/"{other_root.pem,other_root_der.der,two_roots.pem} "$tree/res/raw/"
cat >"$tree/AndroidManifest.xml" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.fuzz" android:versionName="1.0">
    <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="34"/>
    <application android:networkSecurityConfig="@xml/network_security_config" android:debuggable="true"/>
</manifest>
XML
"$root/scripts/make-apk.sh" "$tree" "$dir/nsc.apk"
python3 - "$dir" <<'PY'
import sys, zipfile
out = sys.argv[1]
with zipfile.ZipFile(f"{out}/nsc.apk") as z:
    for entry, name in (("AndroidManifest.xml", "manifest.axml"), ("resources.arsc", "resources.arsc"),
                        ("res/xml/network_security_config.xml", "nsc.axml"), ("classes.dex", "classes.dex")):
        open(f"{out}/{name}", "wb").write(z.read(entry))
    # The DEX cut in half: its header's tables and offsets run past the end.
    dex = z.read("classes.dex")
    open(f"{out}/cut-short.dex", "wb").write(dex[: len(dex) // 2])
PY
fi

# FuzzPinFailureReport: pin-failure reports as TrustKit 3.0.0 (TSKPinFailureReport.m: 64-column PEM, CRLF, no
# final newline) and TrustKit-Android 1.1.5 (PinningFailureReport.java: 76 columns, LF, served-certificate-chain)
# send them, with the fixture chain, and the ways a hostile body goes wrong.
if wanted FuzzPinFailureReport; then
dir=$(fresh FuzzPinFailureReport)
python3 - "$certs" "$dir" <<'PY'
import json, sys, textwrap
certs, out = sys.argv[1], sys.argv[2]
def body(name):
    return "".join(open(f"{certs}/{name}").read().splitlines()[1:-1])
def pem(name, width, newline, final):
    lines = ["-----BEGIN CERTIFICATE-----"] + textwrap.wrap(body(name), width) + ["-----END CERTIFICATE-----"]
    return newline.join(lines) + (newline if final else "")
def report(android, **changes):
    chain = [pem(n, 76, "\n", True) if android else pem(n, 64, "\r\n", False)
             for n in ("leaf.pem", "intermediate-ca.pem")]
    value = {"app-bundle-id": "com.example.App", "app-version": "3.1", "app-vendor-id": "6F1C4B0E-0D55-4B3A",
             "trustkit-version": "1.1.5" if android else "3.0.0", "hostname": "api.example.com", "port": 0,
             "noted-hostname": "api.example.com", "include-subdomains": False, "enforce-pinning": True,
             "date-time": "2026-06-01T12:00:00Z", "validated-certificate-chain": chain, "validation-result": 1,
             "known-pins": ['pin-sha256="AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="']}
    if android:
        value.update({"app-platform": "ANDROID", "served-certificate-chain": chain})
    else:
        value.update({"app-platform": "IOS", "app-platform-version": "17.2.0", "known-pins-expiration-date": None})
    value.update(changes)
    return json.dumps({k: v for k, v in value.items() if v is not Ellipsis}).encode()
seeds = {
    "ios.json": report(False), "android.json": report(True),
    "macos-result-2.json": report(False, **{"app-platform": "MACOS", "validation-result": 2}),
    "no-platform-version.json": report(False, **{"app-platform-version": ...}),
    "success-result.json": report(False, **{"validation-result": 0}),
    "unknown-platform.json": report(False, **{"app-platform": "PLAN9"}),
    "bad-time.json": report(False, **{"date-time": "2026-06-01 12:00"}),
    "empty-chain.json": report(True, **{"served-certificate-chain": []}),
    "two-in-one-entry.json": report(False, **{"validated-certificate-chain": [pem("leaf.pem", 64, "\n", True)
                                                                              + pem("intermediate-ca.pem", 64, "\n", True)]}),
    "not-a-certificate.json": report(False, **{"validated-certificate-chain": ["-----BEGIN CERTIFICATE-----\nAAAA"]}),
    "long-version.json": report(False, **{"app-version": "9" * 65}),
    "number-hostname.json": report(False, **{"hostname": 443}),
}
for name, data in seeds.items():
    open(f"{out}/{name}", "wb").write(data)
open(f"{out}/not-json.json", "wb").write(b'{"app-platform": "IOS",')
open(f"{out}/array.json", "wb").write(b"[]")
PY
fi

for dir in "$corpus"/*/; do echo "$(basename "$dir"): $(ls "$dir" | wc -l) seeds, $(du -sk "$dir" | cut -f1) KB"; done
