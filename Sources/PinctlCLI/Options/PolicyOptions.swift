import ArgumentParser
import Checking
import FoundationEssentials
import PolicyEngine
import TextSyntax

extension PinningMode: ExpressibleByArgument {}
extension Library: ExpressibleByArgument {}

/// The policy options shared by `check` and `verify` (DESIGN §3, §6): a library, its pins and its few settings, or
/// a policy file.
struct PolicyOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A policy file (pinctl.yaml): judge every app it lists instead of one policy given by flags.",
        valueName: "file"))
    var config: String?

    @Option(help: "Whose pinning semantics to follow (see docs/libraries.md).")
    var library: Library = .afnetworking

    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "A pin file or a directory of them (.cer .crt .der .pem certificates, .pin hash files). Repeatable.",
        valueName: "path"))
    var pinPaths: [String] = []

    @Option(name: .customLong("pin"), help: ArgumentHelp(
        "An SPKI hash pin, sha256/BASE64 or pin-sha256=\"BASE64\" (okhttp: also sha1/BASE64). Repeatable.",
        valueName: "pin"))
    var inlinePins: [String] = []

    @OptionGroup(title: "AFNetworking (--library afnetworking)") var afnetworking: AFNetworkingOptions
    @OptionGroup(title: "Alamofire (--library alamofire)") var alamofire: AlamofireOptions
    @OptionGroup(title: "OkHttp (--library okhttp)") var okhttp: OkHttpOptions
    @OptionGroup(title: "TrustKit (--library trustkit)") var trustkit: TrustKitOptions
    @OptionGroup(title: "Android NSC (--library nsc)") var nsc: NSCOptions

    @OptionGroup var anchors: AnchorOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Warn about certificates expiring within this many days.", valueName: "days"))
    var warnDays: Int = 30

    func validate() throws {
        guard warnDays >= 0 else { throw ValidationError("--warn-days \(warnDays): must be 0 or more") }
        let given: [(Library, [String])] = [
            (.afnetworking, afnetworking.given), (.alamofire, alamofire.given), (.okhttp, okhttp.given),
            (.trustkit, trustkit.given), (.nsc, nsc.given),
        ]
        if config != nil {
            let flags = given.flatMap(\.1) + (pinPaths.isEmpty ? [] : ["--pins"]) + (inlinePins.isEmpty ? [] : ["--pin"])
            guard flags.isEmpty else {
                throw ValidationError("--config: the policy file gives every app its policy; \(flags[0]) cannot be "
                    + "given with it")
            }
            return
        }
        for (owner, flags) in given where owner != library {
            if let flag = flags.first {
                throw ValidationError("\(flag) is an option of --library \(owner.rawValue), not of \(library.rawValue)")
            }
        }
        if library == .nsc, nsc.nscConfig == nil {
            throw ValidationError("--library nsc needs --nsc-config FILE: the app's network_security_config.xml")
        }
        if library == .nsc, !(pinPaths.isEmpty && inlinePins.isEmpty) {
            throw ValidationError("--library nsc takes its pins from --nsc-config, not from --pins or --pin")
        }
    }

    /// The evaluation context: the anchors standing for the system store, the time, the warning window.
    func context(anchorsFromFile: (caFiles: [String]?, caPaths: [String]?) = (nil, nil)) throws(InputError)
        -> EvaluationContext
    {
        EvaluationContext(platformAnchors: try anchors.trustStore(fallback: anchorsFromFile), time: anchors.time,
                          warnDays: warnDays)
    }

    /// The evaluator for this command line and its policy (for each domain), with the command line's warnings.
    func setup() throws(InputError) -> PolicySetup {
        let evaluator = PolicyEvaluator(context: try context())
        switch library {
        case .afnetworking:
            let (policy, warnings) = try afnetworking.policy(try loadPins())
            return PolicySetup(evaluator: evaluator, warnings: warnings) { _ in policy }
        case .alamofire:
            let (policy, warnings) = try alamofire.policy(try loadPins())
            return PolicySetup(evaluator: evaluator, warnings: warnings) { _ in policy }
        case .okhttp:
            let pins = try okhttpPins()
            return PolicySetup(evaluator: evaluator, warnings: []) { domain throws(InputError) in
                try okhttp.policy(pins, domain: domain)
            }
        case .trustkit:
            let pins = try loadPins()
            return PolicySetup(evaluator: evaluator, warnings: []) { domain throws(InputError) in
                try trustkit.policy(pins, domain: domain)
            }
        case .nsc:
            let policy = try nsc.policy()
            return PolicySetup(evaluator: evaluator, warnings: []) { _ in policy }
        }
    }

    /// Every `--pins` path and `--pin` value; a path that yields no pins is an error naming the flag.
    func loadPins() throws(InputError) -> LoadedPins {
        var pins = LoadedPins()
        for path in pinPaths {
            do {
                let loaded = try PinLoader.load(path: path)
                pins.certificates += loaded.certificates
                pins.keyHashes += loaded.keyHashes
            } catch {
                throw InputError("--pins \(error.description)")
            }
        }
        for (index, value) in inlinePins.enumerated() {
            do {
                pins.keyHashes.append(try PinLoader.keyPin(value, source: inlinePinSource(index)))
            } catch {
                throw InputError("--pin \(error.description)")
            }
        }
        return pins
    }

    /// OkHttp reads `sha1/` pins too, and as leniently as OkHttp does.
    private func okhttpPins() throws(InputError) -> [PublicKeyPin] {
        var pins: [PublicKeyPin] = []
        for path in pinPaths {
            do {
                let loaded = try PinLoader.load(path: path)
                pins += loaded.certificates.map(\.keyPin) + loaded.keyHashes
            } catch {
                throw InputError("--pins \(error.description)")
            }
        }
        for (index, value) in inlinePins.enumerated() {
            do {
                pins.append(try OkHttpPin.parse(value, source: inlinePinSource(index)))
            } catch {
                let message = "--pin \(value): OkHttp refuses it: \(error.message)"
                throw InputError(UntrustedText.redacting(value, in: message))
            }
        }
        return pins
    }

    private func inlinePinSource(_ index: Int) -> PinSource {
        PinSource(.argument(name: "--pin", index: inlinePins.count == 1 ? nil : index + 1))
    }
}
