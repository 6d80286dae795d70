import FoundationEssentials
import Glibc
import OpenSSLWrapper

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
/// - SCTs the server sends (TLS extension, OCSP staple) make it CT when 2 logs still qualified validate SCTs of any
///   source, one of them sent (`verify_tls_ct_policy`'s B1 and B2); a retired log's sent SCTs never count.
///
/// The source counts distinct logs, not operators (its table's "maximum per log operator" column is not checked), so
/// pinctl does not either.
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

    static func judge(_ chain: [X509Certificate], sent: [[UInt8]], logs: CTLogList, at time: Date) -> Outcome? {
        let leaf = chain[0]
        guard leaf.notBefore >= requiredFrom, leaf.notBefore <= time, time <= leaf.notAfter else { return nil }
        var tally = Tally(leaf: leaf, logs: logs)
        let embedded = SCTs.embedded(in: leaf, issuer: chain.count > 1 ? chain[1] : nil, logs: logs, at: time)
        let fromServer = SCTs.sent(sent, for: leaf, logs: logs, at: time)
        embedded.forEach { tally.add($0, embedded: true) }
        fromServer.forEach { tally.add($0, embedded: false) }
        // "B1: SCTs from 2 currently valid logs (from any source); B2: At least 1 external SCT from a currently valid
        // log" (verify_tls_ct_policy).
        if tally.currentFromServer, tally.current.count >= 2 { return nil }
        // A: embedded SCTs, at least one from a log still qualified; trustd's issuance time is the earliest SCT
        // from a log still qualified, of any source.
        let issuance = tally.current.values.min() ?? time
        var count = 0
        for (log, earliest) in tally.embeddedLogs.values {
            guard let retired = log.retiredSince else {
                count += 1
                continue
            }
            if earliest < retired, issuance < retired {
                count += 1
            } else {
                tally.notCounted.append("the SCT of \(Self.day(earliest)) from \(name(log)), which retired on "
                    + "\(Self.day(retired)), before that SCT or the certificate's issuance")
            }
        }
        let required = requiredCount(leaf)
        if tally.currentEmbedded, count >= required { return nil }

        let lifetime = "a certificate valid for \(Int(leaf.notAfter.timeIntervalSince(leaf.notBefore) / 86400)) days"
        let rule = "(Apple's Certificate Transparency policy, HT205280, for a chain to a system root issued from 16 "
            + "October 2018; Security CertificateTransparency.m, SecPolicyCheckSystemTrustedCTRequired)"
        let unknown = tally.unknownNewer
        if !unknown.isEmpty, count + unknown.count >= required
            || (!fromServer.isEmpty && tally.current.count + unknown.count >= 2) {
            let ids = unknown.map(SCTs.base64).sorted().joined(separator: ", ")
            return Outcome(violation: nil, warnings: [
                "the chain's SCTs from logs \(ids) are newer than Apple's CT log list of \(logs.dateText), which does "
                    + "not know those logs: counting them, it has the SCTs from distinct logs that \(lifetime) needs "
                    + "\(rule); pinctl cannot tell whether a device's newer list trusts them"])
        }
        var message: String
        if embedded.isEmpty, fromServer.isEmpty {
            message = "the chain has no SCTs, and Certificate Transparency is required: none is embedded in the leaf, "
                + "and no server sent any in the TLS extension or an OCSP staple (a live check asks for those)"
        } else if count > 0, !tally.currentEmbedded {
            message = "none of the leaf's SCTs is from a log still qualified"
        } else {
            message = "the leaf has SCTs from \(count) log\(count == 1 ? "" : "s") Apple's list qualifies, fewer "
                + "than the \(required) that \(lifetime) needs"
        }
        if !fromServer.isEmpty {
            let sentLogs = tally.sentCurrentLogs.count
            message += ", and the server sent SCTs from \(sentLogs) log\(sentLogs == 1 ? "" : "s") still qualified, "
                + "where 2 logs in all, one of them sent, would do"
        }
        message += " " + rule
        if !tally.notCounted.isEmpty { message += "; not counted: " + tally.notCounted.joined(separator: "; ") }
        return Outcome(violation: message, warnings: [])
    }

    /// The SCTs that count, as trustd's `find_validating_logs` sorts them.
    private struct Tally {
        let leaf: X509Certificate
        let logs: CTLogList
        /// trustd's logsValidatingEmbeddedScts: each log's earliest embedded SCT.
        var embeddedLogs: [[UInt8]: (log: CTLogList.Log, earliest: Date)] = [:]
        /// trustd's currentLogsValidatingScts: the logs not retired, with their earliest SCT, of any source.
        var current: [[UInt8]: Date] = [:]
        var sentCurrentLogs: Set<[UInt8]> = []
        var currentEmbedded = false
        var currentFromServer = false
        var notCounted: [String] = []
        /// Logs the list does not know whose SCTs are newer than the list.
        var unknownNewer: Set<[UInt8]> = []

        mutating func add(_ sct: SCTs.SCT, embedded: Bool) {
            let sentBy = embedded ? "" : " (sent by the server)"
            switch sct.judgement {
            case .valid(let log):
                // "only embedded SCTs can be used from retired logs" (isSCTValidForLogData)
                if !embedded, let retired = log.retiredSince {
                    notCounted.append("the SCT\(sentBy) from \(AppleCTPolicy.name(log)), which retired on "
                        + "\(AppleCTPolicy.day(retired)): only SCTs embedded in a certificate count from a retired log")
                    return
                }
                if let problem = AppleCTPolicy.problem(sct, log, leaf) {
                    notCounted.append(problem + sentBy)
                    return
                }
                if embedded {
                    if let known = embeddedLogs[log.id] {
                        // trustd keys the logs by log: a second SCT from one adds nothing but an earlier time.
                        notCounted.append("a second SCT from \(AppleCTPolicy.name(log)): each log counts once")
                        embeddedLogs[log.id] = (log, min(known.earliest, sct.timestamp))
                    } else {
                        embeddedLogs[log.id] = (log, sct.timestamp)
                    }
                }
                guard log.retiredSince == nil else { return }
                current[log.id] = min(current[log.id] ?? sct.timestamp, sct.timestamp)
                if embedded {
                    currentEmbedded = true
                } else {
                    currentFromServer = true
                    sentCurrentLogs.insert(log.id)
                }
            case .unknownLog where sct.timestamp > logs.date:
                unknownNewer.insert(sct.logID)
            case .unknownLog:
                notCounted.append("the SCT\(sentBy) of \(sct.dateText) from log \(sct.logIDText), which Apple's list "
                    + "of \(logs.dateText) does not trust")
            case .refused(let reason):
                notCounted.append(reason + sentBy)
            }
        }
    }

    /// trustd's `isSCTValidForLogData` for an SCT from a log of the list (a retired log's sent SCTs are refused
    /// before).
    static func problem(_ sct: SCTs.SCT, _ log: CTLogList.Log, _ leaf: X509Certificate) -> String? {
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

    static func name(_ log: CTLogList.Log) -> String { log.name }

    static func day(_ date: Date) -> String { String(SCTs.timeText(date).prefix(10)) }
}
