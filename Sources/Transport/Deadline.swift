import Glibc

/// The one instant by which resolution, connect and handshake must all be done (`--timeout`).
///
/// Every stage waits against the same deadline rather than getting its own timeout, so the whole operation never
/// takes longer than the user allowed, however the time is split between the stages.
package struct Deadline: Sendable {
    /// The allowance as given, for messages ("within 2 s").
    package let seconds: Double
    private let end: ContinuousClock.Instant

    /// Longer allowances are clamped: `Duration` traps on infinity, and nobody waits a year for a handshake.
    private static let longest = 365.0 * 86_400

    package init(seconds: Double) {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), Self.longest)
        self.seconds = seconds
        end = .now + .milliseconds(Int64((clamped * 1000).rounded(.up)))
    }

    package var hasPassed: Bool { ContinuousClock.now >= end }

    /// Time left, zero once passed.
    package var remaining: Duration { max(end - .now, .zero) }

    /// Time left for poll(2), rounded up so a wait never ends just before the deadline and spins.
    package var pollMilliseconds: Int32 {
        let (whole, fraction) = remaining.components
        let milliseconds = whole * 1000 + (fraction + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// "2 s", "1.5 s": the allowance as the user wrote it.
    package var allowance: String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// Waiting for a socket to become readable or writable, never past a deadline.
package enum SocketWait {
    package enum Outcome {
        /// The socket is ready, or has an error or hang-up the next call will report.
        case ready
        case timedOut
        case failed(errno: Int32)
    }

    package static func wait(_ fd: Int32, for events: Int32, until deadline: Deadline) -> Outcome {
        while true {
            let milliseconds = deadline.pollMilliseconds
            guard milliseconds > 0 else { return .timedOut }
            var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
            let result = poll(&entry, 1, milliseconds)
            if result > 0 { return .ready }
            // poll may wake a little early; the loop re-reads the clock rather than trusting it.
            if result == 0 { continue }
            let code = errno
            if code == EINTR { continue }
            return .failed(errno: code)
        }
    }
}
