import FoundationEssentials

/// The inline `policy:` forms of a policy file, one per library (DESIGN §7), decoded into policy values.
enum InlinePolicies {
    struct Context {
        let directory: String
        let hosts: [String]
    }

    static func decode(_ library: Library, _ value: YAMLValue, _ context: Context) throws(ConfigurationError)
        -> any TrustPolicy
    {
        switch library {
        case .afnetworking: try afnetworking(value, context)
        case .alamofire: try alamofire(value, context)
        case .okhttp: try okhttp(value, context)
        case .trustkit: try trustkit(value, context)
        case .nsc: throw value.error("nsc has no inline form: give the app's network_security_config.xml as config:")
        }
    }

    /// `{mode, pins, allowInvalidCertificates, validatesDomainName}`.
    static func afnetworking(_ value: YAMLValue, _ context: Context) throws(ConfigurationError) -> AFNetworkingPolicy {
        var policy = AFNetworkingPolicy(hosts: context.hosts)
        var pinsValue: YAMLValue?
        for (key, member) in try value.mapping(allowed: ["mode", "pins", "allowInvalidCertificates", "validatesDomainName"]) {
            switch key {
            case "mode":
                let text = try member.string()
                guard let mode = PinningMode(rawValue: text) else {
                    throw member.error("unknown mode '\(text)' (expected none, certificate or publickey)")
                }
                policy.mode = mode
            case "pins":
                pinsValue = member
                let pins = try PinReferences.read(member, relativeTo: context.directory)
                policy.pinnedCertificates = pins.certificates
                policy.pinnedKeyHashes = pins.keyHashes
            case "allowInvalidCertificates": policy.allowInvalidCertificates = try member.bool()
            default: policy.validatesDomainName = try member.bool()
            }
        }
        if policy.mode == .certificate, policy.pinnedCertificates.isEmpty, let hash = policy.pinnedKeyHashes.first {
            throw (pinsValue ?? value).error("mode certificate compares whole certificates: hash pins (\(hash.source)) "
                + "cannot serve it; pin certificate files, or use mode publickey")
        }
        return policy
    }

    /// `{pins: {PATTERN: [pins]}}`.
    static func okhttp(_ value: YAMLValue, _ context: Context) throws(ConfigurationError) -> OkHttpPolicy {
        var entries: [OkHttpPolicy.Entry] = []
        for (key, member) in try value.mapping(allowed: ["pins"]) where key == "pins" {
            for (pattern, pins) in try member.anyMapping() {
                let parsed: OkHttpPattern
                do {
                    parsed = try OkHttpPattern(pattern)
                } catch {
                    throw pins.error("the pattern \(pattern): \(error.explanation)")
                }
                if let problem = PolicyHostName.syntaxError(parsed.canonical, as: .okhttpPattern) {
                    throw pins.error("the pattern \(pattern): \(problem)")
                }
                for pinValue in try pins.sequenceOrScalar() {
                    do {
                        entries.append(.init(pattern: parsed, pin: try OkHttpPin.parse(try pinValue.string(),
                                                                                       source: pinValue.pinSource)))
                    } catch let refusal as OkHttpPattern.Refusal {
                        throw pinValue.error("the pin: \(refusal.explanation)")
                    } catch let error as ConfigurationError {
                        throw error
                    } catch {
                        throw pinValue.error("\(error)")
                    }
                }
            }
        }
        return OkHttpPolicy(entries: entries, hosts: context.hosts)
    }

    /// `{domains: {DOMAIN: {publicKeyHashes, includeSubdomains, excludeSubdomainFromParentPolicy, enforcePinning,
    /// expirationDate}}}`, TrustKit's keys without `kTSK`, hashes bare base64 as TrustKit writes them.
    static func trustkit(_ value: YAMLValue, _ context: Context) throws(ConfigurationError) -> TrustKitPolicy {
        var domains: [(name: String, policy: TrustKitDomainPolicy)] = []
        var entries: [String: YAMLValue] = [:]
        var domainsValue: YAMLValue?
        for (key, member) in try value.mapping(allowed: ["domains"]) where key == "domains" {
            domainsValue = member
            for (name, entry) in try member.anyMapping() {
                if let problem = PolicyHostName.syntaxError(name, as: .host) { throw entry.error(problem) }
                entries[name] = entry
                domains.append((name, try trustkitDomain(entry)))
            }
        }
        do {
            return try TrustKitPolicy(domains: domains, hosts: context.hosts)
        } catch {
            // The refusal points at the key at fault when the entry writes it, else at the entry (or the domains).
            let entry = error.domain.flatMap { entries[$0] }
            // The entry was read as a mapping above, so reading it again cannot fail.
            let member = error.key.flatMap { key in (try? entry?.mapping(allowed: []))?.first { $0.key == key }?.value }
            throw (member ?? entry ?? domainsValue ?? value).error("TrustKit would refuse this configuration: "
                + error.message)
        }
    }

    private static func trustkitDomain(_ entry: YAMLValue) throws(ConfigurationError) -> TrustKitDomainPolicy {
        var policy = TrustKitDomainPolicy(location: "\(entry.file):\(entry.line ?? 0)")
        let keys = ["publicKeyHashes", "includeSubdomains", "excludeSubdomainFromParentPolicy", "enforcePinning",
                    "expirationDate"]
        for (key, member) in try entry.mapping(allowed: keys) {
            if key != "excludeSubdomainFromParentPolicy" { policy.otherKeys.append(key) }
            switch key {
            case "publicKeyHashes":
                for hash in try member.sequenceOrScalar() {
                    let text = try hash.string()
                    // [[NSData alloc] initWithBase64EncodedString:options:0] and a length of CC_SHA256_DIGEST_LENGTH
                    guard let bytes = Data(base64Encoded: text), bytes.count == 32 else {
                        throw hash.error("'\(text)' is not base64 of 32 bytes (TrustKit's hashes are bare base64, "
                            + "without sha256/)")
                    }
                    policy.publicKeyHashes.append(PublicKeyPin(hash: [UInt8](bytes), source: hash.pinSource))
                }
            case "includeSubdomains": policy.includeSubdomains = try member.bool()
            case "excludeSubdomainFromParentPolicy": policy.excludeSubdomainFromParentPolicy = try member.bool()
            case "enforcePinning": policy.enforcePinning = try member.bool()
            default: policy.expirationDate = try day(member)
            }
        }
        return policy
    }

    /// `yyyy-MM-dd`, read as 00:00 UTC of that day. TrustKit's `dateFromString:` returns nil for a string it cannot
    /// parse and the key silently disappears (the pins never expire); pinctl refuses it instead, so a typo cannot
    /// turn an expiry off unnoticed.
    static func day(_ value: YAMLValue) throws(ConfigurationError) -> Date {
        let text = try value.string()
        let digits = text.split(separator: "-", omittingEmptySubsequences: false)
        guard digits.count == 3, digits.map(\.count) == [4, 2, 2], case .success(let date) = Timestamp.parse(text) else {
            throw value.error("'\(text)' is not a date written yyyy-MM-dd (TrustKit would ignore it, and its pins "
                + "would never expire)")
        }
        return date
    }

    /// `{allHostsMustBeEvaluated, evaluators: {HOST: {kind, certificates | keys, acceptSelfSignedCertificates,
    /// performDefaultValidation, validateHost, evaluators}}}`.
    static func alamofire(_ value: YAMLValue, _ context: Context) throws(ConfigurationError) -> AlamofirePolicy {
        var mustEvaluate = true
        var evaluators: [(host: String, evaluator: AlamofireEvaluator)] = []
        for (key, member) in try value.mapping(allowed: ["allHostsMustBeEvaluated", "evaluators"]) {
            if key == "allHostsMustBeEvaluated" {
                mustEvaluate = try member.bool()
                continue
            }
            for (host, entry) in try member.anyMapping() {
                if let problem = PolicyHostName.syntaxError(host, as: .alamofireKey) { throw entry.error(problem) }
                evaluators.append((host, try alamofireEvaluator(entry, context)))
            }
        }
        return AlamofirePolicy(allHostsMustBeEvaluated: mustEvaluate, evaluators: evaluators, hosts: context.hosts)
    }

    private static func alamofireEvaluator(_ value: YAMLValue, _ context: Context) throws(ConfigurationError)
        -> AlamofireEvaluator
    {
        let all = try value.mapping(allowed: [])
        guard let kindValue = all.first(where: { $0.key == "kind" })?.value else {
            throw value.error("an evaluator needs kind: default, pinned-certificates, public-keys, revocation, disabled "
                + "or composite")
        }
        let kind = try kindValue.string()
        let allowed: [String]
        switch kind {
        case "default": allowed = ["kind", "validateHost"]
        case "pinned-certificates":
            allowed = ["kind", "certificates", "acceptSelfSignedCertificates", "performDefaultValidation", "validateHost"]
        case "public-keys": allowed = ["kind", "keys", "performDefaultValidation", "validateHost"]
        case "disabled": allowed = ["kind"]
        case "composite": allowed = ["kind", "evaluators"]
        case "revocation": allowed = ["kind", "performDefaultValidation", "validateHost", "options"]
        default:
            throw kindValue.error("unknown evaluator kind '\(kind)' (expected default, pinned-certificates, "
                + "public-keys, revocation, disabled or composite)")
        }
        let members = try value.mapping(allowed: allowed)
        func flag(_ name: String, _ fallback: Bool) throws(ConfigurationError) -> Bool {
            guard let member = members.first(where: { $0.key == name })?.value else { return fallback }
            return try member.bool()
        }
        func certificates(_ name: String) throws(ConfigurationError) -> [PinnedCertificate] {
            guard let member = members.first(where: { $0.key == name })?.value else {
                throw value.error("\(kind) needs \(name): certificate files or directories")
            }
            return try PinReferences.certificates(member, relativeTo: context.directory, library: "Alamofire")
        }
        switch kind {
        case "default":
            return .standard(validateHost: try flag("validateHost", true))
        case "pinned-certificates":
            return .pinnedCertificates(
                try certificates("certificates"),
                acceptSelfSignedCertificates: try flag("acceptSelfSignedCertificates", false),
                performDefaultValidation: try flag("performDefaultValidation", true),
                validateHost: try flag("validateHost", true))
        case "public-keys":
            return .publicKeys(try certificates("keys"), performDefaultValidation: try flag("performDefaultValidation", true),
                               validateHost: try flag("validateHost", true))
        case "disabled":
            return .disabled
        case "revocation":
            var options: [String] = []
            if let list = members.first(where: { $0.key == "options" })?.value {
                for element in try list.sequence() {
                    let name = try element.string()
                    guard AlamofireRevocationOptions.names.contains(name) else {
                        throw element.error("unknown revocation option '\(name)' (expected "
                            + AlamofireRevocationOptions.names.joined(separator: ", ") + ")")
                    }
                    options.append(name)
                }
            }
            return .revocation(performDefaultValidation: try flag("performDefaultValidation", true),
                               validateHost: try flag("validateHost", true),
                               options: AlamofireRevocationOptions(options.isEmpty ? ["any"] : options))
        default:
            guard let list = members.first(where: { $0.key == "evaluators" })?.value else {
                throw value.error("composite needs evaluators: a list of evaluators")
            }
            var inner: [AlamofireEvaluator] = []
            for element in try list.sequence() { inner.append(try alamofireEvaluator(element, context)) }
            return .composite(inner)
        }
    }
}
