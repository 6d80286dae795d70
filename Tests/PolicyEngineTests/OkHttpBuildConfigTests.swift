import PolicyEngine
import Testing
import TestSupport

/// `BuildConfig.NAME` in an `add(…)`, read from `buildConfigField("String", "NAME", "\"…\"")` in the build file of
/// the module holding the source (#19: public apps keep pins there, per build type or flavour).
@Suite("OkHttp pins read from the module's BuildConfig fields")
struct OkHttpBuildConfigTests {
    static let source = """
        package com.example.net
        val pinner = CertificatePinner.Builder()
            .add("a.example.com", BuildConfig.PIN)
            .build()
        """

    /// Writes `build` as app/`buildFile` and the source as app/src/main/java/com/example/net/P.kt, then reads it.
    func read(_ buildFile: String, _ build: String, variant: String? = nil)
        throws -> (policy: OkHttpPolicy, notes: [String], buildPath: String)
    {
        try readWithBuildScript(buildFile, build, variant: variant)
    }

    func refusal(_ buildFile: String, _ build: String, variant: String? = nil) throws -> String {
        do {
            let read = try read(buildFile, build, variant: variant)
            Issue.record("read as \(read.policy.entryTexts)")
            return ""
        } catch let error as ConfigurationError {
            #expect(error.line == 3 && error.column == 27, "\(error)")
            return error.message
        }
    }

    @Test func aDefaultConfigFieldInKotlinScriptIsRead() throws {
        let (policy, notes, buildPath) = try read("build.gradle.kts", """
            android {
                defaultConfig {
                    applicationId = "com.example"
                    buildConfigField("String", "PIN", "\\"\(okA)\\"")
                }
            }
            """)
        #expect(policy.entryTexts == [.init("a.example.com", okA)])
        #expect(notes.contains { $0.hasSuffix("the pin \(okA) is read from BuildConfig.PIN (\(buildPath):4)") },
                "\(notes)")
    }

    @Test func groovysCallWithoutParenthesesAndSingleQuotesIsRead() throws {
        let (policy, _, _) = try read("build.gradle", """
            android {
                defaultConfig {
                    buildConfigField 'String', 'PIN', '"\(okB)"'
                }
            }
            """)
        #expect(policy.entryTexts == [.init("a.example.com", okB)])
    }

    static let perBuildType = """
        android {
            defaultConfig { buildConfigField("String", "PIN", "\\"\(okA)\\"") }
            buildTypes {
                getByName("release") { buildConfigField("String", "PIN", "\\"\(okB)\\"") }
                debug { }
            }
            productFlavors {
                create("staging") { buildConfigField("String", "PIN", "\\"\(okA)\\"") }
            }
        }
        """

    @Test func valuesThatDifferBetweenBuildsNeedAVariant() throws {
        let message = try refusal("build.gradle.kts", Self.perBuildType)
        #expect(message.contains("BuildConfig field: "), "\(message)")
        #expect(message.contains("\"PIN\" differs between defaultConfig, release, staging: give --variant"), "\(message)")
        #expect(try read("build.gradle.kts", Self.perBuildType, variant: "release").policy.entryTexts
                == [.init("a.example.com", okB)])
        // A build type that sets nothing holds defaultConfig's value.
        #expect(try read("build.gradle.kts", Self.perBuildType, variant: "debug").policy.entryTexts
                == [.init("a.example.com", okA)])
    }

    @Test(arguments: [
        ("no field of the name", "android { defaultConfig { buildConfigField(\"String\", \"OTHER\", \"\\\"x\\\"\") } }",
         "declares no buildConfigField \"PIN\""),
        ("set for every build type at once", "android { buildTypes.all { buildConfigField(\"String\", \"PIN\", "
            + "\"\\\"\(okA)\\\"\") } }", "is set outside defaultConfig, buildTypes and productFlavors"),
        ("a value computed in one build type", "android {\n  defaultConfig { buildConfigField(\"String\", \"PIN\", "
            + "\"\\\"\(okA)\\\"\") }\n  buildTypes { release { buildConfigField(\"String\", \"PIN\", \"\\\"${pin}\\\"\") } }\n}",
         "is not a String field holding one Java string literal"),
        ("a computed name", "android { defaultConfig { buildConfigField(\"String\", \"${name}\", \"\\\"x\\\"\") } }",
         "a buildConfigField whose name is computed may be \"PIN\""),
    ])
    func whatTheBuildFileDoesNotFixIsRefused(_ name: String, _ build: String, _ saying: String) throws {
        let message = try refusal("build.gradle.kts", build, variant: "release")
        #expect(message.contains(saying), "\(name): \(message)")
    }

    @Test func withoutABuildFileTheFieldIsUnresolved() throws {
        do {
            _ = try readOkHttpSource("P.kt", Self.source)
            Issue.record("read without a build file")
        } catch let error as ConfigurationError {
            #expect(error.message.contains("BuildConfig field: no build.gradle or build.gradle.kts in the directories "
                + "above this file declares it"), "\(error)")
        }
    }
}
