// OutboundBytes.swift — the arguments of a Swift call of a page handler some of which are `Data`:
// kept as bytes until the call goes to a page, which takes them as bytes or as base64.
import Foundation
import KeystoneEvaluator

/// A Swift call's arguments where some are `Data`: each other argument's JSON, and the `Data` ones
/// as they are, each with the token of the ticket it will go under. The hub decides how they go
/// when the call goes out, once it knows the page: as bytes over the byte channel to Keystone's
/// runtime on a host that serves one, as base64 in JSON to any other.
struct OutboundBytes: Sendable {
    /// Each argument's JSON; `nil` where it is `Data`.
    var pieces: [JSONText?]
    /// The `Data` arguments, by position.
    var bytes: [(index: Int, data: Data, token: String)]

    /// `[a,b,c]`, with each `Data` argument as base64 (`bytesAsBase64`) or as `null`, in its place,
    /// for the page runtime to fill in.
    func arguments(bytesAsBase64: Bool) -> JSONText {
        var text = Data("[".utf8)
        var next = bytes.makeIterator()
        for (index, piece) in pieces.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            if let piece {
                text.append(piece.bytes)
            } else if bytesAsBase64, let argument = next.next() {
                text.append(JSONText(quoting: argument.data.base64EncodedString()).bytes)
            } else {
                text.append(contentsOf: "null".utf8)
            }
        }
        text.append(UInt8(ascii: "]"))
        // Pieces the serializer wrote and checked, and strings quoted here: always one JSON value.
        return (try? JSONText(validating: text)) ?? Self.noArguments
    }

    /// The key a call's tickets are issued under, apart from every callback a page can name.
    static func ticketKey(forCall id: Int) -> String { "swift:\(id)" }

    private static let noArguments = JSONText(quoting: "")
}
