// Keystone+Tasks.swift — running the page's asynchronous calls in tasks bound to their page load.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

extension Keystone {
    /// Runs `work` for `call` as a task of the page load `epoch`, which the page's `_dsb.cancel`
    /// and the page's unload cancel, and whose results go to the call's callback; a single
    /// result goes to `inline` instead when that takes it (ready before the call is answered).
    /// A call the page made without a callback runs all the same: its results are dropped and its
    /// failure is logged, never sent.
    func start(
        _ work: CallWork, for call: InboundCall, epoch: PageEpoch, cancellation: CallCancellation, middleware: [any CallMiddleware],
        inline: InlineResult?
    ) throws(BridgeError) {
        let callback = call.callback
        let started = try storage.update { $0.startTask(callback: callback, method: call.name.description, for: epoch) }.get()
        if let earlier = started.reusedCallbackOf {
            // The page's script reset or shares `window.dscb`: the earlier call's results now reach
            // the later call's callback. Keystone cannot mend the page, but says so.
            components.logging.log(
                .warning,
                "the page named its call of \"\(call.name)\" with the callback of a call of \"\(earlier)\" still running: the earlier call's results will reach the later call's callback (the page's script resets or shares window.dscb)"
            )
        }
        let token = started.token
        // The task keeps the call (and the page's argument bytes, up to the message limit) only
        // when middleware may read it: a long-running call holds nothing it does not need.
        let intercepted = middleware.isEmpty ? nil : call
        let destination = callback.map { Destination.callback($0, epoch) } ?? .dropped(call.name)
        let operation: @Sendable () async -> Void = {
            await self.run(work, to: destination, intercepted: intercepted.map { ($0, middleware) }, inline: inline)
            self.storage.update { $0.taskFinished(token: token) }
        }
        // A single result starts here; a producer, which may write any number of results without
        // ever waiting, starts on the global executor, never holding the calling thread.
        let task: Task<Void, Never>
        switch work {
        case .single: task = Self.startImmediately(operation)
        case .multiResponse: task = Task(operation: operation)
        }
        if let unwanted = storage.update({ $0.taskCreated(token: token, work: RunningWork(task: task, cancellation: cancellation)) }) {
            unwanted.cancel()  // finished already (no effect), cancelled by the page, or its page is gone
        }
    }

    /// Where a running call's results go.
    enum Destination: Sendable {
        /// The page's callback, in the page load that made the call.
        case callback(String, PageEpoch)
        /// Nowhere: the page called the method without a callback. A failure is logged.
        case dropped(MethodName)
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
    static func startImmediately(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }

    /// Runs the work (inside the middleware, when there is any) and sends its outcome to
    /// `destination`, or a single result to `inline` when that takes it.
    private func run(
        _ work: CallWork, to destination: Destination, intercepted: (call: InboundCall, middleware: [any CallMiddleware])?,
        inline: InlineResult?
    ) async {
        let finished = Locked(false)  // set once a message marked complete has gone
        let body: @Sendable () async throws -> Data? = { [self] in
            switch work {
            case .single(let run):
                return try await run()
            case .multiResponse(let run):
                try await run(
                    ResponseSink { json, isFinal in
                        try self.sendResult(.value(JSONText(validating: json)), isFinal: isFinal, to: destination, finished: finished)
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
            if let last {
                let result = try SingleResult(last)
                // A single result the call's own answer takes goes nowhere else.
                if inline?.offer(result) != true { try sendResult(result, isFinal: true, to: destination, finished: finished) }
            } else if !finished.withLock({ $0 }), case .callback(let callback, let epoch) = destination {
                send(.completion(callback: callback), to: epoch)
            }
        } catch {
            guard !finished.withLock({ $0 }) else { return }  // the callback is gone already
            switch destination {
            case .callback(let callback, let epoch):
                send(.failure(callback: callback, error: BridgeError(error)), to: epoch)
            case .dropped(let name):
                components.logging.log(.warning, "\"\(name)\", called without a callback, failed: \(Self.bridgeError(error, calling: name))")
            }
        }
    }

    /// Sends one result of a running call.
    private func sendResult(_ result: SingleResult, isFinal: Bool, to destination: Destination, finished: Locked<Bool>) throws {
        let alreadyFinished = finished.withLock { finished in
            defer { finished = finished || isFinal }
            return finished
        }
        if alreadyFinished {
            throw BridgeError(code: .failed, message: "the call has already finished")
        }
        guard case .callback(let callback, let epoch) = destination else { return }
        send(result.message(to: callback, complete: isFinal), to: epoch)
    }

    /// Sends `message` to the page load `epoch`; returns whether it was still there.
    @discardableResult
    func send(_ message: PageMessage, to epoch: PageEpoch?) -> Bool {
        let sent = storage.apply { machine in
            let outputs = machine.send(message, to: epoch)
            return (outputs != nil, outputs ?? [])
        }
        if !sent { components.logging.log(.debug, "dropped a message for a page load that has gone: \(message)") }
        return sent
    }

    /// Cancels the running call whose callback is `callback`; returns whether there was one.
    func cancelRunningCall(callback: String) -> Bool {
        switch storage.update({ $0.cancelTask(callback: callback) }) {
        case .notFound:
            return false
        case .found(let work):
            work?.cancel()
            return true
        }
    }
}
