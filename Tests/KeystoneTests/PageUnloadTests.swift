// PageUnloadTests.swift — a page that goes away cancels its running calls and hears nothing late.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// A multi-response method that writes once, then waits until its task is cancelled and reports it.
struct Waiter: BridgeInterface {
    let started: AsyncStream<Void>.Continuation
    let sawCancellation: AsyncStream<Bool>.Continuation

    func exposeMethods(to methods: inout MethodList) {
        let started = started
        let sawCancellation = sawCancellation
        methods.multiResponse("wait") { (writer: ResponseWriter<Int>) in
            try await writer.write(1)
            started.yield()
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}  // ends when the task is cancelled
            sawCancellation.yield(Task.isCancelled)
            try await writer.write(2)  // throws: the call was cancelled
        }
    }
}

/// The default evaluator (no window), reporting every message sent to it and every discard.
final class ReportingEvaluator: JavaScriptEvaluator {
    let inner = BatchingEvaluator(clock: ManualClock(), window: .zero)
    let sent = Locked<[String]>([])

    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageEpoch) {
        sent.withLock { $0.append(contentsOf: messages.map { "\($0)" }) }
        inner.send(messages, runtime: runtime, pageLoad: pageLoad)
    }
    func discardQueued() {
        sent.withLock { $0.append("discard") }
        inner.discardQueued()
    }
}

@Suite("Page unload", .timeLimit(.minutes(1)))
struct PageUnloadTests {
    @Test func unloadingCancelsARunningProducerAndDropsWhatItSendsLate() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (cancelled, cancelledContinuation) = AsyncStream<Bool>.makeStream()
        let evaluator = ReportingEvaluator()
        let (dropped, droppedContinuation) = AsyncStream<String>.makeStream()
        let logging = KeystoneLogging.debug { record in
            if record.message.hasPrefix("dropped a message") { droppedContinuation.yield(record.message) }
        }
        let (keystone, page) = makeBridge(KeystoneComponents(evaluator: evaluator, logging: logging))
        try keystone.register(Waiter(started: startedContinuation, sawCancellation: cancelledContinuation))
        try keystone.register(Echo(), namespace: "echo")
        page.initialize()

        _ = page.prompt("wait", argumentText: #"{"data":null,"_dscbstub":"dscb0"}"#)
        var startedIterator = started.makeAsyncIterator()
        _ = await startedIterator.next()
        #expect(page.receivedMessages.count == 1)

        keystone.pageDidUnload()
        var cancelledIterator = cancelled.makeAsyncIterator()
        #expect(await cancelledIterator.next() == true)

        // The next page reuses the name dscb0. The old call's failure is dropped by the hub…
        let nextPage = InMemoryPage(hub: keystone)
        nextPage.initialize()
        var droppedIterator = dropped.makeAsyncIterator()
        #expect(await droppedIterator.next()?.contains("dscb0") == true)
        #expect(evaluator.sent.withLock { $0 }.filter { $0.contains("failure") }.isEmpty)
        #expect(evaluator.sent.withLock { $0 }.contains("discard"))
        // …and reaches neither page; the next page's own call still works.
        #expect(nextPage.receivedMessages.isEmpty)
        #expect(page.receivedMessages.count == 1)
        #expect(try await nextPage.callAsync("echo.echoAsync", JSONValue.string("fresh"), as: String.self) == "fresh")
        #expect(nextPage.receivedMessages.count == 1)
    }
}

/// The default evaluator (no window), which runs `inTheGap` when the hub tells it to discard what
/// it queued: the moment the hub has moved to the next page load and the evaluator has not heard.
final class GapEvaluator: JavaScriptEvaluator {
    let inner = BatchingEvaluator(clock: ManualClock(), window: .zero)
    let inTheGap = Locked<(@Sendable () -> Void)?>(nil)

    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageEpoch) { inner.send(messages, runtime: runtime, pageLoad: pageLoad) }
    func discardQueued() {
        inTheGap.withLock { $0 }?()
        inner.discardQueued()
    }
}

@Suite("Unloading, interleaved")
struct UnloadInterleavingTests {
    @Test func whatIsSentWhileTheUnloadIsUnderWayWaitsForTheNextPage() throws {
        let evaluator = GapEvaluator()
        let keystone = Keystone(components: KeystoneComponents(evaluator: evaluator))
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        let heard = Locked<[JSONValue]>([])
        page.on("news") { value in heard.withLock { $0.append(value) } }
        page.initialize()
        try keystone.emit("news", "for the first page")
        evaluator.inTheGap.withLock { $0 = { try? keystone.emit("news", "for the next page") } }
        keystone.pageDidUnload()
        #expect(heard.withLock { $0 } == ["for the first page"])
        page.initialize()  // the next page
        #expect(heard.withLock { $0 } == ["for the first page", "for the next page"])
    }
}

/// Holds every batch until told to hand them on, as a web view's main loop queues them, to
/// whichever page the view shows by then.
final class QueueingTarget: EvaluationTarget {
    let queued = Locked<[ScriptBatch]>([])
    let showing: Locked<any EvaluationTarget>

    init(showing page: any EvaluationTarget) { showing = Locked(page) }

    func evaluate(_ batch: ScriptBatch) { queued.withLock { $0.append(batch) } }

    func runQueued() {
        let page = showing.withLock { $0 }
        for batch in queued.withLock({ queued in
            defer { queued.removeAll() }; return queued
        }) { page.evaluate(batch) }
    }
}

@Suite("A batch runs only in its page")
struct BatchPageLoadTests {
    @Test func aBatchQueuedBeforeANavigationDoesNotRunInTheNextPage() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        page.initialize()
        let queue = QueueingTarget(showing: page)
        keystone.attach(to: queue)
        #expect(page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1,"b":2},"_dscbstub":"dscb0"}"#) == #"{"code":0,"data":""}"#)
        while queue.queued.withLock(\.isEmpty) { await Task.yield() }
        #expect(queue.queued.withLock { $0.first?.pageLoad } == .first)
        keystone.pageDidUnload()  // the engine committed the next page before the batch ran
        let next = InMemoryPage(hub: keystone)
        next.initialize()
        keystone.attach(to: queue)
        queue.showing.withLock { $0 = next }  // the view now shows the next page
        queue.runQueued()
        // The next page's dscb0 never hears the old page's result, and neither does the old page.
        #expect(next.receivedMessages.isEmpty)
        #expect(page.receivedMessages.isEmpty)
    }
}
