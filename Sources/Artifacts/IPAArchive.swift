import Archives

/// An iOS app archive (IPA) as Xcode and the App Store export it: one `Payload/NAME.app/` holding the app's
/// Info.plist, its main executable and its resources. Read as data: which keys and files pin is the libraries'
/// business (PolicyEngine), not this one's.
public struct IPAArchive: Sendable {
    /// The archive's path, as given.
    public let path: String
    /// The app bundle's directory in the archive, `Payload/NAME.app/`.
    public let bundle: String
    /// The bundle's Info.plist, binary or XML, as shipped.
    public let infoPlist: [UInt8]
    /// The regular files at the top of the bundle whose extension (`.cer`, with its dot) the reader asked for, by
    /// name within the bundle, in the archive's order.
    public let resources: [(name: String, bytes: [UInt8])]
    /// Each embedded framework (`Frameworks/NAME.framework/`, by NAME) and the files at its own bundle's top whose
    /// extension the reader asked for: what `NSBundle bundleForClass:` of a class it defines finds.
    public let frameworks: [String: [(name: String, bytes: [UInt8])]]
    private let bytes: [UInt8]

    /// `App.ipa!Payload/App.app/Info.plist`: an entry of the archive named in messages and pin sources.
    public func label(_ entry: String) -> String { path + "!" + bundle + entry }

    /// Reads the IPA at `path`, keeping the resources at the bundle's top whose extension is in `extensions`.
    public static func read(_ path: String, resourceExtensions extensions: Set<String>) throws(ArchiveError)
        -> IPAArchive
    {
        let bytes = try ArchiveFile.read(path)
        // The bundle's top level: `Payload/NAME.app/FILE`, no deeper.
        func topLevel(_ name: String) -> (bundle: String, file: String)? {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "Payload", parts[1].hasSuffix(".app"), parts[1].count > 4,
                  !parts[2].isEmpty else { return nil }
            return ("Payload/\(parts[1])/", String(parts[2]))
        }
        // A framework's top level: `Payload/NAME.app/Frameworks/F.framework/FILE` (its own bundle's resources).
        func frameworkTop(_ name: String) -> (framework: String, file: String)? {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 5, parts[0] == "Payload", parts[1].hasSuffix(".app"), parts[2] == "Frameworks",
                  parts[3].hasSuffix(".framework"), parts[3].count > 10, !parts[4].isEmpty else { return nil }
            return (String(parts[3].dropLast(".framework".count)), String(parts[4]))
        }
        func isResource(_ file: String) -> Bool {
            extensions.contains { file.hasSuffix($0) && file.count > $0.count }
        }
        let archive = try ZipArchive.read(bytes, label: path) { name in
            if let (_, file) = frameworkTop(name) { return isResource(file) }
            guard let (_, file) = topLevel(name) else { return false }
            return file == "Info.plist" || isResource(file)
        }
        let bundles = Set(archive.entries.compactMap { entry -> String? in
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0] == "Payload", parts[1].hasSuffix(".app") else { return nil }
            return "Payload/\(parts[1])/"
        })
        guard let bundle = bundles.first, bundles.count == 1 else {
            throw ArchiveError(path, reason: bundles.isEmpty
                ? "holds no Payload/NAME.app/: not an iOS app archive (an IPA)"
                : "holds \(bundles.count) app bundles (\(bundles.sorted().joined(separator: ", "))), where an IPA "
                    + "holds one")
        }
        guard let infoPlist = archive.contents[bundle + "Info.plist"] else {
            throw ArchiveError(path, entry: bundle + "Info.plist", reason: "is missing: every app bundle has one")
        }
        let resources = archive.entries.compactMap { entry -> (name: String, bytes: [UInt8])? in
            guard let (_, file) = topLevel(entry.name), file != "Info.plist",
                  let contents = archive.contents[entry.name] else { return nil }
            return (file, contents)
        }
        var frameworks: [String: [(name: String, bytes: [UInt8])]] = [:]
        for entry in archive.entries {
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 4, "\(parts[0])/\(parts[1])/" == bundle, parts[2] == "Frameworks",
                  parts[3].hasSuffix(".framework"), parts[3].count > 10 else { continue }
            let framework = String(parts[3].dropLast(".framework".count))
            frameworks[framework, default: []] += frameworkTop(entry.name).flatMap { top in
                archive.contents[entry.name].map { [(top.file, $0)] }
            } ?? []
        }
        return IPAArchive(path: path, bundle: bundle, infoPlist: infoPlist, resources: resources,
                          frameworks: frameworks, bytes: bytes)
    }

    /// The file `name` at the bundle's top (the main executable, which the Info.plist names), nil when absent.
    public func file(_ name: String) throws(ArchiveError) -> [UInt8]? {
        var limits = ZipArchive.Limits()
        // A main executable may be hundreds of megabytes; only it is read.
        limits.entryBytes = ArchiveFile.maximumSize
        limits.totalBytes = ArchiveFile.maximumSize
        let entry = bundle + name
        return try ZipArchive.read(bytes, label: path, limits: limits) { $0 == entry }.contents[entry]
    }
}
