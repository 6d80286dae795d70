import Foundation
import Testing
import TestSupport

/// `pinctl serve` runs the exporter from pinctl-serve, found beside the pinctl binary itself.
@Suite struct ServeHandOffTests {
    /// Through a symbolic link elsewhere, pinctl still finds pinctl-serve beside the real binary: the exporter
    /// itself answers (it refuses the missing policy file), not the hand-off.
    @Test func aLinkToPinctlStillFindsTheExporterBesideTheBinary() throws {
        try TemporaryDirectory.with { directory in
            let result = try PinctlProcess.runShell("""
                ln -s "$PINCTL" '\(directory.path)/pinctl' && \
                '\(directory.path)/pinctl' serve --config /nonexistent/pinctl.yaml --listen 127.0.0.1:0
                """)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr == "pinctl serve: /nonexistent/pinctl.yaml: no such file\n", "\(result)")
        }
    }

    @Test func aPinctlWithoutTheExporterBesideItSaysWhatToInstall() throws {
        try TemporaryDirectory.with { directory in
            let result = try PinctlProcess.runShell("""
                cp "$PINCTL" '\(directory.path)/pinctl' && \
                '\(directory.path)/pinctl' serve --config /nonexistent/pinctl.yaml --listen 127.0.0.1:0
                """)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.hasPrefix("pinctl: serve: \(directory.path)/pinctl-serve is not there: pinctl serve "
                + "runs the exporter from pinctl-serve, which is installed beside pinctl"), "\(result)")
        }
    }
}
