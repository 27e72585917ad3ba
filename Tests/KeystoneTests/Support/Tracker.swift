// Tracker.swift — an interface whose methods' work a test can watch.
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting

/// Methods whose work the test can watch: each records what it was given and when it ran.
final class Tracker: BridgeInterface, Sendable {
    let seen = Locked<[String]>([])
    let (ran, ranContinuation) = AsyncStream<String>.makeStream()
    /// A clock no test advances: `never` waits on it until its call is cancelled.
    let stoppedClock = ManualClock()

    func exposeMethods(to methods: inout MethodList) {
        methods.async("track") { (event: String) async -> String in
            self.record(event)
            return "tracked \(event)"
        }
        methods.async("fail") { (event: String) async throws -> String in
            self.record(event)
            throw BridgeError(code: 1001, message: "no tracking today")
        }
        methods.multiResponse("feed") { (count: Int, writer: ResponseWriter<Int>) in
            for index in 0..<count { try await writer.write(index) }
            self.record("feed \(count)")
        }
        methods.async("never") { (_: JSONValue?) async throws -> Int in
            try await self.stoppedClock.sleep(for: .seconds(1))  // ends only when the call is cancelled
            return 0
        }
        methods.sync("reset") { () in self.record("reset") }
        methods.async("save") { (value: Int) async in self.record("save \(value)") }
    }

    private func record(_ event: String) {
        seen.withLock { $0.append(event) }
        ranContinuation.yield(event)
    }
}
