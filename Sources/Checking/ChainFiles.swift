import FileAccess
import OpenSSLWrapper
import PolicyEngine

/// `--chain` files (`verify`, `lint`, `chain`, `extract`, `diagnose`): PEM bundles or DER, concatenated in the order
/// given; `-` is standard input (once).
public enum ChainFiles {
    /// The certificates of `files`, leaf first; a file that cannot be read or parsed is an input error naming it.
    public static func certificates(_ files: [String]) throws(InputError) -> [X509Certificate] {
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
