// UnloadInterleavingTests.swift — unloading, interleaved.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

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
        page.navigate()  // the host reports the page load's end as its next document commits
        #expect(heard.withLock { $0 } == ["for the first page"])
        page.initialize()  // the next page announces itself
        #expect(heard.withLock { $0 } == ["for the first page", "for the next page"])
    }
}

/// Holds every batch until told to hand them on, as a web view's main loop queues them, to
/// whichever page the view shows by then.
final class QueueingTarget: EvaluationTarget {
    let queued = Watched<[ScriptBatch]>([])
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
