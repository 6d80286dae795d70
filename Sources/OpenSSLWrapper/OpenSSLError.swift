internal import COpenSSL

/// An OpenSSL call that failed, with the messages OpenSSL queued for it.
public struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    /// What pinctl was doing, e.g. "parse DER certificate".
    public let operation: String
    /// OpenSSL's error strings, oldest first.
    public let queue: [String]

    public var description: String {
        queue.isEmpty ? "\(operation) failed" : "\(operation) failed: \(queue.joined(separator: "; "))"
    }

    /// Drains OpenSSL's thread-local error queue so one failure never leaks into the next call.
    static func drain(_ operation: String) -> OpenSSLError {
        OpenSSLError(operation: operation, queue: drainQueue())
    }

    static func drainQueue() -> [String] {
        var messages: [String] = []
        while true {
            let code = ERR_get_error_all(nil, nil, nil, nil, nil)
            if code == 0 { break }
            messages.append(reasonText(code))
        }
        return messages
    }

    static func reasonText(_ code: UInt) -> String {
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        return "error \(code)"
    }

    static func clearQueue() { ERR_clear_error() }
}
