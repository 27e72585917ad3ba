// Keystone.swift — the hub: registered interfaces, calls from the page, calls to the page.
import Foundation

/// Connects a page's JavaScript and Swift interfaces over the DSBridge v3 protocol.
///
/// Register interfaces under namespaces, attach the Keystone to a host (a web view, or an
/// `InMemoryPage` in tests), and it answers the page's calls and carries Swift's calls to the page.
///
/// ```swift
/// let keystone = Keystone()
/// try keystone.register(Math(), namespace: "math")
/// let sum: Double = try await keystone.call("page.add", 1, 2)
/// ```
///
/// Every method is safe to call from any thread or task.
public final class Keystone: BridgeHub {
    /// The parts this Keystone is built from.
    public let components: KeystoneComponents

    struct State {
        var epoch = PageEpoch.first
        var lastCallbackId = 0
        /// Swift calls of the page's handlers that have not settled.
        var pending: [Int: PendingCall] = [:]
        /// The page's asynchronous calls that are running, by task token.
        var running: [Int: RunningCall] = [:]
        var lastTaskToken = 0
        var closePageHandler: (@Sendable () -> Void)?
        /// Messages bound for the page, in the order they were made, on their way to the evaluator.
        var outbox = HandOffQueue<Outgoing>()
    }

    /// A message bound for the page load `epoch`.
    struct Outgoing {
        var message: PageMessage
        var epoch: PageEpoch
    }

    /// One of the page's asynchronous calls, running in a task.
    struct RunningCall {
        /// The page's callback name for the call.
        var callback: String
        /// The task; `nil` only while it is being started.
        var task: Task<Void, Never>?
    }

    let state = Locked(State())

    /// Creates a Keystone from `components`.
    public init(components: KeystoneComponents = KeystoneComponents()) {
        self.components = components
    }

    /// Registers `interface` under `namespace` (`""`, `"a"`, `"a.b.c"`), replacing any interface
    /// already there.
    /// - Throws: ``BridgeError`` with code `invalidRegistration` for an unusable namespace (an empty
    ///   part, white space around a part, or the reserved `_dsb`) or method name.
    public func register(_ interface: some BridgeInterface, namespace: String = "") throws {
        guard MethodName.isValidNamespace(namespace), namespace != Self.builtInNamespace else {
            throw BridgeError(code: .invalidRegistration, message: "\"\(namespace)\" cannot be a namespace")
        }
        var methods = MethodList()
        interface.exposeMethods(to: &methods)
        guard methods.invalidNames.isEmpty else {
            let names = methods.invalidNames.map { "\"\($0)\"" }.joined(separator: ", ")
            throw BridgeError(code: .invalidRegistration, message: "method names cannot be empty, hold a dot or white space around them: \(names)")
        }
        components.dispatcher.register(methods, namespace: namespace)
    }

    /// Removes the interface under `namespace`; returns whether there was one.
    @discardableResult
    public func removeInterface(namespace: String) -> Bool {
        components.dispatcher.removeInterface(namespace: namespace)
    }

    /// How many Swift calls of the page's handlers are waiting to settle.
    public var pendingCallCount: Int { state.withLock { $0.pending.count } }

    /// Sets what happens when the page calls `window.close()` (`_dsb.closePage`).
    public func setClosePageHandler(_ handler: (@Sendable () -> Void)?) {
        state.withLock { $0.closePageHandler = handler }
    }

    public func attach(to target: any EvaluationTarget) {
        components.evaluator.attach(to: target)
    }

    /// The page has gone: Swift calls still waiting for it fail with `pageGone`, the page's running
    /// asynchronous calls are cancelled, their late results are dropped, and Swift calls made from
    /// now on wait for the next page's `_dsb.dsinit`.
    public func pageDidUnload() {
        let (epoch, pending, running) = state.withLock { state in
            state.epoch = state.epoch.next
            defer {
                state.pending.removeAll()
                state.running.removeAll()
            }
            return (state.epoch, Array(state.pending.values), state.running.values.compactMap(\.task))
        }
        components.evaluator.pageDidUnload(startingEpoch: epoch)
        running.forEach { $0.cancel() }
        let gone = BridgeError(code: .pageGone, message: "the page was unloaded before it answered")
        pending.forEach { $0.fail(gone) }
    }

    /// Sends the named event to the page's listeners (`dsBridge.on(name, fn)` in Keystone's page
    /// runtime). Events sent before the page initializes wait like any other message; a page running
    /// dsbridge.js has no listeners and receives none.
    /// - Throws: ``BridgeError`` with code `unencodableValue` when `value` does not encode to JSON.
    public func emit(_ name: String, _ value: some Encodable) throws {
        let encoded: Data
        do {
            encoded = try components.serializer.encode(value)
        } catch {
            throw BridgeError(code: .unencodableValue, message: describeEncodingFailure(error, in: "the event's value"), cause: error)
        }
        send(.event(name: name, value: try JSONText(validating: encoded)))
    }

    /// Sends `message` to the page load `epoch`, or to the current one.
    func send(_ message: PageMessage, epoch: PageEpoch? = nil) {
        issue { state in ((), Outgoing(message: message, epoch: epoch ?? state.epoch)) }
    }

    /// Runs `step` on the state and queues the message it makes (if any) in the same critical
    /// section, so messages reach the evaluator in the order they were made, whichever threads made
    /// them; then hands the queue on unless another thread is doing so.
    @discardableResult
    func issue<Result>(_ step: (inout State) -> (Result, Outgoing?)) -> Result {
        let (result, mustHandOff) = state.withLock { state in
            let (result, outgoing) = step(&state)
            return (result, outgoing.map { state.outbox.append($0) } ?? false)
        }
        if mustHandOff { handOffOutbox() }
        return result
    }

    /// Passes queued messages to the evaluator in order, outside the lock, logging each in debug mode.
    private func handOffOutbox() {
        let logging = components.logging
        while let outgoing = state.withLock({ $0.outbox.takeAll() }) {
            for item in outgoing {
                logging.log(.debug, "to page: \(logging.excerpt(ScriptRenderer.render([item.message])))")
                components.evaluator.send(item.message, epoch: item.epoch)
            }
        }
    }
}
