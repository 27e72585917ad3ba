// HubStorage+Rooms.swift — the hub as each room reaches it: one event of the state machine per
// requirement of the room's protocol.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

extension HubStorage: PageOutbox {
    @discardableResult
    func send(_ message: PageMessage, parts: ByteParts?, of call: CallParts?, to pageLoad: PageLoad?, frame: FrameDocument?) -> Bool {
        let sent = deliver { $0.send(message, parts: parts, of: call, to: pageLoad, frame: frame) }
        if !sent { logging.log(.debug, "dropped a message for a page load or frame document that has gone: \(message)") }
        return sent
    }

    func refuse(_ error: any Error, callback: PageCallback?) -> CallAnswer {
        let error = BridgeError(error)
        logging.log(.warning, "answered a call from the page with an error: \(error)")
        if let callback { send(.release(callback: callback.name), to: nil, frame: callback.frame) }
        return .failure(error)
    }
}

extension HubStorage: InboundHub, ByteChannelHub, BuiltInState {
    func admission(of name: MethodName, from frame: CallerFrame, isAsynchronous: Bool, speaksKeystone: Bool) -> InboundAdmission {
        let isDurableByDefault = isAsynchronous && durable.isDurableByDefault(name)
        return read {
            InboundAdmission(
                admitsOrigin: $0.page.admitsOrigin(of: frame), pageLoad: $0.pageLoad, access: $0.page.access(for: frame), isDurableByDefault: isDurableByDefault,
                knowsRuntime: !speaksKeystone || $0.subframes.knowsKeystoneRuntime(of: frame, page: $0.page))
        }
    }

    /// A host serves the app's own pages at `origin`, the only origin admitted from now on.
    func admitOnly(appOrigin origin: String) {
        update { $0.page.admitOnly(appOrigin: origin) }
    }

    /// The app's own origins, when they are the only ones admitted.
    var appOrigins: Set<String>? { read { $0.page.appOrigins } }

    func admitsOrigin(of frame: CallerFrame) -> Bool {
        read { $0.page.admitsOrigin(of: frame) }
    }

    func enter(_ frame: CallerFrame, document: FrameDocument) -> BridgeError? {
        update { $0.subframes.enter(frame, document: document) }
    }

    func heardKeystoneRuntime(from frame: CallerFrame) {
        update { $0.subframes.heardKeystoneRuntime(from: frame, page: &$0.page) }
    }

    func startTask(callback: PageCallback?, method: MethodName, for pageLoad: PageLoad, answeringThread: UInt?)
        -> Result<RunningCalls<RunningWork>.Started, BridgeError>
    {
        update { $0.startTask(callback: callback, method: method, for: pageLoad, answeringThread: answeringThread) }
    }

    func sendResult(
        token: Int, isFinal: Bool, _ message: PageMessage?, parts: ByteParts?, of call: CallParts?, to pageLoad: PageLoad, frame: FrameDocument?
    ) -> Bool {
        var isDropped = false
        let isTaken = deliver { machine in
            guard machine.running.send(token: token, isFinal: isFinal) else { return nil }
            guard let message else { return [] }
            let outputs = machine.send(message, parts: parts, of: call, to: pageLoad, frame: frame)
            isDropped = outputs == nil
            return outputs ?? []
        }
        if isDropped, let message { logging.log(.debug, "dropped a message for a page load or frame document that has gone: \(message)") }
        return isTaken
    }

    func routeSingleResult(_ result: SingleResult, token: Int, thread: UInt, callback: PageCallback?, pageLoad: PageLoad) -> Bool {
        var isInline = false
        _ = deliver { machine in
            let route = machine.running.route(result, token: token, on: thread)
            isInline = route == .answer
            guard route == .callback, let callback else { return [] }
            return machine.send(result.message(to: callback.name, complete: true), to: pageLoad, frame: callback.frame) ?? []
        }
        return isInline
    }

    func taskCreated(token: Int, work: RunningWork) -> SingleResult? {
        let (unwanted, inline) = update { $0.running.created(token: token, work: work) }
        // Cancelled by the page, or its page is gone.
        unwanted?.cancel()
        return inline
    }

    func taskFinished(token: Int) {
        update { $0.running.finished(token: token) }
    }

    func cancelRunningCall(callback: PageCallback) -> Bool {
        perform { $0.cancelTask(callback: callback) }
    }

    func documentDidInitialize(runtime: PageRuntime, frame: CallerFrame) {
        if let document = frame.subframeDocument {
            handle { $0.frameDidInitialize(document, runtime: runtime) }
        } else {
            handle { $0.pageDidInitialize(runtime: runtime, origin: frame.origin) }
            tracer?.pageLoad("initialized", page: page, pageLoad: pageLoad, origin: frame.origin)
        }
    }

    func authorize(_ pageLoad: PageLoad, origin: String?) -> Bool {
        update { $0.page.authorize(pageLoad, origin: origin) }
    }

    func declare(_ methods: Set<String>, origin: String?) -> Result<Void, BridgeError> {
        update { $0.page.declare(methods, origin: origin) }
    }

    @discardableResult
    func withChannel<Result>(_ body: (inout ByteChannelState, _ pageLoad: PageLoad) -> Result) -> Result {
        update { machine in
            let pageLoad = machine.pageLoad
            return body(&machine.bytes, pageLoad)
        }
    }
}

extension HubStorage: OutboundHub {
    func makeCall(
        _ call: PageHandlerCall, method: String, arguments: JSONText, parts: ByteParts?, isMultiResponse: Bool, to pageLoad: PageLoad?,
        frame: FrameDocument?, durableID: String?
    ) -> Int? {
        perform {
            $0.makeCall(call, method: method, arguments: arguments, parts: parts, isMultiResponse: isMultiResponse, to: pageLoad, frame: frame, durable: durableID)
        }
    }

    func post(method: String, arguments: JSONText, parts: ByteParts?) {
        _ = deliver { machine in
            let id = machine.swiftCalls.nextId()
            return machine.emit(.call(method: method, callbackId: id, arguments: arguments), parts: parts, to: nil)
        }
    }

    func emit(_ event: PageMessage, parts: ByteParts?, to pageLoad: PageLoad?, frame: FrameDocument?) -> Bool {
        deliver { $0.emit(event, parts: parts, to: pageLoad, frame: frame) }
    }

    func receiveAnswer(id: Int, complete: Bool, undelivered: Bool, from frame: FrameDocument?) -> SwiftCalls<PageHandlerCall>.Answer {
        update { $0.receiveAnswer(id: id, complete: complete, undelivered: undelivered, from: frame) }
    }

    func cancelCall(id: Int) {
        handle { $0.cancelCall(id: id) }
    }
}

extension HubStorage: DurableListenerPage, PageReadinessHub {
    func holds(_ pageLoad: PageLoad, frame: FrameDocument?) -> Bool {
        read { machine in machine.pageLoad == pageLoad && frame.map { machine.subframes.runtime(of: $0) != nil } ?? true }
    }

    func waitForPage(_ waiter: PageWaiter) -> Int? {
        update { $0.page.wait(waiter) }
    }

    func stopWaitingForPage(_ id: Int) -> PageWaiter? {
        update { $0.page.stopWaiting(id) }
    }
}

extension HubStorage {
    /// The front door's reads and events: ``Keystone`` forwards to them.
    var pageLoad: PageLoad { read(\.pageLoad) }
    var isPageReady: Bool { read(\.page.isPageReady) }
    var origin: String? { read(\.page.origin) }
    var pendingCallCount: Int { read(\.swiftCalls.pendingCount) }
    var runningCallCount: Int { read(\.running.count) }
    var runningWorks: [RunningWork] { read(\.running.works) }
    var openTicketCount: Int { read(\.bytes.tickets.count) }
    var servesBytes: Bool { read(\.bytes.servesBytes) }
    var readyFrames: [CallerFrame] { read(\.subframes.readyFrames) }

    func serveBytes(over transport: (any ByteTransport)?) {
        update { $0.bytes.serveBytes(over: transport) }
    }

    /// The page has gone: its next page load begins, numbered across the Keystone's pages, and the
    /// durable room hears after the lock; `closing`: the page went for good (its host closed), and
    /// the durable room holds its next page load for no document.
    func pageDidUnload(closing: Bool = false) {
        let next = numbers.next()
        let ended = perform { machine in (machine.pageLoad, machine.pageDidUnload(next: next, closing: closing)) }
        durable.pageLoadEnded(ended, next: closing ? nil : next)
        tracer?.pageLoad("ended", page: page, pageLoad: ended)
        if !closing { tracer?.pageLoad("began", page: page, pageLoad: next) }
    }

    func frameDidUnload(_ frame: FrameDocument) {
        handle { $0.frameDidUnload(frame) }
    }
}
