// Greeter.swift — the app's interface: greetings the page asks for, kept on the main actor.
import Keystone

/// What the app shows: every name greeted, in order. Main-actor state, as a view model is.
@MainActor public final class Guestbook {
    public private(set) var names: [String] = []

    public nonisolated init() {}

    func sign(_ name: String) -> Int {
        names.append(name)
        return names.count
    }
}

/// Namespace `greeter`: `hello(name)` answers at once; `sign(name)` records the name in the
/// guestbook, on the main actor, and answers how many have signed.
public struct Greeter: BridgeInterface {
    let guestbook: Guestbook

    public init(guestbook: Guestbook) {
        self.guestbook = guestbook
    }

    public func exposeMethods(to methods: inout MethodList) {
        methods.sync("hello") { (name: String) throws -> String in
            guard !name.isEmpty else { throw BridgeError(code: .invalidArgument, message: "hello needs a name") }
            return "Hello, \(name)!"
        }
        methods.async("sign") { [guestbook] (name: String) async -> Int in
            await guestbook.sign(name)
        }
    }
}
