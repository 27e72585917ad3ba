// TestInterfaces.swift — interfaces of every shape (struct, class, enum, actor) used by the suites.
import Foundation
import Keystone
import KeystoneTesting

/// A Keystone on a manual clock with no batching window, so every message is delivered at once,
/// and a page attached and initialized.
func makeBridge(_ components: KeystoneComponents? = nil) -> (Keystone, InMemoryPage) {
    var components = components ?? KeystoneComponents()
    if components.evaluator is BatchingEvaluator<ContinuousClock> {
        components.evaluator = BatchingEvaluator(clock: ManualClock(), window: .zero)
    }
    let keystone = Keystone(components: components)
    let page = InMemoryPage(hub: keystone)
    return (keystone, page)
}

struct Pair: Codable, Sendable, Equatable {
    var a: Double
    var b: Double
}

/// A struct interface with every sync and async form.
struct Calculator: BridgeInterface {
    func add(_ numbers: [Double]) -> Double { numbers.reduce(0, +) }
    func slowAdd(_ pair: Pair) async throws -> Double {
        await Task.yield()
        return pair.a + pair.b
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("add", add)
        methods.async("slowAdd", slowAdd)
        methods.sync("pi") { 3.14 }
        methods.sync("ignore") { (_: JSONValue) in }
        methods.sync("nothing") {}
        methods.async("later") { () async in "later" }
        methods.async("store") { (_: String) async in }
        methods.async("done") { () async in }
        methods.sync("raw") { (value: JSONValue) in JSONValue.array([value, "seen"]) }
        methods.sync("optional") { (value: Int?) in value.map { $0 * 2 } }
    }
}

/// A class interface with a multi-response method.
final class Counter: BridgeInterface {
    func countdown(_ from: Int, writer: ResponseWriter<Int>) async throws {
        for n in stride(from: from, through: 0, by: -1) {
            try await writer.write(n)
        }
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.multiResponse("countdown", countdown)
        methods.multiResponse("nothing") { (_: ResponseWriter<Int>) in }
        methods.multiResponse("failAfter") { (count: Int, writer: ResponseWriter<String>) in
            for n in 0..<count { try await writer.write("item \(n)") }
            throw BridgeError(code: .init(rawValue: 1002), message: "ran dry")
        }
    }
}

/// An enum interface whose methods throw.
enum Failures: BridgeInterface {
    case instance

    struct Unlucky: Error, CustomStringConvertible {
        var description: String { "unlucky" }
    }

    struct AppError: Error, BridgeErrorConvertible {
        var bridgeError: BridgeError { BridgeError(code: .init(rawValue: 1001), message: "not signed in") }
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("fail") { (message: String) -> Int in throw BridgeError(code: .init(rawValue: 1000), message: message) }
        methods.sync("unlucky") { () throws -> Int in throw Unlucky() }
        methods.sync("signIn") { () throws -> Int in throw AppError() }
        methods.async("failLater") { (message: String) async throws -> Int in
            await Task.yield()
            throw BridgeError(code: .init(rawValue: 1000), message: message)
        }
        methods.sync("needsInt") { (value: Int) in value }
    }
}

/// An actor interface: its methods are exposed asynchronously from a nonisolated list.
actor Notebook: BridgeInterface {
    private var notes: [String] = []

    func add(_ note: String) -> Int {
        notes.append(note)
        return notes.count
    }

    nonisolated func exposeMethods(to methods: inout MethodList) {
        methods.async("add") { (note: String) in await self.add(note) }
    }
}

/// An interface made of one closure, for namespace tests.
struct Named: BridgeInterface {
    var name: String

    func exposeMethods(to methods: inout MethodList) {
        let name = name
        methods.sync("who") { name }
    }
}
