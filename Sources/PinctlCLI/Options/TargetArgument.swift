import ArgumentParser
import PolicyEngine

extension Target {
    /// For ArgumentParser: a bad target is a usage error (exit 2) that says what is wrong with it.
    init(argument text: String) throws(ValidationError) {
        do {
            try self.init(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
