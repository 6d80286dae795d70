import Checking
import PolicyEngine
import Synchronization

/// The snapshot files this process's command line names, which `Pinctl.main` starts reading before ArgumentParser
/// parses the line (`StoreReadAhead`), and which `PlatformOptions.settings` hands the checking core.
enum CommandLineReadAhead {
    private static let started = Mutex<StoreReadAhead?>(nil)

    /// What `start` began, for the command's platform settings.
    static var current: StoreReadAhead? { started.withLock { $0 } }

    /// Starts reading what `guess` finds in `arguments`, if anything.
    static func start(for arguments: [String]) {
        guard let (selectors, stores) = guess(arguments) else { return }
        let readAhead = StoreReadAhead(selectors: selectors, location: .forThisProcess(option: stores))
        started.withLock { $0 = readAhead }
    }

    /// Waits for what `start` began, so that no thread reads on while the process ends.
    static func join() {
        current?.join()
    }

    /// The `--platform` values and the `--stores` directory of a `check`, `verify` or `lint` line that names a
    /// platform, taken as ArgumentParser takes them: `--name value` or `--name=value`, the last `--stores`, none after
    /// `--`. Only a guess: a value that is really another option's reads files the command does not use, since the
    /// checking core uses what was read only for the directory the parsed options find.
    static func guess(_ arguments: [String]) -> (selectors: [String], stores: String?)? {
        guard let command = arguments.first, ["check", "verify", "lint"].contains(command) else { return nil }
        var selectors: [String] = []
        var stores: String?
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst(), argument != "--" {
            for name in ["--platform", "--stores"] {
                let value: String?
                if argument == name {
                    value = rest.popFirst()
                } else if argument.hasPrefix(name + "=") {
                    value = String(argument.dropFirst(name.count + 1))
                } else {
                    continue
                }
                guard let value else { break }
                // `system` is OpenSSL's default store: nothing in the snapshot directory to read for it.
                if name == "--platform" {
                    if value != PlatformSelector.system { selectors.append(value) }
                } else {
                    stores = value
                }
            }
        }
        return selectors.isEmpty ? nil : (selectors, stores)
    }
}
