// MethodList+Registration.swift — what makes a method list registrable under a namespace.
extension MethodList {
    /// Checks that this list can be registered under `namespace`: the namespace is `""` or
    /// dot-separated parts without surrounding white space, it is not the reserved `_dsb`, every
    /// listed name is callable, every name made durable is an asynchronous method's, and none is
    /// listed twice.
    /// - Throws: `BridgeError` with code `invalidRegistration` naming what is wrong.
    public func checkRegistration(namespace: String) throws(BridgeError) {
        guard MethodName.isValidNamespace(namespace), namespace != MethodName.builtInNamespace else {
            throw BridgeError(code: .invalidRegistration, message: "\"\(namespace)\" cannot be a namespace")
        }
        guard invalidNames.isEmpty else {
            let names = invalidNames.map { "\"\($0)\"" }.joined(separator: ", ")
            throw BridgeError(code: .invalidRegistration, message: "method names cannot be empty, hold a dot or white space around them: \(names)")
        }
        guard nonDurableNames.isEmpty else {
            let names = nonDurableNames.map { "\"\($0)\"" }.joined(separator: ", ")
            throw BridgeError(code: .invalidRegistration, message: "only an asynchronous method listed before it can be made durable: \(names)")
        }
        guard duplicateNames.isEmpty else {
            let names = duplicateNames.map { "\"\($0)\"" }.joined(separator: ", ")
            throw BridgeError(code: .invalidRegistration, message: "an interface lists a method name twice: \(names)")
        }
    }
}
