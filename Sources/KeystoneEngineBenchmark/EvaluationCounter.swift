import Keystone
// EvaluationCounter.swift — an evaluation target that counts what passes through it to the host.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Forwards every batch to the host unchanged; between ``start()`` and ``stop()`` it counts the
/// evaluations, the most in flight at once, the script bytes, and the JSON bytes of the results
/// they carry.
final class EvaluationCounter: EvaluationTarget, @unchecked Sendable {
    struct Stats: Codable, Sendable {
        var evaluations = 0
        var maxInFlight = 0
        var results = 0
        var scriptBytes = 0
        var resultJSONBytes = 0
    }

    private struct State {
        var isCounting = false
        var inFlight = 0
        var stats = Stats()
    }

    weak var target: (any EvaluationTarget)?
    private let state = Locked(State())

    func start() {
        state.withLock { $0 = State(isCounting: true) }
    }

    func stop() -> Stats {
        state.withLock { state in
            state.isCounting = false
            return state.stats
        }
    }

    func evaluate(_ batch: ScriptBatch) {
        evaluate(batch) {}
    }

    func evaluate(_ batch: ScriptBatch, done: @escaping @Sendable () -> Void) {
        let isCounting = state.withLock { $0.isCounting }
        if isCounting {
            // Rendered here a second time, for counting only: the flood's figures are counts.
            let scriptBytes = batch.script.utf8.count
            var results = 0
            var jsonBytes = 0
            for case .result(_, let value, _) in batch.messages {
                results += 1
                jsonBytes += value.bytes.count
            }
            state.withLock { state in
                state.inFlight += 1
                state.stats.evaluations += 1
                state.stats.maxInFlight = max(state.stats.maxInFlight, state.inFlight)
                state.stats.results += results
                state.stats.scriptBytes += scriptBytes
                state.stats.resultJSONBytes += jsonBytes
            }
        }
        guard let target else { return done() }
        target.evaluate(batch) { [state] in
            if isCounting { state.withLock { $0.inFlight -= 1 } }
            done()
        }
    }
}
