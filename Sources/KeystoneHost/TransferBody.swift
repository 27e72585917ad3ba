// TransferBody.swift — a request body on the byte channel, read the way each host's engine hands
// it over: in pieces, never further than its limit.
import Foundation
import Keystone

/// Reads the body of a request on a host's byte channel, once the hub's ticket has admitted it
/// (`BridgeHub.receiveBytes(_:readBody:respond:)` calls the host's `readBody`).
public enum TransferBody {
    /// The body `read` hands over piece by piece, whole: `read` fills the buffer it is given and
    /// returns how many bytes it wrote, 0 at the end, or a negative number when the body cannot be
    /// read. `nil` when it holds more than `limit` bytes (reading stops at the piece that goes past
    /// it) or cannot be read.
    public static func read(limit: Int, _ read: (UnsafeMutableRawBufferPointer) -> Int) -> Data? {
        // The limit is what a ticket allows (up to `BridgeLimits/transferBytes`), not what a body
        // holds: a chunk of a stream is one piece of 1 MiB at most, so no more is set aside at first.
        var body = Data()
        body.reserveCapacity(min(max(limit, 0), 1 << 20))
        // One byte past the limit is enough to know the body is too long.
        var buffer = [UInt8](repeating: 0, count: min(1 << 20, max(limit, 0) + 1))
        while true {
            let count = buffer.withUnsafeMutableBytes(read)
            if count == 0 { return body }
            guard count > 0, body.count + count <= limit else { return nil }
            body.append(contentsOf: buffer[..<count])
        }
    }
}
