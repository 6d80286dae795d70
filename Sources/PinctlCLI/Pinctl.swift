import ArgumentParser
import Checking
import FileAccess
import FoundationEssentials
import Glibc
import OpenSSLWrapper

/// The entry of both executables: pinctl, and pinctl-serve (which adds the exporter for `pinctl serve`).
package enum PinctlMain {
    package static func run() { Pinctl.main() }
}

struct Pinctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pinctl",
        abstract: "Check TLS pinning as AFNetworking, Alamofire, OkHttp, TrustKit and Android apps do, against live servers "
            + "and certificate files.",
        discussion: """
            Exit codes: 0 trusted (or done), 1 rejected by the policy, 2 usage/configuration/input error, \
            3 connection or TLS failure. With several targets the most severe wins, in the order 2, 1, 3, 0.

            Examples:
              pinctl check --config pinctl.yaml
              pinctl check api.example.com:443 --mode publickey --pins pins/
              pinctl chain api.example.com
              pinctl extract api.example.com --out pins/
              pinctl verify --chain next.pem --host api.example.com --pins pins/ \\
                  --mode publickey
            """,
        version: PinctlVersion.lines.joined(separator: "\n"),
        subcommands: [
            CheckCommand.self, VerifyCommand.self, LintCommand.self, DiagnoseCommand.self, BackupKeyCommand.self,
            ChainCommand.self, ExtractCommand.self, ConfigCommand.self, StoresCommand.self, ServeCommand.self,
        ]
    )

    static func main() {
        // OpenSSL writes with write(): a peer that closed must not kill the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let status: Int32
        let arguments = Array(PathBytes.arguments().dropFirst())
        // What ArgumentParser prints for it, without building the argument sets of every command by reflection
        // first: that is 5.7 M instructions, most of the run (#12).
        if arguments == ["--version"] {
            print(PinctlVersion.lines.joined(separator: "\n"))
            return
        }
        // The store snapshots `--platform` names are read on other threads while the line is parsed.
        CommandLineReadAhead.start(for: arguments)
        do {
            // Every command is synchronous (check runs its own threads): no async runtime to start.
            // Arguments with every byte kept, so a file name that is not UTF-8 still names the same file.
            var command = try parseAsCommand(arguments) ?? parseAsRoot(arguments)
            try command.run()
            CommandLineReadAhead.join()
            return
        } catch {
            CommandLineReadAhead.join()
            status = report(error)
        }
        // Exit only once the command and the error are released: LeakSanitizer cannot follow the pointers Swift
        // tags with enum cases, so what is still alive at exit() can read as leaked.
        Glibc.exit(status)
    }

    /// The command the first argument names, parsed by ArgumentParser with that command as its root; nil when the
    /// first argument names no command, or when the rest does not parse as one of pinctl's commands (an error, or
    /// a request for help or a completion script, which ArgumentParser answers with a command of its own): then
    /// `main` parses the whole line from `pinctl`, and ArgumentParser answers exactly as it always has, naming
    /// `pinctl`. A line that parses both ways gives the same command, as `pinctl` has no options of its own.
    ///
    /// Why: from the root, ArgumentParser builds the chosen command's arguments by reflection three times (once to
    /// ask whether it takes all remaining input, twice in its own parse); from the command, twice. That is 6 M of
    /// the 52 M instructions of a `pinctl verify` (#21).
    static func parseAsCommand(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first,
              let command = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
              let parsed = try? command.parseAsRoot(Array(arguments.dropFirst())),
              commandTree(command).contains(ObjectIdentifier(type(of: parsed)))
        else { return nil }
        return parsed
    }

    /// A command and its subcommands, theirs too: pinctl's own command types under it.
    private static func commandTree(_ command: ParsableCommand.Type) -> Set<ObjectIdentifier> {
        command.configuration.subcommands.reduce(into: [ObjectIdentifier(command)]) { $0.formUnion(commandTree($1)) }
    }

    /// Prints ArgumentParser's message for `error` and returns DESIGN §3's code for it (usage errors are 2, not 64).
    static func report(_ error: Error) -> Int32 {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            return 0
        }
        // ArgumentParser's message quotes what the user typed: each of its lines is made safe.
        if !message.isEmpty {
            Terminal.printError(message.split(separator: "\n", omittingEmptySubsequences: false)
                .map { Terminal.safe(String($0)) }.joined(separator: "\n"))
        }
        if !(error is ExitCode), wantsJSON(CommandLine.arguments) {
            // A JSON consumer gets its one object per line even when the command line itself is wrong.
            let object = FailureReport(target: nil, code: "input", message: self.message(for: error)).json
            print(object.serialized)
        }
        // ArgumentParser gives EXIT_FAILURE (1) to any error it does not know, but 1 means "rejected" here: only an
        // ExitCode a command threw on purpose may carry it.
        let status = code == .failure && !(error is ExitCode)
            ? ExitStatus.inputError : ExitStatus.fromArgumentParser(code)
        return status.rawValue
    }
}

/// Whether the command line asks for JSON output, read without the parser (which is what failed).
private func wantsJSON(_ arguments: [String]) -> Bool {
    zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == "json" }
        || arguments.contains("--format=json")
}

enum PinctlVersion {
    static let current = "0.1.0"

    /// `pinctl --version`: the version, the commit it was built from, the OpenSSL it runs on (and, when they differ,
    /// the one it was built with), one line each.
    static var lines: [String] {
        let running = OpenSSLVersion.running
        return ["pinctl \(current)", "commit \(BuildInfo.commit)",
                running == OpenSSLVersion.built ? running : "\(running) (built with \(OpenSSLVersion.built))"]
    }
}
