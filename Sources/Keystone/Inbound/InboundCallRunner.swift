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
        let context = context(cancellation: cancellation)
        let environment = DispatchEnvironment(serializer: inbound.components.serializer, context: context)
        do {
            let (outcome, middleware) = try dispatch(in: environment)
            switch outcome {
            case .answered(let value):
                return inbound.answer(value, to: call, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater)
            case .work(let work):
                return try runTask(work, cancellation: cancellation, middleware: middleware).map { .result($0.bytes, inline: true) } ?? .accepted
            }
        } catch {
            let error = Self.bridgeError(error, calling: call.name)
            let callback = isAnsweredLater || call.frame.isReachable ? call.pageCallback : nil
            return inbound.hub.refuse(error, callback: callback, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater)
        }
    }

    /// The call's context: a built-in's page is the hub itself, for the page load and document that
    /// called, for it acts on the hub's state; an app method's is that document's page connection.
    @inline(__always)
    private func context(cancellation: CallCancellation) -> CallContext {
        // Each context is made in its own branch: a page chosen first would be an existential the
        // context then copies.
        let (document, hasCallback) = (call.frame.subframeDocument, call.callback != nil)
        return call.isBuiltIn
            ? CallContext(
                frame: call.frame, page: BuiltInPage(hub: inbound, pageLoad: pageLoad, frame: document), cancellation: cancellation,
                hasCallback: hasCallback, parts: call.parts)
            : CallContext(
                frame: call.frame, page: PageLoadConnection(calls: inbound.outbound, pageLoad: pageLoad, frame: document),
                cancellation: cancellation, hasCallback: hasCallback, parts: call.parts)
    }

    /// The dispatcher's outcome, inside the middleware's `intercept` (none for a built-in, which the
    /// default dispatcher runs over the built-ins' registry), and the middleware the work runs in.
    @inline(__always)
    private func dispatch(in environment: DispatchEnvironment) throws -> (DispatchOutcome, [any CallMiddleware]) {
        let (inbound, call) = (inbound, call)
        if call.isBuiltIn {
            return (try DefaultInvocationDispatcher().dispatch(call, over: inbound.builtIns, in: environment), [])
        }
        // Each part read where it is used: copying the components whole would retain them all.
        let middleware = inbound.components.middleware
        let outcome = try middleware.intercept(call) {
            try inbound.components.dispatcher.dispatch(call, over: inbound.components.registry, in: environment)
        }
        return (outcome, middleware)
    }

    /// Runs the call's method to its end, whatever becomes of its page load (inside the middleware,
    /// when there is any), and hands `end` its one result, or its error. The call is not one of the
    /// page load's running calls, so neither an unload nor the page's `_dsb.cancel` stops it. An
    /// argument that did not decode, or a method of many results, never ran.
    func runToEnd(then end: @escaping @Sendable (CallEnd) -> Void) {
        let name = call.name
        let work: CallWork
        let middleware: [any CallMiddleware]
        do {
            let (outcome, intercepting) = try dispatch(in: DispatchEnvironment(serializer: inbound.components.serializer, context: context(cancellation: CallCancellation())))
            switch outcome {
            case .answered(let value): return end(.ran(.success(value)))
            case .work(let made): (work, middleware) = (made, intercepting)
            }
        } catch {
            let bridgeError = Self.bridgeError(error, calling: name)
            return end(error is InvalidArgument ? .neverRan(bridgeError) : .ran(.failure(bridgeError)))
        }
        guard case .single(let run) = work else {
            return end(.answersMany)
        }
        let call = call
        Task {
            do {
                let value = middleware.isEmpty ? try await run() : try await middleware.interceptTask(call, run)
                end(.ran(.success(value)))
            } catch {
                end(.ran(.failure(Self.bridgeError(error, calling: name))))
            }
        }
    }

    /// Runs `work` for `call` as a task of the page load `pageLoad`, which the page's `_dsb.cancel`
    /// and the page's unload cancel, and whose results go to the call's callback; a single
    /// result goes into the call's answer instead when the call's state takes it (ready before the
    /// call is answered), and is returned.
    /// A call the page made without a callback runs all the same: its results are dropped and its
    /// failure is logged, never sent.
    private func runTask(_ work: CallWork, cancellation: CallCancellation, middleware: [any CallMiddleware]) throws(BridgeError) -> SingleResult? {
        let (inbound, call, pageLoad) = (inbound, call, pageLoad)
        let parts = call.parts
        let callback = call.pageCallback
        // A call answered already takes no result in its answer: every result goes through its callback.
        let answering = call.acceptsInlineAnswer && !isAnsweredLater ? InboundCallState.currentThread() : nil
        let started = try inbound.hub.startTask(callback: callback, method: call.name, for: pageLoad, answeringThread: answering).get()
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
        let results = Results(token: token, destination: callback.map { .callback($0) } ?? .dropped(call.name), pageLoad: pageLoad, inbound: inbound)
        let operation: @Sendable () async -> Void = {
            await Self.run(work, to: results, intercepted: intercepted.map { ($0, middleware) }, parts: parts)
            // A stream the method did not read to its end: the page stops sending it, and its ticket
            // goes. A piece already on its way is refused; the page takes that refusal as the end of
            // its sending, and the call's answer from its callback.
            if let stream = parts?.stream {
                stream.close()
                if let callback { inbound.byteChannel.stopReceiving(callback: callback, in: pageLoad) }
            }
            inbound.hub.taskFinished(token: token)
        }
        // A single result starts here; a producer, which may write any number of results without
        // ever waiting, starts on the global executor, never holding the calling thread.
        let task: Task<Void, Never>
        switch work {
        case .single: task = Self.startImmediately(operation)
        case .multiResponse: task = Task(operation: operation)
        }
        return inbound.hub.taskCreated(token: token, work: RunningWork(task: task, cancellation: cancellation))
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
        /// The page's callback, in the document that made the call.
        case callback(PageCallback)
        /// Nowhere: the page called the method without a callback. A failure is logged.
        case dropped(MethodName)
    }

    /// A running call's results on their way: each goes through the hub's state in one step with
    /// the call's own (``RunningCalls``), which refuses any after its last.
    struct Results: Sendable {
        let token: Int
        let destination: Destination
        /// The page load that made the call.
        let pageLoad: PageLoad
        let inbound: InboundCalls

        /// Sends one result (`isFinal`: the call's last), written for the callback's name by
        /// `message`, its value's `parts` beside it; `false` when the call has finished already.
        func send(isFinal: Bool, parts: ByteParts? = nil, of call: CallParts? = nil, _ message: (String) -> PageMessage) -> Bool {
            guard case .callback(let callback) = destination else {
                return inbound.hub.sendResult(token: token, isFinal: isFinal, nil, parts: nil, of: nil, to: pageLoad, frame: nil)
            }
            return inbound.hub.sendResult(token: token, isFinal: isFinal, message(callback.name), parts: parts, of: call, to: pageLoad, frame: callback.frame)
        }

        /// The call's single result, ready on this thread: into its answer when that takes it,
        /// otherwise to its callback unless the call has finished.
        func send(single result: SingleResult) {
            guard case .callback(let callback) = destination else {
                _ = inbound.hub.routeSingleResult(result, token: token, thread: InboundCallState.currentThread(), callback: nil, pageLoad: pageLoad)
                return
            }
            _ = inbound.hub.routeSingleResult(result, token: token, thread: InboundCallState.currentThread(), callback: callback, pageLoad: pageLoad)
        }
    }

    /// Runs the work (inside the middleware, when there is any) and sends its outcome to `results`,
    /// a single result into the call's answer when the call's state takes it.
    private static func run(_ work: CallWork, to results: Results, intercepted: (call: InboundCall, middleware: [any CallMiddleware])?, parts: CallParts?) async {
        let body: @Sendable () async throws -> Data? = {
            switch work {
            case .single(let run):
                return try await run()
            case .multiResponse(let run):
                try await run(
                    ResponseSink { json, isFinal in
                        if let parts, let claimed = parts.claim(in: json) {
                            try sendParts(json, claimed, of: parts, isFinal: isFinal, to: results)
                            // Backpressure: the producer waits while the page has results' parts to fetch.
                            if !isFinal { await parts.waitForRoom() }
                        } else {
                            let result = SingleResult.value(try JSONText(validating: json))
                            guard results.send(isFinal: isFinal, { result.message(to: $0, complete: isFinal) }) else { throw Self.finished }
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
                try sendParts(last, claimed, of: parts, isFinal: true, to: results)
            } else if let last {
                // A single result the call's own answer takes goes nowhere else.
                results.send(single: try SingleResult(last))
            } else {
                _ = results.send(isFinal: true) { .completion(callback: $0) }
            }
        } catch {
            // Not sent when the callback is gone already.
            guard results.send(isFinal: true, { .failure(callback: $0, error: BridgeError(error)) }), case .dropped(let name) = results.destination else { return }
            results.inbound.components.logging.log(.warning, "\"\(name)\", called without a callback, failed: \(Self.bridgeError(error, calling: name))")
        }
    }

    /// The refusal of a result after the call's last.
    private static let finished = BridgeError(code: .failed, message: "the call has already finished")

    /// Sends one result whose value has parts, which go beside it. Checked before the call's state
    /// changes: a result past the limit fails the call instead.
    private static func sendParts(_ json: Data, _ claimed: ByteParts, of parts: CallParts, isFinal: Bool, to results: Results) throws {
        // A call the page cancelled (or whose page load went) sends no bytes: they would get a
        // ticket nobody fetches. It ends with the cancellation, which closes the page's callback;
        // a producer stops here.
        if Task.isCancelled { throw CancellationError() }
        if case .callback = results.destination { try results.inbound.byteChannel.checkResultParts(claimed) }
        let value = try JSONText(validating: json)
        guard results.send(isFinal: isFinal, parts: claimed, of: parts, { .result(callback: $0, value: value, complete: isFinal) }) else { throw finished }
    }

    /// An error from dispatching as the page receives it: a bad argument names the method.
    static func bridgeError(_ error: any Error, calling name: MethodName) -> BridgeError {
        guard let invalid = error as? InvalidArgument else { return BridgeError(error) }
        return BridgeError(code: .invalidArgument, message: "invalid argument for \"\(name)\": \(invalid.reason)")
    }
}
