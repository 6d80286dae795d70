import ArgumentParser
import FileAccess

extension ReportFileOptions {
    /// Before any work: a run must not end by failing to write its report, nor overwrite a file. Thrown as
    /// ArgumentParser's `ValidationError`, so it reads, and exits 2, like any other bad option.
    func refuseExistingFiles() throws {
        for (document, path) in newFiles where (try? FileSystem.linkKind(of: path)) != nil {
            throw ValidationError("\(document.rawValue) \(path): exists; nothing was checked (remove it or name "
                + "another)")
        }
    }
}
