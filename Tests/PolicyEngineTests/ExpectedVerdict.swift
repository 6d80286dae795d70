import PolicyEngine
import Testing

/// What a test expects of an evaluation, written by hand from DESIGN §2 and each library's source: the one
/// vocabulary of every library's truth table, checked by the one `expectVerdict`.
enum ExpectedVerdict: Sendable, Equatable, CustomStringConvertible {
    /// Trusted, no pin matched, on whatever basis (AFNetworking's mode none).
    case trusted
    /// Trusted on a validated chain, nothing pinned (trust basis `validated`).
    case validated
    /// Trusted with nothing checked (trust basis `unchecked`: Alamofire's disabled or empty composite evaluator).
    case unchecked
    /// Trusted without pinning: no pin applies to the host (trust basis `not-pinned`), and nothing failed open.
    case notPinned
    /// Trusted by a pin on the certificate at this index of `Evaluation.chain` (the presented certificates, then
    /// those the store added: #2 is the store's root after a two-certificate chain).
    case pinned(at: Int)
    /// Trusted without enforcing the pins (expired pins, report-only, an anchor that overrides pins: trust basis
    /// `failed-open`); the explanation and a warning contain this fragment.
    case failedOpen(String)
    /// Rejected with this `reason.code`, naming the certificate at `at` if any, inside the composite steps of
    /// `context` (outermost first); never a configuration error.
    case rejected(String, at: Int? = nil, context: [String] = [])
    /// Rejected with this `reason.code` as a configuration error (exit 2, not a verdict on the chain): the policy
    /// contradicts itself, so no certificate is named.
    case misconfigured(String)

    /// The same rejection seen from composite steps, outermost first ("evaluator 2 of 2 (public-keys)").
    func within(_ steps: String...) -> Self {
        guard case .rejected(let code, let index, let context) = self else { return self }
        return .rejected(code, at: index, context: steps + context)
    }

    var description: String {
        switch self {
        case .trusted: "trusted"
        case .validated: "trusted (validated)"
        case .unchecked: "trusted (unchecked)"
        case .notPinned: "trusted, not pinned"
        case .pinned(let index): "trusted by the pin on #\(index)"
        case .failedOpen(let why): "trusted, failed open (\(why))"
        case .rejected(let code, let index, let context):
            (context.isEmpty ? "" : context.joined(separator: ": ") + ": ") + "rejected \(code)"
                + (index.map { " naming #\($0)" } ?? "")
        case .misconfigured(let code): "rejected \(code) as a configuration error"
        }
    }
}

/// Checks an evaluation against what the test expects: verdict, trust basis, the pin matched, the reason code, the
/// certificate the rejection names (by index and in its message), the composite steps, the fail-open warning and
/// whether a rejection is a configuration error.
func expectVerdict(
    _ evaluation: Evaluation, is expected: ExpectedVerdict, sourceLocation: SourceLocation = #_sourceLocation
) {
    let got = evaluation.rejectionMessage
        ?? "trusted (\(evaluation.trustBasis?.code ?? "?")): \(evaluation.trustBasis?.explanation ?? "")"
    switch expected {
    case .trusted, .validated, .unchecked, .notPinned:
        #expect(evaluation.isTrusted, "expected \(expected), got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.matchedPin == nil, "expected no pin to match, got \(got)", sourceLocation: sourceLocation)
        let basis: String? = switch expected {
        case .validated: "validated"
        case .unchecked: "unchecked"
        case .notPinned: "not-pinned"
        default: nil
        }
        if let basis {
            #expect(evaluation.trustBasis?.code == basis, "got \(got)", sourceLocation: sourceLocation)
        }
        if expected == .notPinned {
            expectWarning(evaluation, containing: "fail-open", present: false, sourceLocation: sourceLocation)
        }
    case .pinned(let index):
        #expect(evaluation.trustBasis?.code == "pin-matched", "got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.matchedPinIndex == index,
                "matched \(evaluation.matchedPin?.certificate.subject ?? "nothing")", sourceLocation: sourceLocation)
    case .failedOpen(let fragment):
        #expect(evaluation.trustBasis?.code == "failed-open", "got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.trustBasis?.explanation?.contains(fragment) == true, "got \(got)",
                sourceLocation: sourceLocation)
        expectWarning(evaluation, containing: fragment, sourceLocation: sourceLocation)
    case .rejected(let code, let index, let context):
        #expect(evaluation.rejection?.reason.code == code, "got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.rejectedCertificateIndex == index, "got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.rejection?.context == context, "got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.rejection?.reason.isConfigurationError == false, sourceLocation: sourceLocation)
        if let index {
            guard index < evaluation.chain.count else {
                Issue.record("#\(index) is past the chain of \(evaluation.chain.count)", sourceLocation: sourceLocation)
                return
            }
            let named = "certificate #\(index) (\(evaluation.chain[index].subject))"
            #expect(got.contains(named), "got \(got)", sourceLocation: sourceLocation)
        }
    case .misconfigured(let code):
        #expect(evaluation.rejection?.reason.code == code, "got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.rejectedCertificateIndex == nil, "got \(got)", sourceLocation: sourceLocation)
        #expect(evaluation.rejection?.reason.isConfigurationError == true, sourceLocation: sourceLocation)
    }
}

/// Checks that some warning contains `fragment` (or, with `present: false`, that none does).
func expectWarning(
    _ evaluation: Evaluation, containing fragment: String, present: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let found = evaluation.warnings.contains { $0.contains(fragment) }
    #expect(found == present, "warnings: \(evaluation.warnings)", sourceLocation: sourceLocation)
}
