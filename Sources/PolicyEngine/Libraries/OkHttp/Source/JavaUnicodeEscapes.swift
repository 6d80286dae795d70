/// Java's first lexical step (JLS §3.3): every eligible `\uXXXX` in the file, in comments, strings and code alike,
/// becomes its character before the compiler looks for tokens. `// note \u000a /*` is therefore a line comment ending
/// in a line break and a block comment opening on the next line, and pinctl must read the file after the same step, or
/// it reads `add` calls the compiler never sees (and misses ones it does). Kotlin has no such step: its `\u` is an
/// escape of string literals only, read by the lexer there, so Kotlin source is lexed as written.
///
/// "A \ is eligible to begin a Unicode escape if it is contiguously preceded by an even number of \ characters";
/// `\uuuu0041` is an escape too (any number of `u`). A backslash an escape produced does not count (`\u005c\u005c` is
/// two backslashes, as javac reads it), and the character an escape produces takes part in no further escape.
struct JavaUnicodeEscapes {
    /// The file after the translation.
    let bytes: [UInt8]
    /// For each translated byte, and one past the end, the offset in the file it came from.
    private let origins: [Int]
    private let original: [UInt8]
    /// The offsets in the original at which its lines start (LF, CR LF or a lone CR ends one).
    private let lineStarts: [Int]
    /// The last position asked for, so that positions asked in order cost the length of the file once.
    private var mark = (offset: 0, line: 0, column: 1)

    /// Where an escape is not four hexadecimal digits after its `u`s: javac refuses the file ("illegal unicode
    /// escape"), wherever it is.
    struct Malformed: Error {
        let line: Int
        let column: Int
    }

    /// The translation of `source`; nil when it holds no eligible `\u`, the common case, read as it is.
    static func translate(_ source: [UInt8]) throws(Malformed) -> JavaUnicodeEscapes? {
        let backslash = UInt8(ascii: "\\"), letterU = UInt8(ascii: "u")
        var bytes: [UInt8] = []
        var origins: [Int] = []
        var index = 0
        var precedingBackslashes = 0
        var pendingHighSurrogate: (value: UInt32, origin: Int)?
        var translatedAny = false
        while index < source.count {
            let current = source[index]
            guard current == backslash, precedingBackslashes % 2 == 0, index + 1 < source.count,
                  source[index + 1] == letterU
            else {
                precedingBackslashes = current == backslash ? precedingBackslashes + 1 : 0
                if let high = pendingHighSurrogate { append(0xFFFD, origin: high.origin, &bytes, &origins) }
                pendingHighSurrogate = nil
                bytes.append(current)
                origins.append(index)
                index += 1
                continue
            }
            var digitsStart = index + 1
            while digitsStart < source.count, source[digitsStart] == letterU { digitsStart += 1 }
            guard digitsStart + 4 <= source.count,
                  let unit = UInt32(String(decoding: source[digitsStart..<(digitsStart + 4)], as: UTF8.self),
                                    radix: 16),
                  source[digitsStart..<(digitsStart + 4)].allSatisfy(isHexDigit)
            else {
                throw Self.malformed(source, at: index)
            }
            translatedAny = true
            // A pair of escapes is one character (javac reads UTF-16); a lone half stands for U+FFFD, as nothing
            // pinctl reads can hold one (OkHttp refuses it in a pattern and in a pin).
            if let high = pendingHighSurrogate {
                pendingHighSurrogate = nil
                if (0xDC00...0xDFFF).contains(unit) {
                    append(0x10000 + ((high.value - 0xD800) << 10) + (unit - 0xDC00), origin: high.origin, &bytes,
                           &origins)
                    index = digitsStart + 4
                    precedingBackslashes = 0
                    continue
                }
                append(0xFFFD, origin: high.origin, &bytes, &origins)
            }
            if (0xD800...0xDBFF).contains(unit) {
                pendingHighSurrogate = (unit, index)
            } else {
                append(unit, origin: index, &bytes, &origins)
            }
            index = digitsStart + 4
            precedingBackslashes = 0
        }
        if let high = pendingHighSurrogate { append(0xFFFD, origin: high.origin, &bytes, &origins) }
        guard translatedAny else { return nil }
        origins.append(source.count)
        return JavaUnicodeEscapes(bytes: bytes, origins: origins, original: source)
    }

    private init(bytes: [UInt8], origins: [Int], original: [UInt8]) {
        self.bytes = bytes
        self.origins = origins
        self.original = original
        var starts = [original.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]  // A byte order mark is no column.
        for (offset, byte) in original.enumerated()
        where byte == 0x0A || (byte == 0x0D && offset + 1 < original.count && original[offset + 1] != 0x0A) {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    /// The line and column (in characters, from 1) in the original file of the translated byte at `offset`.
    mutating func position(ofTranslated offset: Int) -> (line: Int, column: Int) {
        let target = origins[min(max(offset, 0), origins.count - 1)]
        var line = mark.line
        if target < mark.offset || (line + 1 < lineStarts.count && lineStarts[line + 1] <= target) {
            line = Self.lineIndex(of: target, in: lineStarts)
            mark = (lineStarts[line], line, 1)
        }
        let from = max(mark.offset, lineStarts[line])
        mark.column += original[min(from, target)..<target].count { $0 & 0xC0 != 0x80 }
        mark.offset = max(target, from)
        return (line + 1, mark.column)
    }

    private static func lineIndex(of offset: Int, in starts: [Int]) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private static func append(_ scalar: UInt32, origin: Int, _ bytes: inout [UInt8], _ origins: inout [Int]) {
        let encoded = Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
        bytes += encoded
        origins += Array(repeating: origin, count: encoded.count)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func malformed(_ source: [UInt8], at offset: Int) -> Malformed {
        var translation = JavaUnicodeEscapes(bytes: source, origins: Array(0...source.count), original: source)
        let (line, column) = translation.position(ofTranslated: offset)
        return Malformed(line: line, column: column)
    }
}
