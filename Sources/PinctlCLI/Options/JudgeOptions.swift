import Checking
import PolicyEngine

extension Judge {
    /// From the command line: `--config FILE` (its anchors unless `--ca-file`/`--ca-path` are given) or the flags.
    init(_ options: PolicyOptions) throws(InputError) {
        guard let path = options.config else {
            self = .flags(try options.setup())
            return
        }
        let file: PolicyFile
        do {
            file = try PolicyFile.load(path)
        } catch {
            throw InputError(error.description)
        }
        let context = try options.context(anchorsFromFile: (file.caFiles, file.caPaths))
        self = .file(file, PolicyEvaluator(context: context))
    }
}
