// PageUnloadTests.swift — page unload.
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
    func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?) {
        sent.withLock { $0.append(contentsOf: messages.map { "\($0)" }) }
        inner.send(messages, runtime: runtime, pageLoad: pageLoad, frame: frame)
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
    func send(_ messages: [PageMessage], runtime: PageRuntime, pageLoad: PageLoad, frame: FrameDocument?) {
        inner.send(messages, runtime: runtime, pageLoad: pageLoad, frame: frame)
    }
    func discardQueued() {
        inTheGap.withLock { $0 }?()
        inner.discardQueued()
    }
}
