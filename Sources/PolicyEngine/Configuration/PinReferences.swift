
/// The pins a policy file lists: each entry a pin (`sha256/…`) or the path of a certificate or pin file or a
/// directory of them, relative to the policy file.
struct PinReferences {
    var certificates: [PinnedCertificate] = []
    var keyHashes: [PublicKeyPin] = []

    /// Reads a list (or a single entry) of pins and pin paths, each path through `pinFiles`.
    static func read(_ value: YAMLValue, relativeTo directory: String, pinFiles: PinFiles)
        throws(ConfigurationError) -> PinReferences
    {
        var references = PinReferences()
        for entry in try value.sequenceOrScalar() {
            let text = try entry.string()
            if text.hasPrefix("sha256/") || text.hasPrefix("pin-sha256=") {
                do {
                    references.keyHashes.append(try PinLoader.keyPin(text, source: entry.pinSource))
                } catch {
                    throw entry.error("not a pin: \(error.description)")
                }
                continue
            }
            let path = PolicyFile.resolve(text, relativeTo: directory)
            do {
                let loaded = try pinFiles.load(path)
                references.certificates += loaded.certificates
                references.keyHashes += loaded.keyHashes
            } catch {
                throw entry.error(error.description)
            }
        }
        return references
    }

    /// Certificate files only, for policies that pin whole certificates or the keys of certificates (Alamofire).
    static func certificates(_ value: YAMLValue, relativeTo directory: String, pinFiles: PinFiles, library: String)
        throws(ConfigurationError) -> [PinnedCertificate]
    {
        let references = try read(value, relativeTo: directory, pinFiles: pinFiles)
        if let hash = references.keyHashes.first {
            throw value.error("\(library) pins certificates (or their keys), not hashes: \(hash.text) (\(hash.source)) "
                + "cannot be used; give certificate files")
        }
        return references.certificates
    }
}

extension YAMLValue {
    /// Where this value is written, as the source of a pin.
    var pinSource: PinSource { PinSource(.configuration(path: file, line: line, keyPath: keyPath)) }
}
