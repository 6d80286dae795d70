import FoundationEssentials
import OpenSSLWrapper

/// What the command line says of one policy, as values: the pins given and the library's own flags. The command
/// line only parses; the library's definition builds the policy from this.
public struct PolicyFlags: Sendable {
    /// `--pins` paths, in order.
    public var pinPaths: [String]
    /// `--pin` values, in order.
    public var inlinePins: [String]
    /// The library's own flags as given, in order: the long name (`--mode`) and its value ("" for a switch).
    public var settings: [(flag: String, value: String)]

    public init(pinPaths: [String] = [], inlinePins: [String] = [], settings: [(flag: String, value: String)] = []) {
        self.pinPaths = pinPaths
        self.inlinePins = inlinePins
        self.settings = settings
    }

    /// The value of `flag`, nil when it was not given.
    public func value(_ flag: String) -> String? { settings.first { $0.flag == flag }?.value }

    /// Whether the switch `flag` was given.
    public func has(_ flag: String) -> Bool { value(flag) != nil }

    /// Every `--pins` path and `--pin` value; a path that yields no pins is an error naming the flag.
    public func loadPins() throws(InputError) -> LoadedPins {
        var pins = LoadedPins()
        for path in pinPaths {
            do {
                let loaded = try PinLoader.load(path: path)
                pins.certificates += loaded.certificates
                pins.keyHashes += loaded.keyHashes
            } catch {
                throw InputError("--pins \(error.description)")
            }
        }
        for (index, value) in inlinePins.enumerated() {
            do {
                pins.keyHashes.append(try PinLoader.keyPin(value, source: inlinePinSource(index)))
            } catch {
                throw InputError("--pin \(error.description)")
            }
        }
        return pins
    }

    /// Where the `index`th `--pin` is written: `--pin`, or `--pin #2` when there are several.
    public func inlinePinSource(_ index: Int) -> PinSource {
        PinSource(.argument(name: "--pin", index: inlinePins.count == 1 ? nil : index + 1))
    }
}
