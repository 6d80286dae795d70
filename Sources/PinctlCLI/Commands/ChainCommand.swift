import ArgumentParser
import Checking
import FoundationEssentials
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
        // The chain is judged against the anchors alone, no name and no pin: the same evaluation, and so the same
        // result shape, as every other command's.
        let policy = AFNetworkingPolicy(mode: .none, validatesDomainName: false)
        let evaluator = PolicyEvaluator(context: EvaluationContext(platformAnchors: store, time: time))
        let evaluation = evaluator.evaluate(policy, presented: presented, domain: nil)
        let chain = evaluation.chain
        switch format {
        case .pem:
            print(chain.map(\.pemString).joined(), terminator: "")
        case .json:
            let domain = source.target.map { source.connection.domain(for: $0) }
            let report = TargetReport(target: source.label, domain: domain, policy: policy, evaluation: evaluation,
                                      extraWarnings: [], tls: tls)
            print(report.json.serialized)
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
