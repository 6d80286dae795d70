import Synchronization

/// The builds a policy file names, each read once (`PinFiles` does the same for pin files): several apps of one build
/// (its TrustKit, ATS and bundle entries) share one read of an archive that may be hundreds of megabytes.
final class BuildFiles: Sendable {
    private let read = Mutex<[String: BuildConfiguration.Read]>([:])

    func read(_ path: String) throws(ConfigurationError) -> BuildConfiguration.Read {
        if let known = read.withLock({ $0[path] }) { return known }
        let build = try BuildConfiguration.build(path)
        read.withLock { $0[path] = build }
        return build
    }
}
