import Synchronization

/// The pin files and directories a policy file's apps name, each read once however many apps name it (#34: two
/// apps pinning `ios/pins/` read the directory twice). Only what was read is kept: a path that fails is read, and
/// refused, again at each app that names it, so every refusal names its own place.
final class PinFiles: Sendable {
    private let loaded = Mutex<[String: LoadedPins]>([:])

    func load(_ path: String) throws(InputError) -> LoadedPins {
        if let known = loaded.withLock({ $0[path] }) { return known }
        let pins = try PinLoader.load(path: path)
        loaded.withLock { $0[path] = pins }
        return pins
    }
}
