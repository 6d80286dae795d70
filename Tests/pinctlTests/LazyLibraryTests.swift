import Foundation
import Testing
import TestSupport

/// libxml2 and libpsl are opened when a command first needs them, not at every start (#12: together with ICU,
/// libidn2 and libunistring they cost about 2 ms of each run). Seen from outside with the dynamic loader's own log
/// (LD_DEBUG=libs); a library that cannot be opened is a clear error with exit 2, not a crash.
@Suite struct LazyLibraryTests {
    static let verify = ["verify", "--chain", "leaf-fullchain.pem", "--host", "pinning.test", "--at", TestTime.nowText,
                         "--ca-file", "root-ca.pem"]

    /// The libraries the loader searched for during one run of `arguments`.
    func librariesLoaded(_ arguments: [String], expecting status: Int32 = 0) throws -> Set<String> {
        let result = try PinctlProcess.run(arguments, environment: ["LD_DEBUG": "libs"])
        #expect(result.status == status, "\(result)")
        // "  12345:	find library=libssl.so.3 [0]; searching"
        let names = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "find library=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " })
        }
        #expect(names.contains("libssl.so.3"), "the loader's log was not read: \(result.stderr.prefix(400))")
        return Set(names)
    }

    static let lazy = ["libxml2.so.2", "libpsl.so.5", "libicuuc.so.72", "libidn2.so.0", "libunistring.so.2",
                       "libarchive.so.13"]

    @Test("--version and a verify of PEM files open neither libxml2 nor libpsl, nor what they bring")
    func commandsWithoutXMLOrSuffixesLoadNeither() throws {
        for arguments in [["--version"], Self.verify] {
            let loaded = try librariesLoaded(arguments)
            #expect(loaded.isDisjoint(with: Self.lazy), "\(arguments): \(loaded.sorted())")
        }
    }

    @Test("each is opened by the first command that needs it, and only that one")
    func eachLibraryIsOpenedByItsUser() throws {
        // TrustKit's JSON is read with Jansson; its domain rules need the Public Suffix List.
        let json = try librariesLoaded(["config", "import", TrustKitFixtures.path("TSKConfiguration.json"),
                                        "--library", "trustkit", "--name", "ios"])
        #expect(json.contains("libpsl.so.5") && !json.contains("libxml2.so.2"), "\(json.sorted())")
        let junit = try librariesLoaded(Self.verify + ["--format", "junit"])
        #expect(junit.contains("libxml2.so.2") && !junit.contains("libpsl.so.5"), "\(junit.sorted())")
        let nsc = try librariesLoaded(["config", "import", NSCFixtures.config("network_security_config.xml"),
                                       "--library", "nsc", "--name", "android"])
        #expect(nsc.contains("libxml2.so.2"), "\(nsc.sorted())")
    }

    /// A directory where both libraries are files the loader cannot open, searched first through LD_LIBRARY_PATH.
    func withBrokenLibraries(_ body: ([String: String]) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            _ = try directory.write("libxml2.so.2", text: "")
            _ = try directory.write("libpsl.so.5", text: "")
            try body(["LD_LIBRARY_PATH": directory.path])
        }
    }

    @Test("a library that cannot be opened fails only the commands that need it, with exit 2 and its name")
    func aMissingLibraryIsAClearError() throws {
        try withBrokenLibraries { environment in
            let verify = try PinctlProcess.run(Self.verify, environment: environment)
            #expect(verify.status == 0, "\(verify)")

            let junit = try PinctlProcess.run(Self.verify + ["--format", "junit"], environment: environment)
            #expect(junit.status == 2 && junit.stdout.isEmpty, "\(junit)")
            #expect(junit.stderr.contains("--format junit: cannot load libxml2.so.2"), "\(junit)")

            let nsc = try PinctlProcess.run(["config", "import", NSCFixtures.config("network_security_config.xml"),
                                             "--library", "nsc", "--name", "android"], environment: environment)
            #expect(nsc.status == 2 && nsc.stderr.contains("cannot load libxml2.so.2"), "\(nsc)")

            let trustKit = try PinctlProcess.run(["config", "import", TrustKitFixtures.path("TSKConfiguration.json"),
                                                  "--library", "trustkit", "--name", "ios"], environment: environment)
            #expect(trustKit.status == 2, "\(trustKit)")
            #expect(trustKit.stderr.contains("need the Public Suffix List, which cannot be read: cannot load "
                + "libpsl.so.5"), "\(trustKit)")
        }
    }
}
