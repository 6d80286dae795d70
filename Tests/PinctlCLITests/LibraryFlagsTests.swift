@testable import PinctlCLI
import PolicyEngine
import Testing

/// Each registered library's own flags are declared from its definition and reach its policy. Before, each library
/// had an option group written out in PinctlCLI, and one left out of the list of groups still built and parsed its
/// flags, then dropped them: `verify --library afnetworking --mode publickey --pin WRONG` turned from REJECTED into
/// TRUSTED (#34).
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

    @Test(arguments: lines)
    func aLibrarysOwnFlagsReachItsPolicy(arguments: [String], flags: [String]) throws {
        #expect(try PolicyOptions.parse(arguments).flags.settings.map(\.flag) == flags)
    }

    /// Each library's flags (check and verify, then config import), written out by hand: one dropped from a
    /// definition is no longer parsed, and this says which.
    static let documented: [String: (policy: [String], import: [String])] = [
        "afnetworking": (["--mode", "--allow-invalid-certificates", "--no-validate-domain-name"], ["--mode"]),
        "alamofire": (["--evaluator", "--accept-self-signed-certificates", "--no-default-validation",
                       "--no-validate-host"], ["--public-keys"]),
        "okhttp": (["--pattern"], ["--variant", "--define"]),
        "trustkit": (["--trustkit-domain", "--include-subdomains", "--report-only", "--expiration-date"], []),
        "nsc": (["--nsc-config", "--debuggable"], ["--debuggable"]),
        "ats": (["--ats-domain", "--ats-identities", "--include-subdomains"], []),
    ]

    @Test func everyLibraryDeclaresItsFlags() {
        #expect(Set(Self.documented.keys) == Set(Library.allCases.map(\.rawValue)))
        for definition in LibraryRegistry.all {
            let expected = Self.documented[definition.library.rawValue]
            #expect(definition.flags.map(\.name) == expected?.policy, "\(definition.library.rawValue)")
            #expect(definition.importFlagList.map(\.name) == expected?.import, "\(definition.library.rawValue)")
        }
    }

    /// A library registered later needs a line above.
    @Test func everyRegisteredLibraryHasALineHere() {
        #expect(Set(Self.lines.map { $0.0[1] }) == Set(Library.allCases.map(\.rawValue)))
    }

    /// An argument list giving `flag` once, with a value it takes.
    private static func giving(_ flag: LibraryFlag) -> [String] {
        switch flag.kind {
        case .switch: [flag.name]
        case .option(_, let values): [flag.name, values.last ?? (flag.name == "--expiration-date" ? "2030-01-01" : "x")]
        case .repeatable: [flag.name, "PIN=value"]
        }
    }

    /// Every flag a definition lists is declared to the parser, given to that library and named in the help under
    /// the library's name.
    @Test func everyFlagADefinitionListsIsParsedAndHelped() throws {
        let help = PolicyOptions.helpMessage(columns: 10_000)
        for definition in LibraryRegistry.all {
            for flag in definition.flags {
                // nsc needs its file whatever else is given.
                let needed = definition.library == .nsc && flag.name != "--nsc-config" ? ["--nsc-config", "x"] : []
                let options = try PolicyOptions.parse(
                    ["--library", definition.library.rawValue] + needed + Self.giving(flag))
                #expect(options.flags.settings.map(\.flag).contains(flag.name), "\(flag.name)")
                #expect(options.flags.settings.count == 1 + needed.count / 2, "\(flag.name)")
                #expect(help.contains(flag.name) && help.contains("\(definition.library.rawValue): \(flag.help)"),
                        "\(flag.name)")
            }
            for flag in definition.importFlagList {
                let command = try ConfigImportCommand.parse(
                    ["file", "--library", definition.library.rawValue] + Self.giving(flag))
                #expect(command.libraryOptions.given.map(\.flag) == [flag.name], "\(flag.name)")
            }
        }
    }

    /// A name several libraries declare is one option to the parser, so they must agree on what it takes.
    @Test func librariesSharingAFlagAgreeOnItsKind() {
        for use in [\LibraryDefinition.flags, \LibraryDefinition.importFlagList] {
            var kinds: [String: LibraryFlag.Kind] = [:]
            for flag in LibraryRegistry.all.flatMap({ $0[keyPath: use] }) {
                #expect(kinds[flag.name].map { $0 == flag.kind } ?? true, "\(flag.name)")
                kinds[flag.name] = flag.kind
            }
        }
    }

    @Test func aValueTheFlagDoesNotTakeIsRefusedNamingThem() {
        #expect(throws: (any Error).self) { try PolicyOptions.parse(["--library", "afnetworking", "--mode", "pin"]) }
        do {
            _ = try PolicyOptions.parse(["--library", "afnetworking", "--mode", "pin"])
        } catch {
            #expect(PolicyOptions.message(for: error) == "--mode pin: expected none, certificate or publickey")
        }
        do {
            _ = try ConfigImportCommand.parse(["certs", "--library", "afnetworking", "--mode", "none"])
            Issue.record("--mode none accepted by config import")
        } catch {
            #expect(ConfigImportCommand.message(for: error) == "--mode none: expected certificate or publickey")
        }
    }

    @Test func aFlagOfAnotherLibraryIsRefused() {
        do {
            _ = try PolicyOptions.parse(["--library", "alamofire", "--mode", "none"])
            Issue.record("--mode accepted for alamofire")
        } catch {
            #expect(PolicyOptions.message(for: error) == "--mode is an option of --library afnetworking, not of "
                + "alamofire")
        }
        do {
            _ = try ConfigImportCommand.parse(["config.xml", "--library", "nsc", "--public-keys"])
            Issue.record("--public-keys accepted for nsc")
        } catch {
            #expect(ConfigImportCommand.message(for: error) == "--public-keys is an option of --library alamofire, "
                + "not of nsc")
        }
    }
}
