// ScriptTranscript.swift — an evaluation target of its own: keeps the scripts a web view would run.
import Keystone
import Synchronization

/// Records the script of every batch, as a web view would receive it, and passes the batch on.
public final class ScriptTranscript: EvaluationTarget {
    private let scripts = Mutex<[String]>([])
    private let next: (any EvaluationTarget)?

    /// A transcript that passes each batch on to `next`, if given.
    public init(passingTo next: (any EvaluationTarget)? = nil) {
        self.next = next
    }

    /// Every script, in order.
    public var recorded: [String] { scripts.withLock { $0 } }

    public func evaluate(_ batch: ScriptBatch) {
        scripts.withLock { $0.append(batch.script) }
        next?.evaluate(batch)
    }
}
