// OrderedCallTests.swift — calls made without `await` take their place at once and keep it.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Calls made without waiting", .timeLimit(.minutes(1)))
struct OrderedCallTests {
    @Test func callsStartedInOrderReachThePageInThatOrder() async throws {
        let (keystone, page) = makeBridge()
        let seen = Locked<[String]>([])
        page.register("log") { arguments in
            seen.withLock { $0.append(arguments.first?.stringValue ?? "?") }
            return .bool(true)
        }
        // Made before the page is ready, from synchronous code, mixing every kind of outbound message.
        let calls = (0..<50).map { keystone.start("log", "call \($0)", as: Bool.self) }
        try keystone.post("log", arguments: ["posted"])
        let last = keystone.start("log", "last", as: Bool.self)
        page.initialize()
        for call in calls { #expect(try await call.value) }
        #expect(try await last.value)
        #expect(seen.withLock { $0 } == (0..<50).map { "call \($0)" } + ["posted", "last"])
    }

    @Test func callsStartedFromManyThreadsKeepEachThreadsOrder() async throws {
        let (keystone, page) = makeBridge()
        page.register("log") { _ in .bool(true) }
        page.initialize()
        let made = Locked<[Int: [Int]]>([:])  // each thread's call ids, in the order it made them
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var ids: [Int] = []
            for n in 0..<100 {
                _ = keystone.start("log", thread * 1000 + n, as: Bool.self)
                ids.append(thread * 1000 + n)
            }
            made.withLock { $0[thread] = ids }
        }
        let arrived = page.receivedMessages.compactMap { message -> Int? in
            guard case .call(_, _, let arguments) = message else { return nil }
            return Int(arguments.string.dropFirst().dropLast())
        }
        #expect(arrived.count == 800)
        for thread in 0..<8 {
            #expect(arrived.filter { $0 / 1000 == thread } == made.withLock { $0[thread] })
        }
        let ids = page.receivedMessages.compactMap { if case .call(_, let id, _) = $0 { id } else { nil } }
        #expect(ids == Array(1...800))
    }

    @Test func aStartedCallCanBeAwaitedTwiceAndCancelledOnce() async throws {
        let (keystone, page) = makeBridge()
        page.registerAsync("never") { _, _ in }
        page.register("one") { _ in .number(1) }
        page.initialize()
        let one = keystone.start("one", as: Int.self)
        #expect(try await one.value == 1)
        #expect(try await one.value == 1)
        let never = keystone.start("never", as: Int.self)
        #expect(keystone.pendingCallCount == 1)
        never.cancel()
        let error = await #expect(throws: BridgeError.self) { try await never.value }
        #expect(error?.code == .cancelled)
        #expect(keystone.pendingCallCount == 0)
    }

    @Test func anArgumentThatDoesNotEncodeSettlesTheCallWithoutSendingIt() async throws {
        let (keystone, page) = makeBridge()
        page.initialize()
        let call = keystone.start("m", Double.nan, as: Int.self)
        let error = await #expect(throws: BridgeError.self) { try await call.value }
        #expect(error?.code == .unencodableValue)
        #expect(throws: BridgeError.self) { try keystone.post("m", arguments: [Double.infinity]) }
        #expect(page.receivedMessages.isEmpty)
    }

    @Test func aProducerFinishesWithAValueInTheSameMessage() async throws {
        struct Finisher: BridgeInterface {
            func exposeMethods(to methods: inout MethodList) {
                methods.multiResponse("two") { (writer: ResponseWriter<Int>) in
                    try await writer.write(1)
                    try await writer.finish(with: 2)
                }
                methods.multiResponse("tooMany") { (writer: ResponseWriter<Int>) in
                    try await writer.finish(with: 1)
                    try await writer.write(2)  // throws: the call has finished
                }
            }
        }
        let (keystone, page) = makeBridge()
        try keystone.register(Finisher())
        page.initialize()
        var values: [Int] = []
        for try await value in page.stream("two", of: Int.self) { values.append(value) }
        #expect(values == [1, 2])
        let callback = try #require(
            page.receivedMessages.compactMap { message -> String? in
                if case .result(let callback, _, true) = message { callback } else { nil }
            }.first)
        // One message completes the call with its value: no separate completion follows.
        #expect(page.receivedMessages.filter { if case .completion = $0 { true } else { false } }.isEmpty)
        #expect(page.receivedMessages.last == .result(callback: callback, value: try JSONText(validating: Data("2".utf8)), complete: true))
        var more: [Int] = []
        for try await value in page.stream("tooMany", of: Int.self) { more.append(value) }
        #expect(more == [1])
        await untilNoCallRuns(keystone)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func codesAreWrittenAsNumbers() {
        let error = BridgeError(code: 1001, message: "not signed in")
        #expect(error.code == BridgeError.Code(rawValue: 1001))
    }
}
