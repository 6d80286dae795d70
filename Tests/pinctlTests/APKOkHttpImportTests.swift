import Foundation
import Testing
import TestSupport

/// OkHttp pins read from an APK's DEX (#35, DESIGN §14) through the built pinctl, on APKs apktool assembles in the
/// test from smali written here as d8 and R8 emit it: `CertificatePinner.Builder.add` with `const-string` arguments
/// and pins in a `filled-new-array` or a `new-array` filled by `aput-object`, in classes.dex and classes2.dex, and the
/// refusals (an argument the method does not fix, renamed OkHttp, pin strings no call uses).
@Suite struct APKOkHttpImportTests {
    static let pin = "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="
    static let backup = "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="
    /// amazon.com's intermediate, DigiCert Global CA G2 (`openssl x509 -pubkey | openssl pkey -pubin -outform der |
    /// openssl dgst -sha256 -binary | base64` on ../shared/chains/amazon.com.pem's second certificate).
    static let amazonIntermediate = "sha256/njN4rRG+22dNXAi+yb8e3UMypgzPUPHlv4+foULwl1g="
    static let add = "Lokhttp3/CertificatePinner$Builder;->add(Ljava/lang/String;[Ljava/lang/String;)"
        + "Lokhttp3/CertificatePinner$Builder;"

    /// A smali class `name` (`com/example/Net`) of `methods` (each `.method` … `.end method`), extending `superclass`.
    static func smaliClass(_ name: String, superclass: String = "Ljava/lang/Object;", _ methods: String) -> String {
        ".class public L\(name);\n.super \(superclass)\n\n\(methods)\n"
    }

    /// `pinner()`: a builder, `add(host, pins…)` with the pins in a filled-new-array, then `build()`.
    static func pinner(_ method: String = "pinner", host: String, pins: [String]) -> String {
        let registers = pins.indices.map { "v\($0 + 2)" }
        return """
            .method public static \(method)()Lokhttp3/CertificatePinner;
                .registers \(pins.count + 2)
                new-instance v0, Lokhttp3/CertificatePinner$Builder;
                invoke-direct {v0}, Lokhttp3/CertificatePinner$Builder;-><init>()V
                const-string v1, "\(host)"
            \(zip(registers, pins).map { "    const-string \($0), \"\($1)\"" }.joined(separator: "\n"))
                filled-new-array {\(registers.joined(separator: ", "))}, [Ljava/lang/String;
                move-result-object v2
                invoke-virtual {v0, v1, v2}, \(add)
                move-result-object v0
                invoke-virtual {v0}, Lokhttp3/CertificatePinner$Builder;->build()Lokhttp3/CertificatePinner;
                move-result-object v0
                return-object v0
            .end method
            """
    }

    /// An APK of `classes` (path → smali; `smali_classes2/…` for the second DEX) and an optional NSC file.
    static func apk(_ name: String, in directory: TemporaryDirectory, classes: [String: String],
                    nsc: String? = nil) throws -> String {
        let tree = directory.path(name)
        try FileManager.default.createDirectory(atPath: tree + "/res/values", withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop" \
            android:versionName="5.0">
                <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="34"/>
                <application\(nsc == nil ? "" : " android:networkSecurityConfig=\"@xml/network_security_config\"")/>
            </manifest>
            """.write(toFile: tree + "/AndroidManifest.xml", atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <resources><string name="app_name">Shop</string></resources>
            """.write(toFile: tree + "/res/values/strings.xml", atomically: true, encoding: .utf8)
        if let nsc {
            try FileManager.default.createDirectory(atPath: tree + "/res/xml", withIntermediateDirectories: true)
            try nsc.write(toFile: tree + "/res/xml/network_security_config.xml", atomically: true, encoding: .utf8)
        }
        for (file, smali) in classes {
            let path = tree + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try smali.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let path = directory.path(name + ".apk")
        let made = try Subprocess.run(Certs.root + "/scripts/make-apk.sh", [tree, path], in: Certs.root, timeout: 120)
        try #require(made.status == 0, "\(made)")
        return path
    }

    func importing(_ arguments: [String]) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["config", "import"] + arguments)
    }

    func verify(_ file: String, chain: String = "amazon.com.pem", host: String = "amazon.com",
                _ extra: [String] = []) throws -> PinctlProcess.Result
    {
        // The team's snapshots, named: the installed package's would be found too (test-release.sh).
        try PinctlProcess.run(["verify", "--config", file, "--chain", try SharedData.chain(chain), "--host", host,
                               "--stores", try SharedData.stores(), "--at", "2026-03-01T00:00:00Z"] + extra)
    }

    /// A verify run's output, each matched pin's source left out (a DEX method, or the policy file's line).
    func verdicts(_ result: PinctlProcess.Result) -> [String] {
        result.stdout.split(separator: "\n").map { line in
            line.range(of: "TRUSTED  pin ").map { String(line[..<$0.upperBound]) } ?? String(line)
        }
    }

    /// Both forms d8 gives a vararg call (filled-new-array; new-array with aput-object), in classes.dex and a
    /// Java double-brace builder subclass in classes2.dex, read as the Kotlin source they stand for reads: the same
    /// verdicts on a chain the pins reject and on one they accept, and lint names each pin's method.
    @Test func pinsInEveryFormD8WritesAreReadAsTheSourceIs() throws {
        try TemporaryDirectory.with { directory in
            let aput = """
                .method public static backupPinner()Lokhttp3/CertificatePinner;
                    .registers 6
                    new-instance v0, Lokhttp3/CertificatePinner$Builder;
                    invoke-direct {v0}, Lokhttp3/CertificatePinner$Builder;-><init>()V
                    const/4 v1, 0x2
                    new-array v2, v1, [Ljava/lang/String;
                    const/4 v4, 0x0
                    const-string v3, "\(Self.backup)"
                    aput-object v3, v2, v4
                    const/4 v4, 0x1
                    const-string v3, "\(Self.amazonIntermediate)"
                    aput-object v3, v2, v4
                    const-string v1, "**.amazon.com"
                    invoke-virtual/range {v0 .. v2}, \(Self.add)
                    move-result-object v0
                    invoke-virtual {v0}, Lokhttp3/CertificatePinner$Builder;->build()Lokhttp3/CertificatePinner;
                    move-result-object v0
                    return-object v0
                .end method
                """
            // `new CertificatePinner.Builder() {{ add("api.example.com", PIN); }}`: add called on the subclass.
            let doubleBrace = """
                .method public constructor <init>()V
                    .registers 4
                    invoke-direct {p0}, Lokhttp3/CertificatePinner$Builder;-><init>()V
                    const-string v0, "api.example.com"
                    const-string v1, "\(Self.pin)"
                    filled-new-array {v1}, [Ljava/lang/String;
                    move-result-object v1
                    invoke-virtual {p0, v0, v1}, Lcom/example/Api$1;->add(Ljava/lang/String;[Ljava/lang/String;)Lokhttp3/CertificatePinner$Builder;
                    return-void
                .end method
                """
            let apk = try Self.apk("shop", in: directory, classes: [
                "smali/com/example/Net.smali": Self.smaliClass("com/example/Net",
                    Self.pinner(host: "amazon.com", pins: [Self.pin]) + "\n" + aput),
                "smali_classes2/com/example/Api$1.smali": Self.smaliClass(
                    "com/example/Api$1", superclass: "Lokhttp3/CertificatePinner$Builder;", doubleBrace),
            ])
            let imported = try importing([apk, "--name", "shop", "--verbose"])
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout == """
                  - name: shop
                    versions: [5.0]
                    library: okhttp
                    minSdk: 24
                    targetSdk: 34
                    build: \(apk)

                """, "\(imported)")
            #expect(imported.stderr.contains("CertificatePinner.Builder.add is called in 3 methods "
                + "(com.example.Net.backupPinner(), com.example.Net.pinner(), com.example.Api$1.<init>()): their pins "
                + "are read as one policy"), "\(imported)")
            #expect(!imported.stderr.contains("not read from a build"), "\(imported)")

            let source = try directory.write("Pins.kt", text: """
                val pinner = CertificatePinner.Builder()
                    .add("amazon.com", "\(Self.pin)")
                    .add("**.amazon.com", "\(Self.backup)", "\(Self.amazonIntermediate)")
                    .add("api.example.com", "\(Self.pin)")
                    .build()
                """)
            let fromSource = try importing([source, "--library", "okhttp", "--name", "shop"])
            try #require(fromSource.status == 0, "\(fromSource)")
            let built = try directory.write("built.yaml", text: "apps:\n" + imported.stdout)
            // The source says no version or API levels: the build's are given it, so both are judged on the same
            // Android versions and print alike.
            let written = try directory.write("source.yaml", text: "apps:\n" + fromSource.stdout
                .replacingOccurrences(of: "    library: okhttp",
                                      with: "    versions: [5.0]\n    library: okhttp\n    minSdk: 24\n    targetSdk: 34"))
            // amazon.com: its intermediate is pinned under **.amazon.com, pooled with amazon.com's own pin.
            for (chain, host) in [("amazon.com.pem", "amazon.com"), ("aws.amazon.com.pem", "aws.amazon.com")] {
                let fromBuild = try verify(built, chain: chain, host: host)
                let fromText = try verify(written, chain: chain, host: host)
                #expect(!verdicts(fromBuild).isEmpty && verdicts(fromBuild) == verdicts(fromText),
                        "\(fromBuild)\n\(fromText)")
                #expect(fromBuild.status == fromText.status, "\(fromBuild)\n\(fromText)")
            }
            let amazon = try verify(built)
            #expect(amazon.status == 0, "\(amazon)")
            #expect(amazon.stdout.contains("TRUSTED"), "\(amazon)")
            let lint = try PinctlProcess.run(["lint", "--config", built, "--chain", try SharedData.chain("amazon.com.pem"),
                                              "--host", "amazon.com", "--at", "2026-03-01T00:00:00Z"])
            #expect(lint.stdout.contains("\(Self.amazonIntermediate)  (\(apk)!classes.dex "
                + "(com.example.Net.backupPinner()))"), "\(lint)")
            #expect(lint.stdout.contains("\(Self.pin)  (\(apk)!classes.dex (com.example.Net.pinner()))"), "\(lint)")
        }
    }

    /// The pins rejecting amazon.com's chain from the build: exit 1 on every Android version from the manifest's
    /// minSdk, OkHttp's message naming the DEX's pins.
    @Test func aRotationTheBuildsPinsRejectIsCaught() throws {
        try TemporaryDirectory.with { directory in
            let apk = try Self.apk("shop", in: directory, classes: [
                "smali/com/example/Net.smali": Self.smaliClass("com/example/Net",
                    Self.pinner(host: "amazon.com", pins: [Self.pin, Self.backup])),
            ])
            let imported = try importing([apk, "--name", "shop"])
            try #require(imported.status == 0, "\(imported)")
            let file = try directory.write("p.yaml", text: "apps:\n" + imported.stdout)
            let result = try verify(file)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("shop (okhttp; 5.0) on Android 7.0–17 (API 24–37): REJECTED "
                + "public-key-not-pinned — Certificate pinning failure!"), "\(result)")
            let json = try verify(file, ["--format", "json"])
            #expect(json.status == 1, "\(json)")
            #expect(json.stdout.contains("Pinned certificates for amazon.com:\\n    \(Self.pin)\\n    \(Self.backup)"),
                    "\(json)")
        }
    }

    /// A pin the method does not fix (a parameter; a value set on one branch only) stops the import at the method.
    @Test func anArgumentTheMethodDoesNotFixIsRefusedAtTheMethod() throws {
        try TemporaryDirectory.with { directory in
            let parameter = """
                .method public static pinner(Ljava/lang/String;)Lokhttp3/CertificatePinner$Builder;
                    .registers 4
                    new-instance v0, Lokhttp3/CertificatePinner$Builder;
                    invoke-direct {v0}, Lokhttp3/CertificatePinner$Builder;-><init>()V
                    const-string v1, "amazon.com"
                    filled-new-array {p0}, [Ljava/lang/String;
                    move-result-object v2
                    invoke-virtual {v0, v1, v2}, \(Self.add)
                    move-result-object v0
                    return-object v0
                .end method
                """
            let branch = """
                .method public static pinner(Z)Lokhttp3/CertificatePinner$Builder;
                    .registers 5
                    new-instance v0, Lokhttp3/CertificatePinner$Builder;
                    invoke-direct {v0}, Lokhttp3/CertificatePinner$Builder;-><init>()V
                    const-string v1, "\(Self.pin)"
                    if-eqz p0, :join
                    const-string v1, "\(Self.backup)"
                    :join
                    const-string v2, "amazon.com"
                    filled-new-array {v1}, [Ljava/lang/String;
                    move-result-object v3
                    invoke-virtual {v0, v2, v3}, \(Self.add)
                    move-result-object v0
                    return-object v0
                .end method
                """
            for (name, method, why) in [
                ("parameter", parameter, "some element of which is not a string constant of the method"),
                ("branch", branch, "some element of which is not a string constant of the method"),
            ] {
                let apk = try Self.apk(name, in: directory, classes: [
                    "smali/com/example/Net.smali": Self.smaliClass("com/example/Net", method),
                ])
                let result = try importing([apk])
                #expect(result.status == 2, "\(result)")
                #expect(result.stdout.isEmpty, "\(result)")
                #expect(result.stderr.contains("\(apk)!classes.dex: com.example.Net.pinner(\(name == "parameter" ? "String" : "boolean")) (at byte "),
                        "\(result)")
                #expect(result.stderr.contains("the pins argument of CertificatePinner.Builder.add is an array \(why)"),
                        "\(result)")
            }
        }
    }

    /// OkHttp renamed by R8 (its messages kept, no okhttp3.CertificatePinner$Builder), and pin strings no call uses
    /// beside an NSC: refused with the pins and where they are used; `--library nsc` imports the NSC alone.
    @Test func pinsNoIdentifiedCallUsesAreNeverDropped() throws {
        try TemporaryDirectory.with { directory in
            let renamed = """
                .method public static a()La/b;
                    .registers 4
                    new-instance v0, La/b;
                    invoke-direct {v0}, La/b;-><init>()V
                    const-string v1, "amazon.com"
                    const-string v2, "\(Self.pin)"
                    filled-new-array {v2}, [Ljava/lang/String;
                    move-result-object v2
                    invoke-virtual {v0, v1, v2}, La/b;->a(Ljava/lang/String;[Ljava/lang/String;)La/b;
                    const-string v3, "Certificate pinning failure!"
                    return-object v0
                .end method
                """
            let apk = try Self.apk("renamed", in: directory, classes: [
                "smali/a/c.smali": Self.smaliClass("a/c", renamed),
            ])
            let result = try importing([apk])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(apk)!classes.dex: holds OkHttp's CertificatePinner under renamed classes "
                + "(R8 or ProGuard: no okhttp3.CertificatePinner$Builder) and pin strings \(Self.pin) (in a.c.a()): "
                + "which calls pin cannot be identified"), "\(result)")

            let nsc = """
                <?xml version="1.0" encoding="utf-8"?>
                <network-security-config><domain-config><domain>amazon.com</domain>
                <pin-set><pin digest="SHA-256">\(Self.amazonIntermediate.dropFirst(7))</pin></pin-set>
                </domain-config></network-security-config>
                """
            let stray = """
                .method public static check()Ljava/lang/String;
                    .registers 2
                    const-string v0, "\(Self.backup)"
                    return-object v0
                .end method
                """
            let both = try Self.apk("both", in: directory, classes: [
                "smali/com/example/Check.smali": Self.smaliClass("com/example/Check", stray),
            ], nsc: nsc)
            let refused = try importing([both])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("\(both)!classes.dex: holds pin strings \(Self.backup) (in "
                + "com.example.Check.check()) that no call of okhttp3.CertificatePinner$Builder.add uses"), "\(refused)")
            let nscOnly = try importing([both, "--library", "nsc", "--name", "shop"])
            #expect(nscOnly.status == 0, "\(nscOnly)")
            #expect(nscOnly.stdout.contains("library: nsc"), "\(nscOnly)")

            // Beside calls it reads, a stray pin is said at import and with every verdict.
            let mixed = try Self.apk("mixed", in: directory, classes: [
                "smali/com/example/Net.smali": Self.smaliClass("com/example/Net",
                    Self.pinner(host: "amazon.com", pins: [Self.amazonIntermediate])),
                "smali/com/example/Check.smali": Self.smaliClass("com/example/Check", stray),
            ])
            let warned = try importing([mixed, "--name", "shop"])
            #expect(warned.status == 0, "\(warned)")
            let warning = "pin strings in the DEX that no CertificatePinner.Builder.add call pinctl read uses: "
                + "\(Self.backup) (in com.example.Check.check())"
            #expect(warned.stderr.contains(warning), "\(warned)")
            let judged = try verify(try directory.write("m.yaml", text: "apps:\n" + warned.stdout))
            #expect(judged.status == 0, "\(judged)")
            #expect(judged.stdout.contains(warning) || judged.stderr.contains(warning), "\(judged)")
        }
    }
}
