// InboundCalls.swift — answering the page's calls, as a chain of typed stages: limits, split,
// resolve and admit, then one route each.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The page's calls of Swift, as the hub answers them, one typed stage after another, each taking
/// what the last one made:
///
/// 1. **limits**: the name's and the text's sizes, before anything reads them;
/// 2. **split**: the wrapper (``CallWrapper``), its callback name held to its limit and form;
/// 3. **admit**: the resolved name, admitted by the app's policy and, for a built-in, by which
///    frame may call it, the calling subframe document entered: an ``InboundCall``;
/// 4. **route**, once: an answer to one of Swift's calls goes to ``OutboundCalls``; a durable call
///    to ``DurableStage``; a call with parts to ``ByteChannel``, which runs it once they are here;
///    any other to ``InboundCallRunner`` (middleware, dispatch, run).
///
/// `Keystone` composes it and forwards the host's calls to it.
final class InboundCalls: Sendable {
    let components: KeystoneComponents
    let hub: any InboundHub
    /// The hub's state as the built-ins act on it.
    let state: any BuiltInState
    /// Swift's calls of the page: a method's `context.page`, and the page's answers to them.
    let outbound: OutboundCalls
    /// The `Data` of a call's value moved beside its JSON.
    let byteChannel: ByteChannel
    /// The page's durable calls.
    let durable: DurableStage
    /// The protocol's own methods, under `_dsb`: ``BuiltInInterface`` and those the rooms add.
    let builtIns: BuiltInRegistry
    /// The Keystone's trace, when the app traces.
    private let tracer: Tracer?

    init(
        components: KeystoneComponents, hub: any InboundHub & BuiltInState, outbound: OutboundCalls, byteChannel: ByteChannel, durable: DurableStage,
        builtIns: [any BridgeInterface], tracer: Tracer? = nil
    ) {
        self.tracer = tracer
        self.components = components
        self.hub = hub
        state = hub
        self.outbound = outbound
        self.byteChannel = byteChannel
        self.durable = durable
        self.builtIns = BuiltInRegistry([BuiltInInterface()] + builtIns)
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
        let started = tracer?.now
        // Limits first: nothing reads, logs or echoes a name or text over its limit.
        if let error = sizeLimitError(method: method, argumentBytes: arguments.utf8.count) {
            return traced(hub.refuse(error, callback: nil), method: nil, wrapper: nil, bytes: arguments.utf8.count, frame: frame, started: started).text
        }
        let logging = components.logging
        logging.log(.debug, "from page (\(frame)): \(method) \(logging.excerpt(arguments))")
        var text = arguments
        let wrapper: CallWrapper
        do {
            wrapper = try split(text.withUTF8 { Data(buffer: $0) }, of: method)
        } catch {
            return traced(hub.refuse(error, callback: nil), method: method, wrapper: nil, bytes: arguments.utf8.count, frame: frame, started: started).text
        }
        let answer = traced(answer(method, wrapper: wrapper, frame: frame), method: method, wrapper: wrapper, bytes: arguments.utf8.count, frame: frame, started: started).text
        logging.log(.debug, "answer to \(method): \(logging.excerpt(answer))")
        return answer
    }

    @inline(__always)
    func handleCall(_ method: String, data: Data?, callback: String?, acceptsInlineAnswer: Bool, frame: CallerFrame) -> CallAnswer {
        let started = tracer?.now
        if let error = sizeLimitError(method: method, argumentBytes: data?.count ?? 0) {
            return traced(hub.refuse(error, callback: nil), method: nil, wrapper: nil, bytes: data?.count ?? 0, frame: frame, started: started)
        }
        let logging = components.logging
        logging.log(.debug, "from page (\(frame)): \(method) \(logging.excerpt(String(decoding: data ?? Data(), as: UTF8.self)))")
        let wrapper: CallWrapper
        do {
            wrapper = try CallWrapper(data: data, callbackStub: callback, acceptsInlineAnswer: acceptsInlineAnswer, maximumDepth: components.limits.nestingDepth)
            try check(wrapper)
        } catch {
            return traced(hub.refuse(error, callback: nil), method: method, wrapper: nil, bytes: data?.count ?? 0, frame: frame, started: started)
        }
        let answer = traced(answer(method, wrapper: wrapper, frame: frame), method: method, wrapper: wrapper, bytes: data?.count ?? 0, frame: frame, started: started)
        logging.log(.debug, "answer to \(method): \(logging.excerpt(answer.text))")
        return answer
    }

    /// `answer`, once the trace has it (when the app traces): the call of `method` (`nil` when its
    /// name is past its limit) from `frame`, its wrapper split (`nil` when it did not split),
    /// `bytes` long, which arrived at `started`.
    @inline(__always)
    private func traced(_ answer: CallAnswer, method: String?, wrapper: CallWrapper?, bytes: Int, frame: CallerFrame, started: Double?) -> CallAnswer {
        guard let tracer, let started else { return answer }
        tracer.call(
            page: outbound.pageID, pageLoad: hub.pageLoad, frame: frame, method: method, callback: wrapper?.callbackStub, bytes: bytes,
            arguments: wrapper?.data, answer: answer, started: started)
        return answer
    }

    // MARK: Stage 1: limits

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

    // MARK: Stage 2: split

    /// The call's `{"data": …, "_dscbstub": …}` wrapper, split, held to its limits and checked.
    private func split(_ arguments: Data, of method: String) throws(BridgeError) -> CallWrapper {
        let wrapper: CallWrapper
        do {
            wrapper = try CallWrapper(splitting: arguments, maximumDepth: components.limits.nestingDepth)
        } catch {
            if error.code == .limitExceeded { throw error }
            throw BridgeError(code: .malformedMessage, message: "the call of \"\(method)\" is not a {\"data\": …} object: \(error.message)")
        }
        try check(wrapper)
        return wrapper
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

    // MARK: Stage 3: resolve and admit

    /// What the admit stage makes of a call: the call resolved and admitted, made during the page
    /// load, and whether it runs durably though the page sent no key (its method is durable by
    /// default); or the answer that refuses it.
    private enum Admission {
        case admitted(InboundCall, PageLoad, isDurableByDefault: Bool)
        case refused(CallAnswer)
    }

    /// Resolves the call's name, admits it (the app's policy against what its frame may rely on;
    /// for a built-in, which frames may call it) and enters the calling subframe document; the
    /// refusal otherwise, which releases the call's callback in its document when it has one there.
    @inline(__always)
    private func admit(_ method: String, wrapper: CallWrapper, frame: CallerFrame) -> Admission {
        // A callback is released only in a document results reach, its own: the main frame, or a
        // subframe document the host delivers to. Any other subframe's callback name may be the
        // name of one of the main frame's own callbacks.
        let releasable = frame.isReachable ? wrapper.callbackStub.map { PageCallback($0, in: frame.subframeDocument) } : nil
        let name: MethodName
        let admission: InboundAdmission
        do {
            name = try components.resolver.resolve(method)
            admission = hub.admission(of: name, from: frame, isAsynchronous: wrapper.callbackStub != nil, speaksKeystone: wrapper.speaksKeystone)
            guard admission.admitsOrigin else { throw BridgeError.notTheAppsOrigin }
            try components.policy.admit(name, from: frame, access: admission.access)
        } catch {
            return .refused(hub.refuse(error, callback: releasable))
        }
        if name.namespace == MethodName.builtInNamespace, !BuiltInInterface.admits(name.name, from: frame) {
            return .refused(hub.refuse(BridgeError(code: .notAllowed, message: "only the page's main frame may call \"\(name)\""), callback: nil))
        }
        let parts = wrapper.speaksParts && wrapper.callbackStub != nil ? byteChannel.callParts(origin: frame.origin) : nil
        let call = InboundCall(
            name: name, frame: frame, data: wrapper.data, callback: wrapper.callbackStub, acceptsInlineAnswer: wrapper.acceptsInlineAnswer,
            parts: parts)
        if !frame.isAttestedMainFrame {
            if call.isAsynchronous, !frame.isReachable {
                let error = BridgeError(code: .notAllowed, message: "asynchronous calls from a subframe the host cannot deliver to cannot be answered")
                return .refused(hub.refuse(error, callback: nil))
            }
            // A subframe document the host delivers to: the page load reaches it from its first call.
            if let document = frame.subframeDocument, let refusal = hub.enter(frame, document: document) {
                return .refused(hub.refuse(refusal, callback: releasable))
            }
        }
        if !admission.knowsRuntime { hub.heardKeystoneRuntime(from: frame) }
        return .admitted(call, admission.pageLoad, isDurableByDefault: admission.isDurableByDefault)
    }

    // MARK: Stage 4: route

    /// Answers one call from the page, its wrapper split and checked.
    private func answer(_ method: String, wrapper: CallWrapper, frame: CallerFrame) -> CallAnswer {
        switch admit(method, wrapper: wrapper, frame: frame) {
        case .refused(let refusal): refusal
        case .admitted(let call, let pageLoad, let isDurableByDefault): route(call, wrapper: wrapper, pageLoad: pageLoad, isDurableByDefault: isDurableByDefault)
        }
    }

    /// Where an admitted call goes, decided once.
    @inline(__always)
    private func route(_ call: InboundCall, wrapper: CallWrapper, pageLoad: PageLoad, isDurableByDefault: Bool) -> CallAnswer {
        // The page's answer to one of Swift's calls, taken as the wire split it.
        if call.isBuiltIn, call.name.name == BuiltInInterface.returnValue, !call.isAsynchronous {
            return answerSwiftCall(call)
        }
        // A durable call: made with the page's key, or of a method durable by default.
        if wrapper.durableKey != nil || isDurableByDefault {
            // Its bytes sent over the channel (Keystone's runtime sends them so, with its key or
            // without one for a method durable by default): it runs durably once they are here.
            if case .sizes? = wrapper.parts, let announced = wrapper.parts {
                return byteChannel.start(call, announced, pageLoad: pageLoad, runner: durable.runner(key: wrapper.durableKey, runningWith: self))
            }
            guard wrapper.parts == nil else {
                let error = BridgeError(code: .unsupportedCallKind, message: "a durable call's argument cannot be a stream: it may be sent again")
                return hub.refuse(error, callback: call.pageCallback)
            }
            return durable.start(call, key: wrapper.durableKey, pageLoad: pageLoad, isAnsweredLater: false, runner: self)
        }
        if let announced = wrapper.parts {
            return byteChannel.start(call, announced, pageLoad: pageLoad, runner: self)
        }
        return InboundCallRunner(inbound: self, call: call, pageLoad: pageLoad).answer()
    }

    /// `_dsb.returnValue`: a page handler's answer to a Swift call, split once; only the call it
    /// answers decodes its value.
    private func answerSwiftCall(_ call: InboundCall) -> CallAnswer {
        do {
            let message = try ReturnMessage(splitting: call.data ?? Data(), maximumDepth: components.limits.nestingDepth)
            outbound.receiveReturnValue(message, from: call.frame.subframeDocument)
            return .result(Data(#""""#.utf8), inline: false)
        } catch {
            return hub.refuse(error, callback: nil)
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
            hub.refuse(error, callback: call.pageCallback, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater)
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
            hub.send(.result(callback: callback, value: result, complete: true), parts: claimed, of: parts, to: pageLoad, frame: frame)
            return .accepted
        }
        if call.acceptsInlineAnswer, !isAnsweredLater { return .result(value, inline: true) }
        guard let result = try? SingleResult(value) else {
            return fail(BridgeError(code: .failed, message: "the result of \"\(call.name)\" is not JSON"))
        }
        hub.send(result.message(to: callback, complete: true), to: pageLoad, frame: frame)
        return .accepted
    }
}

extension InboundCalls: ByteCallRunner {
    /// Runs `call`, made during the page load `pageLoad`; `isAnsweredLater` when the page has had its
    /// answer already (its parts' ticket).
    func run(_ call: InboundCall, pageLoad: PageLoad, isAnsweredLater: Bool) -> CallAnswer {
        InboundCallRunner(inbound: self, call: call, pageLoad: pageLoad, isAnsweredLater: isAnsweredLater).answer()
    }
}

extension InboundCalls: CallToEndRunner {
    func runToEnd(_ call: InboundCall, pageLoad: PageLoad, then end: @escaping @Sendable (CallEnd) -> Void) {
        InboundCallRunner(inbound: self, call: call, pageLoad: pageLoad, isAnsweredLater: true).runToEnd(then: end)
    }
}

extension InboundCalls: BuiltInHub {
    var announcesBytes: Bool { byteChannel.isOffered }
}
