internal import COpenSSL
import FoundationEssentials

/// Apple's Certificate Transparency policy for TLS servers (Apple HT205280, "Apple's Certificate Transparency
/// policy"), as trustd applies it (Security, trust/trustd/CertificateTransparency.m and SecPolicyServer.c):
///
/// - Required (`SecPolicyCheckSystemTrustedCTRequired`) of an SSL server policy's chain that is "anchored with root
///   in the system anchor source", whose leaf was issued "on or after 16 Oct 2018 at 00:00:00 AM UTC and not
///   expired" (the caller decides the anchor; the dates are checked here).
/// - An SCT counts when it is version 1, not dated after the evaluation, from a log of the list (pending and
///   rejected logs are not in it), its signature verifies (OpenSSL's `SCT_validate` over the precertificate entry),
///   and "SCTs from after the transition to read-only are not valid", and the leaf's expiry falls in the log's
///   shard (`isSCTValidForLogData`).
/// - Embedded SCTs make a certificate CT when at least one is from a log still qualified, and the distinct logs
///   that are "currently qualified OR once qualified" (a retired log's SCT dated before it retired, in a
///   certificate issued before it retired) number at least: before 21 April 2021, by lifetime in months, 2 (< 15),
///   3 (≤ 27), 4 (≤ 39), else 5 (`verify_embedded_sct_policy_v1`); from then on, 2 for 180 days or less, 3 up to 825
///   days, else 4 (`verify_embedded_sct_policy_v2`).
///
/// The source counts distinct logs, not operators (its table's "maximum per log operator" column is not checked), so
/// pinctl does not either. Only SCTs embedded in the leaf are read: those of the TLS extension and of OCSP staples are
/// not, so a chain that has its SCTs only there is refused with that said (the safe side).
enum AppleCTPolicy {
    /// What the policy says of a chain: nil when CT is not required or is met.
    struct Outcome {
        /// Why the chain is not CT, for a refusal; nil when it is not refused.
        let violation: String?
        let warnings: [String]
    }

    /// 16 October 2018 00:00:00 UTC (trustd's 561340800.0 since 2001).
    static let requiredFrom = Date(timeIntervalSince1970: 1_539_648_000)
    /// 21 April 2021 00:00:00 UTC (trustd's `apr_21_2021`).
    static let secondPolicyFrom = Date(timeIntervalSince1970: 1_618_963_200)

    static func judge(_ chain: [X509Certificate], logs: CTLogList, at time: Date) -> Outcome? {
        let leaf = chain[0]
        guard leaf.notBefore >= requiredFrom, leaf.notBefore <= time, time <= leaf.notAfter else { return nil }
        let scts = EmbeddedSCTs.read(leaf, issuer: chain.count > 1 ? chain[1] : nil, logs: logs, at: time)
        var validating: [[UInt8]: (log: CTLogList.Log, earliest: Date)] = [:]
        var notCounted: [String] = []
        var unknownNewer: Set<[UInt8]> = []
        for sct in scts {
            switch sct.judgement {
            case .valid(let log):
                if let problem = problem(sct, log, leaf) {
                    notCounted.append(problem)
                } else if let known = validating[log.id] {
                    // trustd keys the logs by log: a second SCT from one adds nothing but an earlier time.
                    notCounted.append("a second SCT from \(name(log)): each log counts once")
                    validating[log.id] = (log, min(known.earliest, sct.timestamp))
                } else {
                    validating[log.id] = (log, sct.timestamp)
                }
            case .unknownLog where sct.timestamp > logs.date:
                unknownNewer.insert(sct.logID)
            case .unknownLog:
                notCounted.append("the SCT of \(sct.dateText) from log \(sct.logIDText), which Apple's list of "
                    + "\(logs.dateText) does not trust")
            case .refused(let reason):
                notCounted.append(reason)
            }
        }
        let current = validating.values.filter { $0.log.retiredSince == nil }
        // trustd's issuance time: the earliest SCT from a log still qualified.
        let issuance = current.map(\.earliest).min() ?? time
        var count = 0
        for (log, earliest) in validating.values {
            guard let retired = log.retiredSince else {
                count += 1
                continue
            }
            if earliest < retired, issuance < retired {
                count += 1
            } else {
                notCounted.append("the SCT of \(Self.day(earliest)) from \(name(log)), which retired on "
                    + "\(Self.day(retired)), before that SCT or the certificate's issuance")
            }
        }
        let required = requiredCount(leaf)
        if !current.isEmpty, count >= required { return nil }
        let lifetime = "a certificate valid for \(Int(leaf.notAfter.timeIntervalSince(leaf.notBefore) / 86400)) days"
        let rule = "(Apple's Certificate Transparency policy, HT205280, for a chain to a system root issued from 16 "
            + "October 2018; Security CertificateTransparency.m, SecPolicyCheckSystemTrustedCTRequired)"
        if !unknownNewer.isEmpty, count + unknownNewer.count >= required {
            let ids = unknownNewer.map(EmbeddedSCTs.base64).sorted().joined(separator: ", ")
            return Outcome(violation: nil, warnings: [
                "the leaf's SCTs from logs \(ids) are newer than Apple's CT log list of \(logs.dateText), which does "
                    + "not know those logs: counting them, it has the \(required) SCTs from distinct logs that "
                    + "\(lifetime) needs \(rule); pinctl cannot tell whether a device's newer list trusts them"])
        }
        var message: String
        if scts.isEmpty {
            message = "the leaf has no embedded SCTs, and Certificate Transparency is required "
                + "(pinctl reads the SCTs embedded in the certificate, not those of the TLS extension or OCSP)"
        } else if current.isEmpty, count > 0 {
            message = "none of the leaf's SCTs is from a log still qualified"
        } else {
            message = "the leaf has SCTs from \(count) log\(count == 1 ? "" : "s") Apple's list qualifies, fewer "
                + "than the \(required) that \(lifetime) needs"
        }
        message += " " + rule
        if !notCounted.isEmpty { message += "; not counted: " + notCounted.joined(separator: "; ") }
        return Outcome(violation: message, warnings: [])
    }

    /// trustd's `isSCTValidForLogData` for an embedded SCT from a log of the list.
    private static func problem(_ sct: EmbeddedSCTs.SCT, _ log: CTLogList.Log, _ leaf: X509Certificate) -> String? {
        if let frozen = log.readOnlySince, sct.timestamp > frozen {
            return "the SCT of \(sct.dateText) from \(name(log)), read-only since \(day(frozen))"
        }
        if let start = log.shardStart, leaf.notAfter < start {
            return "the SCT from \(name(log)), which takes certificates expiring from \(day(start))"
        }
        if let end = log.shardEnd, leaf.notAfter >= end {
            return "the SCT from \(name(log)), which takes certificates expiring before \(day(end))"
        }
        return nil
    }

    /// How many distinct logs a leaf needs, by its lifetime.
    static func requiredCount(_ leaf: X509Certificate) -> Int {
        if leaf.notBefore < secondPolicyFrom {
            let months = calendarMonths(from: leaf.notBefore, to: leaf.notAfter)
            return months < 15 ? 2 : months <= 27 ? 3 : months <= 39 ? 4 : 5
        }
        let lifetime = leaf.notAfter.timeIntervalSince(leaf.notBefore)
        return lifetime <= 180 * 86400 ? 2 : lifetime <= 825 * 86400 ? 3 : 4
    }

    /// Whole calendar months between two UTC times, as CFCalendarGetComponentDifference counts them.
    static func calendarMonths(from start: Date, to end: Date) -> Int {
        func parts(_ date: Date) -> tm {
            var seconds = time_t(date.timeIntervalSince1970)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            return parts
        }
        let first = parts(start)
        let last = parts(end)
        var months = Int(last.tm_year - first.tm_year) * 12 + Int(last.tm_mon - first.tm_mon)
        let firstRest = [first.tm_mday, first.tm_hour, first.tm_min, first.tm_sec]
        let lastRest = [last.tm_mday, last.tm_hour, last.tm_min, last.tm_sec]
        if lastRest.lexicographicallyPrecedes(firstRest) { months -= 1 }
        return months
    }

    static func name(_ log: CTLogList.Log) -> String {
        log.operatorName.isEmpty ? log.description : "\(log.description) (\(log.operatorName))"
    }

    static func day(_ date: Date) -> String { String(EmbeddedSCTs.timeText(date).prefix(10)) }
}
