// KeystoneDemo.swift — runs every kind of call through a Keystone and prints a timed transcript.
import Foundation
import Keystone
import KeystoneTesting

/// The demo: registers the demo interfaces, opens a page, and prints each call with its result and
/// how long it took. The page is Keystone's in-memory page, which speaks the same protocol as
/// dsbridge.js 3.1.4 in a web view.
@main
struct KeystoneDemo {
    static func main() async {
        do {
            try await run()
        } catch {
            print("demo failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        let keystone = Keystone()
        try keystone.registerDemoInterfaces()
        let page = InMemoryPage(hub: keystone)
        page.register("page.greet") { args in .string("hello \(args.first.flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "?")") }
        page.register("page.double") { args in
            guard case .number(let n) = args.first else { return nil }
            return .number(n * 2)
        }
        page.initialize()

        print("Keystone demo: a page and Swift calling each other over DSBridge v3 (in-memory page)\n")
        let transcript = Transcript()

        try await transcript.line("sync", "math.add([2, 3])") {
            try page.call("math.add", [2, 3], as: Double.self)
        }
        try await transcript.line("async", "math.slowAdd([2, 3])") {
            try await page.callAsync("math.slowAdd", [2, 3], as: Double.self)
        }
        try await transcript.line("multi-response", "stream.countdown(3)") {
            var values: [Int] = []
            for try await n in page.stream("stream.countdown", 3, of: Int.self) { values.append(n) }
            return values
        }
        try await transcript.line("3-level namespace", "math.basic.ops.mul([6, 7])") {
            try page.call("math.basic.ops.mul", [6, 7], as: Double.self)
        }
        try await transcript.line("Swift → JS", #"keystone.call("page.greet", "Swift")"#) {
            try await keystone.call("page.greet", "Swift", returning: String.self)
        }
        try await transcript.line("JS → Swift → JS", #"native.callJS({method: "page.double", args: [21]})"#) {
            let call = NativeInterface.Call(method: "page.double", args: [21])
            return try await page.callAsync("native.callJS", call, as: Double.self)
        }
        try await transcript.line("hasNativeMethod", #"("math.slowAdd", "asyn")"#) {
            try page.hasNativeMethod("math.slowAdd", type: "asyn")
        }
        try await transcript.line("error", #"errors.needsInt("seven")"#) {
            do {
                return try page.call("errors.needsInt", "seven", as: Int.self).description
            } catch let error as BridgeError {
                return "code \(error.code.rawValue) (\(error.code)): \(error.message)"
            }
        }
        print("\nAll \(transcript.count) calls answered.")
    }
}

/// Prints one aligned line per call: kind, call, result, time taken.
final class Transcript {
    private(set) var count = 0

    func line<Value>(_ kind: String, _ call: String, _ body: () async throws -> Value) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try await body()
        let elapsed = start.duration(to: clock.now)
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        count += 1
        let padded = { (text: String, width: Int) in text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
        print("\(padded(kind, 18)) \(padded(call, 52)) → \(padded(String(describing: value), 22)) \(String(format: "%7.2f ms", milliseconds))")
    }
}
