internal import CLibXML2

/// libxml2, opened on first use rather than at every start (CLazyLibrary.h says why).
public enum XMLLibrary {
    /// Opens libxml2 unless it is open already. `XMLDocumentReader` calls it itself; a caller of
    /// `XMLDocumentWriter` calls it first, where it can still report the failure.
    public static func open() throws(XMLLibraryUnavailable) {
        if let failure = CLibXML2Open() { throw XMLLibraryUnavailable(reason: String(cString: failure)) }
    }
}

/// Why libxml2 cannot be used: pinctl reads and writes XML with it, and it is missing or not the expected version.
public struct XMLLibraryUnavailable: Error, Sendable, CustomStringConvertible {
    public let reason: String

    public var description: String { "\(reason): pinctl reads and writes XML with libxml2 (Debian package libxml2)" }
}
