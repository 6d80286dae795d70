import OpenSSLWrapper
import PolicyEngine

/// The certificate paths an evaluation tried (DESIGN §12): the path taken when it is not the one OpenSSL built
/// first, and the paths refused on the way, each with why. A certificate is named by its index in the report's
/// chain, or by its subject when only a refused path holds it (a store certificate the path taken does not use).
struct PathReport {
    let evaluation: Evaluation

    /// Trusted through a path found after OpenSSL's own was refused: the verdict names that path.
    var tookAnotherPath: Bool { evaluation.isTrusted && !evaluation.refusedPaths.isEmpty }

    /// "#0 → #2 → #3", or "#0 → #1 → CN=Paths Root B,O=pinctl Paths".
    func describe(_ path: [X509Certificate]) -> String {
        path.map { certificate in evaluation.index(of: certificate).map { "#\($0)" } ?? certificate.subject }
            .joined(separator: " → ")
    }

    /// Why a path was refused, naming the certificate at fault by its depth in that path.
    func reason(_ refused: RefusedPath) -> String {
        let failure = refused.failure
        let who = failure.subject.map { " (\($0))" } ?? ""
        return "at depth \(failure.depth)\(who): \(failure.message)"
    }

    /// The path taken, when another than OpenSSL's, and with `verbose` every path refused: lines for the text report.
    func lines(verbose: Bool) -> [String] {
        var lines: [String] = []
        if tookAnotherPath {
            let count = evaluation.refusedPaths.count
            let refused = count == 1 ? "1 path refused" : "\(count) paths refused"
            lines.append("path: \(describe(evaluation.builtChain.certificates)), after \(refused)"
                + (verbose ? "" : " (--verbose lists them)"))
        }
        if verbose {
            lines += evaluation.refusedPaths.map { "refused path \(describe($0.chain)): \(reason($0))" }
        }
        return lines
    }

    /// `path` (the indices of the path taken, when another than OpenSSL's) and `refusedPaths`, when there are any.
    var jsonMembers: [(String, JSONValue)] {
        guard !evaluation.refusedPaths.isEmpty else { return [] }
        var members: [(String, JSONValue)] = []
        if tookAnotherPath {
            members.append(("path", .array(evaluation.builtChain.compactMap { evaluation.index(of: $0) }
                .map { .number($0) })))
        }
        members.append(("refusedPaths", .array(evaluation.refusedPaths.map { refused in
            .object([
                ("path", .string(describe(refused.chain))),
                ("depth", .number(refused.failure.depth)),
                ("message", .string(reason(refused))),
            ])
        })))
        return members
    }
}
