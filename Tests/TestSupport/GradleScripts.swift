/// Build scripts that set `buildConfigField("String", "PIN", …)` to `real` where Gradle's compiler reads it, and show
/// `hidden` where it does not: inside a nested Kotlin comment, a template's quoted string, a Groovy dollar-slashy
/// string, a GString's template after a Groovy comment that does not nest (#32: pinctl's own tokenizer of build files
/// read `hidden` from each, and judged an app by a pin it never has).
public enum GradleScripts {
    public struct Script: Sendable, CustomStringConvertible {
        /// `build.gradle.kts` or `build.gradle`.
        public let file: String
        public let text: String
        /// The line of the real field.
        public let line: Int
        public let description: String
    }

    /// The four scripts, each with `hidden` where the compiler never sees it and `real` where it does.
    public static func hiding(_ hidden: String, behind real: String) -> [Script] {
        [
            Script(file: "build.gradle.kts", text: """
                android {
                    defaultConfig {
                        /* retired: /* see below */ buildConfigField("String", "PIN", "\\"\(hidden)\\"") \"\"\" */
                        buildConfigField("String", "PIN", "\\"\(real)\\"")
                        /* \"\"\" */
                    }
                }
                """, line: 4, description: "a Kotlin comment nested in a comment"),
            Script(file: "build.gradle.kts", text: """
                android {
                    defaultConfig {
                        val note = "${ \"\"\" buildConfigField("String", "PIN", "\\"\(hidden)\\"") \"\"\" }${ "\\"" }"
                        buildConfigField("String", "PIN", "\\"\(real)\\"")
                    }
                }
                """, line: 4, description: "quoted strings in a Kotlin template"),
            Script(file: "build.gradle", text: """
                android {
                    defaultConfig {
                        def note = $/ buildConfigField 'String', 'PIN', '"\(hidden)"' ''' /$
                        buildConfigField 'String', 'PIN', '"\(real)"'
                        def end = $/ ''' $$ $/ /$
                    }
                }
                """, line: 4, description: "a Groovy dollar-slashy string"),
            // Groovy's comment ends at its first `*/` (a Kotlin reading would hide the real field in it).
            Script(file: "build.gradle", text: """
                android {
                    defaultConfig {
                        /* retired: /* buildConfigField 'String', 'PIN', '"\(hidden)"' */
                        buildConfigField 'String', 'PIN', '"\(real)"'
                        def note = "${" buildConfigField 'String', 'PIN', '\\"\(hidden)\\"' "}"
                    }
                }
                """, line: 4, description: "a Groovy comment that does not nest, a GString template"),
        ]
    }
}
