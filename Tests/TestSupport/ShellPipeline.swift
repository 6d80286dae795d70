import Foundation

/// Pipelines of the openssl CLI and coreutils (`base64`, `basenc`, `xxd`, `od`, `tail`), for expected values made
/// without pinctl's code: pins in every encoding, digests of keys and certificates.
public enum ShellPipeline {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The standard output of `/bin/sh -c script` run in `directory`, without its trailing newline. A script that
    /// fails or prints nothing throws: each stage of a pipeline that matters should be checked by its output.
    public static func output(_ script: String, in directory: String = Certs.directory) throws -> String {
        let result = try Subprocess.run("/bin/sh", ["-c", script], in: directory)
        let text = result.stdout.trimmingCharacters(in: .newlines)
        guard result.status == 0, !text.isEmpty else {
            throw Failure(description: "sh -c '\(script)' exited \(result.status) printing '\(text)': \(result.stderr)")
        }
        return text
    }
}
