import Foundation

/// Debian's Chromium, headless: loads a page as a person's browser would and gives back the DOM it built, so a test
/// asserts on what was rendered, not on the bytes served. Scripts stay on: --dump-dom serialises the DOM through
/// the page's script engine (with `--blink-settings=scriptEnabled=false` it prints nothing); a test of a page that
/// must read without scripts asserts that its DOM has no `script` element.
public enum HeadlessBrowser {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The DOM Chromium built from `url`, read back into a tree.
    public static func renderedDOM(_ url: String) throws -> ElementTree {
        let result = try chromium(["--dump-dom", url])
        guard result.status == 0, result.stdout.contains("<html") else {
            throw Failure(description: "chromium --dump-dom \(url): \(result)")
        }
        return try ElementTree.parseHTML(result.stdout)
    }

    /// Runs Chromium headless with a profile of its own, removed afterwards. --no-sandbox: CI runs as root, where
    /// Chromium refuses its sandbox.
    private static func chromium(_ arguments: [String]) throws -> Subprocess.Result {
        try TemporaryDirectory.with { profile in
            try Subprocess.run("chromium", [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            ] + arguments, environment: ["HOME": profile.path], timeout: 30)
        }
    }
}
