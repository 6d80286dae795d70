import Foundation
import OpenSSLWrapper
import XMLTree

/// Reads Android's `network_security_config.xml` as XmlConfigSource.java does: its grammar, its refusals (each a
/// parse error that stops the app, so exit 2 here) and its leniencies (unknown elements and attributes skipped).
public enum NSCXMLReader {
    /// Reads the file; `@raw/NAME` anchors are the files `NAME.*` in the `raw/` folder beside the XML's folder.
    public static func read(_ path: String, debuggable: Bool = false) throws(ConfigurationError) -> NetworkSecurityConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw ConfigurationError(file: path, message: error.reason)
        }
        let root: XMLElement
        do {
            root = try XMLDocumentReader.parse(bytes)
        } catch {
            throw ConfigurationError(file: path, line: error.line > 0 ? error.line : nil, message: "not XML: \(error.message)")
        }
        var reader = Reader(path: path, debuggable: debuggable)
        return try reader.document(root)
    }

    private struct Reader {
        let path: String
        let debuggable: Bool
        var seenDomains: Set<String> = []

        init(path: String, debuggable: Bool) {
            self.path = path
            self.debuggable = debuggable
        }

        func error(_ element: XMLElement, _ message: String) -> ConfigurationError {
            ConfigurationError(file: path, line: element.line, keyPath: "<\(element.name)>", message: message)
        }

        mutating func document(_ root: XMLElement) throws(ConfigurationError) -> NetworkSecurityConfig {
            guard root.name == "network-security-config" else {
                throw error(root, "the root element must be <network-security-config>")
            }
            var base: NetworkSecurityConfig.Config?
            var domainConfigs: [NetworkSecurityConfig.Config] = []
            var debugAnchors: [NetworkSecurityConfig.CertificatesSource]?
            var sawDebug = false
            for child in root.children {
                switch child.name {
                case "base-config":
                    guard base == nil else { throw error(child, "Only one base-config allowed") }
                    base = try config(child, kind: .base)
                case "domain-config":
                    domainConfigs.append(try config(child, kind: .domain))
                case "debug-overrides":
                    // Checked before `if (mDebugBuild)`: a second one is refused in release builds too.
                    guard !sawDebug else { throw error(child, "Only one debug-overrides allowed") }
                    sawDebug = true
                    if debuggable { debugAnchors = try config(child, kind: .debug).trustAnchors }
                default:
                    continue  // XmlUtils.skipCurrentTag: unknown elements are skipped.
                }
            }
            return NetworkSecurityConfig(base: base, domainConfigs: domainConfigs, debugAnchors: debugAnchors,
                                         path: path)
        }

        enum Kind { case base, domain, debug }

        mutating func config(_ element: XMLElement, kind: Kind) throws(ConfigurationError) -> NetworkSecurityConfig.Config {
            var domains: [NetworkSecurityConfig.Domain] = []
            var anchors: [NetworkSecurityConfig.CertificatesSource]?
            var pinSet: NetworkSecurityConfig.PinSet?
            var children: [NetworkSecurityConfig.Config] = []
            for child in element.children {
                switch child.name {
                case "domain":
                    guard kind == .domain else { throw error(child, "domain element not allowed in \(element.name)") }
                    domains.append(try domain(child))
                case "trust-anchors":
                    guard anchors == nil else { throw error(child, "Multiple trust-anchor elements not allowed") }
                    anchors = try trustAnchors(child, defaultOverridePins: kind == .debug)
                case "pin-set":
                    guard kind == .domain else { throw error(child, "pin-set element not allowed in \(element.name)") }
                    guard pinSet == nil else { throw error(child, "Multiple pin-set elements not allowed") }
                    pinSet = try self.pinSet(child)
                case "domain-config":
                    guard kind == .domain else {
                        throw error(child, "Nested domain-config not allowed in \(element.name)")
                    }
                    children.append(try config(child, kind: .domain))
                default:
                    continue
                }
            }
            if kind == .domain, domains.isEmpty { throw error(element, "No domain elements in domain-config") }
            return NetworkSecurityConfig.Config(domains: domains, trustAnchors: anchors, pinSet: pinSet,
                                                children: children, location: "\(path):\(element.line)")
        }

        /// `parser.getText().trim().toLowerCase(Locale.US)`; a name given twice anywhere in the file is refused.
        mutating func domain(_ element: XMLElement) throws(ConfigurationError) -> NetworkSecurityConfig.Domain {
            guard element.children.isEmpty else { throw error(element, "domain contains additional elements") }
            let name = element.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard !name.isEmpty else { throw error(element, "Domain name missing") }
            guard seenDomains.insert(name).inserted else { throw error(element, "\(name) has already been specified") }
            return NetworkSecurityConfig.Domain(name: name, includeSubdomains: flag(element, "includeSubdomains", false))
        }

        /// `getAttributeBooleanValue`: aapt turns "true"/"false" into booleans; anything else is the default.
        func flag(_ element: XMLElement, _ name: String, _ fallback: Bool) -> Bool {
            switch element.attribute(name)?.value.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true": true
            case "false": false
            default: fallback
            }
        }

        func trustAnchors(_ element: XMLElement, defaultOverridePins: Bool) throws(ConfigurationError)
            -> [NetworkSecurityConfig.CertificatesSource]
        {
            var sources: [NetworkSecurityConfig.CertificatesSource] = []
            for child in element.children where child.name == "certificates" {
                guard let source = child.attribute("src")?.value else {
                    throw error(child, "certificates element missing src attribute")
                }
                let overridePins = flag(child, "overridePins", defaultOverridePins)
                switch source {
                case "system": sources.append(.init(kind: .system, overridePins: overridePins))
                case "user": sources.append(.init(kind: .user, overridePins: overridePins))
                case _ where source.hasPrefix("@"):
                    sources.append(.init(kind: .resource(name: source, certificates: try resource(source, child)),
                                         overridePins: overridePins))
                default:
                    throw error(child, "Unknown certificates src. Should be one of system|user|@resourceVal")
                }
            }
            return sources
        }

        /// `@raw/NAME`: every certificate (PEM or DER) of the file `NAME.*` in `res/raw/`.
        func resource(_ reference: String, _ element: XMLElement) throws(ConfigurationError) -> [X509Certificate] {
            let parts = reference.dropFirst().split(separator: "/", maxSplits: 1)
            guard parts.count == 2 else { throw error(element, "\(reference) is not a resource reference such as @raw/ca") }
            let folder = Path.join(Path.parent(of: Path.parent(of: path)), String(parts[0]))
            let name = String(parts[1])
            let entries = (try? FileSystem.entries(ofDirectory: folder)) ?? []
            guard let file = entries.first(where: { $0 == name || $0.hasPrefix(name + ".") }) else {
                throw error(element, "\(reference): no file \(name).* in \(folder)")
            }
            do {
                return try CertificateParser.certificates(atPath: Path.join(folder, file))
            } catch {
                throw self.error(element, "\(reference): \(error.description)")
            }
        }

        func pinSet(_ element: XMLElement) throws(ConfigurationError) -> NetworkSecurityConfig.PinSet {
            var expiration: Date?
            if let text = element.attribute("expiration")?.value {
                guard let date = Self.expirationDate(text) else {
                    throw error(element, "Invalid expiration date in pin-set")
                }
                expiration = date
            }
            var pins: [PublicKeyPin] = []
            for child in element.children where child.name == "pin" {
                guard child.children.isEmpty else { throw error(child, "pin contains additional elements") }
                let algorithm = child.attribute("digest")?.value
                // Pin.isSupportedDigestAlgorithm: "SHA-256".equalsIgnoreCase(algorithm)
                guard algorithm?.lowercased() == "sha-256" else {
                    throw error(child, "Unsupported pin digest algorithm: \(algorithm ?? "null")")
                }
                let text = child.text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else { throw error(child, "Missing pin digest") }
                guard let hash = Self.androidBase64(text) else { throw error(child, "Invalid pin digest") }
                guard hash.count == 32 else {
                    throw error(child, "digest length \(hash.count) does not match expected length for SHA-256 of 32")
                }
                let source = PinSource(.configuration(path: path, line: child.line, keyPath: "<pin>"))
                let pin = PublicKeyPin(hash: hash, source: source)
                if !pins.contains(pin) { pins.append(pin) }
            }
            return NetworkSecurityConfig.PinSet(pins: pins, expiration: expiration)
        }

        /// `new SimpleDateFormat("yyyy-MM-dd")` with `setLenient(false)`: one to four digits of year, one or two of
        /// month and day, a real calendar date; text after it is ignored. Read as 00:00 UTC (Android uses the
        /// device's time zone; pinctl has none).
        static func expirationDate(_ text: String) -> Date? {
            let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            let dayDigits = parts[2].prefix { $0.isASCII && $0.isNumber }
            guard (1...4).contains(parts[0].count), parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
                  (1...2).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                  (1...2).contains(dayDigits.count),
                  let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(dayDigits) else { return nil }
            func padded(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return try? Timestamp.parse("\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))").get()
        }

        /// `android.util.Base64.decode(text, DEFAULT)`: bytes outside the alphabet are skipped, padding is optional.
        static func androidBase64(_ text: String) -> [UInt8]? {
            var body = text.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=") }
            if let padding = body.firstIndex(of: "=") {
                guard body[padding...].allSatisfy({ $0 == "=" }) else { return nil }
                body = String(body[..<padding])
            }
            guard body.count % 4 != 1 else { return nil }
            body += String(repeating: "=", count: (4 - body.count % 4) % 4)
            return Data(base64Encoded: body).map { [UInt8]($0) }
        }
    }
}
