import PolicyEngine
import Testing

/// `StoreLocation`'s rules on values, without a process: which directory each rule gives, and what is said of the
/// places looked when none gives one. StoreLocationTests in pinctlTests runs them through the binary.
@Suite struct StoreLocationRuleTests {
    @Test(arguments: [
        ("/usr/lib/pinctl/pinctl", "/usr/share/pinctl/stores"),           // the Debian package
        ("/usr/lib/pinctl/pinctl-serve", "/usr/share/pinctl/stores"),     // its exporter, beside it
        ("/usr/local/bin/pinctl", "/usr/local/share/pinctl/stores"),      // a copy into PREFIX/bin
        ("/opt/pinctl/lib/other/pinctl", nil),                            // lib/ alone is not the layout
        ("/tmp/x/pinctl", nil),                                           // not /tmp/share, which anyone can make
        ("/work/.build/release/pinctl", nil),                             // a build folder
    ] as [(String, String?)])
    func theInstalledCopyIsUnderThePrefixOfTheBinary(_ executable: String, _ expected: String?) {
        #expect(StoreLocation.installedCopy(forExecutable: executable) == expected)
    }

    /// A binary in no PREFIX/bin or PREFIX/lib/pinctl has no installed copy, and the places looked say why.
    @Test func aBinaryOutsideAnInstalledLayoutLooksForNoCopyAboveIt() {
        let loose = StoreLocation(option: nil, environment: nil, executable: "/tmp/x/pinctl")

        #expect(loose.directory == nil && loose.rule == nil)
        #expect(loose.looked.last == "the installed copy (/tmp/x/pinctl is in no PREFIX/bin or PREFIX/lib/pinctl)")
    }

    @Test func anOptionIsTakenAsGivenBeforeTheVariableAndTheBinary() {
        let option = StoreLocation(option: "/nonexistent/a", environment: "/nonexistent/b",
                                   executable: "/usr/lib/pinctl/pinctl")
        let variable = StoreLocation(option: nil, environment: "/nonexistent/b", executable: "/usr/lib/pinctl/pinctl")

        #expect(option.directory == "/nonexistent/a" && option.rule == .option)
        #expect(variable.directory == "/nonexistent/b" && variable.rule == .environment)
    }

    @Test func withNothingFoundEveryPlaceLookedIsNamed() {
        let none = StoreLocation(option: nil, environment: "", executable: "/nonexistent/prefix/bin/pinctl")
        let unknown = StoreLocation(option: nil, environment: nil, executable: nil)

        #expect(none.directory == nil && none.rule == nil)
        #expect(none.looked == ["--stores (not given)", "PINCTL_STORES (not set)",
                                "/nonexistent/prefix/share/pinctl/stores (the installed copy: not there)"])
        #expect(unknown.looked.last == "the installed copy (the running binary's path is unknown: no /proc/self/exe)")
    }
}
