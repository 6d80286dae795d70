import FoundationEssentials

/// Writes a policy of any library in another library's native form (`config export`), through portable rules.
public enum NativeExport {
    /// The native forms pinctl writes.
    public enum Format: String, Sendable, CaseIterable {
        /// TrustKit: an Info.plist fragment (XML plist with `TSKConfiguration` at its top).
        case trustkitPlist = "plist"
        /// TrustKit: the `TSKConfiguration` dictionary as JSON.
        case trustkitJSON = "json"
        /// Android: a complete network_security_config.xml.
        case nscXML = "xml"
        /// OkHttp: a Kotlin `CertificatePinner.Builder()` snippet.
        case okhttpKotlin = "kotlin"
        /// OkHttp: a Java snippet.
        case okhttpJava = "java"
        /// OkHttp: `pattern sha256/…` lines.
        case okhttpText = "text"
        /// AFNetworking and Alamofire: a directory of DER `.cer` files.
        case certificateBundle = "bundle"

        /// The forms a library's apps ship, the first being the default.
        public static func forms(of library: Library) -> [Format] {
            switch library {
            case .trustkit: [.trustkitPlist, .trustkitJSON]
            case .nsc: [.nscXML]
            case .okhttp: [.okhttpKotlin, .okhttpJava, .okhttpText]
            case .afnetworking, .alamofire: [.certificateBundle]
            }
        }
    }

    /// What an export produces: one file's bytes, or the files of a directory.
    public enum Output: Sendable {
        case file([UInt8])
        case directory([(name: String, contents: [UInt8])])
    }

    /// Converts `policy` to `format`; `losses` says what the format cannot express.
    public static func write(_ policy: any TrustPolicy, as format: Format, losses: inout ExportLosses)
        throws(ExportError) -> Output
    {
        guard let convertible = policy as? PortableConvertible else {
            throw ExportError("a \(policy.library.rawValue) policy cannot be exported")
        }
        let portable = try convertible.portable(losses: &losses)
        switch format {
        case .nscXML:
            return .file(try NSCXMLWriter.write(portable, losses: &losses))
        case .certificateBundle:
            return .directory(try CertificateBundle.files(portable, losses: &losses))
        case .trustkitPlist, .trustkitJSON:
            return .file(try TrustKitConfigurationWriter.write(portable, json: format == .trustkitJSON, losses: &losses))
        case .okhttpKotlin, .okhttpJava, .okhttpText:
            return .file(try OkHttpSourceWriter.write(portable, format: format, losses: &losses))
        }
    }
}
