import ArgumentParser
import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import Transport

extension StartTLSChoice: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { StartTLSProtocol.allCases.map(\.rawValue) + ["auto"] }
}

extension ConnectionOptions {
    var family: AddressFamily { ipv4Only ? .ipv4 : ipv6Only ? .ipv6 : .any }

    /// Every `--resolve` entry, parsed.
    func resolved() throws(ValidationError) -> [ResolveEntry] {
        var entries: [ResolveEntry] = []
        for text in resolveEntries {
            do {
                entries.append(try ResolveEntry(parsing: text))
            } catch {
                throw ValidationError("--resolve \(error.description)")
            }
        }
        return entries
    }

    /// The options as the checking core takes them (`validate()` has checked `--resolve`); proxies from the
    /// environment as curl reads them.
    var settings: ConnectionSettings {
        var settings = ConnectionSettings(servername: servername, timeout: timeout, family: family,
                                          environment: ProcessInfo.processInfo.environment)
        settings.resolveEntries = (try? resolved()) ?? []
        settings.proxy = proxy
        settings.startTLS = starttls
        return settings
    }

    /// The domain a target is checked against: `--servername`, or the target's host.
    func domain(for target: Target) -> String { settings.domain(for: target) }
}
