// TransferResponse.swift — the hub's answer to one request on the byte channel, for a host to send.
import Foundation

/// What a host answers a request on its byte channel with (``BridgeHub/handleTransfer(method:url:origin:readBody:respond:)``):
/// a status, headers and a body, which the host hands to its engine as they are.
public struct TransferResponse: Sendable, Hashable {
    /// The HTTP status: 200 with the bytes or the call's answer, 204 for a preflight, 4xx when the
    /// request is refused.
    public var status: Int
    /// The body's media type: `application/octet-stream` for bytes, `application/json` otherwise.
    public var contentType: String
    /// The body: a result's bytes, or a call's answer (DSBridge's `{"code":…}` text), or the
    /// refusal as that text, which never repeats anything the request held.
    public var body: Data

    /// Creates a response.
    public init(status: Int, contentType: String, body: Data) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// Every header of the response. Any origin may read it (`Access-Control-Allow-Origin: *`):
    /// a request carries no credentials, and its ticket, not its origin, is what admits it. Nothing
    /// is cached.
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

    /// The bytes of a result.
    static func bytes(_ body: Data) -> Self {
        Self(status: 200, contentType: "application/octet-stream", body: body)
    }

    /// A call's answer.
    static func answer(_ answer: CallAnswer) -> Self {
        Self(status: 200, contentType: "application/json", body: Data(answer.text.utf8))
    }

    /// A refusal, with the status that says why.
    static func refusal(_ error: BridgeError, status: Int) -> Self {
        Self(status: status, contentType: "application/json", body: Data(CallAnswer.failure(error).text.utf8))
    }

    /// The answer to a CORS preflight.
    static let preflight = Self(status: 204, contentType: "text/plain", body: Data())
}
