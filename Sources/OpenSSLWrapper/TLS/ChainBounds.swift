/// The bounds of any chain pinctl is handed, from a handshake or from a report a device sends.
public enum ChainBounds {
    /// No chain we accept comes near this many certificates; a peer sending more is broken or hostile.
    public static let maximumCertificates = 32
    /// Nor this many bytes of DER in all.
    public static let maximumBytes = 1 << 20
}
