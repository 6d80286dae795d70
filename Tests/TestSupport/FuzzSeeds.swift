import Foundation

/// The committed seeds of the fuzz targets (Tests/Fuzz/corpus/TARGET/), which the findings' regression tests read.
public enum FuzzSeeds {
    public static func bytes(_ target: String, _ name: String) -> [UInt8] {
        let path = Certs.root + "/Tests/Fuzz/corpus/\(target)/\(name)"
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("missing seed \(path)") }
        return [UInt8](data)
    }
}
