import YAMLSyntax

/// YAML text for `config import`, written by `YAMLWriter` (libyaml's emitter with Yams' settings); its refusal becomes
/// an export error.
enum YAMLEmitter {
    typealias Node = YAMLWriter.Node

    /// `node` as one document without `---` or `...`, indented by `indent`, ending with a line break.
    static func text(of node: Node, indent: Int) throws(ExportError) -> String {
        do {
            return try YAMLWriter.text(of: node, indent: indent)
        } catch {
            throw ExportError("cannot write YAML: \(error.problem)")
        }
    }
}
