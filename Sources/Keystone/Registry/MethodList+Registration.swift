// MethodList+Registration.swift — what makes a method list registrable under a namespace.
extension MethodList {
    /// Checks that this list can be registered under `namespace`: the namespace is `""` or
    /// dot-separated parts without surrounding white space, it is not the reserved `_dsb`, and the
    /// list has no mistake noted while it was filled (a name that can never be called or is listed
    /// twice, a mark its method cannot take).
    /// - Throws: `BridgeError` with code `invalidRegistration` naming what is wrong.
    public func checkRegistration(namespace: String) throws(BridgeError) {
        guard MethodName.isValidNamespace(namespace), namespace != MethodName.builtInNamespace else {
            throw BridgeError(code: .invalidRegistration, message: "\"\(namespace)\" cannot be a namespace")
        }
        if let error = listingError { throw error }
    }
}
