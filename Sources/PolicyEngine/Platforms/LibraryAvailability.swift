/// Where a library's pinning exists (DESIGN §12): on `platform`, from version `first` on. On an older version the
/// device never reads what the library's configuration says, so the app has the platform's default trust and no pin.
public struct LibraryAvailability: Sendable {
    /// `android`, `ios`, `macos`.
    public let platform: String
    public let first: PlatformVersion
    /// Why, with its source, for a result on a version below `first`: "the Network Security Configuration exists
    /// from API 24 (Android 7.0)".
    public let reason: String

    public init(platform: String, first: PlatformVersion, reason: String) {
        self.platform = platform
        self.first = first
        self.reason = reason
    }

    /// Whether the pinning exists on `snapshot`'s version: always on a platform this entry does not name.
    public func exists(on snapshot: StoreSnapshot) -> Bool {
        snapshot.platform != platform || snapshot.version >= first
    }
}

extension LibraryDefinition {
    /// The entry that says the library's pinning does not exist on `snapshot`'s version; nil where it exists.
    public func absence(on snapshot: StoreSnapshot) -> LibraryAvailability? {
        availability.first { !$0.exists(on: snapshot) }
    }
}
