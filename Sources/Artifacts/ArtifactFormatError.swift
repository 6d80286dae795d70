/// Why bytes are not what an artifact's format says they should be (binary XML, a resource table, DEX), with the
/// byte offset at fault.
public struct ArtifactFormatError: Error, Sendable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "at byte \(offset): \(reason)" }
}
