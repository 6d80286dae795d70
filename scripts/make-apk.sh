#!/usr/bin/env bash
# Builds an Android package (APK) for pinctl's tests from a decoded tree, as a release pipeline's tools would:
# Debian's apktool compiles the manifest and res/ to binary XML and resources.arsc (with aapt) and smali/ to DEX,
# zipalign aligns the archive and apksigner signs it with a key made for the run. Nothing downloaded, nothing
# committed: the tests write the tree, then run this.
#   scripts/make-apk.sh TREE OUT.apk
# TREE holds AndroidManifest.xml, res/ and optionally smali/; apktool.yml is written when missing.
# Needs apktool, zipalign, apksigner and keytool (scripts/setup.sh --tests installs them).
# With PINCTL_APK_CACHE set to a directory (the suite's scripts set .build/test-apks), a tree built before is copied
# from there, keyed by the digest of its files and of this script: each tool is a JVM, about 5 s of CPU a package, and
# CI runs the end-to-end tests twice (under ASan, then against the installed package).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/make-apk.sh TREE OUT.apk" >&2; exit 2; }
tree=$1 out=$2
[ -f "$tree/AndroidManifest.xml" ] || { echo "make-apk: $tree/AndroidManifest.xml: no such file" >&2; exit 2; }
cached=""
if [ -n "${PINCTL_APK_CACHE:-}" ]; then
    script=$(readlink -f "$0")
    key=$( (cd "$tree" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum; sha256sum <"$script") \
        | sha256sum | cut -c1-64)
    cached=$PINCTL_APK_CACHE/$key.apk
    if [ -f "$cached" ]; then
        cp "$cached" "$out"
        exit 0
    fi
fi
for tool in apktool zipalign apksigner keytool; do
    command -v "$tool" >/dev/null || { echo "make-apk: $tool not found: run scripts/setup.sh --tests" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$tree" "$work/tree"
if [ ! -f "$work/tree/apktool.yml" ]; then
    printf 'version: 2.7.0\napkFileName: app.apk\nisFrameworkApk: false\nusesFramework:\n  ids:\n  - 1\n' \
        >"$work/tree/apktool.yml"
fi
# apktool looks for a bundled aapt first and says so on stderr; Debian's is the one on PATH. Its home is the run's.
# Its framework folder too: Java takes the home from the password file, not HOME, and runs in parallel raced to
# create ~/.local/share/apktool/framework on a new machine ("Can't create directory").
mkdir -p "$work/framework"
HOME=$work apktool b --frame-path "$work/framework" "$work/tree" -o "$work/unaligned.apk" >"$work/apktool.log" 2>&1 \
    || { cat "$work/apktool.log" >&2; exit 1; }
zipalign -f 4 "$work/unaligned.apk" "$work/aligned.apk"
# RSA: apksigner refuses ECDSA for an app that may install below API 18 (one with no minSdkVersion).
keytool -genkeypair -keystore "$work/keys.jks" -storepass pinctl -keypass pinctl -alias test -keyalg RSA \
    -keysize 2048 -validity 3650 -dname "CN=pinctl test" >/dev/null 2>&1
# No v4 signature: it would be a second file, OUT.apk.idsig, beside the package.
apksigner sign --ks "$work/keys.jks" --ks-pass pass:pinctl --key-pass pass:pinctl --v4-signing-enabled false \
    --out "$out" "$work/aligned.apk"
if [ -n "$cached" ]; then
    # Written whole under another name first: a suite running tests side by side may build the same tree twice.
    mkdir -p "$PINCTL_APK_CACHE"
    cp "$out" "$cached.$$"
    mv -f "$cached.$$" "$cached"
fi
