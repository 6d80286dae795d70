import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// Judges a chain offline (`verify`, `lint --chain`): every app that covers the domain, then the revocation evidence
/// each trusted report asks for, by the same steps as a live check (`TargetChecker`). Offline there is no network
/// and no handshake, so the evidence is only what files give: `--crl-file`'s CRLs and `--ocsp-response`'s response
/// standing for the staple. Evidence an app asks for that only a responder or the server could give is that app's
/// error (`input`, DESIGN §3); the other apps keep their verdicts.
struct OfflineChecker: Sendable {
    let judge: Judge
    /// The files read: a CRL given (`--crl-file`) checks every app, as a live check with `--revocation crl` does; an
    /// OCSP response (`--ocsp-response`) is judged as the staple a server sends with its chain.
    let evidence: OfflineEvidence

    /// The results of the chain: every app's report, and the errors of the apps whose evidence files do not give.
    public func check(target: String, domain: String?, presented: [X509Certificate]) -> [TargetResult] {
        let steps = ChainJudging(judge: judge, revocation: evidence.revocationLists.isEmpty ? .none : .crl)
        return steps.results(target: target, domain: domain, presented: presented, tls: nil, edge: nil,
                              gather: { gathered($0, presented: presented) })
    }

    /// What files give for `mode`: the CRLs; or what a live check would have without asking anyone (the staple, or
    /// why nothing can be asked); else the failure naming the file that would give it.
    private func gathered(_ mode: RevocationMode, presented: [X509Certificate])
        -> Result<RevocationEvidence, EvidenceFailure>
    {
        if mode == .crl, !evidence.revocationLists.isEmpty {
            var crls = RevocationEvidence(mode: .crl)
            crls.documents = evidence.revocationLists
            return .success(crls)
        }
        // A live check sees whether the server staples; offline, no --ocsp-response says nothing about it.
        if mode == .stapled, evidence.staple == nil {
            return .failure(EvidenceFailure(code: "input", message: "the app asks for the OCSP response the server "
                + "staples, which cannot be seen offline: give --ocsp-response FILE (what it staples), or check the "
                + "server"))
        }
        switch RevocationGathering.plan(mode, presented: presented, staple: evidence.staple) {
        case .ready(let ready):
            return .success(ready)
        case .fetch(_, let urls, _, let leafName):
            let file = mode == .crl ? "--crl-file FILE (its issuer's CRL)" : "--ocsp-response FILE"
            return .failure(EvidenceFailure(code: "input", message: "revocation check of \(leafName): the app asks "
                + "\(urls.joined(separator: ", ")), which is not asked offline: give \(file), or check the "
                + "server"))
        }
    }
}

/// The revocation evidence files of an offline check, read whole once: `--crl-file`'s CRLs and `--ocsp-response`'s
/// response, standing for the staple.
public struct OfflineEvidence: Sendable {
    let revocationLists: [RevocationDocument]
    let staple: [UInt8]?

    /// None: an app that asks for revocation evidence gets the error saying which file would give it.
    public static let none = OfflineEvidence(revocationLists: [], staple: nil)

    private init(revocationLists: [RevocationDocument], staple: [UInt8]?) {
        self.revocationLists = revocationLists
        self.staple = staple
    }

    /// Reads `crlFiles` (`--crl-file`) and `ocspResponse` (`--ocsp-response`); a file that cannot be read is an
    /// input error naming its option.
    public init(crlFiles: [String], ocspResponse: String?) throws(InputError) {
        revocationLists = try crlFiles.map { path throws(InputError) in
            RevocationDocument(kind: .crl, source: "CRL file \(path)",
                               content: .success(try Self.read(path, option: "--crl-file")))
        }
        staple = try ocspResponse.map { path throws(InputError) in try Self.read(path, option: "--ocsp-response") }
    }

    private static func read(_ path: String, option: String) throws(InputError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("\(option) \(path): cannot be read")
        }
        return [UInt8](data)
    }
}
