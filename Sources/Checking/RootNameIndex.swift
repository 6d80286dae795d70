import OpenSSLWrapper
import PolicyEngine

/// The roots of a run's snapshots by subject (OpenSSL's name hash), to tell which of a version's roots a path search
/// from a presented chain can reach: versions that hold the same reachable roots under the same rules judge the
/// chain alike, so it is verified once for all of them (`PlatformJudges.results`).
// @unchecked Sendable: filled while the stores are read, before any judge exists; only read after that.
final class RootNameIndex: @unchecked Sendable {
    private var bySubject: [UInt: [(id: String, issuer: UInt)]] = [:]

    func add(id: String, subject: UInt, issuer: UInt) {
        bySubject[subject, default: []].append((id, issuer))
    }

    /// The ids of the roots of `members` a path from `presented` can use: those named as the issuer of a presented
    /// certificate or of a root already reached, or bearing a presented certificate's own name (OpenSSL finds a
    /// presented certificate in the store by it). By name alone, which finds every candidate OpenSSL's lookup and
    /// pinctl's path search can (they look up by subject first), and perhaps more: never fewer.
    /// With `members` nil, the roots of every version the run read.
    func reachable(from presented: [X509Certificate], in members: Set<String>? = nil) -> [String] {
        var names = Set(presented.flatMap { [$0.subjectNameHash, $0.issuerNameHash] })
        var pending = Array(names)
        var found: Set<String> = []
        while let name = pending.popLast() {
            for root in bySubject[name] ?? []
            where members?.contains(root.id) ?? true && found.insert(root.id).inserted {
                if names.insert(root.issuer).inserted { pending.append(root.issuer) }
            }
        }
        return found.sorted()
    }
}
