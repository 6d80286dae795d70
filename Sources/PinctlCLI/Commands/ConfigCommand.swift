import ArgumentParser
import FileAccess
import FoundationEssentials
import Glibc
import PolicyEngine
import TextSyntax

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Read and write the pinning configurations apps ship.",
        discussion: """
            import turns a file an app ships (TrustKit's Info.plist, Android's network_security_config.xml, OkHttp's \
            CertificatePinner in Kotlin or Java, a .cer bundle) into an app entry for pinctl.yaml; export writes an \
            app of pinctl.yaml in any library's native form, so one policy file feeds every platform.
            """,
        subcommands: [ConfigImportCommand.self, ConfigExportCommand.self]
    )
}

extension Library {
    /// `trustkit`, … as the option values list them.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

struct ConfigImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Print the pinctl.yaml app entry for a configuration file an app ships.",
        discussion: """
            The entry is indented as an item of the apps: list, to append to pinctl.yaml. TrustKit and OkHttp \
            configurations become inline policies; Android's XML and .cer bundles are referenced with config:, and \
            so is an Info.plist's NSPinnedDomains whose identities Apple reads otherwise than they are written.

            Examples:
              pinctl config import ios/Info.plist --library trustkit --name ios-app >> pinctl.yaml
              pinctl config import App/Info.plist --library ats --name ios-ats >> pinctl.yaml
              pinctl config import app/src/main/res/xml/network_security_config.xml --library nsc
              pinctl config import Net/Pinning.kt --library okhttp --name android-sdk
              pinctl config import Resources/Certificates --library alamofire --host api.example.com
              pinctl config import build/App.ipa --name ios-app >> pinctl.yaml
              pinctl config import build/App.ipa --library alamofire --host api.example.com --name ios-af
              pinctl config import app/build/outputs/apk/release/app-release.apk --name android >> pinctl.yaml

            A build gives one entry per library it configures, with the app's version: an iOS app archive (.ipa) \
            TrustKit and ATS from its Info.plist and AFNetworking and Alamofire from the certificates in its bundle \
            (for the hosts --host gives, which the build does not say), with platforms ios@MinimumOSVersion-; an \
            Android package (.apk) its Network Security Configuration and the OkHttp pins its DEX adds with constant \
            arguments, with minSdk and targetSdk (judged from android@minSdk-). --library keeps one. What the inline \
            form cannot say exactly names the archive (build:), which check, verify, lint and serve read again. An \
            App Store download (encrypted) and an Android App Bundle (.aab) are refused.
            """
    )

    @Argument(help: ArgumentHelp(
        "The file (or, for a .cer bundle, the directory) the app ships, or the app's .ipa or .apk.",
        valueName: "file"))
    var file: String

    @Option(help: "The library whose configuration the file is (a build: the one library to keep).")
    var library: Library?

    @Option(help: ArgumentHelp("The app's name in pinctl.yaml (default: the file's name).", valueName: "name"))
    var name: String?

    @Option(name: .customLong("host"), help: ArgumentHelp(
        "A host the app talks to; repeatable (alamofire bundles need them).", valueName: "host"))
    var hosts: [String] = []

    /// Each library's own reading flags, as its definition lists them (`--mode`, `--debuggable`, `--define`, …).
    @OptionGroup(title: "Library settings (each for its library's files)")
    var libraryOptions: LibraryFlagOptions<ImportFlagUse>

    @Flag(help: "Say which keys and files were ignored.")
    var verbose = false

    func validate() throws {
        for host in hosts {
            if let problem = DomainName.syntaxError(host) { throw ValidationError("--host \(host): \(problem)") }
        }
        _ = try readingSettings()
        guard let library else {
            if isBuild { return }
            throw ValidationError("missing --library: which library's configuration \(file) is (\(Library.names))")
        }
        let own = Set(library.definition.importFlagList.map(\.name))
        if let stray = libraryOptions.given.first(where: { !own.contains($0.flag) })?.flag {
            let owners = LibraryRegistry.all.filter { $0.importFlagList.contains { $0.name == stray } }
            throw ValidationError("\(stray) is an option of --library "
                + owners.map(\.library.rawValue).joined(separator: " or ") + ", not of \(library.rawValue)")
        }
    }

    /// How the file is read: the hosts, and what each library's flags given say.
    private func readingSettings() throws -> NativeConfiguration.Settings {
        var settings = NativeConfiguration.Settings(hosts: hosts)
        for definition in LibraryRegistry.all {
            do {
                try definition.applyImportFlags(libraryOptions.given(for: definition), to: &settings)
            } catch {
                throw ValidationError(Terminal.safe(error.description))
            }
        }
        return settings
    }

    /// A build (an iOS app archive, an Android package or bundle), read whole for every library it configures.
    private var isBuild: Bool { BuildConfiguration.isBuild(file) }

    func run() throws {
        let settings = try readingSettings()
        guard let library, !isBuild else { return try importBuild(settings) }
        let reading: NativeConfiguration.Reading
        do {
            reading = try NativeConfiguration.read(file, library: library, settings: settings)
        } catch {
            Terminal.error(error.description)
            try ExitStatus.inputError.exit()
        }
        if verbose { reading.notes.forEach { Terminal.printError("note: " + Terminal.safe($0)) } }
        do {
            print(try reading.appEntry(name: appName, library: library, hosts: hosts, path: file), terminator: "")
        } catch {
            Terminal.error("\(error)")
            try ExitStatus.inputError.exit()
        }
    }

    private var appName: String {
        name ?? Path.lastComponent(of: file).split(separator: ".").first.map(String.init) ?? "app"
    }

    /// A build (.ipa, .apk): an entry per library found (or the one `--library` keeps), each named `NAME-LIBRARY` when there are
    /// several, inline where the library's form says the policy exactly, else naming the archive (`build:`).
    /// Certificates in the bundle pin only for the hosts `--host` gives: without them they are named, never dropped.
    private func importBuild(_ settings: NativeConfiguration.Settings) throws {
        let bundleLibraries: [Library] = [.afnetworking, .alamofire]
        let libraries = library.map { [$0] } ?? (hosts.isEmpty
            ? LibraryRegistry.all.map(\.library).filter { !bundleLibraries.contains($0) } : nil)
        let build: BuildConfiguration
        do {
            build = try BuildConfiguration.read(file, libraries: libraries, settings: settings)
        } catch {
            Terminal.error(error.description)
            try ExitStatus.inputError.exit()
        }
        if hosts.isEmpty, !build.bundledCertificates.isEmpty, library.map(bundleLibraries.contains) ?? true {
            let shown = build.bundledCertificates.prefix(3).joined(separator: ", ")
                + (build.bundledCertificates.count > 3 ? " and \(build.bundledCertificates.count - 3) more" : "")
            Terminal.error("\(shown): certificates in the app's bundle, which AFNetworking's certificatesInBundle: and "
                + "Alamofire's Bundle.af.certificates load; nothing in the build says which hosts they guard: give "
                + "them with --host, or give --library trustkit or ats to import only that one")
            try ExitStatus.inputError.exit()
        }
        guard !build.apps.isEmpty else {
            Terminal.error("\(build.metadataLabel): configures " + (library.map { "no \($0.displayName) pinning" }
                ?? "no pinning library pinctl reads (an Info.plist's TSKConfiguration or NSPinnedDomains, certificates "
                    + "in an app bundle, an Android manifest's networkSecurityConfig, OkHttp's CertificatePinner in a "
                    + "DEX)"))
            try ExitStatus.inputError.exit()
        }
        var entries = ""
        for app in build.apps {
            if verbose { app.reading.notes.forEach { Terminal.printError("note: " + Terminal.safe($0)) } }
            let named = build.apps.count > 1 ? "\(appName)-\(app.library.rawValue)" : appName
            do {
                entries += try app.reading.appEntry(
                    name: named, library: app.library, hosts: hosts, path: file, isBuild: true,
                    versions: build.version.map { [$0] } ?? [],
                    platforms: build.platforms, minSdk: build.minSdk, targetSdk: build.targetSdk)
            } catch {
                Terminal.error("\(error)")
                try ExitStatus.inputError.exit()
            }
        }
        print(entries, terminator: "")
        for app in build.apps { app.reading.warnings.forEach { Terminal.warning($0) } }
        // What an iOS build's code pins is not read yet: said on every import of one, so the entries above are never
        // taken for all the app pins. (An APK's OkHttp pins are read from its DEX.)
        guard !file.lowercased().hasSuffix(".apk") else { return }
        Terminal.warning("\(file): pins set in code (Alamofire's evaluators or TrustKit configured in code) are not "
            + "read from a build yet: if the app pins there too, import that source as well (config import FILE "
            + "--library alamofire|trustkit)")
    }
}

struct ConfigExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an app of pinctl.yaml in a library's native form.",
        discussion: """
            Forms: trustkit plist (an Info.plist fragment, the default) or json; nsc xml; okhttp kotlin (the default), \
            java or text; ats info-plist (an ats app read from its Info.plist is written back whole, its other keys \
            kept); afnetworking and alamofire bundle (a directory of .cer files, --out required). What the \
            target cannot express is refused, unless --lossy: then the output says what was dropped. Nothing is \
            overwritten without --force. A bundle owns its directory's NN-*.cer, pins.pin and DROPPED.txt: writing \
            it again removes those it does not write (the app would load every .cer left there as a pin) and leaves \
            other files alone.

            Examples:
              pinctl config export --config pinctl.yaml --app ios-trustkit --to nsc --out res/xml/nsc.xml
              pinctl config export --config pinctl.yaml --app ios-trustkit --to okhttp
              pinctl config export --config pinctl.yaml --app android --to trustkit --format json
              pinctl config export --config pinctl.yaml --app ios-afn --to alamofire --out Resources/Pins
            """
    )

    @Option(help: ArgumentHelp("The policy file.", valueName: "file"))
    var config: String

    @Option(help: ArgumentHelp("The app to export.", valueName: "name"))
    var app: String

    @Option(help: "The library whose native form to write.")
    var to: Library

    @Option(help: ArgumentHelp(
        "The form: plist, json, xml, kotlin, java, text, bundle or info-plist (default: the library's usual one).",
        valueName: "form"))
    var format: String?

    @Option(help: ArgumentHelp("Where to write (a file, or a directory for a bundle); default: standard output.",
                               valueName: "path"))
    var out: String?

    @Flag(help: "Overwrite what exists at --out.")
    var force = false

    @Flag(help: "Write what the target can express and say in the output what was dropped.")
    var lossy = false

    func validate() throws {
        let forms = NativeExport.Format.forms(of: to)
        if let format, !forms.map(\.rawValue).contains(format) {
            throw ValidationError("--format \(format): \(to.rawValue) is written as \(forms.map(\.rawValue).joined(separator: " or "))")
        }
    }

    func run() throws {
        // Form names are the library's own (two libraries may both write a plist): looked up among `to`'s forms only.
        let forms = NativeExport.Format.forms(of: to)
        let form = format.flatMap { name in forms.first { $0.rawValue == name } } ?? forms[0]
        do throws(InputError) {
            let file: PolicyFile
            do {
                file = try PolicyFile.load(config)
            } catch {
                throw InputError(error.description)
            }
            guard let entry = file.apps.first(where: { $0.name == app }) else {
                throw InputError("\(config) has no app named \(app) (it has \(file.apps.map(\.name).joined(separator: ", ")))")
            }
            var losses = ExportLosses()
            let output: NativeExport.Output
            do {
                output = try NativeExport.write(entry.policy, as: form, losses: &losses)
            } catch {
                throw InputError("\(app) cannot be written for \(to.rawValue): \(error.description)")
            }
            if !losses.isEmpty {
                guard lossy else {
                    throw InputError("\(to.rawValue) cannot express what \(app) holds: "
                        + losses.items.joined(separator: "; ") + " (give --lossy to write the rest)")
                }
                losses.items.forEach { Terminal.warning("dropped: \($0)") }
            }
            switch output {
            case .file(let bytes):
                if let out {
                    try OutputFile(path: out).write(bytes, force: force)
                } else {
                    Terminal.writeDocument(bytes)
                }
            case .directory(var files):
                guard let out else { throw InputError("a \(form.rawValue) is a directory: give --out DIR") }
                if !losses.isEmpty {
                    files.append(("DROPPED.txt", Array(("Written by pinctl config export; not expressible as a "
                        + "bundle, dropped:\n" + losses.items.map { "- \($0)\n" }.joined()).utf8)))
                }
                // Every `.cer` in a bundle is a pin the app loads: a certificate of an earlier export left beside the
                // new set would stay trusted, so the export owns the set as extract does.
                try OutputDirectory(path: out, owns: { ExtractCommand.owns($0) || $0 == "DROPPED.txt" })
                    .write(files, force: force)
            }
        } catch {
            Terminal.error(error.description)
            try ExitStatus.inputError.exit()
        }
    }
}
