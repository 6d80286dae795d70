internal import COpenSSL
import FoundationEssentials

/// The SCTs of a chain (RFC 6962 §3.3): embedded in the leaf (the extension 1.3.6.1.4.1.11129.2.4.2, a precertificate
/// entry), or sent by the server in the TLS extension or an OCSP staple (an x509 entry, over the leaf whole). Each
/// is judged by OpenSSL's `SCT_validate` against a log list: the log known, the version 1, the signature over the
/// entry good, the time not after the evaluation.
package enum SCTs {
    package enum Judgement: Sendable {
        case valid(CTLogList.Log)
        /// From a log the list does not hold.
        case unknownLog
        /// Why it does not count.
        case refused(String)
    }

    package struct SCT: Sendable {
        package let logID: [UInt8]
        package let timestamp: Date
        package let judgement: Judgement

        package var logIDText: String { SCTs.base64(logID) }
        package var dateText: String { SCTs.timeText(timestamp) }
    }

    /// The leaf's embedded SCTs in certificate order; none when it has no such extension or one OpenSSL cannot read
    /// (trustd then finds none either).
    package static func embedded(in leaf: X509Certificate, issuer: X509Certificate?, logs: CTLogList, at time: Date)
        -> [SCT]
    {
        // Apple's versions that require CT judge one chain alike: its SCTs are judged once for all of them.
        let key = CTLogList.EmbeddedKey(leaf: leaf.sha256Fingerprint, issuer: issuer?.sha256Fingerprint, time: time)
        if let known = logs.embedded.withLock({ $0.value(for: key) }) { return known }
        let judged = judgeEmbedded(in: leaf, issuer: issuer, logs: logs, at: time)
        logs.embedded.withLock { $0.remember(judged, for: key) }
        return judged
    }

    private static func judgeEmbedded(in leaf: X509Certificate, issuer: X509Certificate?, logs: CTLogList,
                                      at time: Date) -> [SCT] {
        // get1-style: a new stack of new SCTs, freed with SCT_LIST_free.
        guard let raw = X509_get_ext_d2i(leaf.pointer, NID_ct_precert_scts, nil, nil) else {
            OpenSSLError.clearQueue()
            return []
        }
        let list = OpaquePointer(raw)
        defer { SCT_LIST_free(list) }
        let scts = (0..<COpenSSLShim_sk_SCT_num(list)).compactMap { COpenSSLShim_sk_SCT_value(list, $0) }
        return judge(scts, leaf, issuer, logs, time, hasIssuer: issuer != nil)
    }

    /// The SCTs the server sent, each serialised (`i2o_SCT`), as x509 entries for `leaf`; one that does not parse
    /// counts for nothing, as in trustd.
    package static func sent(_ serialised: [[UInt8]], for leaf: X509Certificate, logs: CTLogList, at time: Date)
        -> [SCT]
    {
        let scts = serialised.compactMap { bytes in
            bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                var cursor = buffer.baseAddress
                guard let sct = o2i_SCT(nil, &cursor, buffer.count) else {
                    OpenSSLError.clearQueue()
                    return nil
                }
                guard SCT_set_log_entry_type(sct, CT_LOG_ENTRY_TYPE_X509) == 1 else {
                    SCT_free(sct)
                    return nil
                }
                return sct
            }
        }
        defer { scts.forEach { SCT_free($0) } }
        return judge(scts, leaf, nil, logs, time, hasIssuer: true)
    }

    /// Each of `scts` judged against the logs of the list they name (`CTLogList.store(for:)`); when OpenSSL's store
    /// of those logs cannot be made, none counts, each saying why.
    private static func judge(_ scts: [OpaquePointer], _ leaf: X509Certificate, _ issuer: X509Certificate?,
                              _ logs: CTLogList, _ time: Date, hasIssuer: Bool) -> [SCT] {
        let store: CTLogStore
        do {
            store = try logs.store(for: scts.map(logID))
        } catch {
            return scts.map { sct in
                let id = logID(sct)
                return SCT(logID: id, timestamp: timestamp(sct), judgement: .refused(
                    "the SCT from \(source(id, logs)), which cannot be checked: \(error.description)"))
            }
        }
        return withContext(leaf, issuer, store, time) { context in
            scts.map { judge($0, context, logs, time, hasIssuer: hasIssuer) }
        }
    }

    private static func withContext<T>(_ leaf: X509Certificate, _ issuer: X509Certificate?, _ store: CTLogStore,
                                       _ time: Date, _ body: (OpaquePointer) -> T) -> T {
        guard let context = CT_POLICY_EVAL_CTX_new() else { fatalError("CT_POLICY_EVAL_CTX_new: out of memory") }
        defer { CT_POLICY_EVAL_CTX_free(context) }
        guard CT_POLICY_EVAL_CTX_set1_cert(context, leaf.pointer) == 1,
              issuer.map({ CT_POLICY_EVAL_CTX_set1_issuer(context, $0.pointer) == 1 }) ?? true
        else { fatalError("CT_POLICY_EVAL_CTX_set1: out of memory") }
        CT_POLICY_EVAL_CTX_set_shared_CTLOG_STORE(context, store.pointer)
        CT_POLICY_EVAL_CTX_set_time(context, milliseconds(time))
        return body(context)
    }

    private static func milliseconds(_ time: Date) -> UInt64 { UInt64(max(0, time.timeIntervalSince1970 * 1000)) }

    private static func judge(_ sct: OpaquePointer, _ context: OpaquePointer, _ logs: CTLogList, _ time: Date,
                              hasIssuer: Bool) -> SCT {
        let logID = logID(sct)
        let stamp = SCT_get_timestamp(sct)
        let timestamp = timestamp(sct)
        _ = SCT_validate(sct, context)
        OpenSSLError.clearQueue()
        let from = source(logID, logs)
        let judgement: Judgement
        switch SCT_get_validation_status(sct) {
        case SCT_VALIDATION_STATUS_VALID:
            judgement = logs.logs[logID].map(Judgement.valid) ?? .unknownLog
        case SCT_VALIDATION_STATUS_UNKNOWN_LOG:
            if let known = logs.untrusted[logID] {
                judgement = .refused("the SCT from \(known.name), a log Apple's list does not trust (\(known.state))")
            } else {
                judgement = .unknownLog
            }
        case SCT_VALIDATION_STATUS_UNKNOWN_VERSION:
            judgement = .refused("an SCT of a version other than 1 from \(from)")
        case SCT_VALIDATION_STATUS_UNVERIFIED where !hasIssuer:
            judgement = .refused("the SCT from \(from): without the leaf's issuer it cannot be verified")
        default:
            judgement = .refused(stamp > milliseconds(time)
                ? "the SCT from \(from) dated \(timeText(timestamp)), after the evaluation time"
                : "the SCT of \(timeText(timestamp)) from \(from), whose signature does not verify")
        }
        return SCT(logID: logID, timestamp: timestamp, judgement: judgement)
    }

    /// The log an SCT names, as messages say it: its name when the list trusts it, else its id.
    private static func source(_ id: [UInt8], _ logs: CTLogList) -> String {
        logs.logs[id].map(\.name) ?? "log \(base64(id))"
    }

    private static func logID(_ sct: OpaquePointer) -> [UInt8] {
        var idPointer: UnsafeMutablePointer<UInt8>?
        let idLength = SCT_get0_log_id(sct, &idPointer)
        return idPointer.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(idLength))) } ?? []
    }

    private static func timestamp(_ sct: OpaquePointer) -> Date {
        Date(timeIntervalSince1970: TimeInterval(SCT_get_timestamp(sct) / 1000))
    }

    package static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// `2026-03-31T00:00:00Z`.
    package static func timeText(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
