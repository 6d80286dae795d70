/// A certificate of a chain OpenSSL accepted that one of pinctl's own checks refuses (its form, its name
/// constraints, a wildcard in an excluded subtree): where it is, and why.
struct ChainViolation {
    /// The certificate at fault, and its depth in the chain (0: the leaf).
    let certificate: OpaquePointer
    let depth: Int
    let message: String
}
