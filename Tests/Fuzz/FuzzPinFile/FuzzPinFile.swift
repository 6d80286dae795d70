import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as the content of a `.pin` file.
enum PinFileFuzz {
    static let path = "fuzz.pin"

    static func check(_ bytes: [UInt8]) {
        let pins: [PublicKeyPin]
        do {
            pins = try PinLoader.hashPins(in: bytes, path: path)
        } catch {
            Fuzz.require(error.description.hasPrefix(path + ":"), "a rejection that does not name the file: \(error)")
            return
        }
        var previousLine = 0
        for pin in pins {
            Fuzz.require(pin.algorithm == .sha256 && pin.hash.count == 32, "a pin that is not 32 bytes of SHA-256")
            // Each pin names the file and its line; lines only grow, one pin a line.
            guard case .file(path, let line?, nil) = pin.source.place else {
                Fuzz.require(false, "source \(pin.source) is not a line of \(path)")
                return
            }
            Fuzz.require(line > previousLine, "source \(pin.source) after line \(previousLine)")
            previousLine = line
        }
        // Written back the way pinctl writes pins, one a line, they read back the same.
        let written = pins.map(\.text).joined(separator: "\n")
        do {
            let again = try PinLoader.hashPins(in: Array(written.utf8), path: path)
            Fuzz.require(again.map(\.hash) == pins.map(\.hash), "pins written back read as different pins")
        } catch {
            Fuzz.require(false, "pins written back do not read: \(error)")
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(PinFileFuzz.check) }
}
