import ArgumentParser
import Foundation
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
        let time = anchors.time
        let (presented, tls, store) = try source.loadOrExit(anchors: anchors)
        let built = anchors.build(presented, store: store, at: time)
        let chain = presented + built.chain.filter { !presented.contains($0) }
        switch format {
        case .pem:
            print(chain.map(\.pemString).joined(), terminator: "")
        case .json:
            var members: [(String, JSONValue)] = [("target", .string(source.label))]
            if let tls { members.append(("tls", tls.json)) }
            members.append(("evaluatedAt", .string(Timestamp.iso8601(time))))
            members.append(("verified", .bool(built.isValid)))
            if let failure = built.failure {
                members.append(("error", .object([
                    ("message", .string(failure.message)), ("code", .number(Int(failure.code))),
                    ("depth", .number(failure.depth)),
                ])))
            }
            members.append(("chain", .array(chain.enumerated().map {
                CertificateDescription($0.element, at: time).json(presented: $0.offset < presented.count)
            })))
            members.append(("warnings", .array(built.warnings.map { .string($0) })))
            print(JSONValue.object(members).serialized)
        case .text:
            print(Terminal.paint(source.label, .bold) + (tls.map { "  (\($0.version), \($0.cipher))" } ?? ""))
            if let note = tls?.clientCertificateNote { print("  " + note) }
            for (index, certificate) in chain.enumerated() {
                print(details(certificate, index: index, presented: index < presented.count, at: time))
            }
            if let failure = built.failure {
                print(Terminal.paint("does not verify", .red) + Terminal.safe(" against \(store.origin): \(failure.message) "
                    + "(OpenSSL error \(failure.code) at depth \(failure.depth))"))
            } else {
                print(Terminal.paint("verifies", .green) + " against " + Terminal.safe(store.origin))
            }
            built.warnings.forEach(Terminal.warning)
        }
    }

    private func details(_ certificate: X509Certificate, index: Int, presented: Bool, at time: Date) -> String {
        let description = CertificateDescription(certificate, at: time)
        let origin = presented ? (source.target == nil ? "from the file" : "sent by the server") : "from the trust store"
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
