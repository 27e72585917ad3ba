// ToyHost.swift — a third host, written against the host kit's public API only. Its engine is a toy
// that runs no JavaScript and records what it is asked, where a real host's would be another
// engine's calls (CEF, WPE, Android's WebView through JNI).
import Foundation
import Keystone
import KeystoneHost
import Synchronization

/// A toy engine: records each evaluation, reload and report, answers an evaluation whose value is
/// read with what ``answer(_:with:)`` set, and keeps work for later until ``turn()`` (its loop
/// turning once).
public final class ToyEngine: HostEngine {
    /// One script the engine was asked to evaluate, and whether its value was read.
    public struct Evaluation: Sendable {
        public var script: String
        public var readsValue: Bool
    }

    private struct State {
        var evaluations: [Evaluation] = []
        var later: [(delay: Duration, work: @Sendable () -> Void)] = []
        var values: [(prefix: String, json: String)] = []
        var reloads = 0
        var reports: [WebProcessTermination] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Every evaluation, in order.
    public var evaluations: [Evaluation] { state.withLock { $0.evaluations } }
    /// The delays of the work waiting for the loop.
    public var waitingDelays: [Duration] { state.withLock { $0.later.map(\.delay) } }
    /// How many times the page was reloaded.
    public var reloads: Int { state.withLock { $0.reloads } }
    /// Every end of the web process the app was told of.
    public var reports: [WebProcessTermination] { state.withLock { $0.reports } }

    /// A script that begins with `prefix` evaluates to `json`.
    public func answer(_ prefix: String, with json: String) {
        state.withLock { $0.values.append((prefix, json)) }
    }

    /// Runs the work waiting for the loop, and what it queues, in order.
    public func turn() {
        while let next = state.withLock({ $0.later.isEmpty ? nil : $0.later.removeFirst() }) { next.work() }
    }

    public func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void) {
        let value = state.withLock { state -> String? in
            state.evaluations.append(Evaluation(script: script, readsValue: valueLimit != nil))
            return valueLimit == nil ? nil : state.values.first { script.hasPrefix($0.prefix) }?.json
        }
        completion(.success(value))
    }

    public func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void) {
        state.withLock { $0.later.append((delay, work)) }
    }

    public func reload() {
        state.withLock { $0.reloads += 1 }
    }

    public func report(_ termination: WebProcessTermination) {
        state.withLock { $0.reports.append(termination) }
    }
}

/// A host over the toy engine: it turns the engine's events into calls of its session, and the
/// session's engine calls reach the toy engine. Nothing here decides: the kit does.
public final class ToyHost: EvaluationTarget {
    /// What every host decides alike, carried out through ``engine``.
    public let session: HostSession
    /// The engine under the host.
    public let engine = ToyEngine()
    /// What the host would inject at document start: the page world's script and the isolated
    /// world's, which posts its reports to the host.
    public let documentStartScripts: [String]

    /// Attaches `hub` to a toy web view.
    public init(hub: any BridgeHub, options: HostOptions = HostOptions()) throws {
        session = try HostSession(hub: hub, options: options)
        documentStartScripts = [
            session.core.scriptsOnlyForAllowedOrigins(try HostScripts.pageWorld(injectsPageRuntime: options.injectsPageRuntime)),
            session.core.scriptsOnlyForAllowedOrigins(HostScripts.documentReporting(post: "toyEngine.post(report)")),
        ]
        session.engine = engine
        hub.attach(to: self)
    }

    public func evaluate(_ batch: ScriptBatch) {
        session.evaluate(batch) {}
    }

    // MARK: The engine's events

    /// The engine committed a new main document.
    public func engineCommittedDocument() {
        session.documentCommitted()
    }

    /// The isolated world of the main document, of `origin`, posted `report`.
    public func isolatedWorldPosted(_ report: String, origin: String?) {
        session.documentReported(report, from: CallerFrame(isMainFrame: true, origin: origin))
    }

    /// The main frame, of `origin`, navigates to `url`: whether the host cancels it.
    public func mainFrameNavigates(to url: String, origin: String?) -> Bool {
        guard session.isSignal(url) else { return false }
        session.signalled(url, from: CallerFrame(isMainFrame: true, origin: origin))
        return true
    }

    /// The web process crashed.
    public func webProcessCrashed() {
        session.webProcessTerminated(.crashed)
    }
}
