// InboundCalls.swift — answering the page's calls: limits, parsing, policy, then one hop each.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The page's calls of Swift, as the hub answers them: each checked against its limits, split,
/// resolved and admitted, then run over the app's interfaces or the protocol's own, with its parts
/// over the byte channel where it has any. `Keystone` composes it and forwards the host's calls
/// (``BridgeHub/handlePrompt(_:defaultText:frame:)``, `handleMessage`, `handleCall`,
/// `receiveBytes`) to it.
final class InboundCalls: Sendable {
    let components: KeystoneComponents
    let storage: HubStorage
    /// Swift's calls of the page: a method's `context.page`, and the page's answers to them.
    let outbound: OutboundCalls
    /// The `Data` of a call's value moved beside its JSON.
    let byteChannel: ByteChannel

    /// The time since the calls began, on the components' clock: when durable calls' outcomes came.
    let elapsed: @Sendable () -> Duration
    /// Held from a change of the durable calls until the app's store has heard of it.
    let durableOrder = Locked(())

    init(components: KeystoneComponents, storage: HubStorage, outbound: OutboundCalls, byteChannel: ByteChannel) {
        self.components = components
        self.storage = storage
        self.outbound = outbound
        self.byteChannel = byteChannel
        elapsed = Self.stopwatch(components.clock)
        restoreDurable()
    }

    /// The time since now, on `clock`, each time it is asked.
    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    // The three entry points are inlined into `Keystone`'s, which only forward to them: the front
    // door costs the page's calls nothing.
    @inline(__always)
    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        guard BridgePrompt.matches(text) else { return nil }
        let method = String(decoding: text.utf8.dropFirst(BridgePrompt.prefix.utf8.count), as: UTF8.self)
        return handleMessage(method, arguments: defaultText ?? "", frame: frame)
    }

    @inline(__always)
    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        // Sizes first: nothing reads, logs or echoes a name or text over its limit.
        if let error = sizeLimitError(method: method, argumentBytes: arguments.utf8.count) { return storage.refuse(error, callback: nil).text }
        let logging = components.logging
        logging.log(.debug, "from page (\(frame)): \(method) \(logging.excerpt(arguments))")
        var text = arguments
        let answer = answer(method, arguments: text.withUTF8 { Data(buffer: $0) }, frame: frame).text
        logging.log(.debug, "answer to \(method): \(logging.excerpt(answer))")
        return answer
    }

    @inline(__always)
    func handleCall(_ method: String, data: Data?, callback: String?, acceptsInlineAnswer: Bool, frame: CallerFrame) -> CallAnswer {
        if let error = sizeLimitError(method: method, argumentBytes: data?.count ?? 0) { return storage.refuse(error, callback: nil) }
        let logging = components.logging
        logging.log(.debug, "from page (\(frame)): \(method) \(logging.excerpt(String(decoding: data ?? Data(), as: UTF8.self)))")
        let wrapper: CallWrapper
        do {
            wrapper = try CallWrapper(data: data, callbackStub: callback, acceptsInlineAnswer: acceptsInlineAnswer, maximumDepth: components.limits.nestingDepth)
            try check(wrapper)
        } catch {
            return storage.refuse(error, callback: nil)
        }
        let answer = answer(method, wrapper: wrapper, frame: frame)
        logging.log(.debug, "answer to \(method): \(logging.excerpt(answer.text))")
        return answer
    }

    /// The limit a call's name or arguments go past, if any.
    private func sizeLimitError(method: String, argumentBytes: Int) -> BridgeError? {
        let limits = components.limits
        if method.utf8.count > limits.methodNameBytes {
            return BridgeError(code: .limitExceeded, message: "the method name is longer than BridgeLimits.methodNameBytes (\(limits.methodNameBytes) bytes)")
        }
        if argumentBytes > limits.messageBytes {
            return BridgeError(code: .limitExceeded, message: "the call's arguments are larger than BridgeLimits.messageBytes (\(limits.messageBytes) bytes)")
        }
        return nil
    }

    /// Answers one call from the page: `method` as the page named it, `arguments` the JSON wrapper.
    private func answer(_ method: String, arguments: Data, frame: CallerFrame) -> CallAnswer {
        let wrapper: CallWrapper
        do {
            wrapper = try split(arguments, of: method)
            try check(wrapper)
        } catch {
            return storage.refuse(error, callback: nil)
        }
        return answer(method, wrapper: wrapper, frame: frame)
    }

    /// Answers one call from the page, its wrapper split and checked. Each step is one hop: the
    /// resolver names the method, the policy admits the caller, then the call runs over the app's
    /// interfaces or the protocol's own (``BuiltInInterface``).
    private func answer(_ method: String, wrapper: CallWrapper, frame: CallerFrame) -> CallAnswer {
        // A callback is released only in a document results reach, its own: the main frame, or a
        // subframe document the host delivers to. Any other subframe's callback name may be the
        // name of one of the main frame's own callbacks.
        let releasable = frame.isReachable ? wrapper.callbackStub.map { PageCallback($0, in: frame.subframeDocument) } : nil
        let (name, pageLoad, isDurableByDefault, knowsRuntime): (MethodName, PageLoad, Bool, Bool)
        do {
            name = try components.resolver.resolve(method)
            let access: PageAccess
            let isAsynchronous = wrapper.callbackStub != nil
            (pageLoad, access, isDurableByDefault, knowsRuntime) = storage.read {
                ($0.pageLoad, $0.access(for: frame), isAsynchronous && $0.isDurableByDefault(name), !wrapper.speaksKeystone || $0.knowsKeystoneRuntime(of: frame))
            }
            try components.policy.admit(name, from: frame, access: access)
        } catch {
            return storage.refuse(error, callback: releasable)
        }
        if name.namespace == MethodName.builtInNamespace, !BuiltInInterface.admits(name.name, from: frame) {
            return storage.refuse(BridgeError(code: .notAllowed, message: "only the page's main frame may call \"\(name)\""), callback: nil)
        }
        let parts = wrapper.speaksParts && wrapper.callbackStub != nil ? byteChannel.callParts(origin: frame.origin) : nil
        let call = InboundCall(
            name: name, frame: frame, data: wrapper.data, callback: wrapper.callbackStub, acceptsInlineAnswer: wrapper.acceptsInlineAnswer,
            parts: parts)
        if !frame.isAttestedMainFrame {
            if call.isAsynchronous, !frame.isReachable {
                let error = BridgeError(code: .notAllowed, message: "asynchronous calls from a subframe the host cannot deliver to cannot be answered")
                return storage.refuse(error, callback: nil)
            }
            // A subframe document the host delivers to: the page load reaches it from its first call.
            if let document = frame.subframeDocument, let refusal = storage.update({ $0.enter(frame, document: document) }) {
                return storage.refuse(refusal, callback: releasable)
            }
        }
        if !knowsRuntime { storage.update { $0.heardKeystoneRuntime(from: frame) } }
        // A durable call: made with the page's key, or of a method durable by default.
        if wrapper.durableKey != nil || isDurableByDefault {
            // Its bytes sent over the channel (Keystone's runtime sends them so, with its key or
            // without one for a method durable by default): it runs durably once they are here.
            if case .sizes? = wrapper.parts, let announced = wrapper.parts {
                var durable = call
                durable.runsDurably = true
                durable.durableKey = wrapper.durableKey
                return byteChannel.start(durable, announced, pageLoad: pageLoad, runner: self)
            }
            guard wrapper.parts == nil else {
                let error = BridgeError(code: .unsupportedCallKind, message: "a durable call's argument cannot be a stream: it may be sent again")
                return storage.refuse(error, callback: releasable)
            }
            return startDurable(call, key: wrapper.durableKey, pageLoad: pageLoad)
        }
        if let announced = wrapper.parts {
            return byteChannel.start(call, announced, pageLoad: pageLoad, runner: self)
        }
        // A call without parts is never one that waits for them to run durably: it runs now.
        return InboundCallRunner(inbound: self, call: call, pageLoad: pageLoad).answer()
    }

    /// The call's `{"data": …, "_dscbstub": …}` wrapper, split and held to its limits.
    private func split(_ arguments: Data, of method: String) throws(BridgeError) -> CallWrapper {
        do {
            return try CallWrapper(splitting: arguments, maximumDepth: components.limits.nestingDepth)
        } catch {
            if error.code == .limitExceeded { throw error }
            throw BridgeError(code: .malformedMessage, message: "the call of \"\(method)\" is not a {\"data\": …} object: \(error.message)")
        }
    }

    /// Holds a call's callback name to its limit and its form. Neither is released when refused:
    /// a name over the limit, or not of the runtime's own form, is never put in a script.
    private func check(_ wrapper: CallWrapper) throws(BridgeError) {
        guard let stub = wrapper.callbackStub else { return }
        let limit = components.limits.callbackNameBytes
        guard stub.utf8.count <= limit else {
            throw BridgeError(code: .limitExceeded, message: "the callback name is longer than BridgeLimits.callbackNameBytes (\(limit) bytes)")
        }
        guard CallWrapper.isCallbackName(stub) else {
            throw BridgeError(code: .notAllowed, message: "a callback must be named as the page runtime names its own: dscb, digits, and an optional _ and load token")
        }
    }

    /// A result the dispatcher answered at once: in the answer itself for a synchronous call or
    /// one that asked for it (``InboundCall/acceptsInlineAnswer``), and otherwise through the
    /// callback, as one complete result (a dispatcher of the app's own that answers any kind).
    /// A result whose value has parts goes through the callback, its parts beside it.
    /// A call the page has had its answer to already (``InboundCallRunner/isAnsweredLater``) fails
    /// through its callback.
    func answer(_ value: Data, to call: InboundCall, pageLoad: PageLoad, isAnsweredLater: Bool = false) -> CallAnswer {
        guard let callback = call.callback else { return .result(value, inline: false) }
        let frame = call.frame.subframeDocument
        func fail(_ error: BridgeError) -> CallAnswer {
            guard isAnsweredLater else { return storage.refuse(error, callback: call.pageCallback) }
            storage.send(.failure(callback: callback, error: error), to: pageLoad, frame: frame)
            return .accepted
        }
        if let parts = call.parts, let claimed = parts.claim(in: value) {
            do throws(BridgeError) {
                try byteChannel.checkResultParts(claimed)
            } catch {
                return fail(error)
            }
            guard let result = try? JSONText(validating: value) else {
                return fail(BridgeError(code: .failed, message: "the result of \"\(call.name)\" is not JSON"))
            }
            storage.send(.result(callback: callback, value: result, complete: true), parts: claimed, of: parts, to: pageLoad, frame: frame)
            return .accepted
        }
        if call.acceptsInlineAnswer, !isAnsweredLater { return .result(value, inline: true) }
        guard let result = try? SingleResult(value) else {
            return fail(BridgeError(code: .failed, message: "the result of \"\(call.name)\" is not JSON"))
        }
        storage.send(result.message(to: callback, complete: true), to: pageLoad, frame: frame)
        return .accepted
    }
}

extension InboundCalls: ByteCallRunner {
    /// Runs `call`, made during the page load `pageLoad`; `isAnsweredLater` when the page has had its
    /// answer already (its parts' ticket).
    func run(_ call: InboundCall, pageLoad: PageLoad, isAnsweredLater: Bool) -> CallAnswer {
        guard call.runsDurably else { return InboundCallRunner(inbound: self, call: call, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater).answer() }
        return startDurable(call, key: call.durableKey, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater)
    }
}

extension InboundCalls: BuiltInHub {
    var announcesBytes: Bool { byteChannel.isOffered }
}
