extension PolicyFile.App {
    /// Whether the app's `versions:` name `version`: an entry equal to it, or a range `LOW-HIGH` (DESIGN §7's
    /// "5.0-5.9") holding it, compared number by number to the bounds' precision (5.9.3 is in 5.0-5.9; 5.10 is not).
    /// An app that lists no versions carries every one.
    public func carries(version: String) -> Bool {
        guard !versions.isEmpty else { return true }
        return versions.contains { entry in
            if entry == version { return true }
            let bounds = entry.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let low = Self.numbers(bounds[0]), let high = Self.numbers(bounds[1]),
                  let given = Self.numbers(Substring(version))
            else { return false }
            let width = max(low.count, high.count)
            let version = Array((given + Array(repeating: 0, count: width)).prefix(width))
            let pad = { (bound: [Int]) in bound + Array(repeating: 0, count: width - bound.count) }
            return !version.lexicographicallyPrecedes(pad(low)) && !pad(high).lexicographicallyPrecedes(version)
        }
    }

    /// `5.9.3` as [5, 9, 3]; nil when any part is not a number.
    private static func numbers(_ text: Substring) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in
            part.count <= 9 && !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) : nil
        }
        return numbers.count == parts.count ? numbers : nil
    }
}
