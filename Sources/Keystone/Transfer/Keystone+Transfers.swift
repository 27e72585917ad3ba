// Keystone+Transfers.swift — a call's `Data` moved as bytes over the host's byte channel: tickets
// issued over the call channel, redeemed by the channel's requests.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

extension Keystone {
    public func serveTransfers(at base: String) {
        storage.update { $0.serveTransfers(at: base) }
    }

    public func stopServingTransfers() {
        storage.update { $0.stopServingTransfers() }
    }

    /// Whether a host serves a byte channel to the page now: from ``serveTransfers(at:)`` until
    /// ``stopServingTransfers()``.
    public var servesTransfers: Bool {
        storage.read(\.servesTransfers)
    }

    /// The page announced its call's argument as bytes (`"_dsbytes"`): `size` bytes at once, or a
    /// stream. The call is checked as far as it can be without them, and a ticket to send them (or
    /// the stream's first chunk) is its answer. A call sent at once runs when its bytes arrive
    /// (``handleTransfer(method:url:origin:readBody:respond:)``); a stream into a method that takes
    /// a ``ByteStream`` runs now, reading the chunks as they come; a stream into a method that takes
    /// `Data` is gathered, then runs.
    func startUpload(_ call: InboundCall, _ upload: CallWrapper.Upload, route: InboundCallRunner.Route, epoch: PageEpoch) -> CallAnswer {
        guard let callback = call.callback else {
            return refuse(BridgeError(code: .unsupportedCallKind, message: "bytes are sent with an asynchronous call only"), callback: nil)
        }
        let method: BridgeMethod
        do throws(BridgeError) {
            method = try (route == .app ? components.registry.lookup(call.name) : .noMethod).method(for: call.name)
        } catch {
            return refuse(error, callback: callback)
        }
        guard method.takesBytes else {
            return refuse(BridgeError(code: .invalidArgument, message: "\"\(call.name)\" takes no bytes"), callback: callback)
        }
        let limit = components.limits.transferBytes
        let payload: TransferPayload
        switch upload {
        case .bytes(let size):
            guard size <= limit else {
                let error = BridgeError(code: .limitExceeded, message: "the call's bytes are more than BridgeLimits.transferBytes (\(limit) bytes)")
                return refuse(error, callback: callback)
            }
            return openUpload(call, callback: callback, size: size, payload: .upload(call, route), epoch: epoch)
        case .stream where !method.takesByteStream:
            payload = .gather(call, route, Locked(Data()))
        case .stream:
            guard method.kind != .sync else {
                return refuse(BridgeError(code: .unsupportedCallKind, message: "a synchronous method cannot read a stream"), callback: callback)
            }
            let stream = ByteStreamBuffer(windowBytes: Self.streamWindowBytes, limit: components.limits.streamBytes)
            let answer = openUpload(call, callback: callback, size: limit, payload: .stream(stream), epoch: epoch)
            guard case .upload = answer else { return answer }
            stream.ticketIssued()
            watchIdle(stream, callback: callback, epoch: epoch)
            // The method starts now; should it be refused, its stream's ticket goes with it.
            let started = InboundCallRunner(keystone: self, call: call.with(stream: stream), epoch: epoch, route: route).answer()
            guard case .accepted = started else {
                stream.close()
                storage.update { _ = $0.cancelTask(callback: callback) }
                return started
            }
            return answer
        }
        return openUpload(call, callback: callback, size: limit, payload: payload, epoch: epoch)
    }

    /// How many bytes of a stream into Swift may wait for the method reading it before the page
    /// waits too.
    static let streamWindowBytes = 4 << 20

    /// The refusal of a stream's piece larger than ``streamWindowBytes``: Keystone's runtime sends
    /// pieces of at most 1 MiB, so only a page script posting its own meets it.
    static let pieceTooLarge = BridgeError(code: .limitExceeded, message: "a stream's piece is larger than 4 MiB")

    /// Opens the ticket for the page's next `size` bytes (at most) of `call`: the answer that hands
    /// the page its address, or the refusal.
    private func openUpload(_ call: InboundCall, callback: String, size: Int, payload: TransferPayload, epoch: PageEpoch) -> CallAnswer {
        let grant = TransferTickets<TransferPayload>.Grant(
            pageLoad: epoch, callback: callback, direction: .toSwift, maximumBytes: size, origin: call.frame.origin)
        // The first ticket's refusal is the call's, and releases its callback.
        let answer = openTicket(grant, payload: payload)
        if case .failure(let error) = answer { return refuse(error, callback: callback) }
        return answer
    }

    /// The message that hands the page `bytes`, a result of the call of `callback` from a frame
    /// of `origin`, held for the page to fetch.
    /// - Throws: `limitExceeded` past ``BridgeLimits/transferBytes`` or ``BridgeLimits/openTransfers``;
    ///   `pageGone` when the page load has gone.
    func bytesMessage(
        _ bytes: Data, callback: String, origin: String?, epoch: PageEpoch, complete: Bool, flow: CallBytes? = nil
    ) throws(BridgeError) -> PageMessage {
        let limit = components.limits.transferBytes
        guard bytes.count <= limit else {
            throw BridgeError(code: .limitExceeded, message: "the result's bytes are more than BridgeLimits.transferBytes (\(limit) bytes)")
        }
        let grant = TransferTickets<TransferPayload>.Grant(
            pageLoad: epoch, callback: callback, direction: .toPage, maximumBytes: bytes.count, origin: origin)
        let address = try storage.update { $0.openTransfer(Self.newTransferToken(), for: grant, payload: .download(bytes, flow)) }.get()
        flow?.sent()
        return .bytes(callback: callback, source: address, size: bytes.count, complete: complete)
    }

    /// Watches `stream` while the page holds a ticket for it: when the page keeps one ticket unused
    /// from one look to the next, ``BridgeLimits/streamIdleTimeout`` apart on the components' clock
    /// (so for one to two timeouts), the method's reading fails with `timedOut` (if it still reads)
    /// and the ticket goes. A page held back while the method is behind holds no ticket, and is
    /// never idle. The watcher ends with the stream, so nothing of a page load outlives it.
    private func watchIdle(_ stream: ByteStreamBuffer, callback: String, epoch: PageEpoch) {
        let (clock, timeout) = (components.clock, components.limits.streamIdleTimeout)
        // Cancelled when the stream is over: its sleep ends at once, and so does the watcher.
        stream.watch { [storage] in
            var seen: Int?
            while true {
                // Cancelled: the stream is over, and what ended it took its ticket back too.
                guard (try? await clock.sleep(for: timeout)) != nil, !stream.isOver else { return }
                guard let unused = stream.unusedTicket else {
                    seen = nil
                    continue
                }
                if unused == seen {
                    let message = "the page sent nothing of its stream for BridgeLimits.streamIdleTimeout (\(timeout.components.seconds) s)"
                    stream.fail(BridgeError(code: .timedOut, message: message))
                    storage.update { $0.stopUploads(callback: callback, in: epoch) }
                    return
                }
                seen = unused
            }
        }
    }

    /// Takes back the ticket of a ``bytesMessage(_:callback:origin:epoch:complete:flow:)`` that is
    /// not sent after all (its call finished, or was cancelled, as the bytes were made), so no
    /// ticket is left behind for bytes nobody will fetch.
    func takeBack(_ message: PageMessage) {
        guard case .bytes(_, let source, _, _) = message else { return }
        storage.update { $0.takeBackTransfer(String(source.suffix(TransferTickets<TransferPayload>.tokenLength))) }
    }

    /// What the end of a stream adds to its ticket's address.
    static let endOfStream = "?end"

    public func handleTransfer(
        method: String, url: String, origin: String?, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (TransferResponse) -> Void
    ) {
        if method == "OPTIONS" { return respond(.preflight) }
        guard let base = storage.read(\.transferBase), url.hasPrefix(base) else {
            return respond(refuseTransfer(BridgeError(code: .notFound, message: "no such transfer"), status: 404))
        }
        // The end of a stream is said, never read from a body: it is posted to the ticket's address
        // with `?end`. An empty body is otherwise what an engine that did not hand the body over
        // looks like.
        var token = String(url.utf8.dropFirst(base.utf8.count)) ?? ""
        let isEnd = token.hasSuffix(Self.endOfStream)
        if isEnd { token.removeLast(Self.endOfStream.count) }
        let direction: TransferTickets<TransferPayload>.Direction
        switch method {
        case "POST": direction = .toSwift
        case "GET": direction = .toPage
        default: return respond(refuseTransfer(BridgeError(code: .notAllowed, message: "the byte channel takes GET and POST only"), status: 405))
        }
        // The ticket moves bytes the way the request does, or it is refused: an upload's ticket
        // is presented by a POST, a result's by a GET.
        let grant: TransferTickets<TransferPayload>.Grant
        let payload: TransferPayload
        switch storage.update({ $0.redeemTransfer(token, direction: direction, from: origin) }) {
        case .failure(let error):
            return respond(refuseTransfer(error, status: 403))
        case .success((_, .download(let bytes, let flow))):
            flow?.fetched()
            return respond(.bytes(bytes))
        case .success(let redeemed):
            (grant, payload) = redeemed
        }
        // A piece for a stream the method no longer reads, posted before the page heard: nothing more
        // is wanted, and the call's answer comes through its callback. The body is never read.
        if case .stream(let stream) = payload, stream.isOver {
            return respond(.answer(.accepted))
        }
        // Admitted: now, and only now, the body is read, no further than the ticket allows, and a
        // stream's piece no further than the window a stream is held back by.
        let isStream: Bool
        switch payload {
        case .stream, .gather: isStream = true
        case .upload, .download: isStream = false
        }
        let readLimit = isStream ? min(grant.maximumBytes, Self.streamWindowBytes) : grant.maximumBytes
        guard let body = readBody(readLimit) else {
            let error: BridgeError
            switch payload {
            case .upload: error = BridgeError(code: .limitExceeded, message: "the call's bytes are more than it announced")
            case .stream, .gather, .download:
                error = readLimit < grant.maximumBytes ? Self.pieceTooLarge : Self.tooManyBytes(components.limits.transferBytes)
            }
            if case .stream(let stream) = payload { stream.fail(error) }
            return respond(refuseTransfer(error, status: 413))
        }
        if isEnd != (isStream && body.isEmpty) {
            // An end with bytes, an end of no stream, or a piece with none: no piece of Keystone's
            // runtime is any of these, so an engine dropped the body.
            let error = BridgeError(code: .malformedMessage, message: isEnd ? "the end of a stream carries no bytes" : "the piece's bytes did not arrive")
            if case .stream(let stream) = payload { stream.fail(error) }
            return respond(refuseTransfer(error, status: 400))
        }
        switch payload {
        case .upload(let call, let route):
            guard body.count == grant.maximumBytes else {
                return respond(refuseTransfer(BridgeError(code: .malformedMessage, message: "the call's bytes are fewer than it announced"), status: 400))
            }
            respond(.answer(InboundCallRunner(keystone: self, call: call.with(bytes: body), epoch: grant.pageLoad, route: route).answer()))
        case .gather(let call, let route, let gathered):
            // The end of the stream: the call runs with what was gathered.
            guard !isEnd else {
                let bytes = gathered.withLock { $0 }
                return respond(.answer(InboundCallRunner(keystone: self, call: call.with(bytes: bytes), epoch: grant.pageLoad, route: route).answer()))
            }
            gathered.withLock { $0.append(body) }
            var next = grant
            next.maximumBytes -= body.count
            respond(.answer(openTicket(next, payload: .gather(call, route, gathered))))
        case .stream(let stream):
            guard !isEnd else {
                stream.finish()
                return respond(.answer(.accepted))
            }
            stream.deliver(body) { [self] room in
                switch room {
                case .more:
                    var answer = openTicket(grant, payload: .stream(stream))
                    if case .failure(let error) = answer { stream.fail(error) }
                    if case .upload = answer { stream.ticketIssued() }
                    if case .upload = answer, stream.isStopped {
                        // The method stopped reading while the ticket was issued: it goes too.
                        storage.update { $0.stopUploads(callback: grant.callback, in: grant.pageLoad) }
                        answer = .accepted
                    }
                    respond(.answer(answer))
                case .done:
                    respond(.answer(.accepted))
                case .refused(let error):
                    respond(refuseTransfer(error, status: error.code == .limitExceeded ? 413 : 410))
                }
            }
        case .download:
            break  // answered above
        }
    }

    /// A ticket for `grant`: the answer that hands the page its address, or the refusal (the page
    /// went, or too many tickets are open). A stream's next chunk gets one on its last one's grant.
    private func openTicket(_ grant: TransferTickets<TransferPayload>.Grant, payload: TransferPayload) -> CallAnswer {
        switch storage.update({ $0.openTransfer(Self.newTransferToken(), for: grant, payload: payload) }) {
        case .success(let address): .upload(address)
        case .failure(let error): .failure(error)
        }
    }

    private static func tooManyBytes(_ limit: Int) -> BridgeError {
        BridgeError(code: .limitExceeded, message: "the call's bytes are more than BridgeLimits.transferBytes (\(limit) bytes)")
    }

    private func refuseTransfer(_ error: BridgeError, status: Int) -> TransferResponse {
        components.logging.log(.warning, "refused a request on the byte channel: \(error)")
        return .refusal(error, status: status)
    }

    /// A ticket's token: 128 bits from the system's random source.
    static func newTransferToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return TransferTickets<TransferPayload>.newToken(using: &generator)
    }
}
