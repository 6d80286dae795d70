import Foundation
import Testing
import TestSupport

/// scripts/package-deb.sh puts DEBFULLNAME and DEBEMAIL in the package's control file and changelog, which are read a
/// line at a time: a value that is not one line of the field's shape is refused, naming the variable, before anything
/// is built. (The modes of what a package holds, under any umask, need the release build: CI builds the package under
/// umask 000 and checks it with scripts/check-deb.sh.)
@Suite struct PackageMaintainerTests {
    static let script = "\(Certs.root)/scripts/package-deb.sh"
    static let name = "package-deb.sh: DEBFULLNAME must be one line of UTF-8 text without control characters, '<', "
        + "'>' or ',', and without spaces at either end: it names the package's maintainer in its control file and "
        + "changelog\n"
    static let email = "package-deb.sh: DEBEMAIL must be one e-mail address, user@host, in ASCII without spaces or "
        + "control characters: it names the package's maintainer in its control file and changelog\n"

    @Test(arguments: [
        (["DEBEMAIL": "a@b\nPre-Depends: evil"], email),
        (["DEBEMAIL": "a@b\r"], email),
        (["DEBEMAIL": "a@b> , c@d"], email),
        (["DEBEMAIL": "a b@c"], email),
        (["DEBFULLNAME": "Jo\nPre-Depends: evil"], name),
        (["DEBFULLNAME": "Jo\u{85}Pre-Depends: evil"], name),
        (["DEBFULLNAME": "Jo <a@b>"], name),
        (["DEBFULLNAME": "Jo\t"], name),
    ])
    func aMaintainerThatIsNotOneLineOfItsFieldIsRefused(_ environment: [String: String], _ message: String) throws {
        try TemporaryDirectory.with { directory in
            // Not a directory: were the value taken, the script would stop there, before it builds anything.
            let out = directory.path("not-a-directory")
            try "".write(toFile: out, atomically: true, encoding: .utf8)
            let result = try Subprocess.run(Self.script, ["--out", out], in: directory.path, environment: environment)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr == message, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    @Test(arguments: [["DEBFULLNAME": "José O'Brien-Núñez Jr.", "DEBEMAIL": "jo.ob+deb@mail.example.org"], [:]])
    func aNameAndAddressOfTheirShapeGetAsFarAsTheOutputDirectory(_ environment: [String: String]) throws {
        try TemporaryDirectory.with { directory in
            let out = directory.path("not-a-directory")
            try "".write(toFile: out, atomically: true, encoding: .utf8)
            let result = try Subprocess.run(Self.script, ["--out", out], in: directory.path, environment: environment)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr == "package-deb.sh: --out \(out) is not a directory\n", "\(result)")
        }
    }
}
