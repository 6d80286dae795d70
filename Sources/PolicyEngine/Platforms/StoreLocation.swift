import FileAccess

/// Where the platform store snapshots are (DESIGN §12, "Where the data lives"): `--stores DIR`, else
/// `PINCTL_STORES`, else the installed copy beside the binary. Resolved here only, so that every command and `serve`
/// look in the same places in the same order and say the same when they find nothing.
///
/// A directory that a rule names is the answer even when it is wrong: a `--stores` or `PINCTL_STORES` that was set
/// on purpose and names no snapshot is an error about that directory, never a quiet fall to the next place.
public struct StoreLocation: Sendable, Equatable {
    /// The rule that chose the directory.
    public enum Rule: Sendable, Equatable, CustomStringConvertible {
        case option, environment, installed

        public var description: String {
            switch self {
            case .option: "--stores"
            case .environment: "PINCTL_STORES"
            case .installed: "the installed copy beside the binary"
            }
        }
    }

    /// The directory to read; nil when no rule found one.
    public let directory: String?
    /// The rule that chose `directory`; nil with it.
    public let rule: Rule?
    /// Every place looked, in order, with what was found there: what an error says when none had snapshots.
    public let looked: [String]

    /// Applies the rules to `option` (`--stores`), `environment` (`PINCTL_STORES`) and the real path of the running
    /// binary (`executable`, nil when unknown). An empty `PINCTL_STORES` counts as unset, as shells use it.
    public init(option: String?, environment: String?, executable: String?) {
        var looked: [String] = []
        if let option {
            self.init(directory: option, rule: .option, looked: ["--stores \(option)"])
            return
        }
        looked.append("--stores (not given)")
        if let environment, !environment.isEmpty {
            self.init(directory: environment, rule: .environment, looked: looked + ["PINCTL_STORES=\(environment)"])
            return
        }
        looked.append("PINCTL_STORES (not set)")
        guard let executable else {
            looked.append("the installed copy (the running binary's path is unknown: no /proc/self/exe)")
            self.init(directory: nil, rule: nil, looked: looked)
            return
        }
        guard let installed = Self.installedCopy(forExecutable: executable) else {
            looked.append("the installed copy (\(executable) is in no PREFIX/bin or PREFIX/lib/pinctl)")
            self.init(directory: nil, rule: nil, looked: looked)
            return
        }
        if (try? FileSystem.kind(of: installed)) == .directory {
            self.init(directory: installed, rule: .installed, looked: looked + [installed])
            return
        }
        looked.append("\(installed) (the installed copy: not there)")
        self.init(directory: nil, rule: nil, looked: looked)
    }

    /// The rules for this process: `option` (`--stores`), its `PINCTL_STORES` and its own binary. pinctl-serve, which
    /// `pinctl serve` runs, sits beside pinctl and inherits its environment, so it finds what pinctl would.
    public static func forThisProcess(option: String?) -> StoreLocation {
        StoreLocation(option: option, environment: PathBytes.environment("PINCTL_STORES"),
                      executable: PathBytes.runningExecutable())
    }

    private init(directory: String?, rule: Rule?, looked: [String]) {
        self.directory = directory
        self.rule = rule
        self.looked = looked
    }

    /// `PREFIX/share/pinctl/stores` for a binary at `PREFIX/bin/NAME` or, as the Debian package installs pinctl and
    /// pinctl-serve (`/usr/bin/pinctl` a link to `/usr/lib/pinctl/pinctl`), at `PREFIX/lib/pinctl/NAME`. Both
    /// binaries sit in one directory (`pinctl serve` runs the pinctl-serve beside pinctl), so both find the same copy.
    /// Nil for a binary anywhere else (a build folder, a download in /tmp/x): the folder above it is no prefix, and
    /// may be one anybody can write to (/tmp/share/pinctl/stores), whose roots pinctl would then trust.
    public static func installedCopy(forExecutable executable: String) -> String? {
        let directory = Path.parent(of: executable)
        let above = Path.parent(of: directory)
        if Path.lastComponent(of: directory) == "pinctl" && Path.lastComponent(of: above) == "lib" {
            return Path.join(Path.parent(of: above), "share/pinctl/stores")
        }
        guard Path.lastComponent(of: directory) == "bin" else { return nil }
        return Path.join(above, "share/pinctl/stores")
    }

    /// How the directory was found, for `pinctl stores` and errors: "(from PINCTL_STORES)".
    public var origin: String { rule.map { "(from \($0))" } ?? "" }
}
