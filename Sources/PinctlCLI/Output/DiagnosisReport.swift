import OpenSSLWrapper
import PolicyEngine

/// What `diagnose` found for each pin, and the renderings of it.
struct DiagnosisReport {
    /// The target as `host:port`, or the chain files.
    let source: String
    /// Presented certificates, then those the store added; explanations index into it.
    let chain: [X509Certificate]
    let presented: PresentedChain
    let diagnoses: [(pin: String, explanations: [PinDiagnosis.Explanation])]

    var everyPinExplained: Bool { diagnoses.allSatisfy { !$0.explanations.isEmpty } }

    private func origin(_ index: Int) -> String { index < presented.count ? "presented" : "from the trust store" }

    func printText() {
        for (pin, explanations) in diagnoses {
            print(Terminal.paint(pin, .bold))
            if explanations.isEmpty {
                print("  " + Terminal.paint("matches nothing", .red) + ": not the SHA-256 or SHA-1 of the SPKI, the "
                    + "DER or the raw key of any certificate of \(Terminal.safe(source)) below, in any encoding")
            }
            for explanation in explanations {
                let index = explanation.certificateIndex
                print("  " + Terminal.safe(explanation.message))
                print("  certificate \(index): \(Terminal.safe(chain[index].subject)) "
                    + Terminal.paint("[\(origin(index))]", .dim))
            }
        }
        guard !everyPinExplained else { return }
        print("The key pins of \(Terminal.safe(source)):")
        for (index, certificate) in chain.enumerated() {
            print("  #\(index) \(PinFormat.pin(of: certificate))  \(Terminal.safe(certificate.subject)) "
                + Terminal.paint("[\(origin(index))]", .dim))
        }
    }

    /// One object per pin.
    var json: [JSONValue] {
        let certificates = JSONValue.array(chain.enumerated().map { index, certificate in
            .object([
                ("subject", .string(certificate.subject)), ("spki", .string(PinFormat.pin(of: certificate))),
                ("presented", .bool(index < presented.count)),
            ])
        })
        return diagnoses.map { pin, explanations in
            .object([
                ("target", .string(source)), ("pin", .string(pin)), ("explained", .bool(!explanations.isEmpty)),
                ("matches", .array(explanations.map(Self.json))), ("chain", certificates),
            ])
        }
    }

    private static func json(_ explanation: PinDiagnosis.Explanation) -> JSONValue {
        .object([
            ("certificate", .number(explanation.certificateIndex)),
            ("hash", .string(explanation.algorithm.rawValue)),
            ("hashed", .string(explanation.hashed.rawValue)),
            ("encoding", .string(explanation.encoding.rawValue)),
            ("unpadded", .bool(explanation.unpadded)),
            ("prefix", JSONValue(explanation.prefix)),
            ("correct", .bool(explanation.isCorrect)),
            ("use", .string(explanation.correctPin)),
            ("message", .string(explanation.message)),
        ])
    }
}
