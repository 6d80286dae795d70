import OpenSSLWrapper
import PolicyEngine
import Transport

/// Where `chain`, `extract` and `diagnose` take certificates from: one live target, or certificate files.
public enum ChainSource: Sendable {
    case target(Target, ConnectionSettings)
    /// `--chain` files, concatenated in order (`ChainFiles`).
    case files([String])

    /// What a source gave: the presented certificates, leaf first; the TLS parameters when they came from a live
    /// server; the anchors the chain is built to.
    public struct Loaded {
        public let certificates: [X509Certificate]
        public let tls: TLSInfo?
        public let store: TrustStore
    }

    /// Reads the files or connects (the handshake verifies nothing), then the anchors of `anchors`.
    public func load(anchors: AnchorSettings) throws(SourceError) -> Loaded {
        let certificates: [X509Certificate]
        var tls: TLSInfo?
        switch self {
        case .target(let target, let connection):
            let result = try Self.handshake(with: target, connection: connection)
            certificates = result.presented
            tls = TLSInfo(result)
        case .files(let files):
            do {
                certificates = try ChainFiles.certificates(files)
            } catch {
                throw .input(error)
            }
        }
        do {
            return Loaded(certificates: certificates, tls: tls, store: try anchors.trustStore())
        } catch {
            throw .input(error)
        }
    }

    /// Connects and returns what the server presented; failures carry DESIGN §2's error codes, and a proxy setting
    /// that cannot be used is an input error.
    private static func handshake(with target: Target, connection: ConnectionSettings) throws(SourceError)
        -> TLSHandshakeResult
    {
        let options: TLSConnectOptions
        do {
            options = try connection.connectOptions(for: target)
        } catch {
            throw .input(error)
        }
        do {
            return try TLSClient.handshake(host: target.host, port: target.port, options: options)
        } catch {
            throw .connection(error)
        }
    }
}

/// Why no certificates could be had from a source: bad input (exit 2) or a failed connection (exit 3).
public enum SourceError: Error {
    case input(InputError)
    case connection(TLSConnectionError)

    /// `input`, or the connection failure's code (DESIGN §2).
    public var code: String {
        switch self {
        case .input: "input"
        case .connection(let error): error.kind.rawValue
        }
    }

    /// The message, naming the file, or the host and port of the connection.
    public var message: String {
        switch self {
        case .input(let error): error.description
        case .connection(let error): error.message
        }
    }
}
