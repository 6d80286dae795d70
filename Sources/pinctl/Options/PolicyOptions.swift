import ArgumentParser
import Foundation
import OpenSSLWrapper
import PolicyEngine

extension PinningMode: ExpressibleByArgument {}

/// The policy options shared by `check` and `verify` (DESIGN §3).
struct PolicyOptions: ParsableArguments {
    @Option(help: "Pinning mode: none, certificate or publickey.")
    var mode: PinningMode = .none

    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "A pin file or a directory of them (.cer .crt .der .pem certificates, .pin hash files). Repeatable.",
        valueName: "path"))
    var pinPaths: [String] = []

    @Option(name: .customLong("pin"), help: ArgumentHelp(
        "An SPKI hash pin, sha256/BASE64 or pin-sha256=\"BASE64\". Repeatable.", valueName: "pin"))
    var inlinePins: [String] = []

    @Flag(help: "DANGEROUS: accept expired, self-signed and untrusted chains, as AFNetworking's allowInvalidCertificates.")
    var allowInvalidCertificates = false

    @Flag(help: "Do not check the host name or the leaf's TLS server usage (validatesDomainName = NO).")
    var noValidateDomainName = false

    @OptionGroup var anchors: AnchorOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Warn about certificates expiring within this many days.", valueName: "days"))
    var warnDays: Int = 30

    func validate() throws {
        guard warnDays >= 0 else { throw ValidationError("--warn-days \(warnDays): must be 0 or more") }
    }

    /// The evaluator for this command line (anchors, time) and its policy, with the command line's own warnings.
    func setup() throws(InputError) -> PolicySetup {
        let (policy, warnings) = try afnetworkingPolicy()
        let context = EvaluationContext(platformAnchors: try anchors.trustStore(), time: anchors.time, warnDays: warnDays)
        return PolicySetup(evaluator: PolicyEvaluator(context: context), policy: policy, warnings: warnings)
    }

    /// Every `--pins` path and `--pin` value; a path that yields no pins is an error naming the flag.
    func loadPins() throws(InputError) -> LoadedPins {
        var pins = LoadedPins()
        for path in pinPaths {
            do {
                let loaded = try PinLoader.load(path: path)
                pins.certificates += loaded.certificates
                pins.keyHashes += loaded.keyHashes
            } catch {
                throw InputError("--pins \(error.description)")
            }
        }
        for (index, value) in inlinePins.enumerated() {
            let source = PinSource(.argument(name: "--pin", index: inlinePins.count == 1 ? nil : index + 1))
            do {
                pins.keyHashes.append(try PinLoader.keyPin(value, source: source))
            } catch {
                throw InputError("--pin \(error.description)")
            }
        }
        return pins
    }

    /// AFNetworking's policy from `--mode`, the pins and the two switches; DESIGN §4's configuration errors.
    private func afnetworkingPolicy() throws(InputError) -> (AFNetworkingPolicy, warnings: [String]) {
        let pins = try loadPins()
        var warnings: [String] = []
        var keyHashes = pins.keyHashes
        if mode == .certificate, !keyHashes.isEmpty {
            guard !pins.certificates.isEmpty else {
                throw InputError("--mode certificate compares whole certificates: hash pins (\(keyHashes[0].source)) "
                    + "cannot serve it; pin certificate files, or use --mode publickey")
            }
            warnings.append("\(keyHashes.count) hash pin(s) ignored: --mode certificate compares whole certificates")
            keyHashes = []
        }
        if allowInvalidCertificates, mode == .certificate {
            // The engine warns for the other modes, where the flag weakens more.
            warnings.append("--allow-invalid-certificates: the system trust gate is skipped; the chain must still "
                + "verify up to a pinned certificate")
        }
        let policy = AFNetworkingPolicy(
            mode: mode,
            pinnedCertificates: pins.certificates,
            pinnedKeyHashes: keyHashes,
            allowInvalidCertificates: allowInvalidCertificates,
            validatesDomainName: !noValidateDomainName)
        return (policy, warnings)
    }
}

/// What judging chains needs, built once from the command line: the evaluator, the policy and the warnings the
/// command line itself gives rise to.
struct PolicySetup: Sendable {
    let evaluator: PolicyEvaluator
    let policy: any TrustPolicy
    let warnings: [String]
}
