internal import COpenSSL

/// Which OpenSSL pinctl runs on, and which it was built against (`pinctl --version`): a distribution's security
/// update changes the first without a rebuild.
public enum OpenSSLVersion {
    /// The library loaded now, as `openssl version` prints it: "OpenSSL 3.0.17 1 Jul 2025".
    public static var running: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
    /// The headers pinctl was compiled with.
    public static let built = OPENSSL_VERSION_TEXT
}
