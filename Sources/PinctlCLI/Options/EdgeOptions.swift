import ArgumentParser
import Checking
import OpenSSLWrapper

/// The edges a target is split into (`check`): every address, every key type, every TLS version, each judged on
/// its own, because a client that meets one edge never sees the others.
struct EdgeOptions: ParsableArguments {
    @Flag(help: "Check every A and AAAA address of each target (or every --resolve address), each an edge.")
    var allAddresses = false

    @Option(name: .customLong("key-types"), help: ArgumentHelp(
        "Check the certificate served to clients of each key type, each an edge: rsa, ecdsa (comma-separated).",
        valueName: "types"))
    var keyTypeLists: [String] = []

    @Option(name: .customLong("tls"), help: ArgumentHelp(
        "Check each TLS version on its own, each an edge: 1.2, 1.3 (comma-separated).", valueName: "versions"))
    var versionLists: [String] = []

    func validate() throws {
        _ = try keyTypes()
        _ = try versions()
    }

    /// Whether a target becomes several edges (and each result names its edge).
    var splitsTargets: Bool { allAddresses || !keyTypeLists.isEmpty || !versionLists.isEmpty }

    /// The edges as the checking core takes them (`validate()` has checked both lists).
    var settings: EdgeSettings {
        EdgeSettings(allAddresses: allAddresses, keyTypes: (try? keyTypes()) ?? [], versions: (try? versions()) ?? [])
    }

    /// `--key-types`, in the order given, each once; empty when not given.
    func keyTypes() throws(ValidationError) -> [CertificateKeyType] {
        try Self.list(keyTypeLists, flag: "--key-types") { CertificateKeyType(rawValue: $0.lowercased()) }
    }

    /// `--tls`, in the order given, each once; empty when not given.
    func versions() throws(ValidationError) -> [TLSProtocolVersion] {
        try Self.list(versionLists, flag: "--tls") { TLSProtocolVersion(rawValue: $0) }
    }

    private static func list<Value: Equatable & RawRepresentable>(
        _ texts: [String], flag: String, parse: (String) -> Value?
    ) throws(ValidationError) -> [Value] where Value.RawValue == String {
        var values: [Value] = []
        for text in texts {
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = parse(String(item)) else {
                    let accepted = flag == "--tls" ? "1.2, 1.3" : "rsa, ecdsa"
                    throw ValidationError("\(flag) \(text): '\(item)' is not one of \(accepted)")
                }
                if !values.contains(value) { values.append(value) }
            }
        }
        return values
    }
}
