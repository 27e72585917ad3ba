// RecordingTarget.swift — an evaluation target that records batches and lets a test await them.
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Records every batch; ``waitForBatches(_:)`` suspends until that many have arrived.
final class RecordingTarget: EvaluationTarget {
    private let batches = Locked<[ScriptBatch]>([])
    private let arrivals: AsyncStream<Void>
    private let arrival: AsyncStream<Void>.Continuation

    init() {
        (arrivals, arrival) = AsyncStream.makeStream()
    }

    var received: [ScriptBatch] { batches.withLock { $0 } }

    func evaluate(_ batch: ScriptBatch) {
        batches.withLock { $0.append(batch) }
        arrival.yield()
    }

    func waitForBatches(_ count: Int) async -> [ScriptBatch] {
        var iterator = arrivals.makeAsyncIterator()
        while received.count < count {
            _ = await iterator.next()
        }
        return received
    }
}
