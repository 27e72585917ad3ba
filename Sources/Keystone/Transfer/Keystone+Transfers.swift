// Keystone+Transfers.swift — a call's `Data` moved as bytes over the host's byte channel: tickets
// issued over the call channel, redeemed by the channel's requests.
import Foundation

extension Keystone {
    public func serveTransfers(at base: String) {
        storage.update { $0.serveTransfers(at: base) }
    }

    /// The page announced its call's argument as `size` bytes (`"_dsbytes": N`): the call is checked
    /// as far as it can be without them, and a ticket to send them is its answer. The call runs when
    /// they arrive (``handleTransfer(method:url:origin:readBody:)``).
    func startUpload(_ call: InboundCall, size: Int, route: InboundCallRunner.Route, epoch: PageEpoch) -> CallAnswer {
        guard let callback = call.callback else {
            return refuse(BridgeError(code: .unsupportedCallKind, message: "bytes are sent with an asynchronous call only"), callback: nil)
        }
        let method: BridgeMethod
        switch route == .app ? components.registry.lookup(call.name) : .noMethod {
        case .found(let found): method = found
        case .noInterface, .noMethod: return refuse(BridgeError(code: .notFound, message: "no method \"\(call.name)\""), callback: callback)
        }
        guard method.takesBytes else {
            return refuse(BridgeError(code: .invalidArgument, message: "\"\(call.name)\" takes no bytes"), callback: callback)
        }
        let limit = components.limits.transferBytes
        guard size <= limit else {
            let error = BridgeError(code: .limitExceeded, message: "the call's bytes are more than the limit of \(limit) bytes")
            return refuse(error, callback: callback)
        }
        let grant = TransferTickets<TransferPayload>.Grant(
            pageLoad: epoch, callback: callback, direction: .toSwift, maximumBytes: size, origin: call.frame.origin)
        switch storage.update({ $0.openTransfer(Self.newTransferToken(), for: grant, payload: .upload(call, route)) }) {
        case .success(let address): return .upload(address)
        case .failure(let error): return refuse(error, callback: callback)
        }
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
            throw BridgeError(code: .limitExceeded, message: "the result's bytes are more than the limit of \(limit) bytes")
        }
        let grant = TransferTickets<TransferPayload>.Grant(
            pageLoad: epoch, callback: callback, direction: .toPage, maximumBytes: bytes.count, origin: origin)
        let address = try storage.update { $0.openTransfer(Self.newTransferToken(), for: grant, payload: .download(bytes, flow)) }.get()
        flow?.sent()
        return .bytes(callback: callback, source: address, size: bytes.count, complete: complete)
    }

    public func handleTransfer(method: String, url: String, origin: String?, readBody: (_ limit: Int) -> Data?) -> TransferResponse {
        if method == "OPTIONS" { return .preflight }
        guard let base = storage.read(\.transferBase), url.hasPrefix(base) else {
            return refuseTransfer(BridgeError(code: .notFound, message: "no such transfer"), status: 404)
        }
        let token = String(url.utf8.dropFirst(base.utf8.count)) ?? ""
        let direction: TransferTickets<TransferPayload>.Direction
        switch method {
        case "POST": direction = .toSwift
        case "GET": direction = .toPage
        default: return refuseTransfer(BridgeError(code: .notAllowed, message: "the byte channel takes GET and POST only"), status: 405)
        }
        // The ticket moves bytes the way the request does, or it is refused: an upload's ticket
        // is presented by a POST, a result's by a GET.
        switch storage.update({ $0.redeemTransfer(token, direction: direction, from: origin) }) {
        case .failure(let error):
            return refuseTransfer(error, status: 403)
        case .success((let grant, .upload(let call, let route))):
            // Admitted: now, and only now, the body is read, no further than announced.
            guard let body = readBody(grant.maximumBytes) else {
                return refuseTransfer(BridgeError(code: .limitExceeded, message: "the call's bytes are more than it announced"), status: 413)
            }
            guard body.count == grant.maximumBytes else {
                return refuseTransfer(BridgeError(code: .malformedMessage, message: "the call's bytes are fewer than it announced"), status: 400)
            }
            return .answer(InboundCallRunner(keystone: self, call: call.with(bytes: body), epoch: grant.pageLoad, route: route).answer())
        case .success((_, .download(let bytes, let flow))):
            flow?.fetched()
            return .bytes(bytes)
        }
    }

    private func refuseTransfer(_ error: BridgeError, status: Int) -> TransferResponse {
        components.logging.log(.warning, "refused a request on the byte channel: \(error)")
        return .refusal(error, status: status)
    }

    /// A ticket's token: 128 bits from the system's random source.
    private static func newTransferToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return TransferTickets<TransferPayload>.newToken(using: &generator)
    }
}
