import Checking

extension Edge {
    /// The JSON `edge` object: `address`, `keyType`, `tlsVersion`, each null where not chosen.
    var json: JSONValue {
        .object([
            ("address", JSONValue(address)),
            ("keyType", JSONValue(keyType?.rawValue)),
            ("tlsVersion", JSONValue(version?.rawValue)),
        ])
    }
}
