// Keystone+Inbound.swift — answering the page's calls: sync inside the prompt, async via callbacks.
import Foundation

extension Keystone {
    /// The prefix of every bridge prompt: `prompt("_dsbridge=" + method, argumentsJSON)`.
    public static let promptPrefix = "_dsbridge="

    /// Whether `text` is a bridge prompt: it begins with the bytes of ``promptPrefix``, as
    /// dsbridge.js compares them. (`String.hasPrefix` compares characters, so `"_dsbridge=\u{301}x"`,
    /// whose `=` and combining mark make one character, would not match, and the page would be
    /// left in a real dialog.) Every text for which this is `true` gets an answer.
    public static func isBridgePrompt(_ text: String) -> Bool {
        text.utf8.starts(with: promptPrefix.utf8)
    }

    public func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        guard Self.isBridgePrompt(text) else { return nil }
        let method = String(decoding: text.utf8.dropFirst(Self.promptPrefix.utf8.count), as: UTF8.self)
        return handleMessage(method, arguments: defaultText ?? "", frame: frame)
    }

    public func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        // Sizes first: nothing reads, logs or echoes a name or text over its limit.
        if let error = sizeLimitError(method: method, arguments: arguments) { return refuse(error, callbackStub: nil) }
        let logging = components.logging
        logging.log(.debug, "from page (\(frame)): \(method) \(logging.excerpt(arguments))")
        let answer = CallerFrame.$current.withValue(frame) { handleCall(method, arguments: Data(arguments.utf8)) }
        logging.log(.debug, "answer to \(method): \(logging.excerpt(answer))")
        return answer
    }

    /// The limit a call's name or arguments go past, if any.
    private func sizeLimitError(method: String, arguments: String) -> BridgeError? {
        let limits = components.limits
        if method.utf8.count > limits.methodNameBytes {
            return BridgeError(code: .limitExceeded, message: "the method name is longer than the limit of \(limits.methodNameBytes) bytes")
        }
        if arguments.utf8.count > limits.messageBytes {
            return BridgeError(code: .limitExceeded, message: "the call's arguments are larger than the limit of \(limits.messageBytes) bytes")
        }
        return nil
    }

    /// Answers one call from the page: `method` as the page named it, `arguments` the JSON wrapper.
    func handleCall(_ method: String, arguments: Data) -> String {
        let limits = components.limits
        let wrapper: CallWrapper
        let name: MethodName
        do {
            wrapper = try CallWrapper(splitting: arguments, maximumDepth: limits.nestingDepth)
        } catch let error as BridgeError where error.code == .limitExceeded {
            return refuse(error, callbackStub: nil)
        } catch {
            return refuse(BridgeError(code: .malformedMessage, message: "the call of \"\(method)\" is not a {\"data\": …} object: \(BridgeError(error).message)"), callbackStub: nil)
        }
        if let stub = wrapper.callbackStub, stub.utf8.count > limits.callbackNameBytes {
            // Not released: a name over the limit is never put in a script.
            return refuse(BridgeError(code: .limitExceeded, message: "the callback name is longer than the limit of \(limits.callbackNameBytes) bytes"), callbackStub: nil)
        }
        do {
            name = try components.resolver.resolve(method)
        } catch {
            return refuse(BridgeError(error), callbackStub: wrapper.callbackStub)
        }
        if name.namespace == Self.builtInNamespace {
            return handleBuiltIn(name, wrapper)
        }
        let method: BridgeMethod
        switch components.dispatcher.lookup(name) {
        case .found(let found):
            method = found
        case .noInterface:
            let namespace = name.namespace.isEmpty ? "the empty namespace" : "namespace \"\(name.namespace)\""
            return refuse(BridgeError(code: .notFound, message: "no interface is registered under \(namespace)"), callbackStub: wrapper.callbackStub)
        case .noMethod:
            return refuse(BridgeError(code: .notFound, message: "no method \"\(name)\""), callbackStub: wrapper.callbackStub)
        }
        guard let stub = wrapper.callbackStub else {
            guard case .sync(let run) = method.invoker else {
                return refuse(BridgeError(code: .unsupportedCallKind, message: "\"\(name)\" is asynchronous: call it with a callback"), callbackStub: nil)
            }
            do {
                return PromptAnswer.success(try run(wrapper.data, components.serializer))
            } catch let invalid as InvalidArgument {
                return refuse(invalidArgument(invalid, name), callbackStub: nil)
            } catch {
                return PromptAnswer.failure(BridgeError(error))
            }
        }

        if CallerFrame.current?.isMainFrame == false {
            // Results are evaluated in the main frame: a subframe's callback could never run.
            return refuse(BridgeError(code: .notAllowed, message: "asynchronous calls from a subframe cannot be answered: results reach the main frame only"), callbackStub: stub)
        }
        do {
            switch method.invoker {
            case .sync:
                return refuse(BridgeError(code: .unsupportedCallKind, message: "\"\(name)\" is synchronous: call it without a callback"), callbackStub: stub)
            case .async(let start):
                let run = try start(wrapper.data, components.serializer)
                try startTask(for: stub) { keystone, epoch in
                    do {
                        let value = try JSONText(validating: try await run())
                        keystone.send(.result(callback: stub, value: value, complete: true), epoch: epoch)
                    } catch {
                        keystone.send(.failure(callback: stub, error: BridgeError(error)), epoch: epoch)
                    }
                }
            case .multiResponse(let start):
                let run = try start(wrapper.data, components.serializer)
                try startTask(for: stub) { keystone, epoch in
                    do {
                        try await run { value in
                            let value = try JSONText(validating: value)
                            keystone.send(.result(callback: stub, value: value, complete: false), epoch: epoch)
                        }
                        keystone.send(.completion(callback: stub), epoch: epoch)
                    } catch {
                        keystone.send(.failure(callback: stub, error: BridgeError(error)), epoch: epoch)
                    }
                }
            }
            return PromptAnswer.accepted
        } catch let invalid as InvalidArgument {
            return refuse(invalidArgument(invalid, name), callbackStub: stub)
        } catch {
            return refuse(BridgeError(error), callbackStub: stub)
        }
    }

    /// Refuses a call before it starts: the refusal is the prompt's answer, and a callback the page
    /// registered for it is removed (it would never run).
    func refuse(_ error: BridgeError, callbackStub: String?) -> String {
        components.logging.log(.warning, "refused a call from the page: \(error)")
        if let callbackStub {
            send(.release(callback: callbackStub))
        }
        return PromptAnswer.failure(error)
    }

    func invalidArgument(_ invalid: InvalidArgument, _ method: MethodName) -> BridgeError {
        BridgeError(code: .invalidArgument, message: "invalid argument for \"\(method)\": \(invalid.reason)")
    }

    /// Runs `body` for the current page load as a task that `pageDidUnload()`, or the page's
    /// `_dsb.cancel` for `callback`, cancels.
    /// - Throws: ``BridgeError`` (`limitExceeded`) when the page already has as many calls running
    ///   as ``BridgeLimits/runningCalls`` allows.
    private func startTask(for callback: String, _ body: @escaping @Sendable (Keystone, PageEpoch) async -> Void) throws {
        let limit = components.limits.runningCalls
        let started: (token: Int, epoch: PageEpoch)? = state.withLock { state in
            guard state.running.count < limit else { return nil }
            state.lastTaskToken += 1
            state.running[state.lastTaskToken] = RunningCall(callback: callback)
            return (state.lastTaskToken, state.epoch)
        }
        guard let (token, epoch) = started else {
            throw BridgeError(code: .limitExceeded, message: "the page already has \(limit) calls running, the limit")
        }
        let task = Task {
            await body(self, epoch)
            _ = self.state.withLock { $0.running.removeValue(forKey: token) }
        }
        let stillWanted = state.withLock { state in
            guard state.running[token] != nil else { return false }
            state.running[token]?.task = task
            return true
        }
        if !stillWanted {
            task.cancel()  // finished already (no effect), cancelled by the page, or its page is gone
        }
    }

    /// Cancels the running call whose callback is `callback`; returns whether there was one.
    func cancelRunningCall(callback: String) -> Bool {
        let cancelled = state.withLock { state -> RunningCall? in
            guard let token = state.running.first(where: { $0.value.callback == callback })?.key else { return nil }
            return state.running.removeValue(forKey: token)
        }
        cancelled?.task?.cancel()
        return cancelled != nil
    }
}
