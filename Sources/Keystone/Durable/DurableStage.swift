// DurableStage.swift — the page's durable calls: run once under their key, kept for their origin
// past their page load, and handed to a later document.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A durable call's callback waiting for its outcome, in the page load and document that made it.
typealias DurableListener = DurableCalls<DurableRecoveryWaiter>.Listener

/// The page's durable calls as a stage of answering the page: a call made with the page's key
/// (`"_dsdurable"`), or of a method durable by default, runs once under its key for the page's
/// origin, is joined while it runs, or is answered at once with the outcome it ended with. Its
/// outcome always comes through its callback, never in the answer, the outcome's bytes as base64
/// in its JSON: it is kept as it was sent.
///
/// One stage per page: its calls are kept in the durable room every page of the Keystone shares.
final class DurableStage: Sendable {
    /// The page the stage answers.
    private let hub: any DurableListenerPage
    private let room: DurableRoom
    private let keyLimit: Int
    /// The Keystone's trace, when the app traces, and the page the stage answers there.
    private let tracer: Tracer?
    private let page: PageID

    init(hub: any DurableListenerPage, room: DurableRoom, keyLimit: Int, tracer: Tracer? = nil, page: PageID = .first) {
        self.hub = hub
        self.room = room
        self.keyLimit = keyLimit
        self.tracer = tracer
        self.page = page
    }

    /// Starts the durable call `call` under the page's `key` (`nil`: a method durable by default,
    /// which runs under a key drawn here that nothing sends again), made during `pageLoad`;
    /// `isAnsweredLater` when the page has had its answer already (its parts' ticket), so a refusal
    /// comes through its callback.
    func start(_ call: InboundCall, key: String?, pageLoad: PageLoad, isAnsweredLater: Bool, runner: some CallToEndRunner) -> CallAnswer {
        guard let callback = call.pageCallback else {
            return hub.refuse(BridgeError(code: .malformedMessage, message: "a durable call is made with a callback"), callback: nil)
        }
        func refuse(_ error: BridgeError) -> CallAnswer {
            hub.refuse(error, callback: callback, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater)
        }
        if let key, key.isEmpty || key.utf8.count > keyLimit {
            return refuse(BridgeError(code: .limitExceeded, message: "a durable call's key is empty or longer than BridgeLimits.durableKeyBytes (\(keyLimit) bytes)"))
        }
        guard let origin = call.frame.origin else {
            return refuse(BridgeError(code: .notAllowed, message: "a durable call is kept for its page's origin, and this page has none"))
        }
        let durable = DurableKey(origin: origin, key: key ?? DurableID.next())
        let listener = DurableListener(pageLoad: pageLoad, callback: callback, page: hub)
        let begin = room.begin(durable, method: call.name.description, listener: listener, isKeyless: key == nil)
        if let tracer {
            let (step, code): (String, Int?) =
                switch begin {
                case .run: ("begun", nil)
                case .joined: ("joined", nil)
                case .finished: ("answered", nil)
                case .refused(let error): ("refused", error.code.rawValue)
                }
            tracer.durable(step, page: page, pageLoad: pageLoad, origin: origin, method: call.name.description, code: code)
        }
        switch begin {
        case .refused(let error):
            return refuse(error)
        case .joined:
            return .accepted
        case .finished(let outcome):
            hub.send(outcome.message(to: callback.name), to: pageLoad, frame: callback.frame)
            return .accepted
        case .run:
            // A call whose bytes came over the byte channel has them as parts; its outcome is kept
            // as JSON, its bytes as base64.
            let running = InboundCall(
                name: call.name, frame: call.frame, data: call.data, callback: call.callback, acceptsInlineAnswer: false,
                parts: call.parts?.keepingResultsInJSON)
            let (room, tracer, page) = (room, tracer, page)
            runner.runToEnd(running, pageLoad: pageLoad) { end in
                let (outcome, abandoned): (DurableOutcome, Bool) =
                    switch end {
                    case .ran(.success(let value)): (DurableOutcome(result: value, calling: running.name), false)
                    case .ran(.failure(let error)): (.failure(error), false)
                    case .neverRan(let error): (.failure(error), true)
                    case .answersMany:
                        (.failure(BridgeError(code: .unsupportedCallKind, message: "a durable call has one result, and \"\(running.name)\" answers many")), true)
                    }
                if let tracer {
                    let code: Int? = if case .failure(let error) = outcome { error.code.rawValue } else { nil }
                    tracer.durable(
                        "ended", page: page, pageLoad: pageLoad, origin: origin, method: running.name.description, outcome: code == nil ? "ok" : "error", code: code)
                }
                room.end(durable, outcome: outcome, abandoned: abandoned)
            }
            return .accepted
        }
    }

    /// What runs a durable call under the page's `key` (`nil`: a method durable by default) once the
    /// byte channel has its parts: this stage, running its method with `runner`.
    func runner(key: String?, runningWith runner: some CallToEndRunner & Sendable) -> some ByteCallRunner {
        AfterParts(stage: self, key: key, runner: runner)
    }

    /// A durable call's way on once its parts are here, kept with their ticket.
    private struct AfterParts<Runner: CallToEndRunner & Sendable>: ByteCallRunner {
        let stage: DurableStage
        let key: String?
        let runner: Runner

        func run(_ call: InboundCall, pageLoad: PageLoad, isAnsweredLater: Bool) -> CallAnswer {
            stage.start(call, key: key, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater, runner: runner)
        }
    }

    /// The durable calls earlier documents of `origin` made, for the document of `pageLoad`, once
    /// none of them runs any more; `nil` when the page load goes first.
    func recover(origin: String, pageLoad: PageLoad) async -> [DurableRecovered]? {
        await withCheckedContinuation { (continuation: CheckedContinuation<[DurableRecovered]?, Never>) in
            let handed = room.recover(origin: origin, pageLoad: pageLoad, of: hub, waiter: { continuation.resume(returning: $0) })
            if let handed { continuation.resume(returning: handed) }
        }.map { recovered in
            for call in recovered { tracer?.durable("recovered", page: page, pageLoad: pageLoad, origin: origin, method: call.method) }
            return recovered
        }
    }

    /// A document of `origin` has taken the outcomes of the durable calls under `keys`.
    func acknowledge(_ keys: [String], origin: String) {
        room.acknowledge(keys, origin: origin)
        tracer?.durable("acknowledged", page: page, pageLoad: nil, origin: origin, method: nil)
    }
}
