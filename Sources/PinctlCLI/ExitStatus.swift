import ArgumentParser
import Checking
import PolicyEngine

/// DESIGN §3's exit codes: the one table mapping outcomes to process status.
enum ExitStatus: Int32, Sendable {
    case trusted = 0
    case rejected = 1
    case inputError = 2
    case connectionFailure = 3

    /// The status of one evaluation: a contradiction is a configuration error, not a verdict on the chain.
    init(_ evaluation: Evaluation) {
        switch evaluation.verdict {
        case .trusted: self = .trusted
        case .rejected(let rejection): self = rejection.reason.isConfigurationError ? .inputError : .rejected
        }
    }

    /// The status of one outcome, folded by each command from its results (renderers only print): each report's
    /// verdict; a policy that cannot be built or a domain no app covers is an input error; a chain that could not
    /// be had is a connection failure, or each app's evidence failure.
    init(_ outcome: CheckOutcome) {
        switch outcome {
        case .judged(_, .reports(let reports), _):
            self = Self.combined(reports.map { ExitStatus($0.evaluation) })
        case .judged(_, .inputError, _), .judged(_, .uncovered, _):
            self = .inputError
        case .failed(let failures, _):
            self = failures.isEmpty ? .connectionFailure : Self.combined(failures.map(\.status))
        }
    }

    /// Severity for several targets: 2, then 1, then 3, then 0.
    private var severity: Int {
        switch self {
        case .inputError: 3
        case .rejected: 2
        case .connectionFailure: 1
        case .trusted: 0
        }
    }

    /// The most severe of `statuses`; `.trusted` when there are none.
    static func combined(_ statuses: [ExitStatus]) -> ExitStatus {
        statuses.max { $0.severity < $1.severity } ?? .trusted
    }

    /// ArgumentParser's codes: 0 stays 0, its usage error (64) and anything else it raises is a usage error here.
    static func fromArgumentParser(_ code: ExitCode) -> ExitStatus {
        if code == .success { return .trusted }
        return ExitStatus(rawValue: code.rawValue) ?? .inputError
    }

    /// Ends the command with this status (ArgumentParser's way of exiting from `run()`).
    func exit() throws -> Never {
        throw ExitCode(rawValue)
    }
}

extension SourceError {
    /// A source that gave no certificates: 2 for input, 3 for a connection.
    var status: ExitStatus {
        switch self {
        case .input: .inputError
        case .connection: .connectionFailure
        }
    }
}
