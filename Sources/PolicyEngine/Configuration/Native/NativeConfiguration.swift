import FoundationEssentials

/// The files apps ship, read as the library reads them: the seam where each library's native format plugs in (its
/// definition's `readNative`), for `config:` in a policy file and for `config import`.
public enum NativeConfiguration {
    /// What a native file does not say but the app entry does: the hosts, and the library's own settings by key
    /// (each library reads its keys through accessors declared in its folder).
    public struct Settings: Sendable {
        public var hosts: [String]
        /// The settings by app-entry key (`mode`, `debuggable`), as written there.
        public var values: [String: String] = [:]

        public init(hosts: [String] = []) { self.hosts = hosts }
    }

    /// A policy read from a native file, what the reading noticed (keys ignored, files skipped), and how
    /// `config import` writes it as an app entry.
    public struct Reading: Sendable {
        /// How the app entry gives the policy.
        enum EntryForm: Sendable {
            /// Inline (`policy:`), as written by the library's definition.
            case inline(@Sendable () throws(ExportError) -> YAMLEmitter.Node)
            /// The file the app ships (`config:`), with the app-entry keys its settings need.
            case config([(key: String, value: String)])
        }

        public let policy: any TrustPolicy
        public let notes: [String]
        /// What the reading could not judge and a person must hear without `--verbose` (pin strings of a build no
        /// call the reader knows uses).
        public let warnings: [String]
        let entryForm: EntryForm

        init(policy: any TrustPolicy, notes: [String], entryForm: EntryForm, warnings: [String] = []) {
            self.policy = policy
            self.notes = notes
            self.entryForm = entryForm
            self.warnings = warnings
        }

        /// Whether the app entry gives the policy inline, not by naming the file read.
        public var isInline: Bool {
            if case .inline = entryForm { return true }
            return false
        }

        /// The pinctl.yaml app entry (`config import`) for the file read at `path` (`config:`, or `build:` for a
        /// build's archive), with the app's versions and platforms when the file says them (a build does).
        public func appEntry(name: String, library: Library, hosts: [String], path: String, isBuild: Bool = false,
                             versions: [String] = [], platforms: [String] = [], minSdk: Int? = nil,
                             targetSdk: Int? = nil) throws -> String
        {
            try AppEntryWriter.entry(name: name, library: library, hosts: hosts, path: path, isBuild: isBuild,
                                     versions: versions, platforms: platforms, levels: (minSdk, targetSdk),
                                     form: entryForm)
        }
    }

    public static func read(_ path: String, library: Library, settings: Settings) throws(ConfigurationError) -> Reading {
        try library.definition.readNative(path, settings)
    }
}
