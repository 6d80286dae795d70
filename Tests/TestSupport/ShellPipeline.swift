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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Small outputs only (a digest, a key): reading one pipe to the end before the other cannot stall.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let messages = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        guard process.terminationStatus == 0, !text.isEmpty else {
            throw Failure(description: "sh -c '\(script)' exited \(process.terminationStatus) printing '\(text)': "
                + String(decoding: messages, as: UTF8.self))
        }
        return text
    }
}
