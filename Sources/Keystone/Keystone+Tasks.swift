// Keystone+Tasks.swift — running the page's asynchronous calls in tasks bound to their page load.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

extension Keystone {
    /// Runs `work` for `call` as a task of the page load `epoch`, which the page's `_dsb.cancel`
    /// and the page's unload cancel, and whose results go to the call's callback; a single
    /// result goes to `inline` instead when that takes it (ready before the call is answered).
    func start(
        _ work: CallWork, for call: InboundCall, epoch: PageEpoch, cancellation: CallCancellation, middleware: [any CallMiddleware],
        inline: InlineResult?
    ) throws(BridgeError) {
        guard let callback = call.callback else {
            throw BridgeError(code: .unsupportedCallKind, message: "\"\(call.name)\" is synchronous: call it without a callback")
        }
        let token = try storage.update { $0.startTask(callback: callback, for: epoch) }.get()
        // The task keeps the call (and the page's argument bytes, up to the message limit) only
        // when middleware may read it: a long-running call holds nothing it does not need.
        let intercepted = middleware.isEmpty ? nil : call
        let operation: @Sendable () async -> Void = {
            await self.run(work, callback: callback, epoch: epoch, intercepted: intercepted.map { ($0, middleware) }, inline: inline)
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

    /// Runs the work (inside the middleware, when there is any) and sends its outcome to `callback`,
    /// or a single result to `inline` when that takes it.
    private func run(
        _ work: CallWork, callback: String, epoch: PageEpoch, intercepted: (call: InboundCall, middleware: [any CallMiddleware])?,
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
                        try self.sendResult(JSONText(validating: json), isFinal: isFinal, to: callback, epoch: epoch, finished: finished)
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
                let value = try JSONText(validating: last)
                // A single result the call's own answer takes goes nowhere else.
                if inline?.offer(value) != true { try sendResult(value, isFinal: true, to: callback, epoch: epoch, finished: finished) }
            } else if !finished.withLock({ $0 }) {
                send(.completion(callback: callback), to: epoch)
            }
        } catch {
            guard !finished.withLock({ $0 }) else { return }  // the callback is gone already
            send(.failure(callback: callback, error: BridgeError(error)), to: epoch)
        }
    }

    /// Sends one result of a running call.
    private func sendResult(_ value: JSONText, isFinal: Bool, to callback: String, epoch: PageEpoch, finished: Locked<Bool>) throws {
        let alreadyFinished = finished.withLock { finished in
            defer { finished = finished || isFinal }
            return finished
        }
        if alreadyFinished {
            throw BridgeError(code: .failed, message: "the call has already finished")
        }
        send(.result(callback: callback, value: value, complete: isFinal), to: epoch)
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
