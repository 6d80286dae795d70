import ArgumentParser
import Checking
import FileAccess
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import Transport

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

    /// The presented certificates, leaf first, and the TLS parameters when they came from a live server.
    func load() throws(SourceError) -> (certificates: [X509Certificate], tls: TLSInfo?) {
        if let target {
            let result = try connection.handshake(with: target)
            return (result.presented, TLSInfo(result))
        }
        do {
            return (try ChainFiles.certificates(chainFiles), nil)
        } catch {
            throw .input(error)
        }
    }
}

/// `--chain` files: PEM bundles or DER, concatenated in flag order; `-` is standard input (once).
enum ChainFiles {
    static func certificates(_ files: [String]) throws(InputError) -> [X509Certificate] {
        guard files.filter({ $0 == "-" }).count <= 1 else {
            throw InputError("--chain -: standard input can be read only once")
        }
        var certificates: [X509Certificate] = []
        for file in files {
            do throws(CertificateParseError) {
                if file == "-" {
                    let bytes: [UInt8]
                    do {
                        bytes = try FileInput.readStandardInput()
                    } catch {
                        throw CertificateParseError(path: "standard input", reason: error.reason)
                    }
                    do {
                        certificates += try CertificateParser.certificates(from: bytes)
                    } catch var error {
                        error.path = "standard input"
                        throw error
                    }
                } else {
                    certificates += try CertificateParser.certificates(atPath: file)
                }
            } catch {
                throw InputError("--chain \(error.description)")
            }
        }
        return certificates
    }
}

extension ChainSourceOptions {
    /// The presented certificates, the TLS parameters and the anchors; on failure the command ends with the
    /// error's status (2 for input, 3 for connection) after a message naming the source.
    func loadOrExit(anchors: AnchorOptions) throws -> (certificates: [X509Certificate], tls: TLSInfo?, store: TrustStore) {
        do throws(SourceError) {
            let (certificates, tls) = try load()
            do throws(InputError) {
                return (certificates, tls, try anchors.trustStore())
            } catch {
                throw .input(error)
            }
        } catch {
            // Connection messages name host and port already.
            Terminal.error(error.message)
            try error.status.exit()
        }
    }
}

/// Why a command could not obtain certificates: bad input (exit 2) or a failed connection (exit 3).
enum SourceError: Error {
    case input(InputError)
    case connection(TLSConnectionError)

    var status: ExitStatus {
        switch self {
        case .input: .inputError
        case .connection: .connectionFailure
        }
    }

    var code: String {
        switch self {
        case .input: "input"
        case .connection(let error): error.kind.rawValue
        }
    }

    var message: String {
        switch self {
        case .input(let error): error.description
        case .connection(let error): error.message
        }
    }
}
