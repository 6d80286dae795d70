import Checking
import OpenSSLWrapper
import PolicyEngine

/// The line after a split target's edges that names the edges serving something else than the rest: "the RSA
/// chain on 2001:db8::7 serves a different intermediate (…) than the others". A view of the results, computing
/// no verdict.
struct EdgeSummary {
    private struct Entry {
        let edge: Edge
        /// What the server presented, leaf first; nil when the edge failed.
        let chain: [X509Certificate]?
        var trusted: Bool
        let failure: String?
    }

    private let target: String
    private let entries: [Entry]

    init(_ results: [TargetResult]) {
        var target = ""
        // An edge whose chain some apps judged while others could not get the evidence they asked for is one edge,
        // its chain known, not trusted by all.
        var entries: [Entry] = []
        for result in results {
            guard let edge = result.edge else { continue }
            target = result.target ?? target
            let index = entries.firstIndex { $0.edge == edge }
            switch result {
            case .judged(let report):
                if let index {
                    entries[index].trusted = entries[index].trusted && report.evaluation.isTrusted
                } else {
                    entries.append(Entry(edge: edge, chain: report.evaluation.presented.certificates,
                                         trusted: report.evaluation.isTrusted, failure: nil))
                }
            case .failed(let failure):
                if let index {
                    entries[index].trusted = false
                } else {
                    entries.append(Entry(edge: edge, chain: nil, trusted: false, failure: failure.code))
                }
            }
        }
        self.entries = entries
        self.target = target
    }

    /// Nil for fewer than two edges.
    var line: String? {
        guard entries.count > 1 else { return nil }
        var groups: [[Entry]] = []
        for entry in entries where entry.chain != nil {
            if let index = groups.firstIndex(where: { Self.same($0[0].chain, entry.chain) }) {
                groups[index].append(entry)
            } else {
                groups.append([entry])
            }
        }
        let failed = entries.filter { $0.chain == nil }
        // The chain most edges serve is the reference; between as many, the one trusted, then the first.
        let reference = groups.max { ($0.count, $0[0].trusted ? 1 : 0) < ($1.count, $1[0].trusted ? 1 : 0) }
        var parts: [String] = []
        if let reference, groups.count == 1, failed.isEmpty {
            let verdicts = Set(reference.map(\.trusted))
            parts.append("all \(entries.count) serve the same chain"
                + (verdicts.count > 1 ? ", yet not every one is trusted (see above)" : ""))
        } else if let reference {
            let others = phrase(reference)
            for group in groups where !Self.same(group[0].chain, reference[0].chain) {
                let named = phrase(group)
                // One phrase names a group; a list of edges, each its own, is plural.
                let verb = named.contains(" and ") ? "serve" : "serves"
                var part = "\(named) \(verb) " + Self.difference(group[0].chain ?? [], from: reference[0].chain ?? [])
                    + " than \(others)"
                if group[0].trusted != reference[0].trusted {
                    part += group[0].trusted ? " (trusted where those are rejected)" : " (rejected where those are trusted)"
                }
                parts.append(part)
            }
        }
        for entry in failed { parts.append("\(entry.edge.phrase) failed (\(entry.failure ?? "error"))") }
        return Terminal.safe("edges of \(target): " + parts.joined(separator: "; "))
    }

    private static func same(_ a: [X509Certificate]?, _ b: [X509Certificate]?) -> Bool { a == b }

    /// "a different leaf (CN=…, sha256/…) and a different intermediate (CN=…)".
    private static func difference(_ chain: [X509Certificate], from reference: [X509Certificate]) -> String {
        var pieces: [String] = []
        if chain.first != reference.first, let leaf = chain.first {
            pieces.append("a different leaf (\(leaf.subject), key \(PinFormat.pin(of: leaf)))")
        }
        let above = Array(chain.dropFirst())
        let referenceAbove = Array(reference.dropFirst())
        if above != referenceAbove {
            if let extra = above.first(where: { !referenceAbove.contains($0) }) {
                pieces.append("a different intermediate (\(extra.subject))")
            } else {
                pieces.append("\(above.count) certificate(s) above the leaf instead of \(referenceAbove.count)")
            }
        }
        return pieces.isEmpty ? "the certificates in another order" : pieces.joined(separator: " and ")
    }

    /// The shortest description of a group of edges: by the fewest of key type, address and version that single
    /// it out among all the edges ("the RSA chain"), else each edge in turn.
    private func phrase(_ group: [Entry]) -> String {
        let all = entries.map(\.edge)
        let members = group.map(\.edge)
        let dimensions: [[Int]] = [[], [0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2]]
        for chosen in dimensions {
            let key = { (edge: Edge) -> [String?] in
                chosen.map { [edge.keyType?.rawValue, edge.address, edge.version?.rawValue][$0] }
            }
            guard Set(members.map { key($0).map { $0 ?? "" } }).count == 1 else { continue }
            let selected = all.filter { key($0) == key(members[0]) }
            guard selected == members else { continue }
            if chosen.isEmpty { return "every edge" }
            let first = members[0]
            return Edge.phrase(address: chosen.contains(1) ? first.address : nil,
                               keyType: chosen.contains(0) ? first.keyType : nil,
                               version: chosen.contains(2) ? first.version : nil)
        }
        let phrases = members.map(\.phrase)
        return phrases.count == 1 ? phrases[0] : phrases.dropLast().joined(separator: ", ") + " and " + phrases.last!
    }
}

extension Reporter {
    /// The edge summary of one target, in text output only (JSON readers compare the `chain` arrays themselves).
    func emitEdgeSummary(_ summary: EdgeSummary) {
        guard output.format == .text, !output.quiet, let line = summary.line else { return }
        print(line)
    }
}
