import PolicyEngine
import TestSupport
import Testing

/// `TrustPolicy.ruleHosts`, what `pinctl serve`'s status page lists for each app (#36): the hosts each library's own
/// policy names, read from examples/pinctl.yaml, whose six apps pin api.example.com six ways.
@Suite struct RuleHostsTests {
    @Test func eachLibraryNamesTheHostsItsPolicyWrites() throws {
        let file = try PolicyFile.load(Certs.root + "/examples/pinctl.yaml")
        let hosts = Dictionary(uniqueKeysWithValues: file.apps.map { ($0.name, $0.policy.ruleHosts) })
        #expect(hosts == [
            // AFNetworking's policy is the session's, for any host: only `hosts:` names them.
            "ios-afn": [],
            "ios-alamofire": ["api.example.com"],
            "ios-trustkit": ["api.example.com and subdomains"],
            "ios-ats": ["api.example.com and subdomains"],
            "okhttp-sdk": ["**.example.com"],
            // The nested domain-config too.
            "android": ["api.example.com and subdomains", "cdn.api.example.com"],
        ])
    }
}
