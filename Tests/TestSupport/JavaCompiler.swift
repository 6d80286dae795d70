import Foundation

/// The real `javac` and `java` of the machine, to learn what Java makes of a file pinctl writes or reads: what
/// compiles, what runs, what the class file holds. Tests that need it are enabled only when `javac` is on the PATH.
public enum JavaCompiler {
    /// Whether `javac` and `java` can be run.
    public static let isAvailable: Bool = {
        (try? PinctlProcess.runShell("command -v javac && command -v java && command -v javap").status) == 0
    }()

    /// A stub of `okhttp3.CertificatePinner` whose `Builder.add` prints `add PATTERN PIN…` (each argument between
    /// `[` and `]`), so a program's run lists the pins it adds without OkHttp on the class path.
    public static let certificatePinnerStub = """
        package okhttp3;

        public final class CertificatePinner {
            public static final class Builder {
                public Builder add(String pattern, String... pins) {
                    StringBuilder line = new StringBuilder("add [" + pattern + "]");
                    for (String pin : pins) line.append(" [").append(pin).append("]");
                    System.out.println(line);
                    return this;
                }

                public CertificatePinner build() { return new CertificatePinner(); }
            }
        }

        """

    /// Writes `files` (paths relative to `directory`, e.g. `okhttp3/CertificatePinner.java`) and compiles them all
    /// into `directory/classes`; then, when it compiled, runs `main`. The result is javac's when it failed, else the
    /// program's.
    public static func compileAndRun(_ files: [(name: String, text: String)], main: String,
                                     in directory: TemporaryDirectory) throws -> PinctlProcess.Result {
        for (name, text) in files {
            let path = directory.path(name)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let sources = files.map { "'\($0.name)'" }.joined(separator: " ")
        let compiled = try PinctlProcess.runShell("javac -encoding UTF-8 -d classes \(sources)", in: directory.path)
        guard compiled.status == 0 else { return compiled }
        return try PinctlProcess.runShell("java -cp classes \(main)", in: directory.path)
    }

    /// `javap -c -p` of a compiled class: its methods' bytecode, where a call the source makes shows by name.
    public static func disassemble(_ className: String, in directory: TemporaryDirectory) throws -> String {
        try PinctlProcess.runShell("javap -c -p -cp classes \(className)", in: directory.path).stdout
    }
}
