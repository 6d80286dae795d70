import Checking
import JSONTree
import PolicyEngine

/// The JSON members of a judged chain, whoever judged it (an app's policy, or the anchors alone for `chain`): one
/// shape for the verdict and for the chain in every command's output.
enum EvaluationJSON {
    /// `verdict`, and `reason`, `trust` and `matchedPin` where they apply.
    static func verdict(_ evaluation: Evaluation) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("verdict", .string(evaluation.verdictWord))]
        if let rejection = evaluation.rejection {
            members.append(("reason", .object([
                ("code", .string(rejection.reason.code)),
                ("message", .string(evaluation.rejectionMessage ?? "")),
                ("certificate", evaluation.rejectedCertificateIndex.map { .number($0) } ?? .null),
            ])))
        }
        if let basis = evaluation.trustBasis {
            members.append(("trust", .object([("basis", .string(basis.code))]
                + (basis.explanation.map { [("detail", .string($0))] } ?? []))))
        }
        if let match = evaluation.matchedPin {
            members.append(("matchedPin", .object([
                ("source", .string(match.source.description)),
                ("certificate", evaluation.index(of: match.certificate).map { .number($0) } ?? .null),
            ])))
        }
        return members
    }

    /// `chain`, each certificate marked presented or supplied, and the paths refused on the way (DESIGN §12).
    static func chain(_ evaluation: Evaluation) -> [(String, JSONValue)] {
        [("chain", .array(evaluation.chain.enumerated().map { index, certificate in
            CertificateDescription(certificate, at: evaluation.time).json(presented: evaluation.wasPresented(index))
        }))] + PathReport(evaluation: evaluation).jsonMembers
    }
}
