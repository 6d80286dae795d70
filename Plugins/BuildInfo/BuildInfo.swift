import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (the commit the build is made from) before every build of the target that uses it, for
/// `pinctl --version`. The file is rewritten only when its text changes, so an unchanged commit recompiles nothing.
/// Outside a git checkout (a source tarball) the commit is "unknown".
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo")
        let script = #"""
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            if [ "$commit" != unknown ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]
            then commit="$commit, with changes not committed"; fi
            mkdir -p "$2"
            text="/// Written by the BuildInfo plugin at build time.
            enum BuildInfo { static let commit = \"$commit\" }"
            [ "$(cat "$2/BuildInfo.swift" 2>/dev/null)" = "$text" ] || printf '%s\n' "$text" >"$2/BuildInfo.swift"
            """#
        return [
            .prebuildCommand(
                displayName: "BuildInfo: the commit pinctl is built from",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output),
        ]
    }
}
