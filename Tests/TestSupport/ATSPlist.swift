import Foundation

/// Info.plists for App Transport Security tests, written by Foundation's serializer (XML or binary): an app's keys
/// with `NSAppTransportSecurity` → `NSPinnedDomains` holding `pinnedDomains`.
public enum ATSPlist {
    public static func xml(_ pinnedDomains: [String: Any], otherKeys: [String: Any] = [:]) throws -> [UInt8] {
        try write(pinnedDomains, otherKeys: otherKeys, format: .xml)
    }

    public static func binary(_ pinnedDomains: [String: Any], otherKeys: [String: Any] = [:]) throws -> [UInt8] {
        try write(pinnedDomains, otherKeys: otherKeys, format: .binary)
    }

    private static func write(_ pinnedDomains: [String: Any], otherKeys: [String: Any],
                              format: PropertyListSerialization.PropertyListFormat) throws -> [UInt8] {
        var root = otherKeys
        root["NSAppTransportSecurity"] = ["NSPinnedDomains": pinnedDomains]
        return [UInt8](try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0))
    }
}
