import FoundationEssentials

/// Writes a policy of any library in another library's native form (`config export`), through portable rules.
public enum NativeExport {
    /// A native form pinctl writes (`plist`, `kotlin`, `bundle`): declared by the library whose apps ship it, and
    /// listed in its definition's `exportForms`.
    public struct Format: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The name `--format` takes.
        public let rawValue: String
        /// Writes the portable rules in this form.
        let write: @Sendable (PortablePolicy, inout ExportLosses) throws(ExportError) -> Output
        /// Writes a policy of the form's own library as itself, whole; nil for a policy of another library.
        let writeOwn: @Sendable (any TrustPolicy) throws(ExportError) -> Output?

        init(_ name: String,
             own writeOwn: @escaping @Sendable (any TrustPolicy) throws(ExportError) -> Output? = { _ in nil },
             write: @escaping @Sendable (PortablePolicy, inout ExportLosses) throws(ExportError) -> Output) {
            rawValue = name
            self.write = write
            self.writeOwn = writeOwn
        }

        /// The form of that name among every registered library's forms.
        public init?(rawValue: String) {
            guard let form = LibraryRegistry.all.lazy.flatMap(\.exportForms).first(where: { $0.rawValue == rawValue })
            else { return nil }
            self = form
        }

        /// The forms a library's apps ship, the first being the default.
        public static func forms(of library: Library) -> [Format] { library.definition.exportForms }

        public var description: String { rawValue }
        public static func == (lhs: Format, rhs: Format) -> Bool { lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }

    /// What an export produces: one file's bytes, or the files of a directory.
    public enum Output: Sendable {
        case file([UInt8])
        case directory([(name: String, contents: [UInt8])])
    }

    /// Converts `policy` to `format`; `losses` says what the format cannot express.
    public static func write(_ policy: any TrustPolicy, as format: Format, losses: inout ExportLosses)
        throws(ExportError) -> Output
    {
        // An app exported to its own format is written as itself: the portable rules would drop what only that
        // format says (an NSC app's anchors, debug-overrides, cleartext settings).
        if let own = try format.writeOwn(policy) { return own }
        guard let convertible = policy as? PortableConvertible else {
            throw ExportError("a \(policy.library.rawValue) policy cannot be exported")
        }
        let portable = try convertible.portable(losses: &losses)
        return try format.write(portable, &losses)
    }
}
