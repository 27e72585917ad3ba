// KeystoneRuntimeTests.swift — keystone's page runtime.
import Foundation
import Keystone
import KeystoneTesting
import Testing

/// A multi-response method that reports when it starts and when its task is cancelled.
struct Endless: BridgeInterface {
    let events: AsyncStream<String>.Continuation

    func exposeMethods(to methods: inout MethodList) {
        let events = events
        methods.multiResponse("forever") { (writer: ResponseWriter<Int>) in
            try await writer.write(0)
            events.yield("started")
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}  // ends when the task is cancelled
            events.yield(Task.isCancelled ? "cancelled" : "ended")
        }
        methods.async("wait") { () async -> Int in
            events.yield("started")
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            events.yield(Task.isCancelled ? "cancelled" : "ended")
            return 0
        }
    }
}

@Suite("Keystone's page runtime", .timeLimit(.minutes(1)))
struct KeystoneRuntimeTests {
    let keystone: Keystone
    let page: InMemoryPage
    let events: AsyncStream<String>

    init() throws {
        let (events, continuation) = AsyncStream<String>.makeStream()
        self.events = events
        keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        page = InMemoryPage(hub: keystone, runtime: .keystone)
        try keystone.register(Calculator(), namespace: "math")
        try keystone.register(Endless(events: continuation), namespace: "endless")
        page.initialize()
    }

    @Test func anAnnouncedRuntimeGetsBatchesWrittenForIt() async throws {
        #expect(try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self) == 3)
        let batch = try #require(page.receivedBatches.last)
        #expect(batch.runtime == .keystone)
        #expect(batch.script.hasPrefix("try{window._keystone.deliver(["))
    }

    @Test func aPlainDsinitMeansAPlainPage() async throws {
        let (keystone, plain) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        plain.initialize()
        _ = try await plain.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self)
        #expect(plain.receivedBatches.last?.runtime == .dsbridge)
    }

    @Test func asyncCallsCanArriveAsScriptMessages() throws {
        let answer = keystone.handleMessage("math.slowAdd", arguments: #"{"data":{"a":1,"b":2},"_dscbstub":"dscb0"}"#)
        #expect(answer == #"{"code":0,"data":""}"#)
        #expect(keystone.handleMessage("math.add", arguments: #"{"data":[1,2]}"#) == #"{"code":0,"data":3}"#)
    }

    @Test func eventsReachListenersAndWaitForThePageLikeAnyMessage() async throws {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        let (heard, hear) = AsyncStream<JSONValue>.makeStream()
        page.on("login") { hear.yield($0) }
        try keystone.emit("login", ["user": "ada"])  // before the page is ready: it waits
        #expect(page.receivedMessages.isEmpty)
        page.initialize()
        var iterator = heard.makeAsyncIterator()
        #expect(await iterator.next() == ["user": "ada"])
    }

    @Test func leavingAStreamEarlyCancelsTheNativeProducer() async throws {
        var iterator = events.makeAsyncIterator()
        for try await first in page.stream("endless.forever", of: Int.self) {
            #expect(first == 0)
            break
        }
        #expect(await iterator.next() == "started")
        #expect(await iterator.next() == "cancelled")
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func cancellingAnAwaitingTaskCancelsTheNativeCall() async throws {
        var iterator = events.makeAsyncIterator()
        let task = Task { try await page.callAsync("endless.wait", as: Int.self) }
        #expect(await iterator.next() == "started")
        task.cancel()
        #expect(await iterator.next() == "cancelled")
        #expect(await task.result.isFailure)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func cancelIsAnsweredWithWhetherACallWasRunning() {
        #expect(page.prompt("_dsb.cancel", argumentText: #"{"data":{"callback":"nothing"}}"#) == #"{"code":0,"data":false}"#)
    }

    @Test func aMissingPageHandlerAnswersWithAnErrorInsteadOfSilence() async throws {
        let error = await #expect(throws: BridgeError.self) { try await keystone.call("missing", as: Int.self) }
        #expect(error?.code == .notFound)
    }

    @Test func aThrowingPageHandlerAnswersWithItsError() async throws {
        page.register("fails") { _ in throw BridgeError(code: .init(rawValue: 1300), message: "page failure") }
        let error = await #expect(throws: BridgeError.self) { try await keystone.call("fails", as: Int.self) }
        #expect(error == BridgeError(code: .init(rawValue: 1300), message: "page failure"))
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
