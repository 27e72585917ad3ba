// InboundCallRunner.swift — one call of the page's to an interface, from the middleware to its
// last result: the one place both middleware phases run and the call's task starts.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Runs one call of the page's to an interface, made during the page load `pageLoad`: the middleware's
/// `intercept` around the dispatcher while the page waits; then, for work the dispatcher returned,
/// the task (recorded in the hub's state machine, so the page's cancel and unload reach it) with the
/// middleware's `interceptTask` around the work, and its results to the call's callback. The
/// dispatcher never calls back into the hub: it returns what to run.
struct InboundCallRunner {
    let inbound: InboundCalls
    let call: InboundCall
    let pageLoad: PageLoad
    /// Whether the page has had the call's answer already (its parts' ticket): every outcome then
    /// goes through the callback (a synchronous method's result too), a refusal as a failure
    /// rather than a release.
    var isAnsweredLater = false

    /// The answer to the page's call: a result, that the work started, or the refusal.
    func answer() -> CallAnswer {
        let cancellation = CallCancellation()
        let isBuiltIn = call.isBuiltIn
        // A built-in's page is the hub itself, for the page load and document that called: it acts on
        // the hub's state. Each context is made in its own branch: a page chosen first would be an
        // existential the context then copies.
        let (document, hasCallback) = (call.frame.subframeDocument, call.callback != nil)
        let context =
            isBuiltIn
            ? CallContext(
                frame: call.frame, page: BuiltInPage(hub: inbound, pageLoad: pageLoad, frame: document), cancellation: cancellation,
                hasCallback: hasCallback, parts: call.parts)
            : CallContext(
                frame: call.frame, page: PageLoadConnection(calls: inbound.outbound, pageLoad: pageLoad, frame: document),
                cancellation: cancellation, hasCallback: hasCallback, parts: call.parts)
        let environment = DispatchEnvironment(serializer: inbound.components.serializer, context: context)
        let (inbound, call) = (inbound, call)
        do {
            let outcome: DispatchOutcome
            let middleware: [any CallMiddleware]
            if isBuiltIn {
                middleware = []
                outcome = try DefaultInvocationDispatcher().dispatch(call, over: BuiltInInterface.registry, in: environment)
            } else {
                // Each part read where it is used: copying the components whole would retain them all.
                middleware = inbound.components.middleware
                outcome = try middleware.intercept(call) {
                    try inbound.components.dispatcher.dispatch(call, over: inbound.components.registry, in: environment)
                }
            }
            switch outcome {
            case .answered(let value) where call.durableKey != nil:
                inbound.finishDurable(call, outcome: Self.durableOutcome(of: value, calling: call.name))
                return .accepted
            case .work(let work) where call.durableKey != nil:
                runDurable(work, middleware: middleware)
                return .accepted
            case .answered(let value):
                return inbound.answer(value, to: call, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater)
            case .work(let work):
                // A call answered already takes no result in its answer: every result goes through its callback.
                let answering = call.acceptsInlineAnswer && !isAnsweredLater
                let state = Locked(InboundCallState(answeringThread: answering ? InboundCallState.currentThread() : nil))
                try runTask(work, cancellation: cancellation, middleware: middleware, state: state)
                return state.withLock { $0.closeInline() }.map { .result($0.bytes, inline: true) } ?? .accepted
            }
        } catch {
            let neverRan = error is InvalidArgument
            let error = Self.bridgeError(error, calling: call.name)
            if call.durableKey != nil {
                // An argument that did not decode: the method never ran, and its key stays free.
                if neverRan { inbound.abandonDurable(call, error: error) } else { inbound.finishDurable(call, outcome: .failure(error)) }
                return .accepted
            }
            if isAnsweredLater, let callback = call.pageCallback {
                inbound.storage.send(.failure(callback: callback.name, error: error), to: pageLoad, frame: callback.frame)
                return .accepted
            }
            return inbound.storage.refuse(error, callback: call.frame.isReachable ? call.pageCallback : nil)
        }
    }

    /// Runs `work` for `call` as a task of the page load `pageLoad`, which the page's `_dsb.cancel`
    /// and the page's unload cancel, and whose results go to the call's callback; a single
    /// result goes into the call's answer instead when `state` takes it (ready before the call is
    /// answered).
    /// A call the page made without a callback runs all the same: its results are dropped and its
    /// failure is logged, never sent.
    private func runTask(_ work: CallWork, cancellation: CallCancellation, middleware: [any CallMiddleware], state: Locked<InboundCallState>) throws(BridgeError) {
        let (inbound, call, pageLoad) = (inbound, call, pageLoad)
        let parts = call.parts
        let callback = call.pageCallback
        let started = try inbound.storage.update { $0.startTask(callback: callback, method: call.name, for: pageLoad) }.get()
        if let earlier = started.reusedCallbackOf {
            // The page's script reset or shares `window.dscb`: the earlier call's results now reach
            // the later call's callback. Keystone cannot mend the page, but says so.
            inbound.components.logging.log(
                .warning,
                "the page named its call of \"\(call.name)\" with the callback of a call of \"\(earlier)\" still running: the earlier call's results will reach the later call's callback (the page's script resets or shares window.dscb)"
            )
        }
        let token = started.token
        // The task keeps the call (and the page's argument bytes, up to the message limit) only
        // when middleware may read it: a long-running call holds nothing it does not need.
        let intercepted = middleware.isEmpty ? nil : call
        let destination = callback.map { Destination.callback($0, pageLoad) } ?? .dropped(call.name)
        let operation: @Sendable () async -> Void = {
            await Self.run(work, to: destination, inbound: inbound, intercepted: intercepted.map { ($0, middleware) }, state: state, parts: parts)
            // A stream the method did not read to its end: the page stops sending it, and its ticket
            // goes. A piece already on its way is refused; the page takes that refusal as the end of
            // its sending, and the call's answer from its callback.
            if let stream = parts?.stream {
                stream.close()
                if let callback { inbound.storage.update { $0.stopReceiving(callback: callback, in: pageLoad) } }
            }
            inbound.storage.update { $0.taskFinished(token: token) }
        }
        // A single result starts here; a producer, which may write any number of results without
        // ever waiting, starts on the global executor, never holding the calling thread.
        let task: Task<Void, Never>
        switch work {
        case .single: task = Self.startImmediately(operation)
        case .multiResponse: task = Task(operation: operation)
        }
        if let unwanted = inbound.storage.update({ $0.taskCreated(token: token, work: RunningWork(task: task, cancellation: cancellation)) }) {
            unwanted.cancel()  // finished already (no effect), cancelled by the page, or its page is gone
        }
    }

    /// Runs a durable call's `work` (inside the middleware, when there is any) to its end, whatever
    /// becomes of its page load: it is not one of the page load's running calls, so neither an
    /// unload nor the page's `_dsb.cancel` stops it. Its one result, or its error, is kept as its
    /// outcome (``InboundCalls/finishDurable(_:outcome:)``).
    private func runDurable(_ work: CallWork, middleware: [any CallMiddleware]) {
        let (inbound, call) = (inbound, call)
        guard case .single(let run) = work else {
            let error = BridgeError(code: .unsupportedCallKind, message: "a durable call has one result, and \"\(call.name)\" answers many")
            return inbound.abandonDurable(call, error: error)
        }
        Task {
            let outcome: DurableOutcome
            do {
                let value = middleware.isEmpty ? try await run() : try await middleware.interceptTask(call, run)
                outcome = Self.durableOutcome(of: value, calling: call.name)
            } catch {
                outcome = .failure(Self.bridgeError(error, calling: call.name))
            }
            inbound.finishDurable(call, outcome: outcome)
        }
    }

    /// A durable call's result as the outcome kept: its JSON, none, or the error that it is not JSON.
    static func durableOutcome(of value: Data, calling name: MethodName) -> DurableOutcome {
        switch try? SingleResult(value) {
        case .value(let json): .value(json)
        case .nothing: .value(nil)
        case nil: .failure(BridgeError(code: .failed, message: "the result of \"\(name)\" is not JSON"))
        }
    }

    /// Starts `operation` in a new task that runs on this thread until it first suspends, as
    /// DSBridge runs an asynchronous method on the thread that received the call: a method that
    /// answers without waiting has its result queued before the page's call is answered, with no
    /// hop to another thread. The rest runs on the global executor. Where `Task.immediate` is not
    /// available (Apple systems before 26), the task starts on the global executor.
    /// Multi-response methods do not start this way: a producer that writes without waiting would
    /// hold the calling thread, a web view's main thread, for as long as it writes.
    /// `Task.immediate` is in the standard library from Swift 6.2: older compilers (Xcode 16's)
    /// build the fallback alone.
    private static func startImmediately(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }

    /// Where a running call's results go.
    enum Destination: Sendable {
        /// The page's callback, in the page load and document that made the call.
        case callback(PageCallback, PageLoad)
        /// Nowhere: the page called the method without a callback. A failure is logged.
        case dropped(MethodName)
    }

    /// Runs the work (inside the middleware, when there is any) and sends its outcome to
    /// `destination`, or a single result into the call's answer when `state` takes it.
    private static func run(
        _ work: CallWork, to destination: Destination, inbound: InboundCalls, intercepted: (call: InboundCall, middleware: [any CallMiddleware])?,
        state: Locked<InboundCallState>, parts: CallParts?
    ) async {
        let body: @Sendable () async throws -> Data? = {
            switch work {
            case .single(let run):
                return try await run()
            case .multiResponse(let run):
                try await run(
                    ResponseSink { json, isFinal in
                        if let parts, let claimed = parts.claim(in: json) {
                            try sendParts(json, claimed, of: parts, isFinal: isFinal, to: destination, state: state, inbound: inbound)
                            // Backpressure: the producer waits while the page has results' parts to fetch.
                            if !isFinal { await parts.waitForRoom() }
                        } else {
                            try sendResult(.value(JSONText(validating: json)), isFinal: isFinal, to: destination, state: state, inbound: inbound)
                        }
                    })
                return nil
            }
        }
        do {
            let last: Data?
            if let (call, middleware) = intercepted {
                last = try await middleware.interceptTask(call, body)
            } else {
                last = try await body()
            }
            if let last, let parts, let claimed = parts.claim(in: last) {
                try sendParts(last, claimed, of: parts, isFinal: true, to: destination, state: state, inbound: inbound)
            } else if let last {
                let result = try SingleResult(last)
                // A single result the call's own answer takes goes nowhere else.
                let thread = InboundCallState.currentThread()
                if state.withLock({ $0.route(singleResult: result, on: thread) }) == .callback, case .callback(let callback, let pageLoad) = destination {
                    inbound.storage.send(result.message(to: callback.name, complete: true), to: pageLoad, frame: callback.frame)
                }
            } else if state.withLock({ $0.send(isFinal: true) }), case .callback(let callback, let pageLoad) = destination {
                inbound.storage.send(.completion(callback: callback.name), to: pageLoad, frame: callback.frame)
            }
        } catch {
            guard state.withLock({ $0.send(isFinal: true) }) else { return }  // the callback is gone already
            switch destination {
            case .callback(let callback, let pageLoad):
                inbound.storage.send(.failure(callback: callback.name, error: BridgeError(error)), to: pageLoad, frame: callback.frame)
            case .dropped(let name):
                inbound.components.logging.log(.warning, "\"\(name)\", called without a callback, failed: \(Self.bridgeError(error, calling: name))")
            }
        }
    }

    /// Sends one result of a running call.
    private static func sendResult(
        _ result: SingleResult, isFinal: Bool, to destination: Destination, state: Locked<InboundCallState>, inbound: InboundCalls
    ) throws {
        guard state.withLock({ $0.send(isFinal: isFinal) }) else {
            throw BridgeError(code: .failed, message: "the call has already finished")
        }
        guard case .callback(let callback, let pageLoad) = destination else { return }
        inbound.storage.send(result.message(to: callback.name, complete: isFinal), to: pageLoad, frame: callback.frame)
    }

    /// Sends one result whose value has parts, which go beside it. Checked before the call's state
    /// changes: a result past the limit fails the call instead.
    private static func sendParts(
        _ json: Data, _ claimed: ByteParts, of parts: CallParts, isFinal: Bool, to destination: Destination, state: Locked<InboundCallState>,
        inbound: InboundCalls
    ) throws {
        // A call the page cancelled (or whose page load went) sends no bytes: they would get a
        // ticket nobody fetches. It ends with the cancellation, which closes the page's callback;
        // a producer stops here.
        if Task.isCancelled { throw CancellationError() }
        if case .callback = destination { try inbound.byteChannel.checkResultParts(claimed) }
        let value = try JSONText(validating: json)
        guard state.withLock({ $0.send(isFinal: isFinal) }) else {
            throw BridgeError(code: .failed, message: "the call has already finished")
        }
        guard case .callback(let callback, let pageLoad) = destination else { return }
        inbound.storage.send(.result(callback: callback.name, value: value, complete: isFinal), parts: claimed, of: parts, to: pageLoad, frame: callback.frame)
    }

    /// An error from dispatching as the page receives it: a bad argument names the method.
    static func bridgeError(_ error: any Error, calling name: MethodName) -> BridgeError {
        guard let invalid = error as? InvalidArgument else { return BridgeError(error) }
        return BridgeError(code: .invalidArgument, message: "invalid argument for \"\(name)\": \(invalid.reason)")
    }
}
