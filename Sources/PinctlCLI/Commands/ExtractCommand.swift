import ArgumentParser
import Checking
import FileAccess
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write a chain's certificates as DER .cer pin files and their hashes as pins.pin.",
        discussion: """
            Files are named NN-<name>.cer (AFNetworking's and Alamofire's bundle convention); pins.pin holds one \
            sha256/BASE64 line per certificate. What it writes is accepted by --pins as is. Nothing is \
            overwritten without --force.

            DIR's NN-*.cer files and pins.pin are the set extract owns: writing into a DIR that holds some \
            replaces the whole set (with --force), so a certificate of an earlier extract that is not written \
            again is removed, never left for --pins DIR to trust. Other files (a README.txt) are left alone. \
            The new set replaces the old in one step, and an interrupt waits until it is done.

            Examples:
              pinctl extract api.example.com --out pins/
              pinctl extract api.example.com:8443 --out pins/ --which intermediates
              pinctl extract --chain fullchain.pem --out pins/ --force
            """
    )

    enum Which: String, ExpressibleByArgument, CaseIterable {
        case leaf, intermediates, root, all
    }

    @OptionGroup var source: ChainSourceOptions
    @OptionGroup(title: "Trust anchors") var anchors: AnchorOptions

    @Option(help: ArgumentHelp("The directory to write into; created when missing.", valueName: "dir"))
    var out: String

    @Option(help: "Which certificates: leaf, intermediates, root or all (every presented one, and the store's root).")
    var which: Which = .all

    @Flag(help: "Replace the NN-*.cer files and pins.pin already in the directory.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    func run() throws {
        let loaded: ChainSource.Loaded
        do throws(SourceError) {
            loaded = try source.settings.load(anchors: anchors.settings)
        } catch {
            // Connection messages name host and port already.
            Terminal.error(error.message)
            try error.status.exit()
        }
        let chosen: [X509Certificate]
        do {
            chosen = try select(from: loaded.certificates, store: loaded.store, at: anchors.time)
        } catch {
            try fail(error.description)
        }
        let files = chosen.enumerated().map { index, certificate in
            (name: CertificateBundle.fileName(index: index, certificate: certificate), certificate: certificate)
        }
        let pins = files.map { "\(PinFormat.pin(of: $0.certificate))  # \($0.certificate.subject)" }
        let header = "# written by pinctl extract from \(source.label)\n"
        let outputs = files.map { (name: $0.name, contents: $0.certificate.derBytes) }
            + [(name: "pins.pin", contents: Array((header + pins.joined(separator: "\n") + "\n").utf8))]
        do {
            try OutputDirectory(path: out, owns: Self.owns).write(outputs, force: force)
        } catch {
            try fail(error.description)
        }
        if !quiet {
            for output in outputs { print(Terminal.safe(Path.join(out, output.name))) }
        }
    }

    private func select(from presented: [X509Certificate], store: TrustStore, at time: Date) throws(InputError)
        -> [X509Certificate]
    {
        // The chain OpenSSL builds to the anchors, checking no host name or usage: extract copies a chain, it
        // does not judge it.
        let built = ChainVerifier.verify(
            leaf: presented[0], untrusted: Array(presented.dropFirst()), store: store,
            options: VerificationOptions(time: time, domain: nil, checksServerIdentity: false))
        // The store's root counts only when it completes the chain.
        let storeRoot = built.isValid ? built.chain.last.flatMap { presented.contains($0) ? nil : $0 } : nil
        let presentedRoot = presented.count > 1 ? presented.last.flatMap { $0.isSelfSigned ? $0 : nil } : nil
        switch which {
        case .leaf:
            return [presented[0]]
        case .intermediates:
            let intermediates = presented.dropFirst().filter { !$0.isSelfSigned }
            guard !intermediates.isEmpty else { throw InputError("\(source.label): the chain has no intermediate certificates") }
            return Array(intermediates)
        case .root:
            guard let root = storeRoot ?? presentedRoot else {
                throw InputError("\(source.label): no root: the chain does not reach a trust anchor in \(store.origin)"
                    + (built.failure.map { " (\($0.message))" } ?? ""))
            }
            return [root]
        case .all:
            return presented + (storeRoot.map { [$0] } ?? [])
        }
    }

    /// The names of the set extract writes: `NN-<name>.cer` (`CertificateBundle.fileName`) and `pins.pin`.
    static func owns(_ name: String) -> Bool {
        if name == "pins.pin" { return true }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && name.dropFirst(digits.count).hasPrefix("-") && name.hasSuffix(".cer")
    }

    /// Ends the command by throwing, not by exit(), so that what `run` holds is released first (see `Pinctl.main`).
    private func fail(_ message: String) throws -> Never {
        Terminal.error(message)
        try ExitStatus.inputError.exit()
    }
}
