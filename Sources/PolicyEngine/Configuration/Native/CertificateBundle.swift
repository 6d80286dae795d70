import FileAccess
import FoundationEssentials
import OpenSSLWrapper

/// A `.cer` bundle directory, as AFNetworking and Alamofire load pinned certificates from an app's resources.
public enum CertificateBundle {
    /// The form `config export` writes for the libraries that load a bundle.
    static let format = NativeExport.Format("bundle") { policy, losses throws(ExportError) in
        .directory(try files(policy, losses: &losses))
    }

    /// The file name a certificate gets in a bundle: `NN-<common name>.cer`, lower case, letters, digits, '.', '-'.
    public static func fileName(index: Int, certificate: X509Certificate) -> String {
        let name = certificate.commonNameOrSubject.lowercased().map {
            $0.isLetter && $0.isASCII || $0.isNumber || $0 == "." ? $0 : "-"
        }
        let collapsed = String(name).split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        let trimmed = collapsed.trimming { $0 == "." || $0 == "-" }
        let base = trimmed.isEmpty ? "certificate" : String(trimmed.prefix(64))
        return (index < 10 ? "0" : "") + "\(index)-" + base + ".cer"
    }

    /// What the library loads from `directory`: DER certificates with its extensions, at the top level only
    /// (`SecCertificateCreateWithData` reads DER; a PEM or broken file is skipped silently by the library, and named
    /// in a warning here).
    public static func read(_ directory: String, library: Library, extensions loaded: Set<String>)
        throws(ConfigurationError)
        -> (certificates: [PinnedCertificate], warnings: [String])
    {
        let names: [String]
        do throws(FileSystemError) {
            guard try FileSystem.kind(of: directory) == .directory else {
                throw FileSystemError(reason: "is not a directory (a bundle of .cer files is one)")
            }
            names = try FileSystem.entries(ofDirectory: directory)
        } catch {
            throw ConfigurationError(file: directory, message: error.reason)
        }
        var files: [(label: String, name: String, bytes: [UInt8]?)] = []
        var warnings: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = Path.join(directory, name)
            guard let dot = name.lastIndex(of: "."), loaded.contains(String(name[dot...])) else {
                if (try? FileSystem.kind(of: path)) == .regular {
                    warnings.append("\(path): \(library.displayName) does not load this file (it loads "
                        + "\(loaded.sorted().joined(separator: " ")))")
                }
                continue
            }
            files.append((path, name, try? FileInput.read(path)))
        }
        let read = try certificates(files, library: library, extensions: loaded, in: directory)
        return (read.certificates, warnings + read.warnings)
    }

    /// The certificates among `files` (each named by its label, read or not) that the library loads by their
    /// extension; `place` names the bundle when none is one.
    static func certificates(_ files: [(label: String, name: String, bytes: [UInt8]?)], library: Library,
                             extensions loaded: Set<String>, in place: String) throws(ConfigurationError)
        -> (certificates: [PinnedCertificate], warnings: [String])
    {
        var certificates: [PinnedCertificate] = []
        var warnings: [String] = []
        for file in files {
            guard let dot = file.name.lastIndex(of: "."), loaded.contains(String(file.name[dot...])) else { continue }
            guard let bytes = file.bytes, let certificate = try? X509Certificate(derBytes: bytes) else {
                warnings.append("\(file.label): not one DER certificate, so \(library.displayName) skips it")
                continue
            }
            certificates.append(PinnedCertificate(certificate: certificate,
                                                  source: PinSource(.file(path: file.label, line: nil, entry: nil))))
        }
        guard !certificates.isEmpty else {
            throw ConfigurationError(file: place, message: "holds no certificate \(library.displayName) would load")
        }
        return (certificates, warnings)
    }

    /// The files of a bundle for `policy`'s certificate pins: DER, named as `fileName` names them.
    public static func files(_ policy: PortablePolicy, losses: inout ExportLosses) throws(ExportError)
        -> [(name: String, contents: [UInt8])]
    {
        var certificates: [X509Certificate] = []
        for rule in policy.rules {
            if !rule.keyPins.isEmpty {
                losses.add("key hash pins of \(rule.domain) (a bundle holds certificates only)")
            }
            if rule.scope != .exact { losses.add("the scope of \(rule.domain) (a bundle applies to the hosts the code gives it)") }
            if rule.expiration != nil { losses.add("the expiration of \(rule.domain)'s pins") }
            for pinned in rule.certificates + rule.keyCertificates where !certificates.contains(pinned.certificate) {
                certificates.append(pinned.certificate)
            }
        }
        guard !certificates.isEmpty else {
            throw ExportError("no certificate pins to write: a .cer bundle holds certificates, not hashes")
        }
        return certificates.enumerated().map { (fileName(index: $0.offset, certificate: $0.element), $0.element.derBytes) }
    }
}
