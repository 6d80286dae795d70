import ArgumentParser
import Checking
import FoundationEssentials
import JSONTree
import OpenSSLWrapper
import PolicyEngine

struct ChainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain",
        abstract: "Dump a chain leaf to root: what the server sent and what the trust store added.",
        discussion: """
            For each certificate: subject, issuer, serial, validity with days left, names, key, signature \
            algorithm, SHA-256 fingerprint and SPKI pin.

            Examples:
              pinctl chain api.example.com
              pinctl chain https://api.example.com:8443/health --format json
              pinctl chain --chain fullchain.pem --ca-file corp-root.pem --format pem
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, pem
    }

    @OptionGroup var source: ChainSourceOptions
    @OptionGroup(title: "Trust anchors") var anchors: AnchorOptions

    @Option(help: "Output format: text, json or pem.")
    var format: Format = .text

    func run() throws {
        let settings = anchors.settings
        let time = settings.time
        let loaded: ChainSource.Loaded
        do throws(SourceError) {
            loaded = try source.settings.load(anchors: settings)
        } catch {
            // Connection messages name host and port already.
            Terminal.error(error.message)
            try error.status.exit()
        }
        let (presented, tls, store) = (loaded.certificates, loaded.tls, loaded.store)
        // The chain against the anchors alone, no library, name or pin: the same evaluation, and so the same verdict
        // and chain in its JSON, as every other command's.
        let evaluation = PolicyEvaluator(context: EvaluationContext(platformAnchors: store, time: time))
            .validate(presented)
        let chain = evaluation.chain
        switch format {
        case .pem:
            print(chain.map(\.pemString).joined(), terminator: "")
        case .json:
            let domain = source.target.map { source.connection.domain(for: $0) }
            var members: [(String, JSONValue)] = [
                ("target", .string(source.label)), ("domain", JSONValue(domain)),
                ("evaluatedAt", .string(Timestamp.iso8601(time))),
            ]
            members += EvaluationJSON.verdict(evaluation)
            if let tls { members.append(("tls", tls.json)) }
            members += EvaluationJSON.chain(evaluation)
            members.append(("warnings", .array(evaluation.warnings.map { .string($0) })))
            print(JSONValue.object(members).serialized)
        case .text:
            print(Terminal.paint(source.label, .bold) + (tls.map { "  (\($0.version), \($0.cipher))" } ?? ""))
            if let note = tls?.clientCertificateNote { print("  " + note) }
            for (index, certificate) in chain.enumerated() {
                print(details(certificate, index: index, presented: index < presented.count, at: time))
            }
            if let message = evaluation.rejectionMessage {
                print(Terminal.paint("does not verify", .red) + " against " + Terminal.safe(store.origin) + ": "
                    + Terminal.safe(message))
            } else {
                print(Terminal.paint("verifies", .green) + " against " + Terminal.safe(store.origin))
            }
            evaluation.warnings.forEach(Terminal.warning)
        }
    }

    private func details(_ certificate: X509Certificate, index: Int, presented: Bool, at time: Date) -> String {
        let description = CertificateDescription(certificate, at: time)
        let origin = presented ? "presented" : "from the trust store"
        let names = certificate.subjectAlternativeNames
        return [
            "#\(index) \(Terminal.safe(certificate.subject))  " + Terminal.paint("[\(origin)]", .dim),
            "    issuer   \(Terminal.safe(certificate.issuer))",
            "    serial   \(certificate.serialNumber)",
            "    valid    \(description.validity)",
            "    names    " + (names.isEmpty ? "(no subject alternative names)" : Terminal.safe(names.joined(separator: ", "))),
            "    key      \(certificate.keyDescription), signed with \(certificate.signatureAlgorithm)",
            "    sha256   \(description.sha256Hex)",
            "    pin      \(PinFormat.pin(of: certificate))",
        ].joined(separator: "\n")
    }
}
