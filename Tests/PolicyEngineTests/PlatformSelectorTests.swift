import PolicyEngine
import Testing

/// `NAME@VERSIONS` as `--platform` and `stores diff` read it: versions compared number by number, ranges inclusive,
/// and every malformed form a reason, never a trap.
@Suite struct PlatformSelectorTests {
    @Test(arguments: [
        ("android@24", "android", "24", "24"),
        ("android@21-36", "android", "21", "36"),
        ("macos@10.15-26", "macos", "10.15", "26"),
        ("mozilla@20230311", "mozilla", "20230311", "20230311"),
    ])
    func aVersionOrRangeIsRead(_ text: String, _ platform: String, _ low: String, _ high: String) throws {
        let selector = try PlatformSelector(parsing: text)

        #expect(selector.platform == platform)
        #expect(selector.versions?.lowerBound.description == low)
        #expect(selector.versions?.upperBound.description == high)
    }

    @Test func aBareNameMeansEveryVersion() throws {
        #expect(try PlatformSelector(parsing: "ios").versions == nil)
    }

    /// `android@21-` (DESIGN §12's `android@MINSDK-`): that version and every later one.
    @Test func aTrailingDashMeansThatVersionAndEveryLaterOne() throws {
        let selector = try PlatformSelector(parsing: "android@21-")
        let range = try #require(selector.versions)

        #expect(selector.openEnded)
        #expect(range.contains(try #require(PlatformVersion("21"))))
        #expect(range.contains(try #require(PlatformVersion("37"))))
        #expect(!range.contains(try #require(PlatformVersion("20"))))
        #expect(try !PlatformSelector(parsing: "android@21-36").openEnded)
    }

    /// iOS 17.0 is iOS 17: `ios@17.0` names the snapshot of 17, and a file's `version 24.0` is 24 again.
    @Test func trailingZerosSayNothing() throws {
        func version(_ text: String) throws -> PlatformVersion { try #require(PlatformVersion(text)) }
        let seventeen = try version("17")
        let range = try #require(try PlatformSelector(parsing: "ios@17.0-18.0.0").versions)
        let (zero, zeros, later) = (try version("17.0"), try version("17.0.0"), try version("17.0.1"))
        let (ten, tenFifteen, eighteen) = (try version("10.0"), try version("10.15"), try version("18"))

        #expect(zero == seventeen)
        #expect(zeros.hashValue == seventeen.hashValue)
        #expect(later > seventeen)
        #expect(ten < tenFifteen)
        #expect(range.contains(seventeen) && range.contains(eighteen))
        #expect(try version("0.0").components == [0])
        #expect(zero.description == "17.0")
    }

    @Test func versionsCompareNumberByNumberNotAsText() throws {
        let range = try #require(try PlatformSelector(parsing: "macos@10.14-11").versions)

        #expect(range.contains(try #require(PlatformVersion("10.15"))))
        #expect(!range.contains(try #require(PlatformVersion("10.9"))))
        #expect(!range.contains(try #require(PlatformVersion("12"))))
    }

    @Test(arguments: [
        ("windows@10", "unknown platform \"windows\""),
        ("Android@24", "unknown platform \"Android\""),
        ("android@", "a version is dotted numbers"),
        ("android@-24", "a version is dotted numbers"),
        ("android@2.4.x", "a version is dotted numbers"),
        ("android@1.2.3.4.5", "a version is dotted numbers"),
        ("android@99999999999999999999", "a version is dotted numbers"),
        ("android@36-21", "the range runs backwards; write android@21-36"),
    ])
    func aMalformedSelectorIsRefusedWithItsReason(_ text: String, _ reason: String) {
        #expect {
            try PlatformSelector(parsing: text)
        } throws: { error in
            (error as? StoreSnapshotError)?.description.contains(reason) == true
        }
    }
}
