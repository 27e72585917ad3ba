// ByteChannel.swift — the hub's half of the byte channel: the `Data` of a call's value moved as raw
// bytes beside its JSON, under tickets issued over the call channel.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Runs a call of the page's whose parts the byte channel has: what the route that sent the call
/// to the channel runs it with once they are here, kept with its ticket.
protocol ByteCallRunner: Sendable {
    /// Runs `call`, made during the page load `pageLoad`, and returns its answer; `isAnsweredLater`
    /// when the page has had that already (the ticket its parts came under), so every outcome goes
    /// through the call's callback.
    func run(_ call: InboundCall, pageLoad: PageLoad, isAnsweredLater: Bool) -> CallAnswer
}

/// The byte channel, as the hub runs it.
///
/// Every `Data` in a value is a part. A value's JSON refers to its parts, and the parts travel
/// beside it over the host's ``ByteTransport``, each message's or call's under one ticket:
/// - **Page → Swift.** The page announces its call's parts (their sizes, or a stream) with the call;
///   the answer is a ticket; the page sends the parts in numbered pieces, one at a time, each
///   answered ``ByteResponse/more`` or ``ByteResponse/done``; once all have arrived the call runs
///   with them, and its results and failure come through its callback, as every asynchronous
///   call's do. A stream into a method that takes a ``ByteStream`` runs at once, and a piece is
///   answered only once the method has room for more.
/// - **Swift → page.** A result, stream item, page-handler call or event whose value holds `Data`
///   goes with a ticket the page fetches its parts with (``ByteChannelState`` issues it as the
///   message leaves).
///
/// Where there is no channel (no transport, or a serializer that writes `Data` its own way), the
/// page is told so when it initializes, and `Data` goes as base64 in the value.
final class ByteChannel: Sendable {
    private let components: KeystoneComponents
    private let hub: any ByteChannelHub
    /// The serializer as it moves `Data` as parts; `nil` when it writes `Data` its own way, and the
    /// page is offered no channel.
    let partsSerializer: (any BytePartsSerializer)?

    init(components: KeystoneComponents, hub: any ByteChannelHub, partsSerializer: (any BytePartsSerializer)?) {
        self.components = components
        self.hub = hub
        self.partsSerializer = partsSerializer
    }

    /// Whether the page is offered the channel now: the serializer moves parts, and a host serves
    /// them (from `serveBytes(over:)` until `stopServingBytes()`).
    var isOffered: Bool { partsSerializer != nil && hub.withChannel { channel, _ in channel.servesBytes } }

    /// How many bytes of a stream into Swift may wait for the method reading it before the page
    /// waits too.
    static let streamWindowBytes = 4 << 20

    /// The refusal of a stream's piece larger than ``streamWindowBytes``: Keystone's runtime sends
    /// pieces of at most 1 MiB, so only a page script posting its own meets it.
    static let pieceTooLarge = BridgeError(code: .limitExceeded, message: "a stream's piece is larger than 4 MiB")

    /// The parts of a call of the page's, for a page whose runtime moves them, when the serializer
    /// writes `Data` as parts (over the channel, or as base64 beside the value where there is none).
    func callParts(origin: String?) -> CallParts? {
        partsSerializer.map { CallParts(serializer: $0, origin: origin) }
    }

    /// Checks the parts of a call's result before it goes.
    /// - Throws: `limitExceeded` past ``BridgeLimits/transferBytes``.
    func checkResultParts(_ claimed: ByteParts) throws(BridgeError) {
        let limit = components.limits.transferBytes
        guard claimed.byteCount <= limit else {
            throw BridgeError(code: .limitExceeded, message: "the result's bytes are more than BridgeLimits.transferBytes (\(limit) bytes)")
        }
    }

    // MARK: Page → Swift

    /// The page announced its call's parts: the call is checked as far as it can be without them,
    /// and the ticket to send them is its answer. Parts of no bytes need none: the call runs now.
    func start(_ call: InboundCall, _ announced: CallWrapper.Parts, pageLoad: PageLoad, runner: any ByteCallRunner) -> CallAnswer {
        guard let callback = call.pageCallback else {
            return hub.refuse(BridgeError(code: .malformedMessage, message: "bytes are sent with an asynchronous call only"), callback: nil)
        }
        guard call.parts != nil else {
            return hub.refuse(BridgeError(code: .notAllowed, message: "the page has no byte channel"), callback: callback)
        }
        let limit = components.limits.transferBytes
        switch announced {
        case .sizes(let sizes):
            // Summed with a check at each size: a page's sizes may add up past what an Int holds.
            var total = 0
            for size in sizes {
                let (sum, overflows) = total.addingReportingOverflow(size)
                guard !overflows, sum <= limit else { return hub.refuse(Self.tooManyBytes(limit), callback: callback) }
                total = sum
            }
            guard total > 0 else {
                return runner.run(call.with(received: sizes.map { _ in Data() }), pageLoad: pageLoad, isAnsweredLater: false)
            }
            return open(call, size: total, payload: .call(call, sizes: sizes, runner: runner), pageLoad: pageLoad)
        case .stream:
            let method: BridgeMethod
            do throws(BridgeError) {
                method = try (call.isBuiltIn ? .noMethod : components.registry.lookup(call.name)).method(for: call.name)
            } catch {
                return hub.refuse(error, callback: callback)
            }
            guard method.readsByteStream, method.kind != .sync else {
                return open(call, size: limit, payload: .call(call, sizes: nil, runner: runner), pageLoad: pageLoad)
            }
            let streamBytes = components.limits.streamBytes
            let stream = ByteStream(windowBytes: Self.streamWindowBytes, limit: streamBytes)
            let answer = open(call, size: streamBytes, payload: .stream(stream), pageLoad: pageLoad)
            guard case .ticket = answer else { return answer }
            stream.leaveGiven()
            watchIdle(stream, callback: callback, pageLoad: pageLoad)
            // The method starts now; should it be refused, its stream's ticket goes with it.
            let started = runner.run(call.with(stream: stream), pageLoad: pageLoad, isAnsweredLater: false)
            guard case .accepted = started else {
                stream.close()
                _ = hub.cancelRunningCall(callback: callback)
                return started
            }
            return answer
        }
    }

    /// Opens the ticket for the page's `size` bytes (at most) of `call`: the answer that hands the
    /// page its address, or the refusal, which releases the call's callback.
    private func open(_ call: InboundCall, size: Int, payload: ByteTicket.Payload, pageLoad: PageLoad) -> CallAnswer {
        let callback = call.pageCallback ?? PageCallback("")
        let ticket = ByteTicket(pageLoad: pageLoad, owner: .pageCall(callback), payload: payload, maximumBytes: size, origin: call.frame.origin)
        switch hub.withChannel({ $0.open(ticket, in: $1) }) {
        case .success(let address): return .ticket(address)
        case .failure(let error): return hub.refuse(error, callback: callback)
        }
    }

    /// The call behind `callback`, made during `pageLoad`, stopped reading the page's bytes: its
    /// ticket for the next piece goes, while its results' parts stay for the page to fetch.
    func stopReceiving(callback: PageCallback, in pageLoad: PageLoad) {
        hub.withChannel { channel, _ in channel.withdraw(pageCall: callback, in: pageLoad, receivingOnly: true) }
    }

    /// Answers one request on the channel. A piece's body is read only once its ticket admits it,
    /// and no further than the ticket allows.
    func receive(_ request: ByteRequest, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (ByteResponse) -> Void) {
        switch request.kind {
        case .fetch:
            switch hub.withChannel({ $0.fetch(request.ticket, in: $1, from: request.origin) }) {
            case .success(let ticket):
                guard case .parts(let bytes, let call) = ticket.payload else {
                    return respond(refused(BridgeError(code: .notAllowed, message: "the transfer's ticket moves bytes the other way")))
                }
                call?.fetched()
                respond(.bytes(bytes))
            case .failure(let error):
                respond(refused(error))
            }
        case .piece(let number):
            receivePiece(number, of: request, readBody: readBody, respond: respond)
        case .end(let count):
            receiveEnd(after: count, of: request, respond: respond)
        }
    }

    private func receivePiece(
        _ number: Int, of request: ByteRequest, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (ByteResponse) -> Void
    ) {
        let token = request.ticket
        let ticket: ByteTicket
        switch hub.withChannel({ $0.present(token, piece: number, in: $1, from: request.origin) }) {
        case .failure(let error): return respond(refused(error))
        case .success(let presented): ticket = presented
        }
        switch ticket.payload {
        case .stream(let stream):
            // A piece for a stream the method no longer reads, posted before the page heard: nothing
            // more is wanted, and the call's answer comes through its callback. Never read.
            guard !stream.isOver else {
                close(token)
                return respond(.done)
            }
            let limit = min(ticket.maximumBytes, Self.streamWindowBytes)
            let tooLong = BridgeError(
                code: .limitExceeded, message: "the stream is longer than BridgeLimits.streamBytes (\(components.limits.streamBytes) bytes)")
            let read = Self.read(readBody, limit: limit, tooLarge: limit < ticket.maximumBytes ? Self.pieceTooLarge : tooLong)
            guard case .success(let body) = read else {
                let error = Self.error(of: read)
                stream.fail(error)
                close(token)
                return respond(refused(error))
            }
            _ = hub.withChannel { channel, _ in channel.receive(body, under: token, keeps: false) }
            // The method's reading answers the piece: more once it has room, done, or refused.
            stream.deliver(body) { [hub] answer in
                if answer == .more { stream.leaveGiven() }
                if case .refused = answer { hub.withChannel { channel, _ in channel.close(token) } }
                respond(answer)
            }
        case .call(let call, let sizes, let runner):
            // A stream's piece is read no further than the window a stream is held back by.
            let limit = sizes == nil ? min(ticket.maximumBytes, Self.streamWindowBytes) : ticket.maximumBytes
            let tooLarge =
                sizes != nil
                ? Self.moreThanAnnounced
                : limit < ticket.maximumBytes ? Self.pieceTooLarge : Self.tooManyBytes(components.limits.transferBytes)
            let read = Self.read(readBody, limit: limit, tooLarge: tooLarge)
            guard case .success(let body) = read else {
                return fail(call, token: token, Self.error(of: read), pageLoad: ticket.pageLoad, respond: respond)
            }
            // The ticket gathers the piece: the first is kept as it came (mapped memory stays
            // unread), only a second is copied.
            if let error = hub.withChannel({ channel, _ in channel.receive(body, under: token, keeps: true) }) {
                return fail(call, token: token, error, pageLoad: ticket.pageLoad, respond: respond)
            }
            guard let sizes, body.count == ticket.maximumBytes else { return respond(.more) }
            // The last of the call's parts: it runs with them, its outcome through its callback.
            let gathered = close(token)?.gathered ?? Data()
            respond(.done)
            _ = runner.run(call.with(received: ByteParts.split(gathered, sizes: sizes)), pageLoad: ticket.pageLoad, isAnsweredLater: true)
        case .parts:
            // Never: a ticket is presented only for the way it moves bytes.
            respond(refused(BridgeError(code: .notAllowed, message: "the transfer's ticket moves bytes the other way")))
        }
    }

    private func receiveEnd(after count: Int, of request: ByteRequest, respond: @escaping @Sendable (ByteResponse) -> Void) {
        let token = request.ticket
        switch hub.withChannel({ $0.present(token, piece: count, in: $1, from: request.origin) }) {
        case .failure(let error):
            respond(refused(error))
        case .success(let ticket):
            switch ticket.payload {
            case .stream(let stream):
                close(token)
                stream.finish()
                respond(.done)
            case .call(let call, nil, let runner):
                let gathered = close(token)?.gathered ?? Data()
                respond(.done)
                _ = runner.run(call.with(received: [gathered]), pageLoad: ticket.pageLoad, isAnsweredLater: true)
            case .call(let call, _, _):
                fail(call, token: token, BridgeError(code: .malformedMessage, message: "a call's parts end when their sizes say"), pageLoad: ticket.pageLoad, respond: respond)
            case .parts:
                // Never: a ticket is presented only for the way it moves bytes.
                respond(refused(BridgeError(code: .notAllowed, message: "the transfer's ticket moves bytes the other way")))
            }
        }
    }

    /// The call's parts cannot arrive: its ticket goes, and the call fails through its callback.
    private func fail(_ call: InboundCall, token: String, _ error: BridgeError, pageLoad: PageLoad, respond: @Sendable (ByteResponse) -> Void) {
        close(token)
        if let callback = call.pageCallback { hub.send(.failure(callback: callback.name, error: error), to: pageLoad, frame: callback.frame) }
        respond(refused(error))
    }

    /// Closes the ticket `token`: the ticket, with what it gathered, if it was open.
    @discardableResult
    private func close(_ token: String) -> ByteTicket? {
        hub.withChannel { channel, _ in channel.close(token) }
    }

    /// A piece's body, read no further than `limit`: refused `tooLarge` past it, and refused when
    /// empty (an engine dropped it: no piece of Keystone's runtime is empty).
    private static func read(_ readBody: (_ limit: Int) -> Data?, limit: Int, tooLarge: BridgeError) -> Result<Data, BridgeError> {
        guard let body = readBody(limit) else { return .failure(tooLarge) }
        guard !body.isEmpty else { return .failure(BridgeError(code: .malformedMessage, message: "the piece's bytes did not arrive")) }
        return .success(body)
    }

    private static func error(of read: Result<Data, BridgeError>) -> BridgeError {
        if case .failure(let error) = read { return error }
        return BridgeError(code: .failed, message: "the piece was read")
    }

    static let moreThanAnnounced = BridgeError(code: .limitExceeded, message: "the call's bytes are more than it announced")

    static func tooManyBytes(_ limit: Int) -> BridgeError {
        BridgeError(code: .limitExceeded, message: "the call's bytes are more than BridgeLimits.transferBytes (\(limit) bytes)")
    }

    private func refused(_ error: BridgeError) -> ByteResponse {
        components.logging.log(.warning, "refused a request on the byte channel: \(error)")
        return .refused(error)
    }

    /// Watches `stream` while the page may send its next piece: when the page keeps that leave
    /// unused from one look to the next, ``BridgeLimits/streamIdleTimeout`` apart on the components'
    /// clock (so for one to two timeouts), the method's reading fails with `timedOut` (if it still
    /// reads) and the ticket goes. A page held back while the method is behind may send nothing,
    /// and is never idle. The watcher ends with the stream, so nothing of a page load outlives it.
    private func watchIdle(_ stream: ByteStream, callback: PageCallback, pageLoad: PageLoad) {
        let (clock, timeout) = (components.clock, components.limits.streamIdleTimeout)
        // It looks four times a timeout: a page that sends nothing fails between one timeout and a
        // quarter more after its last piece, never twice the timeout.
        let look = timeout / 4
        // Cancelled when the stream is over: its sleep ends at once, and so does the watcher.
        stream.watch {
            var seen: Int?
            var quietLooks = 0
            while true {
                // Cancelled: the stream is over, and what ended it took its ticket back too.
                guard (try? await clock.sleep(for: look)) != nil, !stream.isOver else { return }
                guard let unused = stream.unusedLeave, unused == seen else {
                    seen = stream.unusedLeave
                    quietLooks = 0
                    continue
                }
                quietLooks += 1
                if quietLooks >= 4 {
                    let message = "the page sent nothing of its stream for BridgeLimits.streamIdleTimeout (\(timeout.components.seconds) s)"
                    stream.fail(BridgeError(code: .timedOut, message: message))
                    self.stopReceiving(callback: callback, in: pageLoad)
                    return
                }
            }
        }
    }
}

extension PageMessage {
    /// The message with each of `parts` written as base64 in its marker's place: as a page that
    /// takes no bytes reads the value, and as the serializer writes `Data` by default.
    package func inliningParts(_ parts: ByteParts) -> PageMessage {
        // The value was checked JSON, and a marker string gives way to a base64 string.
        func inlined(_ value: JSONText) -> JSONText { (try? JSONText(validating: parts.inlined(into: value.bytes))) ?? value }
        switch self {
        case .result(let callback, let value, let complete): return .result(callback: callback, value: inlined(value), complete: complete)
        case .call(let method, let id, let arguments): return .call(method: method, callbackId: id, arguments: inlined(arguments))
        case .event(let name, let value): return .event(name: name, value: inlined(value))
        default: return self
        }
    }
}
