import FoundationEssentials
import OpenSSLWrapper

extension Library {
    /// Android's Network Security Configuration.
    public static let nsc = Library(name: "nsc", displayName: "Android NSC")
}

extension NativeExport.Format {
    /// Android: a complete network_security_config.xml; an nsc app's own configuration written back whole.
    public static let nscXML = Self("xml", own: { policy throws(ExportError) in
        guard let nsc = policy as? NSCPolicy else { return nil }
        return .file(try NSCConfigurationWriter.write(nsc.config))
    }) { policy, losses throws(ExportError) in
        .file(try NSCXMLWriter.write(policy, losses: &losses))
    }
}

extension LibraryDefinition {
    /// Android NSC: the app's `network_security_config.xml`, read as is, in a policy file and on the command line
    /// (`--nsc-config`); it has no inline form.
    static let nsc = LibraryDefinition(
        library: .nsc,
        policy: NSCPolicy.self,
        // The manifest attribute and the framework that reads the file came with Android 7.0: "android:
        // networkSecurityConfig ... Added in API level 24" (developer.android.com/reference/android/R.attr), and
        // android.security.net.config first ships in AOSP's nougat branches. Below it the file is never read: no pins,
        // no @raw or user anchors, no debug-overrides; the default TrustManager trusts the system and user stores.
        availability: [LibraryAvailability(
            platform: "android", first: PlatformVersion("24")!,
            reason: "the Network Security Configuration exists from API 24 (Android 7.0): below it the app never "
                + "reads network_security_config.xml and trusts the system store and user-added CAs")],
        inline: .none("nsc has no inline form: give the app's network_security_config.xml as config:"),
        configSettings: [ConfigSetting(key: "debuggable") { value, settings throws(ConfigurationError) in
            settings.debuggable = try value.bool()
        }],
        readNative: { path, settings throws(ConfigurationError) in
            let config = try NSCXMLReader.read(path, debuggable: settings.debuggable)
            return .init(policy: NSCPolicy(config: config, debuggable: settings.debuggable, hosts: settings.hosts),
                         notes: config.notes, entryForm: .config(settings.debuggable ? [("debuggable", "true")] : []))
        },
        readBuild: { build, settings throws(ConfigurationError) in
            guard let apk = build.apk else { return nil }
            return try NSCBuildReading.read(apk, hosts: settings.hosts)
        },
        exportForms: [.nscXML],
        flags: [
            LibraryFlag("--nsc-config", .option(valueName: "file"), help: "the app's network_security_config.xml "
                + "(@raw/ anchors are read from the raw/ folder beside its folder)."),
            LibraryFlag("--debuggable", .switch, help: "a debuggable build, whose debug-overrides apply."),
        ],
        flagsProblem: { flags in
            if !flags.has("--nsc-config") {
                return "--library nsc needs --nsc-config FILE: the app's network_security_config.xml"
            }
            if !(flags.pinPaths.isEmpty && flags.inlinePins.isEmpty) {
                return "--library nsc takes its pins from --nsc-config, not from --pins or --pin"
            }
            return nil
        },
        importFlags: [ImportFlag(flag: LibraryFlag(
            "--debuggable", .switch, help: "a debuggable build, whose debug-overrides apply.")
        ) { _, settings throws(InputError) in settings.debuggable = true }],
        policyFromFlags: { flags throws(InputError) in
            guard let path = flags.value("--nsc-config") else { throw InputError("--library nsc needs --nsc-config FILE") }
            let debuggable = flags.has("--debuggable")
            do throws(ConfigurationError) {
                return .init(NSCPolicy(config: try NSCXMLReader.read(path, debuggable: debuggable), debuggable: debuggable))
            } catch {
                throw InputError(error.description)
            }
        }
    )
}

extension NativeConfiguration.Settings {
    /// nsc: a debuggable build (debug-overrides apply).
    public var debuggable: Bool {
        get { values["debuggable"] == "true" }
        set { values["debuggable"] = newValue ? "true" : nil }
    }
}
