internal import COpenSSL

/// The curve P-256 as OpenSSL builds it, once, to ask whether an encoded point lies on it.
///
/// OpenSSL 3.0 builds the curve again for every EC key it reads (`eckey_pub_decode` → `EC_GROUP_new_by_curve_name`,
/// about 15 µs: its Montgomery constants), which was most of reading back Apple's 49 trusted CT keys (#33). A key of
/// the one form `p256Key` describes is read by OpenSSL as that point alone: `o2i_ECPublicKey` → `EC_KEY_oct2key`
/// calls `EC_POINT_oct2point(key->group, key->pub_key, buf, len, ctx)`, whose `ossl_ec_GFp_simple_oct2point` refuses
/// a coordinate not below the field's prime ("BN_ucmp(x, group->field) >= 0") and leaves
/// `EC_POINT_set_affine_coordinates` "responsible for checking that the point is on the curve"; and it writes such
/// a key back the same (the named curve's OID, the conversion form of the first byte, coordinates at full length).
// Not Sendable: one thread's, as OpenSSL's EC_POINT is.
final class P256Curve {
    private let group: OpaquePointer
    private let point: OpaquePointer

    /// The SubjectPublicKeyInfo of an id-ecPublicKey key on the named curve prime256v1, up to and with the first
    /// byte of an uncompressed point (`04‖X‖Y`, 65 bytes): the DER of such a key is 91 bytes.
    static let keyPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
    ]
    static let keyLength = 91
    /// Where the encoded point (`04‖X‖Y`, its first byte the prefix's last) starts in such a key.
    private static let pointStart = keyPrefix.count - 1

    init?() {
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            OpenSSLError.clearQueue()
            return nil
        }
        guard let point = EC_POINT_new(group) else {
            EC_GROUP_free(group)
            OpenSSLError.clearQueue()
            return nil
        }
        self.group = group
        self.point = point
    }

    deinit {
        EC_POINT_free(point)
        EC_GROUP_free(group)
    }

    /// Whether OpenSSL reads `der` as a key and writes it back the same, when it is a key of the form `keyPrefix`
    /// gives; nil for a key of any other form, which only reading it whole answers.
    func readsBack(_ der: [UInt8]) -> Bool? {
        guard der.count == Self.keyLength, der.starts(with: Self.keyPrefix) else { return nil }
        let onCurve = der.withUnsafeBufferPointer { buffer in
            EC_POINT_oct2point(group, point, buffer.baseAddress! + Self.pointStart, Self.keyLength - Self.pointStart,
                               nil) == 1
        }
        if !onCurve { OpenSSLError.clearQueue() }
        return onCurve
    }
}
