import ArgumentParser
import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

struct DiagnoseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnose",
        abstract: "Say what a pin that matches nothing actually is.",
        usage: "pinctl diagnose <pin> ... (<target> | --chain <file> ...) [<options>]",
        discussion: """
            Each pin is read as base64, base64url, hex or colon-hex (with or without a sha256/ or sha1/ prefix) \
            and compared with the SHA-256 and the SHA-1 of each certificate's SPKI, of the whole certificate (its \
            DER) and of its raw key (what iOS's SecKeyCopyExternalRepresentation returns: PKCS#1 RSAPublicKey for \
            RSA, the uncompressed point for EC), for every certificate presented and every one the trust store adds \
            to build the chain. Each match names the certificate and the sha256/ pin to write instead.

            The pins come first, then the target, unless --chain is given. A pin that starts with - goes after \
            the options and a -- (pinctl diagnose --chain leaf.pem -- -Xb3…).

            Exit codes: 0 every pin explained, 1 some pin matches nothing, 2 input error, 3 connection failure.

            Examples:
              pinctl diagnose 'sha256/…' api.example.com
              pinctl diagnose 5F:3A:…:9C --chain fullchain.pem
              pinctl diagnose 'sha1/…' 9b1f…e0 --chain leaf.pem --ca-file corp-root.pem \\
                  --format json
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The pins, then the target (host, host:port, [v6addr]:port or https:// URL) "
        + "unless --chain is given.", valueName: "pin"))
    var operands: [String] = []

    @Option(name: .customLong("chain"), help: ArgumentHelp(
        "Certificate files instead of a live target: PEM or DER, leaf first; repeatable.", valueName: "file"))
    var chainFiles: [String] = []

    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Trust anchors") var anchors: AnchorOptions

    @Option(help: "Output format: text or json (one object per pin).")
    var format: Format = .text

    /// The pins: every operand but the target.
    var pins: [String] { chainFiles.isEmpty ? Array(operands.dropLast()) : operands }

    /// The live target, the last operand, when no --chain is given.
    var target: Target? { chainFiles.isEmpty ? operands.last.flatMap { try? Target(parsing: $0) } : nil }

    func validate() throws {
        // One array argument holds pins and target: ArgumentParser accepts no positional after an array.
        if chainFiles.isEmpty {
            guard operands.count >= 2, let last = operands.last else {
                throw ValidationError("give the pins and then a target, or the pins and --chain FILE")
            }
            // Hex and bare base64 can pass for a host name; a host name with no dot never reads as a hash.
            if !last.contains("."), PinDiagnosis.syntaxError(last) == nil {
                throw ValidationError("'\(last)' is a pin, not a target: give the target after the pins, or --chain FILE")
            }
            do {
                _ = try Target(parsing: last)
            } catch {
                throw ValidationError("\(error.description) (the last argument is the target unless --chain is given)")
            }
        } else if operands.isEmpty {
            throw ValidationError("give at least one pin")
        }
        for pin in pins {
            guard let problem = PinDiagnosis.syntaxError(pin) else { continue }
            // A host name among the pins with --chain: the target given as well.
            let both = !chainFiles.isEmpty && pin.contains(".") && (try? Target(parsing: pin)) != nil
            throw ValidationError("pin '\(pin)': \(problem)" + (both ? " (give a target or --chain, not both)" : ""))
        }
    }

    func run() throws {
        let source: ChainSource = target.map { .target($0, connection.settings) } ?? .files(chainFiles)
        let loaded: ChainSource.Loaded
        do throws(SourceError) {
            loaded = try source.load(anchors: anchors.settings)
        } catch {
            Terminal.error(error.message)
            try error.status.exit()
        }
        // The chain OpenSSL builds to the anchors, no name and no pin checked: presented, then what the store added.
        let evaluation = PolicyEvaluator(context: EvaluationContext(platformAnchors: loaded.store, time: anchors.time))
            .validate(loaded.certificates)
        let report = DiagnosisReport(
            source: target?.description ?? chainFiles.joined(separator: ","), chain: evaluation.chain,
            presented: evaluation.presented,
            diagnoses: pins.map { (pin: $0, explanations: PinDiagnosis.explain($0, in: evaluation.chain)) })
        switch format {
        case .text: report.printText()
        case .json: report.json.forEach { print($0.serialized) }
        }
        if !report.everyPinExplained { try ExitStatus.rejected.exit() }
    }
}
