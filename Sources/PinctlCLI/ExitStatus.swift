import ArgumentParser
import Checking
import PolicyEngine

/// DESIGN §3's exit codes: the one table mapping results to process status.
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

    /// The status of one result, folded by each command from its results (renderers only print): a report's
    /// verdict; a failure's code (a policy that cannot be built or a domain no app covers is an input error, a chain
    /// that could not be had a connection failure, evidence an app asked for either).
    init(_ result: TargetResult) {
        switch result {
        case .judged(let report): self = ExitStatus(report.evaluation)
        case .failed(let failure): self = failure.status
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
