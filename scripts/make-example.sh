#!/usr/bin/env bash
# make-example.sh — (re)write examples/: a policy file for six shipped apps, one per library, and the files they
# ship (pins, an iOS Info.plist, an Android network_security_config.xml and the APK built from it), all pinning
# certs/libraries/. The pins are taken from
# certs/libraries/spki-pins.txt (computed with the openssl CLI), so run this after scripts/make-library-certs.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pins="$root/certs/libraries/spki-pins.txt"
[ -f "$pins" ] || { echo "make-example.sh: run scripts/make-library-certs.sh first" >&2; exit 1; }
pin() { awk -v f="$1" '$1 == f { print $2 }' "$pins"; }
bare() { pin "$1" | sed 's|^sha256/||'; }

out="$root/examples"
rm -rf "$out"
mkdir -p "$out/ios/pins" "$out/android/res/xml" "$out/android/res/raw"
# The iOS apps bundle the intermediate's certificate (AFNetworking and Alamofire read .cer files).
openssl x509 -in "$root/certs/libraries/intermediate-ca.pem" -outform der -out "$out/ios/pins/intermediate-ca.cer"
# Android trusts the system store and, for the CDN, a private root bundled as a raw resource.
cp "$root/certs/libraries/other-root-ca.pem" "$out/android/res/raw/cdn_root.pem"

cat >"$out/android/res/xml/network_security_config.xml" <<EOF
<?xml version="1.0" encoding="utf-8"?>
<!-- What the Android app ships: pins on today's leaf key and a backup key, until the end of 2027. -->
<network-security-config>
    <base-config cleartextTrafficPermitted="false">
        <trust-anchors>
            <certificates src="system" />
        </trust-anchors>
    </base-config>
    <domain-config>
        <domain includeSubdomains="true">api.example.com</domain>
        <pin-set expiration="2027-12-31">
            <pin digest="SHA-256">$(bare leaf.pem)</pin>
            <pin digest="SHA-256">$(bare leaf-rekeyed.pem)</pin>
        </pin-set>
        <domain-config>
            <domain>cdn.api.example.com</domain>
            <trust-anchors>
                <certificates src="@raw/cdn_root" />
            </trust-anchors>
        </domain-config>
    </domain-config>
</network-security-config>
EOF

cat >"$out/ios/Info.plist" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- What the newest iOS app ships: App Transport Security pins the intermediate's key and a backup CA's key. -->
<plist version="1.0">
<dict>
	<key>CFBundleIdentifier</key>
	<string>com.example.shop</string>
	<key>CFBundleShortVersionString</key>
	<string>6.0</string>
	<key>NSAppTransportSecurity</key>
	<dict>
		<key>NSPinnedDomains</key>
		<dict>
			<key>api.example.com</key>
			<dict>
				<key>NSIncludesSubdomains</key>
				<true/>
				<key>NSPinnedCAIdentities</key>
				<array>
					<dict>
						<key>SPKI-SHA256-BASE64</key>
						<string>$(bare intermediate-ca.pem)</string>
					</dict>
					<dict>
						<key>SPKI-SHA256-BASE64</key>
						<string>$(bare other-intermediate-ca.pem)</string>
					</dict>
				</array>
			</dict>
		</dict>
	</dict>
</dict>
</plist>
EOF

cat >"$out/pinctl.yaml" <<EOF
# The apps a team has shipped, each pinning api.example.com its own way. Check them all at once:
#   pinctl check --config examples/pinctl.yaml
#   pinctl verify --config examples/pinctl.yaml --chain next-chain.pem --host api.example.com
version: 1
anchors:
  # Stands in for the system trust store, so the example works offline; drop it to use the real store.
  ca-files: [../certs/libraries/root-ca.pem]
targets: [api.example.com]
apps:
  - name: ios-afn
    versions: ["4.2", "4.3", "4.4"]
    library: afnetworking
    hosts: [api.example.com]
    policy: { mode: publickey, pins: [ios/pins/] }
  - name: ios-alamofire
    versions: ["5.0"]
    library: alamofire
    policy:
      allHostsMustBeEvaluated: true
      evaluators:
        api.example.com: { kind: public-keys, keys: [ios/pins/] }
  - name: ios-trustkit
    versions: ["3.1", "3.2"]
    library: trustkit
    policy:
      domains:
        api.example.com:
          includeSubdomains: true
          # today's leaf key, and a backup key that was never deployed
          publicKeyHashes: [$(bare leaf.pem), $(bare leaf-other-intermediate.pem)]
  - name: ios-ats
    versions: ["6.0"]
    library: ats
    config: ios/Info.plist
  - name: okhttp-sdk
    versions: ["2.7.0"]
    library: okhttp
    policy:
      pins:
        "**.example.com": [$(pin root-ca.pem), $(pin other-root-ca.pem)]
  - name: android
    versions: ["5.0-5.9"]
    library: nsc
    config: android/res/xml/network_security_config.xml
EOF
# The Android app as its release build ships it (#35): a manifest and the same res/, compiled by apktool and aapt,
# aligned and signed (scripts/make-apk.sh, which needs scripts/setup.sh --tests). Committed, so that the demo judges
# a real APK with no Android tool installed. No <uses-sdk>: the demo judges it as the other apps, on the anchors the
# policy file gives, whether or not store snapshots are installed.
cat >"$out/android/AndroidManifest.xml" <<EOF
<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop"
    android:versionCode="59" android:versionName="5.9">
    <application android:label="Shop" android:networkSecurityConfig="@xml/network_security_config" />
</manifest>
EOF
# Its HTTP client pins with OkHttp too, in code: the intermediate's key and a backup key, as d8 compiles
# `CertificatePinner.Builder().add("api.example.com", INTERMEDIATE, BACKUP).build()` (the constants inlined).
mkdir -p "$out/android/smali/com/example/shop"
cat >"$out/android/smali/com/example/shop/Api.smali" <<EOF
.class public final Lcom/example/shop/Api;
.super Ljava/lang/Object;

.method public static pinner()Lokhttp3/CertificatePinner;
    .registers 5
    new-instance v0, Lokhttp3/CertificatePinner\$Builder;
    invoke-direct {v0}, Lokhttp3/CertificatePinner\$Builder;-><init>()V
    const-string v1, "api.example.com"
    const-string v2, "$(pin intermediate-ca.pem)"
    const-string v3, "$(pin leaf-other-intermediate.pem)"
    filled-new-array {v2, v3}, [Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, v1, v2}, Lokhttp3/CertificatePinner\$Builder;->add(Ljava/lang/String;[Ljava/lang/String;)Lokhttp3/CertificatePinner\$Builder;
    move-result-object v0
    invoke-virtual {v0}, Lokhttp3/CertificatePinner\$Builder;->build()Lokhttp3/CertificatePinner;
    move-result-object v0
    return-object v0
.end method
EOF
"$root/scripts/make-apk.sh" "$out/android" "$out/android/app-release.apk"
echo "make-example.sh: wrote $(find "$out" -type f | wc -l) files in examples/"
