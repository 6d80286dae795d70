import FoundationEssentials
import OpenSSLWrapper

/// The four events a server's chain goes through, and what each changes (DESIGN §10).
public enum RotationEvent: String, Sendable, CaseIterable {
    /// The leaf certificate, same key.
    case renewLeaf = "renew-leaf"
    /// The leaf certificate and its key.
    case rekeyLeaf = "rekey-leaf"
    /// The leaf and every intermediate, under the same root.
    case newIntermediate = "new-intermediate"
    /// The whole chain.
    case newCA = "new-ca"

    /// Whether the event replaces the certificate at `position` (a root when `isRoot`), and whether its key too.
    func replaces(position: Int, isRoot: Bool) -> (certificate: Bool, key: Bool) {
        switch self {
        case .renewLeaf: return (position == 0, false)
        case .rekeyLeaf: return (position == 0, position == 0)
        case .newIntermediate: return (!isRoot, !isRoot)
        case .newCA: return (true, true)
        }
    }
}

/// What an event does to an app: it survives (a pin still matches), needs a backup (only a pin that matches nothing
/// today can carry it), or breaks.
public enum RotationOutcome: String, Sendable {
    case survives
    case needsBackup = "needs-backup"
    case breaks
}

/// Which certificate of today's built chain a pin matches.
public struct PinAttribution: Sendable {
    public let pin: AppliedPins.Entry
    /// The position in the built chain (0 = leaf), nil when the pin matches nothing today.
    public let position: Int?
    public let certificate: X509Certificate?
}

/// The rotation forecast of one app for one host, against today's built chain.
public struct RotationForecast: Sendable {
    public let attribution: [PinAttribution]
    public let outcomes: [(event: RotationEvent, outcome: RotationOutcome)]
    /// When the first breaking event is due: the leaf's notAfter when a renewal or re-key breaks, else the earliest
    /// intermediate's when a new intermediate does, else the root's when a new CA does; nil when nothing breaks.
    public let breaksOn: Date?
    /// The event `breaksOn` is for.
    public let breakingEvent: RotationEvent?

    public init(pins: AppliedPins, builtChain chain: BuiltChain) {
        attribution = pins.entries.map { entry in
            let position = chain.firstIndex(where: entry.matches)
            return PinAttribution(pin: entry, position: position, certificate: position.map { chain[$0] })
        }
        let unused = attribution.contains { $0.position == nil }
        var outcomes: [(RotationEvent, RotationOutcome)] = []
        for event in RotationEvent.allCases {
            guard !pins.entries.isEmpty else {
                outcomes.append((event, .survives))
                continue
            }
            let survives = attribution.contains { pin in
                guard let position = pin.position else { return false }
                let change = event.replaces(position: position, isRoot: Self.isRoot(position, of: chain))
                // A key pin survives a new certificate for the same key.
                return pin.pin.comparison == .key ? !change.key : !change.certificate
            }
            outcomes.append((event, survives ? .survives : unused ? .needsBackup : .breaks))
        }
        self.outcomes = outcomes
        let breaking = outcomes.first { $0.1 == .breaks }?.0
        breakingEvent = breaking
        switch breaking {
        case .renewLeaf?, .rekeyLeaf?: breaksOn = chain.first?.notAfter
        case .newIntermediate?:
            let intermediates = chain.indices.dropFirst().filter { !Self.isRoot($0, of: chain) }.map { chain[$0].notAfter }
            breaksOn = intermediates.min() ?? chain.first?.notAfter
        case .newCA?: breaksOn = chain.last?.notAfter
        case nil: breaksOn = nil
        }
    }

    /// The root: the last certificate of a chain longer than the leaf, when it is self-signed. A chain that ends at a
    /// pinned intermediate has no root in it, and a new intermediate replaces that anchor.
    public static func isRoot(_ position: Int, of chain: BuiltChain) -> Bool {
        position > 0 && position == chain.count - 1 && chain[position].isSelfSigned
    }

    public func outcome(_ event: RotationEvent) -> RotationOutcome {
        outcomes.first { $0.event == event }?.outcome ?? .survives
    }

    /// "a renewal of the leaf", for sentences.
    static func describe(_ event: RotationEvent) -> String {
        switch event {
        case .renewLeaf: "a renewal of the leaf (same key)"
        case .rekeyLeaf: "a new leaf key (what certbot and most ACME clients make at every renewal)"
        case .newIntermediate: "a new intermediate"
        case .newCA: "a new CA"
        }
    }
}
