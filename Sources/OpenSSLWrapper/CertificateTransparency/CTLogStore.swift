internal import COpenSSL
import FileAccess
import Glibc

/// OpenSSL's store of CT logs (`CTLOG_STORE`), which `SCT_validate` looks an SCT's log up in, holding exactly the
/// logs pinctl read and checked.
///
/// OpenSSL 3.0 fills a store only from a file (`CTLOG_STORE_load_file`: crypto/ct/ct_log.c has no call that adds a
/// log), and reads that file with its configuration parser. So the list pinctl reads is never given to OpenSSL:
/// pinctl writes a file of its own, holding nothing but `enabled_logs`, generated section names and the keys it
/// checked (base64's letters, digits, `+`, `/` and `=`, which that parser takes as they are), has OpenSSL load it,
/// and checks that OpenSSL holds every log by the id pinctl computed. The file is in memory (`memfd_create`, which
/// OpenSSL opens through /proc/self/fd), where the system has such files; else in a private temporary directory,
/// removed once loaded.
// @unchecked Sendable: the store is only read (by SCT_validate) once it is built.
final class CTLogStore: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A store of `keys` (canonical base64 of DER SubjectPublicKeyInfos) whose ids (the SHA-256 of the DER) are
    /// `ids`, in the same order, read from the list at `list` (which errors name).
    /// `inMemory`: whether the file OpenSSL reads is in memory (where the system has such files, `memoryFiles`)
    /// or in a temporary directory.
    init(keys: [String], ids: [[UInt8]], list: String, inMemory: Bool) throws(CTLogListError) {
        guard let store = CTLOG_STORE_new() else { fatalError("CTLOG_STORE_new: out of memory") }
        pointer = store
        guard !keys.isEmpty else { return }
        let names = keys.indices.map { "log\($0 + 1)" }
        var text = "enabled_logs = \(names.joined(separator: ","))\n"
        for (name, key) in zip(names, keys) { text += "\n[\(name)]\ndescription = \(name)\nkey = \(key)\n" }
        let bytes = Array(text.utf8)
        // A file in memory that cannot be had now (no descriptor left) is written to a temporary directory instead.
        let loaded = if inMemory, let fromMemory = Self.loadFromMemory(store, bytes) {
            fromMemory
        } else {
            try Self.loadFromTemporaryFile(store, bytes, list: list)
        }
        guard loaded else {
            throw CTLogListError("\(list): OpenSSL cannot load the logs pinctl checked (\(Self.queue()))")
        }
        for id in ids where id.withUnsafeBufferPointer({ CTLOG_STORE_get0_log_by_id(store, $0.baseAddress, $0.count) })
            == nil {
            throw CTLogListError("\(list): OpenSSL's store lacks a log pinctl checked (\(Self.queue()))")
        }
    }

    deinit { CTLOG_STORE_free(pointer) }

    /// Whether a store can be written where it will be: checked when the list is read, so that a temporary directory
    /// that cannot be made is an error then (exit 2), not a reason, found later, why no SCT counts. Stores read from
    /// files in memory need none.
    static func checkTemporaryDirectory(list: String) throws(CTLogListError) {
        FileSystem.removeDirectory(try temporaryDirectory(list: list))
    }

    /// Whether the system makes files in memory that OpenSSL can open by a path: Linux 3.17 on, with /proc
    /// mounted. Asked once.
    static let memoryFiles: Bool = {
        guard let descriptor = memoryFile() else { return false }
        defer { close(descriptor) }
        return access(procPath(descriptor), R_OK) == 0
    }()

    /// A new file in memory, closed on exec; nil when the system makes none.
    private static func memoryFile() -> Int32? {
        // MFD_CLOEXEC.
        let descriptor = memfd_create("pinctl-ct-logs", 1)
        return descriptor >= 0 ? descriptor : nil
    }

    private static func procPath(_ descriptor: Int32) -> String { "/proc/self/fd/\(descriptor)" }

    /// Loads `text` into `store` from a file in memory: nothing is made on disk, where a directory and a file cost
    /// more than the store itself in a busy /tmp. False when OpenSSL does not load it; nil when the file cannot be
    /// made or written.
    private static func loadFromMemory(_ store: OpaquePointer, _ text: [UInt8]) -> Bool? {
        guard let descriptor = memoryFile() else { return nil }
        defer { close(descriptor) }
        guard (try? FileSystem.writeAll(text, to: descriptor)) != nil else { return nil }
        return CTLOG_STORE_load_file(store, procPath(descriptor)) == 1
    }

    /// Loads `text` into `store` from a file in a new private temporary directory, removed after. False when OpenSSL
    /// does not load it; an error naming the list when the file cannot be written.
    private static func loadFromTemporaryFile(_ store: OpaquePointer, _ text: [UInt8], list: String)
        throws(CTLogListError) -> Bool {
        let directory = try temporaryDirectory(list: list)
        let path = Path.join(directory, "ct-logs.cnf")
        defer { FileSystem.removeDirectory(directory) }
        do {
            try FileSystem.writeNewFile(path, text, mode: 0o600)
        } catch {
            throw CTLogListError("\(list): cannot write OpenSSL's store of its logs to \(path): \(error.reason)")
        }
        return CTLOG_STORE_load_file(store, path) == 1
    }

    /// A new private directory under `TMPDIR` for a store's file.
    private static func temporaryDirectory(list: String) throws(CTLogListError) -> String {
        do {
            return try FileSystem.makeTemporaryDirectory(in: temporaryParent(), prefix: "pinctl-ct.")
        } catch {
            throw CTLogListError("\(list): cannot make a temporary directory for OpenSSL's store of its logs: "
                + error.reason)
        }
    }

    private static func queue() -> String { OpenSSLError.drainQueue().joined(separator: "; ") }

    /// `TMPDIR`, else `/tmp`.
    private static func temporaryParent() -> String {
        guard let value = getenv("TMPDIR") else { return "/tmp" }
        let text = String(cString: value)
        return text.isEmpty ? "/tmp" : text
    }
}
