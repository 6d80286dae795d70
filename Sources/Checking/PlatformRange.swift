import PolicyEngine

/// The platform versions one result holds for (DESIGN §12): consecutive versions of one platform whose verdicts are
/// the same, `android@25-34`.
public struct PlatformRange: Sendable {
    /// `android`, `ios`, `macos`, `mozilla`.
    public let platform: String
    /// The oldest and newest version of the range (the same for one version).
    public let first: StoreSnapshot
    public let last: StoreSnapshot
    /// For a chain untrusted on these versions because no anchor issued its top certificate: that certificate's
    /// issuer, the root these stores lack.
    public let missingRoot: String?

    /// `24` or `25-34`.
    public var versions: String {
        first.version == last.version ? first.version.description : "\(first.version)-\(last.version)"
    }

    /// `android@25-34`, as `--platform` takes it.
    public var name: String { "\(platform)@\(versions)" }

    /// How a person names the range, from its ends' labels: `Android 7.0 (API 24)` for one version; for several,
    /// the two labels with each word that differs given as `first–last` (`Android 7.1.1–16 (API 25–36)`, `iOS
    /// 15–26`); labels that differ in more than such words are joined whole (`LABEL to LABEL`).
    public var label: String {
        guard first.version != last.version else { return first.label }
        let low = Self.words(first.label), high = Self.words(last.label)
        guard low.count == high.count,
              zip(low, high).allSatisfy({ $0.isWord == $1.isWord && ($0.isWord || $0.text == $1.text) })
        else { return "\(first.label) to \(last.label)" }
        return zip(low, high).map { $0.text == $1.text ? $0.text : "\($0.text)–\($1.text)" }.joined()
    }

    /// A label cut into words (runs of anything but spaces and brackets) and the separators between them.
    private static func words(_ label: String) -> [(text: String, isWord: Bool)] {
        var parts: [(text: String, isWord: Bool)] = []
        for character in label {
            let isWord = !(character.isWhitespace || "()[]".contains(character))
            if let last = parts.last, last.isWord == isWord, isWord {
                parts[parts.count - 1].text.append(character)
            } else {
                parts.append((String(character), isWord))
            }
        }
        return parts
    }
}
