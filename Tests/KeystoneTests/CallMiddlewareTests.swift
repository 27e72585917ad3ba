// CallMiddlewareTests.swift — middleware sees every call: it refuses, times and wraps, in order.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// Refuses every call to one namespace with a coded error, before anything runs.
struct RefuseNamespace: CallMiddleware {
    let namespace: String

    func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
        guard call.name.namespace != namespace else {
            throw BridgeError(code: 1403, message: "\(namespace) is closed")
        }
        return try next()
    }
}

/// Measures how long each call runs on an injected clock: the prompt for a synchronous call, the
/// task for an asynchronous one.
struct MeasureDurations: CallMiddleware {
    let clock: ManualClock
    let durations = Locked<[String: Duration]>([:])

    func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
        guard !call.isAsynchronous else { return try next() }
        let start = clock.now
        defer { record(call, since: start) }
        return try next()
    }

    func interceptTask<Answer: Sendable>(_ call: InboundCall, next: @Sendable () async throws -> Answer) async throws -> Answer {
        let start = clock.now
        defer { record(call, since: start) }
        return try await next()
    }

    private func record(_ call: InboundCall, since start: ManualClock.Instant) {
        durations.withLock { $0[call.name.description] = start.duration(to: clock.now) }
    }
}

/// Records what it sees and the order middleware runs in.
struct Trace: CallMiddleware {
    let label: String
    let log: Locked<[String]>

    func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
        log.withLock { $0.append("\(label) in \(call.name) \(call.frame.origin ?? "-") \(call.data.map { String(decoding: $0, as: UTF8.self) } ?? "-")") }
        defer { log.withLock { $0.append("\(label) out") } }
        return try next()
    }
}

/// Methods that take a known time on the manual clock.
struct Timed: BridgeInterface {
    let clock: ManualClock

    func exposeMethods(to methods: inout MethodList) {
        let clock = clock
        methods.sync("quick") { () -> Int in
            clock.advance(by: .milliseconds(3))
            return 1
        }
        methods.async("slow") { () async -> Int in
            clock.advance(by: .milliseconds(40))
            return 2
        }
    }
}

@Suite("Middleware", .timeLimit(.minutes(1)))
struct CallMiddlewareTests {
    @Test func aMiddlewareRefusesOneNamespaceWithACodedErrorBeforeAnythingRuns() async throws {
        let ran = Locked(false)
        struct Admin: BridgeInterface {
            let ran: Locked<Bool>
            func exposeMethods(to methods: inout MethodList) {
                let ran = ran
                methods.sync("wipe") { () -> Bool in
                    ran.withLock { $0 = true }; return true
                }
                methods.async("later") { () async -> Bool in
                    ran.withLock { $0 = true }; return true
                }
            }
        }
        let (keystone, page) = makeBridge(KeystoneComponents(middleware: [RefuseNamespace(namespace: "admin")]))
        try keystone.register(Admin(ran: ran), namespace: "admin")
        try keystone.register(Calculator(), namespace: "math")
        page.initialize()
        let refused = #expect(throws: BridgeError.self) { try page.call("admin.wipe", as: Bool.self) }
        #expect(refused == BridgeError(code: 1403, message: "admin is closed"))
        let refusedAsync = await #expect(throws: BridgeError.self) { try await page.callAsync("admin.later", as: Bool.self) }
        #expect(refusedAsync?.code == 1403)
        #expect(!ran.withLock { $0 })
        #expect(page.liveCallbacks.isEmpty)  // the refused call's callback was released
        #expect(try page.call("math.add", [1, 2], as: Double.self) == 3)
    }

    @Test func aMiddlewareMeasuresHowLongEachCallRuns() async throws {
        let clock = ManualClock()
        let measure = MeasureDurations(clock: clock)
        let (keystone, page) = makeBridge(KeystoneComponents(middleware: [measure]))
        try keystone.register(Timed(clock: clock), namespace: "timed")
        page.initialize()
        #expect(try page.call("timed.quick", as: Int.self) == 1)
        #expect(try await page.callAsync("timed.slow", as: Int.self) == 2)
        #expect(measure.durations.withLock { $0 } == ["timed.quick": .milliseconds(3), "timed.slow": .milliseconds(40)])
    }

    @Test func middlewareComposesInOrderAndSeesTheFullNameTheCallerAndTheRawData() throws {
        let log = Locked<[String]>([])
        let keystone = Keystone(components: KeystoneComponents(middleware: [Trace(label: "outer", log: log), Trace(label: "inner", log: log)]))
        let page = InMemoryPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: "https://shop.example"))
        try keystone.register(Calculator(), namespace: "a.b")
        #expect(try page.call("a.b.add", [1, 2], as: Double.self) == 3)
        _ = try? page.call("a.b.missing", as: Int.self)
        #expect(
            log.withLock { $0 } == [
                "outer in a.b.add https://shop.example [1,2]", "inner in a.b.add https://shop.example [1,2]", "inner out", "outer out",
                "outer in a.b.missing https://shop.example null", "inner in a.b.missing https://shop.example null", "inner out", "outer out",
            ])
    }

    @Test func theProtocolsOwnCallsDoNotPassThroughMiddleware() {
        let log = Locked<[String]>([])
        let (_, page) = makeBridge(KeystoneComponents(middleware: [RefuseNamespace(namespace: "_dsb"), Trace(label: "t", log: log)]))
        page.initialize()
        #expect(page.prompt("_dsb.hasNativeMethod", argumentText: #"{"data":{"name":"x"}}"#) == #"{"code":0,"data":false}"#)
        #expect(log.withLock { $0 }.isEmpty)
    }
}
