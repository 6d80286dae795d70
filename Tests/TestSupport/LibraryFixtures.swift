import Foundation
import OpenSSLWrapper

/// The library-semantics PKI in `certs/libraries/` (see its README.md), made by scripts/make-library-certs.sh.
public enum LibraryCerts {
    public static let directory = Certs.directory + "/libraries"

    /// The path of a file in `certs/libraries/`.
    public static func path(_ name: String) -> String { directory + "/" + name }

    /// Every certificate in a file; a fixture that does not parse is a broken checkout.
    public static func load(_ name: String) -> [X509Certificate] {
        do {
            return try CertificateParser.certificates(atPath: path(name))
        } catch {
            fatalError("fixture libraries/\(name): \(error)")
        }
    }

    public static func one(_ name: String) -> X509Certificate { load(name)[0] }

    /// The `sha256/BASE64` SPKI pin the openssl CLI computed for a fixture (certs/libraries/spki-pins.txt).
    public static func pin(of file: String) -> String { pins(of: file)[0] }

    /// The `sha1/BASE64` SPKI pin, likewise.
    public static func sha1Pin(of file: String) -> String { pins(of: file)[1] }

    /// The base64 of the SHA-256 SPKI pin alone, as TrustKit and Android write it.
    public static func bareBase64(of file: String) -> String { String(pin(of: file).dropFirst("sha256/".count)) }

    private static func pins(of file: String) -> [String] {
        let catalogue = String(decoding: FileManager.default.contents(atPath: path("spki-pins.txt")) ?? Data(),
                               as: UTF8.self)
        guard let line = catalogue.split(separator: "\n").first(where: { $0.hasPrefix(file + " ") }) else {
            fatalError("libraries/spki-pins.txt has no line for \(file)")
        }
        return line.split(separator: " ").dropFirst().map(String.init)
    }

    /// The root standing for the system store.
    public static func store() -> TrustStore {
        do {
            return try TrustStore.caFiles([path("root-ca.pem")], directories: [])
        } catch {
            fatalError("fixture libraries/root-ca.pem: \(error)")
        }
    }
}
