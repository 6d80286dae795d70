/// Whether a Mach-O executable (thin or universal) is encrypted, as the App Store's FairPlay leaves the binaries it
/// ships: a slice whose `LC_ENCRYPTION_INFO` or `LC_ENCRYPTION_INFO_64` load command has a `cryptid` other than 0.
/// Read from the documented layout (<mach-o/loader.h>, <mach-o/fat.h>), every count and offset checked against the
/// file before it is followed.
public enum MachOEncryption {
    /// The slices that are encrypted, by CPU type (`arm64`, `x86_64`, or the number); empty when none is.
    public static func encryptedSlices(_ bytes: [UInt8]) throws(MachOError) -> [String] {
        guard let magic = bytes.bigEndian(at: 0, size: 4) else { throw MachOError("shorter than a Mach-O header") }
        // A universal file: a big-endian header and one fat_arch (20 bytes) per slice.
        if magic == 0xCAFE_BABE {
            guard let count = bytes.bigEndian(at: 4, size: 4), count > 0, count <= 32 else {
                throw MachOError("a universal header with an implausible number of slices")
            }
            var encrypted: [String] = []
            for index in 0..<Int(count) {
                let at = 8 + index * 20
                guard let offset = bytes.bigEndian(at: at + 8, size: 4), let size = bytes.bigEndian(at: at + 12, size: 4),
                      offset + size <= UInt64(bytes.count), offset < UInt64(bytes.count) else {
                    throw MachOError("slice \(index + 1) lies outside the file")
                }
                encrypted += try thin(Array(bytes[Int(offset)..<Int(offset + size)]), slice: index + 1)
            }
            return encrypted
        }
        return try thin(bytes, slice: nil)
    }

    private static func thin(_ bytes: [UInt8], slice: Int?) throws(MachOError) -> [String] {
        let place = slice.map { "slice \($0): " } ?? ""
        guard let magic = bytes.littleEndian(at: 0, size: 4), magic == 0xFEED_FACF || magic == 0xFEED_FACE else {
            throw MachOError(place + "not a Mach-O (no 0xfeedfacf or 0xfeedface magic)")
        }
        let header = magic == 0xFEED_FACF ? 32 : 28
        guard let cpu = bytes.littleEndian(at: 4, size: 4), let count = bytes.littleEndian(at: 16, size: 4),
              let size = bytes.littleEndian(at: 20, size: 4), UInt64(header) + size <= UInt64(bytes.count) else {
            throw MachOError(place + "load commands lie outside the file")
        }
        guard count <= 65_536 else { throw MachOError(place + "\(count) load commands, an implausible number") }
        var at = header
        var encrypted = false
        for index in 0..<Int(count) {
            guard let command = bytes.littleEndian(at: at, size: 4), let length = bytes.littleEndian(at: at + 4, size: 4),
                  length >= 8, UInt64(at) + length <= UInt64(header) + size else {
                throw MachOError(place + "load command \(index + 1) lies outside the load commands")
            }
            // LC_ENCRYPTION_INFO (0x21) and LC_ENCRYPTION_INFO_64 (0x2C): cryptoff, cryptsize, then cryptid.
            if command == 0x21 || command == 0x2C {
                guard length >= 20, let cryptid = bytes.littleEndian(at: at + 16, size: 4) else {
                    throw MachOError(place + "an encryption load command too short for its cryptid")
                }
                if cryptid != 0 { encrypted = true }
            }
            at += Int(length)
        }
        return encrypted ? [cpuName(cpu)] : []
    }

    private static func cpuName(_ type: UInt64) -> String {
        switch type {
        case 0x0100_000C: "arm64"
        case 0x0100_0007: "x86_64"
        case 0x0000_000C: "arm"
        default: "CPU type \(type)"
        }
    }
}

/// Why a file is not a Mach-O pinctl can read.
public struct MachOError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension [UInt8] {
    fileprivate func bigEndian(at offset: Int, size: Int) -> UInt64? {
        guard offset >= 0, offset + size <= count else { return nil }
        return self[offset..<offset + size].reduce(0) { $0 << 8 | UInt64($1) }
    }

    fileprivate func littleEndian(at offset: Int, size: Int) -> UInt64? {
        guard offset >= 0, offset + size <= count else { return nil }
        return self[offset..<offset + size].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
