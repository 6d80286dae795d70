import Foundation
import Testing
import TestSupport

/// serve judges on one store: a policy file that names platform versions, which `check` judges version by version
/// (DESIGN §12), is refused at its key rather than given a verdict that holds for none of them.
@Suite struct ServePlatformsTests {
    @Test(arguments: [
        ("platforms: [android@24-36]\napps:\n  - name: a\n    library: afnetworking\n    hosts: [pinning.test]\n"
            + "    policy: { mode: none }\n", ": platforms:"),
        ("apps:\n  - name: a\n    library: afnetworking\n    hosts: [pinning.test]\n    policy: { mode: none }\n"
            + "    platforms: [ios@17]\n", ":2: app a: platforms:"),
    ])
    func aFileNamingPlatformsIsRefusedAtItsKey(_ text: String, _ place: String) throws {
        try TemporaryDirectory.with { directory in
            let file = directory.path("pinctl.yaml")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try PinctlProcess.run(["serve", "--config", file, "--listen", "127.0.0.1:0"])

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr == "pinctl serve: \(file)\(place) pinctl serve does not judge on platform versions "
                + "yet; pinctl check and verify do (remove platforms: from the file serve reads)\n", "\(result)")
        }
    }
}
