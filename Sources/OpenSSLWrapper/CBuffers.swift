internal import COpenSSL

// Text out of the buffers OpenSSL fills.
enum BIOReader {
    /// The whole content of a memory BIO as UTF-8 text.
    static func string(from bio: OpaquePointer) -> String {
        var data: UnsafeMutablePointer<CChar>?
        let length = COpenSSLShim_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

extension String {
    /// Text from a C buffer filled up to a NUL.
    init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
