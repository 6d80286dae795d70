@testable import PinctlCLI
import Testing

/// What `pinctl` starts reading before ArgumentParser parses its line: the platforms and the snapshot directory the
/// line names, as ArgumentParser would take them (issue #33).
@Suite struct CommandLineReadAheadTests {
    static let cases: [([String], [String]?, String?)] = [
        (["verify", "--chain", "a.pem", "--platform", "android@24-25", "--platform=ios"], ["android@24-25", "ios"], nil),
        (["check", "--stores", "/a", "--platform", "macos", "--stores=/b"], ["macos"], "/b"),
        (["lint", "--config", "p.yaml", "--platform", "mozilla", "--stores", "/s"], ["mozilla"], "/s"),
        // Nothing to read: another command, no platform, a platform only after `--`, an option without its value.
        (["serve", "--platform", "android"], nil, nil),
        (["verify", "--stores", "/s"], nil, nil),
        (["verify", "--", "--platform", "android"], nil, nil),
        (["verify", "--platform"], nil, nil),
        ([], nil, nil),
        // `system` is OpenSSL's default store: no snapshot file to read for it.
        (["verify", "--platform", "system", "--stores", "/s"], nil, nil),
        (["verify", "--platform=system", "--platform", "ios"], ["ios"], nil),
        // `--platforms` is no option of pinctl's.
        (["verify", "--platforms=android", "--platform", "ios"], ["ios"], nil),
    ]

    @Test(arguments: cases)
    func theLineIsReadAsArgumentParserReadsIt(_ arguments: [String], _ selectors: [String]?, _ stores: String?) {
        let guess = CommandLineReadAhead.guess(arguments)

        #expect(guess?.selectors == selectors)
        #expect(guess?.stores == stores)
    }
}
