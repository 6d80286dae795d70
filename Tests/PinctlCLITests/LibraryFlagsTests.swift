@testable import PinctlCLI
import PolicyEngine
import Testing

/// Each registered library's own flags reach its policy. An option group left out of `PolicyOptions.libraryFlags`
/// still builds and still parses its flags, then drops them: `verify --library afnetworking --mode publickey --pin
/// WRONG` turned from REJECTED into TRUSTED when AFNetworking's row was deleted (#34).
@Suite struct LibraryFlagsTests {
    /// A command line for each library, and the library flags it gives, in order.
    static let lines: [([String], [String])] = [
        (["--library", "afnetworking", "--mode", "publickey"], ["--mode"]),
        (["--library", "alamofire", "--evaluator", "public-keys", "--no-validate-host"],
         ["--evaluator", "--no-validate-host"]),
        (["--library", "okhttp", "--pattern", "**.example.com"], ["--pattern"]),
        (["--library", "trustkit", "--trustkit-domain", "example.com", "--include-subdomains"],
         ["--trustkit-domain", "--include-subdomains"]),
        (["--library", "nsc", "--nsc-config", "network_security_config.xml", "--debuggable"],
         ["--nsc-config", "--debuggable"]),
        // --include-subdomains is TrustKit's flag and ATS's too.
        (["--library", "ats", "--ats-domain", "example.com", "--ats-identities", "leaf", "--include-subdomains"],
         ["--ats-domain", "--ats-identities", "--include-subdomains"]),
    ]

    @Test func everyRegisteredLibraryHasItsFlagsListedOnce() throws {
        let listed = try PolicyOptions.parse([]).libraryFlags.map(\.library.rawValue)
        #expect(listed.sorted() == Library.allCases.map(\.rawValue).sorted())
        #expect(Set(listed).count == listed.count)
    }

    @Test(arguments: lines)
    func aLibrarysOwnFlagsReachItsPolicy(arguments: [String], flags: [String]) throws {
        #expect(try PolicyOptions.parse(arguments).flags.settings.map(\.flag) == flags)
    }

    /// A library registered later needs a line above.
    @Test func everyRegisteredLibraryHasALineHere() {
        #expect(Set(Self.lines.map { $0.0[1] }) == Set(Library.allCases.map(\.rawValue)))
    }
}
