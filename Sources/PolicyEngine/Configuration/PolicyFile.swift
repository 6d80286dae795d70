import FileAccess
import FoundationEssentials
import TextSyntax

/// A policy file (`pinctl.yaml`, DESIGN §7): the apps a team ships — each a library, its pinning as shipped, the
/// versions that carry it and the hosts it talks to — and the targets to check.
public struct PolicyFile: Sendable {
    /// One shipped app (or SDK) and its policy.
    public struct App: Sendable {
        public let name: String
        public let versions: [String]
        public let library: Library
        /// Hosts it talks to besides those its policy names.
        public let hosts: [String]
        public let policy: any TrustPolicy
        /// The policy file and the line the app's entry starts on.
        public let file: String
        public let line: Int?
        /// `platforms:` — the platform versions the app runs on (DESIGN §12); nil: the file's default.
        public var platforms: [PlatformSelector]? = nil
        /// `minSdk:` — the oldest Android API level the app installs on: without `platforms:`, it is judged from there
        /// to the newest snapshot (DESIGN §12).
        public var minSdk: Int? = nil
        /// `targetSdk:` — the API level the app targets, which decides what Android trusts where its configuration
        /// says nothing (`EvaluationContext.forApp(targetSdk:)`); nil: a level from 24 on.
        public var targetSdk: Int? = nil

        /// Where the app is written: `pinctl.yaml:12`.
        public var location: String { line.map { "\(file):\($0)" } ?? file }

        /// DESIGN §7: an app covers a target when its library's host rules give it a policy for that host, or the
        /// target is in its `hosts`.
        public func covers(_ host: String) -> Bool {
            policy.hasRule(for: host) || hosts.contains { $0.lowercased() == host.lowercased() }
        }
    }

    public let path: String
    /// `anchors:` — CA files and hashed directories replacing the system store for every app; nil: the system store.
    public let caFiles: [String]?
    public let caPaths: [String]?
    public let targets: [Target]
    public let apps: [App]
    /// `platforms:` — the platform versions of every app that names none (DESIGN §12); nil: none.
    public var platforms: [PlatformSelector]? = nil

    /// The apps covering `host`, in file order.
    public func apps(covering host: String) -> [App] { apps.filter { $0.covers(host) } }

    /// Reads and checks a policy file; every problem names the file, the line and the key.
    public static func load(_ path: String) throws(ConfigurationError) -> PolicyFile {
        try load(try ConfigurationError.contents(of: path), path: path)
    }

    /// Checks the bytes of the policy file at `path` (which only names it in errors and anchors its relative paths).
    public static func load(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> PolicyFile {
        if let line = UntrustedText.nulByteLine(in: bytes) {
            throw ConfigurationError(file: path, line: line, message: UntrustedText.nulByteReason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(file: path, message: "not UTF-8 text")
        }
        let root = try YAMLValue.document(text, file: path)
        let directory = Path.parent(of: path)
        var caFiles: [String]?
        var caPaths: [String]?
        var targets: [Target] = []
        var apps: [App] = []
        var sawApps = false
        var platforms: [PlatformSelector]?
        for (key, value) in try root.mapping(allowed: ["version", "anchors", "targets", "apps", "platforms"]) {
            switch key {
            case "version":
                guard try value.string() == "1" else { throw value.error("this pinctl reads version 1 policy files") }
            case "anchors":
                for (anchorKey, list) in try value.mapping(allowed: ["ca-files", "ca-paths"]) {
                    let paths = try list.sequenceOrScalar().map { (entry) throws(ConfigurationError) in
                        resolve(try entry.string(), relativeTo: directory)
                    }
                    if anchorKey == "ca-files" { caFiles = paths } else { caPaths = paths }
                }
            case "platforms":
                platforms = try readPlatforms(value)
            case "targets":
                for entry in try value.sequenceOrScalar() {
                    do {
                        targets.append(try Target(parsing: try entry.string()))
                    } catch let error as ConfigurationError {
                        throw error
                    } catch {
                        throw entry.error("\(error)")
                    }
                }
            default:
                sawApps = true
                let pinFiles = PinFiles()
                let buildFiles = BuildFiles()
                for entry in try value.sequence() {
                    let app = try readApp(entry, directory: directory, pinFiles: pinFiles, buildFiles: buildFiles)
                    if let earlier = apps.first(where: { $0.name == app.name }) {
                        throw entry.error("two apps are named \(app.name) (the first at \(earlier.location))")
                    }
                    apps.append(app)
                }
            }
        }
        guard sawApps, !apps.isEmpty else { throw root.error("no apps: a policy file lists the apps under apps:") }
        var file = PolicyFile(path: path, caFiles: caFiles, caPaths: caPaths, targets: targets, apps: apps)
        file.platforms = platforms
        return file
    }

    private static func readApp(_ value: YAMLValue, directory: String, pinFiles: PinFiles, buildFiles: BuildFiles)
        throws(ConfigurationError) -> App
    {
        let settingKeys = LibraryRegistry.all.flatMap { $0.configSettings.map(\.key) }
        let members = try value.mapping(allowed: ["name", "versions", "library", "hosts", "policy", "config",
                                                  "build", "platforms", "minSdk", "targetSdk"] + settingKeys)
        func member(_ key: String) -> YAMLValue? { members.first { $0.key == key }?.value }
        guard let nameValue = member("name") else { throw value.error("an app needs a name") }
        let name = try nameValue.string()
        guard !name.isEmpty else { throw nameValue.error("an app's name must not be empty") }
        guard let libraryValue = member("library") else {
            throw value.error("app \(name) needs a library: \(YAMLValue.list(Library.allCases.map(\.rawValue)))")
        }
        let libraryName = try libraryValue.string()
        guard let library = Library(rawValue: libraryName) else {
            throw libraryValue.error("unknown library '\(libraryName)' (expected "
                + "\(YAMLValue.list(Library.allCases.map(\.rawValue))))")
        }
        let versions = try member("versions").map { (list) throws(ConfigurationError) in
            try list.sequenceOrScalar().map { (entry) throws(ConfigurationError) in try entry.string() }
        } ?? []
        var hosts: [String] = []
        for entry in try member("hosts")?.sequenceOrScalar() ?? [] {
            let host = try entry.string()
            if let problem = DomainName.syntaxError(host) { throw entry.error(problem) }
            hosts.append(host)
        }
        var settings = NativeConfiguration.Settings(hosts: hosts)
        for key in settingKeys {
            guard let setting = member(key), let owner = LibraryRegistry.owner(ofConfigSetting: key) else { continue }
            guard library == owner.library, member("config") != nil || member("build") != nil else {
                throw setting.error("\(key) is a setting of \(owner.library.rawValue) apps given by config: or build:")
            }
            if key == "debuggable", member("build") != nil {
                throw setting.error("debuggable comes from the build's manifest (android:debuggable), not the entry")
            }
            try owner.configSettings.first { $0.key == key }?.read(setting, &settings)
        }
        let given = [member("policy").map { ("policy", $0) }, member("config").map { ("config", $0) },
                     member("build").map { ("build", $0) }].compactMap { $0 }
        guard let (kind, source) = given.first, given.count == 1 else {
            throw value.error(given.isEmpty
                ? "app \(name) needs a policy: (inline), a config: (the file the app ships) or a build: (the .ipa)"
                : "app \(name) has \(given.map { $0.0 + ":" }.joined(separator: " and ")); give one")
        }
        let policy: any TrustPolicy
        var built: BuildConfiguration?
        switch kind {
        case "policy":
            policy = try library.definition.decodeInline(source, .init(directory: directory, hosts: hosts,
                                                                       pinFiles: pinFiles))
        default:
            let file = resolve(try source.string(), relativeTo: directory)
            do throws(ConfigurationError) {
                if kind == "build" {
                    built = try BuildConfiguration.read(file, libraries: [library], settings: settings,
                                                        files: buildFiles)
                    guard let app = built?.apps.first else {
                        throw ConfigurationError(file: file, message: "configures no \(library.displayName) pinning "
                            + "pinctl reads" + (library.definition.readBuild == nil
                                ? " (pinctl reads no \(library.displayName) pins from a build)" : ""))
                    }
                    policy = app.reading.policy
                } else {
                    policy = try NativeConfiguration.read(file, library: library, settings: settings).policy
                }
            } catch let error where error.file == file && error.line == nil && error.keyPath == nil {
                // A file that cannot be read at all: say where the policy file names it. (A plist's errors have a key
                // path but no line: they stay in the plist.)
                throw source.error(error.message)
            }
        }
        var app = App(name: name, versions: versions, library: library, hosts: hosts, policy: policy,
                      file: value.file, line: value.line)
        app.platforms = try member("platforms").map(readPlatforms)
        // An APK says its levels (DESIGN §12: read from the build when build: names it); the entry's own win.
        app.minSdk = try member("minSdk").map(readAPILevel) ?? built?.minSdk
        app.targetSdk = try member("targetSdk").map(readAPILevel) ?? built?.targetSdk
        return app
    }

    /// `platforms: [android@24-36, ios@17]`: selectors as `--platform` takes them.
    private static func readPlatforms(_ value: YAMLValue) throws(ConfigurationError) -> [PlatformSelector] {
        try value.sequenceOrScalar().map { (entry) throws(ConfigurationError) in
            let text = try entry.string()
            do throws(StoreSnapshotError) {
                return try PlatformSelector(parsing: text)
            } catch {
                throw entry.error(error.description)
            }
        }
    }

    /// An Android API level (`minSdk: 21`): 1 to 99, where every level there has been or will be for decades lies.
    private static func readAPILevel(_ value: YAMLValue) throws(ConfigurationError) -> Int {
        let level = try value.integer()
        guard (1...99).contains(level) else { throw value.error("\(level) is not an Android API level (1 to 99)") }
        return level
    }

    /// A path of the policy file, relative to the file's folder unless absolute.
    static func resolve(_ path: String, relativeTo directory: String) -> String {
        path.hasPrefix("/") || directory == "." ? path : Path.join(directory, path)
    }
}
