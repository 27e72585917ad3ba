// URLSchemeTransport.swift — the byte channel over a custom URL scheme: the page's runtime fetches
// and posts to ticket addresses, and a host's scheme handler hands each request to the hub.
import Foundation
import Keystone

/// The byte channel over a custom URL scheme (`keystone:`), as both of Keystone's hosts serve it.
///
/// A ticket's address is ``base`` and the ticket. The page's runtime:
/// - fetches a message's parts with `GET <address>`;
/// - posts piece `n` of its bytes with `POST <address>?piece=n`, the next once this one is answered;
/// - ends a stream after `n` pieces with `POST <address>?end=n`, with no body.
///
/// A host's scheme handler calls ``serve(method:url:origin:carriedBy:hub:readBody:respond:)`` for each request
/// and hands the engine the ``Response``. Any origin may read a response (`Access-Control-Allow-Origin: *`):
/// a request carries no credentials, and its ticket, not its origin, admits it. Nothing is cached.
public struct URLSchemeTransport: ByteTransport {
    /// The scheme Keystone's hosts register.
    public static let scheme = "keystone"
    /// The channel both hosts serve: `keystone://transfer/`.
    public static let keystone = URLSchemeTransport(base: "keystone://transfer/")

    /// What every ticket's address begins with.
    public let base: String

    /// A channel whose tickets' addresses begin with `base` (its scheme registered by the host).
    public init(base: String) {
        self.base = base
    }

    public func address(ofTicket ticket: String) -> String {
        base + ticket
    }

    /// What a scheme handler answers a request with: a status, headers and a body, handed to the
    /// engine as they are.
    public struct Response: Sendable, Hashable {
        /// The HTTP status: 200 with the bytes or the hub's word on a piece, 204 for a preflight,
        /// 4xx when the request is refused.
        public var status: Int
        /// `application/octet-stream` for bytes, `application/json` otherwise.
        public var contentType: String
        /// The bytes; `{"more":true}` or `{"more":false}` for a piece; the refusal's `{"code":…,"message":…}`.
        public var body: Data

        /// Every header of the response.
        public var headers: [(name: String, value: String)] {
            [
                ("Content-Type", contentType), ("Cache-Control", "no-store"),
                ("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Methods", "GET, POST"),
                ("Access-Control-Allow-Headers", "Content-Type"),
            ]
        }

        /// The status's reason phrase, for an engine that wants one.
        public var reason: String {
            switch status {
            case 200: "OK"
            case 204: "No Content"
            case 400: "Bad Request"
            case 403: "Forbidden"
            case 404: "Not Found"
            case 405: "Method Not Allowed"
            case 413: "Content Too Large"
            default: "Error"
            }
        }

        /// The answer to a request for no ticket of this channel's, or a web view with no host.
        public static let notFound = refusal(BridgeError(code: .notFound, message: "no such transfer"))

        static let preflight = Response(status: 204, contentType: "text/plain", body: Data())

        package static func refusal(_ error: BridgeError) -> Response {
            let status: Int
            switch error.code {
            case .malformedMessage: status = 400
            case .notAllowed: status = 403
            case .notFound: status = 404
            case .unsupportedCallKind: status = 405
            case .limitExceeded: status = 413
            default: status = 409
            }
            var body: [UInt8] = []
            body.append(contentsOf: #"{"code":"#.utf8)
            body.append(contentsOf: String(error.code.rawValue).utf8)
            body.append(contentsOf: #","message":"#.utf8)
            JSONText.appendQuoted(error.message, to: &body)
            body.append(UInt8(ascii: "}"))
            return Response(status: status, contentType: "application/json", body: Data(body))
        }

        package init(_ response: ByteResponse) {
            switch response {
            case .bytes(let bytes): self.init(status: 200, contentType: "application/octet-stream", body: bytes)
            case .more: self.init(status: 200, contentType: "application/json", body: Data(#"{"more":true}"#.utf8))
            case .done: self.init(status: 200, contentType: "application/json", body: Data(#"{"more":false}"#.utf8))
            case .refused(let error): self = .refusal(error)
            }
        }

        init(status: Int, contentType: String, body: Data) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    /// Reads one request of the scheme: `method` (`GET`, `POST`, `OPTIONS`), the full `url`, and the
    /// `Origin` the engine sent (`nil`: none), carried by `transport` (`ByteRequest.transport`:
    /// `scheme`, or what a host carries the scheme's requests by). Nothing here reads the body.
    public func request(method: String, url: String, origin: String?, carriedBy transport: String = "scheme") -> Result<ByteRequest, BridgeError> {
        guard url.hasPrefix(base) else { return .failure(BridgeError(code: .notFound, message: "no such transfer")) }
        let rest = url.utf8.dropFirst(base.utf8.count)
        let query = rest.firstIndex(of: UInt8(ascii: "?"))
        let ticket = String(decoding: rest[..<(query ?? rest.endIndex)], as: UTF8.self)
        switch (method, query.map { String(decoding: rest[rest.index(after: $0)...], as: UTF8.self) }) {
        case ("GET", nil):
            return .success(ByteRequest(ticket: ticket, kind: .fetch, origin: origin, transport: transport))
        case ("POST", let query?):
            if let piece = Self.number(after: "piece=", in: query) { return .success(ByteRequest(ticket: ticket, kind: .piece(piece), origin: origin, transport: transport)) }
            if let count = Self.number(after: "end=", in: query) { return .success(ByteRequest(ticket: ticket, kind: .end(count), origin: origin, transport: transport)) }
            return .failure(BridgeError(code: .malformedMessage, message: "a piece says neither its number nor the end"))
        case ("GET", _), ("POST", nil):
            return .failure(BridgeError(code: .malformedMessage, message: "a fetch takes no query, and a piece needs one"))
        default:
            return .failure(BridgeError(code: .unsupportedCallKind, message: "the byte channel takes GET and POST only"))
        }
    }

    /// The number after `key` when `query` is `key` and at most 9 decimal digits.
    private static func number(after key: String, in query: String) -> Int? {
        guard query.hasPrefix(key) else { return nil }
        let digits = query.utf8.dropFirst(key.utf8.count)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Serves one request of the scheme with `hub`: a preflight is answered here, any other request
    /// goes to the hub as a `ByteRequest`, whose body `readBody` reads (at most `limit` bytes; `nil`
    /// when it holds more) only if its ticket admits it. `respond` is called exactly once, maybe
    /// later and on another thread: a host hands the answer to its engine on the engine's thread,
    /// and drops it if the engine stopped the request meanwhile. `transport` names what carried it.
    public func serve(
        method: String, url: String, origin: String?, carriedBy transport: String = "scheme", hub: any BridgeHub,
        readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (Response) -> Void
    ) {
        if method == "OPTIONS" { return respond(.preflight) }
        switch request(method: method, url: url, origin: origin, carriedBy: transport) {
        case .failure(let error):
            respond(.refusal(error))
        case .success(let request):
            hub.receiveBytes(request, readBody: readBody) { respond(Response($0)) }
        }
    }

    /// A request's body, for a host's `readBody` once the hub's ticket has admitted the request:
    /// what `read` hands over piece by piece, whole. `read` fills the buffer it is given and returns
    /// how many bytes it wrote, 0 at the end, or a negative number when the body cannot be read.
    /// `nil` when the body holds more than `limit` bytes (reading stops at the piece that goes past
    /// it) or cannot be read.
    public static func readBody(limit: Int, _ read: (UnsafeMutableRawBufferPointer) -> Int) -> Data? {
        // The limit is what a ticket allows (up to `BridgeLimits/transferBytes`), not what a body
        // holds: a chunk of a stream is one piece of 1 MiB at most, so no more is set aside at first.
        var body = Data()
        body.reserveCapacity(min(max(limit, 0), 1 << 20))
        // One byte past the limit is enough to know the body is too long (a limit of Int.max has
        // no byte past it, and needs none: no body is that long).
        var buffer = [UInt8](repeating: 0, count: limit < 1 << 20 ? max(limit, 0) + 1 : 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes(read)
            if count == 0 { return body }
            guard count > 0, body.count + count <= limit else { return nil }
            body.append(contentsOf: buffer[..<count])
        }
    }
}
