// PageUnloadTests.swift — a page that goes away cancels its running calls and hears nothing late.
import Foundation
import Keystone
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

/// The default evaluator (no window), reporting every message sent to it with its epoch.
final class EpochReportingEvaluator: JavaScriptEvaluator {
    let inner = BatchingEvaluator(clock: ManualClock(), window: .zero)
    let sent: AsyncStream<(PageMessage, PageEpoch)>
    private let report: AsyncStream<(PageMessage, PageEpoch)>.Continuation

    init() {
        (sent, report) = AsyncStream.makeStream()
    }

    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func send(_ message: PageMessage, epoch: PageEpoch) {
        inner.send(message, epoch: epoch)
        report.yield((message, epoch))
    }
    func pageDidInitialize(runtime: PageRuntime) { inner.pageDidInitialize(runtime: runtime) }
    func pageDidUnload(startingEpoch epoch: PageEpoch) { inner.pageDidUnload(startingEpoch: epoch) }
}

@Suite("Page unload", .timeLimit(.minutes(1)))
struct PageUnloadTests {
    @Test func unloadingCancelsARunningProducerAndDropsWhatItSendsLate() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (cancelled, cancelledContinuation) = AsyncStream<Bool>.makeStream()
        let evaluator = EpochReportingEvaluator()
        let (keystone, page) = makeBridge(KeystoneComponents(evaluator: evaluator))
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

        // The next page reuses the name dscb0. The old call's failure is sent for the old epoch…
        let nextPage = InMemoryPage(hub: keystone)
        nextPage.initialize()
        for await (message, epoch) in evaluator.sent {
            guard case .failure(let callback, let error) = message else { continue }
            #expect(callback == "dscb0")
            #expect(error.code == .cancelled)
            #expect(epoch == .first)
            break
        }
        // …and reaches neither page; the next page's own call still works.
        #expect(nextPage.receivedMessages.isEmpty)
        #expect(page.receivedMessages.count == 1)
        #expect(try await nextPage.callAsync("echo.echoAsync", JSONValue.string("fresh"), as: String.self) == "fresh")
        #expect(nextPage.receivedMessages.count == 1)
    }
}

/// The default evaluator (no window), which runs `inTheGap` when the hub reports an unload and
/// before passing it on: the moment the hub's epoch has moved and the evaluator has not heard yet.
final class GapEvaluator: JavaScriptEvaluator {
    let inner = BatchingEvaluator(clock: ManualClock(), window: .zero)
    let inTheGap = Locked<(@Sendable () -> Void)?>(nil)

    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func send(_ message: PageMessage, epoch: PageEpoch) { inner.send(message, epoch: epoch) }
    func pageDidInitialize(runtime: PageRuntime) { inner.pageDidInitialize(runtime: runtime) }
    func pageDidUnload(startingEpoch epoch: PageEpoch) {
        inTheGap.withLock { $0 }?()
        inner.pageDidUnload(startingEpoch: epoch)
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
