// swift-tools-version: 6.2
import PackageDescription

// Where libxml2-dev puts libxml2's headers on Debian and Ubuntu (`pkg-config --cflags libxml-2.0`).
let libxml2Headers = ["-I/usr/include/libxml2"]

// Release executables, as README installs them:
// - linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc 2.36): the static standard
//   library's 62,000 relative relocations take 8 KB instead of 1 MB, which is 1 MB less to ship and 1 MB less for the
//   loader to read at every start (gold, the default linker, cannot pack them);
// - with the C++ runtime linked in (Linker/static-libstdc++/libstdc++.so says why and how);
// - exporting no symbols: nothing loads pinctl as a library, and an exported function cannot be garbage-collected.
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-L\(Context.packageDirectory)/Linker/static-libstdc++", "-Xlinker", "--no-export-dynamic"],
                 .when(configuration: .release)),
]

// pinctl-serve's functions laid out in the order Linker/pinctl-serve.order gives: the ones a probe runs, together, so
// that the exporter maps 1.6 MB of code rather than most of its 17 (scripts/make-symbol-order.py writes the file
// and says why). A function missing from it still links, only elsewhere.
let exporterLinking: [LinkerSetting] = releaseLinking + [
    .unsafeFlags(["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Linker/pinctl-serve.order",
                  "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(configuration: .release)),
]

let package = Package(
    name: "pinctl",
    products: [
        .executable(name: "pinctl", targets: ["pinctl"]),
        // `pinctl serve` execs it: the exporter's HTTP stack stays out of every other command's binary.
        .executable(name: "pinctl-serve", targets: ["PinctlServe"]),
        .library(name: "PolicyEngine", targets: ["PolicyEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `pinctl serve`: HTTP/1.1 without TLS (traits off: no swift-configuration), the Prometheus text format,
        // logs, signals.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        // Already resolved through hummingbird; named because the exporter reads a header by its HTTPField.Name.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // Plain Swift on Glibc, no C library of their own: text a person reads (excerpts, hex, host name syntax), files
        // read and written by path, and the instants a certificate can name.
        .target(name: "TextSyntax"),
        .target(name: "FileAccess", dependencies: ["TextSyntax"]),
        .target(name: "CertificateTime"),
        .target(name: "Transport"),
        .target(
            name: "OpenSSLWrapper",
            dependencies: ["COpenSSL", "Transport", "FileAccess", "TextSyntax", "CertificateTime"]
        ),
        // libxml2 and libpsl are opened on first use, not linked (CLazyLibrary.h says why): their headers only are
        // needed to build (libxml2-dev, libpsl-dev), and libxml2's live in a directory of their own.
        .target(name: "CLazyLibrary"),
        .target(name: "CLibXML2", dependencies: ["CLazyLibrary"], cSettings: [.unsafeFlags(libxml2Headers)]),
        .target(name: "XMLTree", dependencies: ["CLibXML2"]),
        .target(name: "CLibPSL", dependencies: ["CLazyLibrary"]),
        .target(name: "PublicSuffix", dependencies: ["CLibPSL"]),
        // libarchive, opened on first use too (libarchive-dev to build): the zip archives builds ship.
        .target(name: "CLibArchive", dependencies: ["CLazyLibrary"]),
        .target(name: "Archives", dependencies: ["CLibArchive"]),
        // What a build ships, read as data (STYLE.md): the IPA's bundle and its executable's encryption.
        .target(name: "Artifacts", dependencies: ["Archives", "FileAccess"]),
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "YAMLSyntax", dependencies: ["CLibYAML"]),
        .target(name: "JSONTree", dependencies: ["CJansson"]),
        .target(
            name: "PolicyEngine",
            dependencies: [
                "OpenSSLWrapper", "XMLTree", "PublicSuffix", "YAMLSyntax", "JSONTree", "FileAccess", "TextSyntax",
                "CertificateTime", "Artifacts", "Archives",
            ]
        ),
        // The use cases every front end shares (check a target for these apps): values in, values out.
        .target(
            name: "Checking", dependencies: ["PolicyEngine", "OpenSSLWrapper", "Transport", "FileAccess", "TextSyntax"]
        ),
        .target(
            name: "Exporter",
            dependencies: [
                "Checking",
                "PolicyEngine",
                "OpenSSLWrapper",
                "TextSyntax",
                "Transport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Every command of the command line; `serve` runs the exporter only in pinctl-serve.
        .target(
            name: "PinctlCLI",
            dependencies: [
                "Checking",
                "PolicyEngine",
                "OpenSSLWrapper",
                "Transport",
                "XMLTree",
                "FileAccess",
                "TextSyntax",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["BuildInfo"]
        ),
        // `pinctl --version`'s commit, written before every build.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        .executableTarget(name: "pinctl", dependencies: ["PinctlCLI"], linkerSettings: releaseLinking),
        .executableTarget(
            name: "PinctlServe",
            dependencies: ["PinctlCLI", "Exporter", "Transport", .product(name: "Logging", package: "swift-log")],
            linkerSettings: exporterLinking
        ),
        .target(name: "TestSupport", dependencies: ["COpenSSL", "OpenSSLWrapper", "Transport"], path: "Tests/TestSupport"),
        .testTarget(name: "TextSyntaxTests", dependencies: ["TextSyntax"]),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess"]),
        .testTarget(name: "TransportTests", dependencies: ["Transport"]),
        .testTarget(name: "OpenSSLWrapperTests", dependencies: ["OpenSSLWrapper", "Transport", "TestSupport"]),
        .testTarget(
            name: "PolicyEngineTests",
            dependencies: ["PolicyEngine", "OpenSSLWrapper", "XMLTree", "FileAccess", "TestSupport"]
        ),
        // The command layer's output rules, over text no command run could be made to print.
        .testTarget(
            name: "CheckingTests", dependencies: ["Checking", "PolicyEngine", "OpenSSLWrapper", "TestSupport"]
        ),
        .testTarget(name: "PinctlCLITests", dependencies: ["PinctlCLI"]),
        .testTarget(name: "pinctlTests", dependencies: ["OpenSSLWrapper", "Transport", "TestSupport"]),
    ]
)

// libFuzzer targets, one per parser of untrusted input (Tests/Fuzz/README.md). Each one's main hands its check to
// FuzzSupport's Fuzz.main, which replays input files, or, built with -DFUZZING, runs libFuzzer's driver.
let fuzzTargets: [(name: String, parsers: [Target.Dependency])] = [
    ("FuzzCertificates", ["OpenSSLWrapper"]),
    ("FuzzCertificateDER", ["OpenSSLWrapper"]),
    ("FuzzPinFile", ["PolicyEngine"]),
    ("FuzzTargetSyntax", ["PolicyEngine"]),
    ("FuzzTimestamp", ["PolicyEngine", "CertificateTime"]),
    ("FuzzPolicyFile", ["PolicyEngine"]),
    ("FuzzNSCXML", ["PolicyEngine"]),
    ("FuzzTrustKitPlist", ["PolicyEngine"]),
    ("FuzzOkHttpSource", ["PolicyEngine"]),
    ("FuzzGradleBuildConfig", ["PolicyEngine"]),
    ("FuzzOutputEscaping", ["PinctlCLI", "XMLTree"]),
    ("FuzzCTLogList", ["OpenSSLWrapper", "TextSyntax"]),
    ("FuzzStoreSnapshotFile", ["PolicyEngine", "TextSyntax"]),
    ("FuzzBuildArchive", ["Archives", "Artifacts"]),
    ("FuzzPinFailureReport", ["PolicyEngine", "OpenSSLWrapper"]),
]
// They are part of the package only when PINCTL_FUZZ_TARGETS or PINCTL_FUZZ_RUNTIME is set: `swift build` and
// `swift test` would otherwise compile and link fifteen executables that nothing else runs. PINCTL_FUZZ_RUNTIME names
// compiler-rt's libFuzzer without a main (libclang_rt.fuzzer_no_main): scripts/lib/instrumented-build.sh sets it for
// the one instrumented build that the suite under ASan and scripts/fuzz.sh share (coverage instrumentation is in its
// flags), so that CI compiles the package twice, instrumented and release.
let fuzzRuntime = Context.environment["PINCTL_FUZZ_RUNTIME"]
if Context.environment["PINCTL_FUZZ_TARGETS"] != nil || fuzzRuntime != nil {
    // FuzzSupport holds the invariants targets share, of certificates and of exported policies, and their main.
    package.targets += [
        .target(name: "FuzzDriver", path: "Tests/Fuzz/FuzzDriver"),
        .target(
            name: "FuzzSupport", dependencies: ["FuzzDriver", "OpenSSLWrapper", "PolicyEngine"],
            path: "Tests/Fuzz/FuzzSupport", swiftSettings: fuzzRuntime == nil ? [] : [.define("FUZZING")]),
    ]
    package.targets += fuzzTargets.map {
        .executableTarget(
            name: $0.name, dependencies: ["FuzzSupport"] + $0.parsers, path: "Tests/Fuzz/\($0.name)",
            // libFuzzer is C++: its runtime needs the C++ library, which a Swift link does not name.
            linkerSettings: fuzzRuntime.map { [.unsafeFlags([$0, "-lstdc++"])] } ?? [])
    }
}

// Swift loads the CLibXML2 module again in every module that imports XMLTree, directly or not (an `internal import`
// hides its names, not the module), so every Swift target needs libxml2's header directory, not XMLTree alone: without
// it a clean build stops at "'libxml/parser.h' file not found" in PolicyEngine.
for target in package.targets
    where target.type != .system && target.type != .plugin && target.name != "CLibXML2" && target.name != "CLibPSL"
    && target.name != "CLibArchive" && target.name != "CLazyLibrary" && target.name != "FuzzDriver" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(libxml2Headers.flatMap { ["-Xcc", $0] })]
}
