// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "pinctl",
    products: [
        .executable(name: "pinctl", targets: ["pinctl"]),
        .library(name: "PolicyEngine", targets: ["PolicyEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "OpenSSLWrapper", dependencies: ["COpenSSL"]),
        .target(name: "PolicyEngine", dependencies: ["OpenSSLWrapper"]),
        .executableTarget(
            name: "pinctl",
            dependencies: [
                "PolicyEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["COpenSSL", "OpenSSLWrapper"], path: "Tests/TestSupport"),
        .testTarget(name: "OpenSSLWrapperTests", dependencies: ["OpenSSLWrapper", "TestSupport"]),
        .testTarget(name: "PolicyEngineTests", dependencies: ["PolicyEngine", "OpenSSLWrapper", "TestSupport"]),
        .testTarget(name: "pinctlTests", dependencies: ["OpenSSLWrapper", "TestSupport"]),
    ]
)
