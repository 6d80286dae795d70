import ArgumentParser
import Checking
import PolicyEngine

/// Where `chain` and `extract` take certificates from: one live target or certificate files.
struct ChainSourceOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("host, host:port, [v6addr]:port or https:// URL.", valueName: "target"),
        transform: Target.init(argument:))
    var target: Target?

    @Option(name: .customLong("chain"), help: ArgumentHelp(
        "Certificate files instead of a live target: PEM or DER, leaf first; repeatable.", valueName: "file"))
    var chainFiles: [String] = []

    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    func validate() throws {
        guard (target == nil) != chainFiles.isEmpty else {
            throw ValidationError(target == nil ? "give a target or --chain FILE" : "give a target or --chain, not both")
        }
    }

    /// A label for the source: the target as `host:port`, or the files.
    var label: String {
        target?.description ?? chainFiles.joined(separator: ",")
    }

    /// The source as the checking core takes it.
    var settings: ChainSource {
        target.map { .target($0, connection.settings) } ?? .files(chainFiles)
    }
}
