import Foundation
import PolicyEngine
import TestSupport
import Testing

/// The inline `alamofire` form of a policy file (DESIGN §7): what it decodes to, and what it refuses with the file,
/// the line and the key.
@Suite("Alamofire policy file")
struct AlamofirePolicyFileTests {
    /// A policy file with one alamofire app; `policy` is indented under `policy:` and starts on line 5.
    static func file(_ policy: String, in directory: TemporaryDirectory) throws -> String {
        let body = policy.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
            .joined(separator: "\n")
        return try directory.write("pinctl.yaml", text: """
            version: 1
            apps:
              - name: ios
                library: alamofire
                policy:
            \(body)

            """)
    }

    static func load(_ policy: String) throws -> AlamofirePolicy {
        try TemporaryDirectory.with { directory in
            let loaded = try PolicyFile.load(try file(policy, in: directory))
            return try #require(loaded.apps.first?.policy as? AlamofirePolicy)
        }
    }

    /// Loading must fail with a ConfigurationError at `line` and `keyPath` whose message holds `fragment`.
    static func refusal(_ policy: String, line: Int, keyPath: String, saying fragment: String,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        try TemporaryDirectory.with { directory in
            let path = try file(policy, in: directory)
            let error = #expect(throws: ConfigurationError.self, sourceLocation: sourceLocation) {
                try PolicyFile.load(path)
            }
            #expect(error?.file == path, sourceLocation: sourceLocation)
            #expect(error?.line == line, "\(error.map(String.init(describing:)) ?? "")", sourceLocation: sourceLocation)
            #expect(error?.keyPath == keyPath, "\(error.map(String.init(describing:)) ?? "")",
                    sourceLocation: sourceLocation)
            #expect(error?.message.contains(fragment) == true, "\(error.map(String.init(describing:)) ?? "")",
                    sourceLocation: sourceLocation)
        }
    }

    static let api = "apps[0].policy.evaluators['api.example.com']"
    static func cert(_ name: String) -> String { LibraryCerts.path(name) }

    // MARK: What the form means

    @Test func flagsDefaultAsAlamofiresInitializersDo() throws {
        let policy = try Self.load("""
            evaluators:
              api.example.com: {kind: pinned-certificates, certificates: [\(Self.cert("self-signed.pem"))]}
            """)
        #expect(policy.allHostsMustBeEvaluated)
        // acceptSelfSignedCertificates false: the self-signed pin is no anchor, and validation is on.
        expectVerdict(evaluateAlamofire(policy, .selfSigned, host: AlamofireHosts.api), is: .untrusted(0))
        expectVerdict(evaluateAlamofire(policy, .valid, host: "www.example.com"), is: .noEvaluator)
        // performDefaultValidation true: with validateHost off the chain is still validated, without the name.
        let hostless = try Self.load("""
            evaluators:
              api.example.com:
                {kind: pinned-certificates, certificates: [\(Self.cert("self-signed.pem"))], validateHost: false}
              www.example.com: {kind: public-keys, keys: [\(Self.cert("self-signed.pem"))], validateHost: false}
              example.com: {kind: default}
            """)
        expectVerdict(evaluateAlamofire(hostless, .selfSigned, host: "api.example.com"), is: .untrusted(0))
        expectVerdict(evaluateAlamofire(hostless, .selfSigned, host: "www.example.com"), is: .untrusted(0))
        // DefaultTrustEvaluator's validateHost is true: the chain of the host checked must name it.
        expectVerdict(evaluateAlamofire(hostless, .noSAN, host: "example.com"), is: .mismatch(0))
    }

    @Test func everyFlagIsRead() throws {
        let policy = try Self.load("""
            allHostsMustBeEvaluated: false
            evaluators:
              api.example.com:
                kind: pinned-certificates
                certificates: [\(Self.cert("self-signed.pem"))]
                acceptSelfSignedCertificates: true
              www.example.com:
                kind: public-keys
                keys: \(Self.cert("leaf.pem"))
                performDefaultValidation: false
                validateHost: false
              example.com: {kind: default, validateHost: false}
              API.example.com: {kind: disabled}
            """)
        #expect(policy.evaluators.map(\.host)
            == ["api.example.com", "www.example.com", "example.com", "API.example.com"])
        expectVerdict(evaluateAlamofire(policy, .selfSigned, host: "api.example.com"), is: .pinned(at: 0))
        expectVerdict(evaluateAlamofire(policy, .missingIntermediate, host: "www.example.com"), is: .pinned(at: 0))
        expectVerdict(evaluateAlamofire(policy, .noSAN, host: "example.com"), is: .validated)
        // No evaluator and allHostsMustBeEvaluated false: URLSession's default handling, with the host.
        expectVerdict(evaluateAlamofire(policy, .valid, host: "other.example.com"), is: .mismatch(0))
    }

    @Test func compositeKeepsItsOrder() throws {
        let policy = try Self.load("""
            evaluators:
              api.example.com:
                kind: composite
                evaluators:
                  - {kind: public-keys, keys: [\(Self.cert("self-signed.pem"))]}
                  - kind: pinned-certificates
                    certificates: [\(Self.cert("self-signed.pem"))]
                    acceptSelfSignedCertificates: true
            """)
        expectVerdict(evaluateAlamofire(policy, .selfSigned, host: AlamofireHosts.api),
                        is: ExpectedVerdict.untrusted(0).within("evaluator 1 of 2 (public-keys)"))
    }

    @Test func certificatePathsAreRelativeToThePolicyFile() throws {
        try TemporaryDirectory.with { directory in
            try directory.makeDirectory("pins")
            try directory.write("pins/leaf.pem", bytes: Array(try Data(contentsOf: URL(fileURLWithPath:
                Self.cert("leaf.pem")))))
            let loaded = try PolicyFile.load(try Self.file("""
                evaluators:
                  api.example.com: {kind: public-keys, keys: [pins/]}
                """, in: directory))
            let policy = try #require(loaded.apps.first?.policy as? AlamofirePolicy)
            expectVerdict(evaluateAlamofire(policy, .valid, host: AlamofireHosts.api), is: .pinned(at: 0))
        }
    }

    /// An empty list is what an app with no bundled certificates has: every request to the host fails at run time.
    @Test func anEmptyCertificateListIsARuntimeRejection() throws {
        let policy = try Self.load("""
            evaluators:
              api.example.com: {kind: pinned-certificates, certificates: []}
            """)
        expectVerdict(evaluateAlamofire(policy, .valid, host: AlamofireHosts.api), is: .noPins)
    }

    // MARK: What it refuses (exit 2 in the commands)

    @Test func unknownKeysAreRefused() throws {
        try Self.refusal("""
            allHostsMustBeEvaluate: false
            evaluators: {}
            """, line: 6, keyPath: "apps[0].policy", saying: "unknown key 'allHostsMustBeEvaluate'")
        try Self.refusal("""
            evaluators:
              api.example.com:
                kind: pinned-certificates
                certificates: [\(Self.cert("leaf.pem"))]
                validateHosts: false
            """, line: 10, keyPath: Self.api, saying: "unknown key 'validateHosts'")
        try Self.refusal("""
            evaluators:
              api.example.com: {kind: default, performDefaultValidation: false}
            """, line: 7, keyPath: Self.api, saying: "unknown key 'performDefaultValidation'")
    }

    @Test func aHashPinWhereCertificatesAreNeededIsRefused() throws {
        try Self.refusal("""
            evaluators:
              api.example.com:
                kind: pinned-certificates
                certificates: [\(Self.cert("leaf.pem")), \(LibraryCerts.pin(of: "leaf.pem"))]
            """, line: 9, keyPath: Self.api + ".certificates", saying: "Alamofire pins certificates")
        try Self.refusal("""
            evaluators:
              api.example.com:
                kind: public-keys
                keys:
                  - \(LibraryCerts.pin(of: "leaf.pem"))
            """, line: 10, keyPath: Self.api + ".keys", saying: "not hashes")
    }

    /// PublicKeysTrustEvaluator has no acceptSelfSignedCertificates: it never sets anchors.
    @Test func acceptSelfSignedCertificatesUnderPublicKeysIsRefused() throws {
        try Self.refusal("""
            evaluators:
              api.example.com:
                kind: public-keys
                keys: [\(Self.cert("leaf.pem"))]
                acceptSelfSignedCertificates: true
            """, line: 10, keyPath: Self.api, saying: "unknown key 'acceptSelfSignedCertificates'")
    }

    @Test func unknownKindsAndRevocationOptionsAreRefused() throws {
        try Self.refusal("""
            evaluators:
              api.example.com: {kind: pinned-certificate, certificates: [\(Self.cert("leaf.pem"))]}
            """, line: 7, keyPath: Self.api + ".kind", saying: "unknown evaluator kind 'pinned-certificate'")
        try Self.refusal("""
            evaluators:
              api.example.com:
                kind: revocation
                options: [ocsp, crls]
            """, line: 9, keyPath: Self.api + ".options[1]", saying: "unknown revocation option 'crls'")
        try Self.refusal("""
            evaluators:
              api.example.com:
                kind: composite
                evaluators:
                  - {kind: default}
                  - {kind: revocation, certificates: []}
            """, line: 11, keyPath: Self.api + ".evaluators[1]", saying: "unknown key 'certificates'")
    }

    @Test func anEvaluatorWithoutKindOrPinsIsRefused() throws {
        try Self.refusal("""
            evaluators:
              api.example.com: {validateHost: false}
            """, line: 7, keyPath: Self.api, saying: "needs kind")
        try Self.refusal("""
            evaluators:
              api.example.com: {kind: public-keys}
            """, line: 7, keyPath: Self.api, saying: "public-keys needs keys")
        try Self.refusal("""
            evaluators:
              api.example.com: {kind: default, validateHost: maybe}
            """, line: 7, keyPath: Self.api + ".validateHost", saying: "expected true or false")
    }
}
