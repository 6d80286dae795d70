import Checking
import PolicyEngine

/// SARIF 2.1.0: one result per rejection (and per target that could not be evaluated), its rule the reason code, its
/// location the policy file's line of the app, or the pin file of a policy given by flags.
struct SARIFReport {
    let items: [TargetResult]

    init(_ items: [TargetResult]) { self.items = items }

    /// What each reason code means, for the rules of the run.
    static let ruleDescriptions: [String: String] = [
        "contradiction": "The policy contradicts itself (a domain validated for invalid certificates without pins).",
        "untrusted-chain": "The chain does not validate to the anchors.",
        "hostname-mismatch": "The leaf's subject alternative names do not name the host.",
        "not-for-tls-server": "The leaf's key usage does not allow TLS server authentication.",
        "expired": "A certificate of the chain has expired.",
        "not-yet-valid": "A certificate of the chain is not valid yet.",
        "platform-rule": "The platform version judged on refuses the chain by a rule of its own.",
        "no-pins": "A pinning policy pins nothing.",
        "pin-not-in-chain": "No pinned certificate is in the chain.",
        "public-key-not-pinned": "No key of the chain is pinned.",
        "no-evaluator": "Alamofire has no evaluator for a host that must be evaluated.",
        "unsupported-key": "TrustKit cannot hash a key of the chain.",
        "no-certificate": "Nothing was presented.",
        "revoked": "A certificate of the chain was revoked.",
        "ocsp-invalid": "The OCSP response cannot be relied on.",
        "crl-invalid": "The CRL cannot be relied on.",
        "input": "The configuration or input is wrong.",
    ]

    var json: JSONValue {
        var rules: [String] = []
        var results: [JSONValue] = []
        for item in items {
            guard let result = result(item) else { continue }
            if !rules.contains(result.rule) { rules.append(result.rule) }
            var members: [(String, JSONValue)] = [
                ("ruleId", .string(result.rule)), ("level", .string("error")),
                ("message", .object([("text", .string(result.message))])),
            ]
            if let location = result.location {
                var physical: [(String, JSONValue)] = [("artifactLocation", .object([("uri", .string(location.file))]))]
                if let line = location.line { physical.append(("region", .object([("startLine", .number(line))]))) }
                members.append(("locations", .array([.object([("physicalLocation", .object(physical))])])))
            }
            results.append(.object(members))
        }
        let driver: [(String, JSONValue)] = [
            ("name", .string("pinctl")), ("version", .string(PinctlVersion.current)),
            ("rules", .array(rules.map { rule in
                .object([("id", .string(rule)), ("shortDescription", .object([
                    ("text", .string(Self.ruleDescriptions[rule] ?? "The target could not be reached (\(rule)).")),
                ]))])
            })),
        ]
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([("tool", .object([("driver", .object(driver))])), ("results", .array(results))])])),
        ])
    }

    private func result(_ item: TargetResult) -> (rule: String, message: String, location: (file: String, line: Int?)?)? {
        switch item {
        case .judged(let report):
            guard let rejection = report.evaluation.rejection else { return nil }
            let who = report.app.map { "\(report.target) (\($0.name))" } ?? report.target
            let location = report.app.map { (file: $0.file, line: $0.line) } ?? pinFile(report.policy)
            return (rejection.reason.code, who + ": " + (report.evaluation.rejectionMessage ?? ""), location)
        case .failed(let failure):
            let who = failure.target.map { target in failure.app.map { "\(target) (\($0.name))" } ?? target } ?? "pinctl"
            return (failure.code, who + ": " + failure.message, failure.app.map { (file: $0.file, line: $0.line) })
        }
    }

    /// For a policy given by flags, the first pin file named.
    private func pinFile(_ policy: any TrustPolicy) -> (file: String, line: Int?)? {
        for pin in policy.pins {
            switch pin.source.place {
            case .file(let path, let line, _), .configuration(let path, let line, _): return (path, line)
            case .argument: continue
            }
        }
        return nil
    }
}
