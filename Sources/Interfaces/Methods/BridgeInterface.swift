// BridgeInterface.swift — what makes a plain Swift type callable from the page.
/// A Swift type whose listed methods the page may call.
///
/// Any type can be an interface — a struct, a class, an enum or an actor. It lists what the page
/// may reach; a method that is not listed is not reachable.
///
/// ```swift
/// struct Math: BridgeInterface {
///     func add(_ pair: [Double]) -> Double { pair[0] + pair[1] }
///
///     func exposeMethods(to methods: inout MethodList) {
///         methods.sync("add", add)
///     }
/// }
/// ```
///
/// An actor lists its methods from a `nonisolated` `exposeMethods(to:)` and exposes them as
/// `async` methods, since the page's call has to wait for the actor.
public protocol BridgeInterface: Sendable {
    /// Lists the methods the page may call.
    func exposeMethods(to methods: inout MethodList)
}
