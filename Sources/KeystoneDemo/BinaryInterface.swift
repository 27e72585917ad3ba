// BinaryInterface.swift — the demo's `binary` namespace: bytes in values, both ways (documented in Docs/Demo.md).
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Namespace `binary`: bytes as bytes. Byte i of every pattern is i % 251, which the far side
/// checks.
struct BinaryInterface: BridgeInterface {
    /// What `binary.callPage` takes: the page handler to call, and how many bytes to call it with.
    struct PageBytesCall: Codable, Sendable {
        var handler: String
        var count: Int
    }

    /// `count` bytes of the pattern, from byte `start` of it: one period written, then copied in
    /// doubling runs, so making the bytes costs little beside moving them.
    static func pattern(_ count: Int, from start: Int = 0) -> Data {
        var bytes = Data(count: count)
        bytes.withUnsafeMutableBytes { raw in
            let period = min(count, 251)
            for index in 0..<period { raw[index] = UInt8(truncatingIfNeeded: (start + index) % 251) }
            var filled = period
            while filled < count {
                let run = min(filled - filled % 251, count - filled)
                raw.baseAddress!.advanced(by: filled).copyMemory(from: raw.baseAddress!, byteCount: run)
                filled += run
            }
        }
        return bytes
    }

    /// Bytes with a name beside them: what `binary.describe` takes.
    struct Named: Codable, Sendable {
        var name: String
        var bytes: Data
    }

    /// What `binary.describe` answers: the name, and the bytes' count, first and last byte (-1
    /// when there are none).
    struct Description: Codable, Sendable {
        var name: String
        var count: Int
        var first: Int
        var last: Int
    }

    /// What `binary.bundle` answers: parts of bytes.
    struct Bundle: Codable, Sendable {
        var parts: [Data]
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.async("echo") { (bytes: Data) in bytes }
        methods.async("count") { (bytes: Data) in bytes.count }
        // Bytes beside metadata, in one value.
        methods.async("describe") { (named: Named) in
            Description(name: named.name, count: named.bytes.count, first: named.bytes.first.map(Int.init) ?? -1, last: named.bytes.last.map(Int.init) ?? -1)
        }
        // `count` parts, part i of i × 1000 bytes of the pattern.
        methods.async("bundle") { (count: Int) throws -> Bundle in
            guard (0...1000).contains(count) else { throw BridgeError(code: .invalidArgument, message: "a count from 0 to 1000") }
            return Bundle(parts: (0..<count).map { Self.pattern($0 * 1000) })
        }
        methods.async("make") { (count: Int) throws -> Data in
            guard (0...(1 << 30)).contains(count) else { throw BridgeError(code: .invalidArgument, message: "a count from 0 to 2^30") }
            return Self.pattern(count)
        }
        // The bytes of `make`, as base64 in JSON: for a page that times both ways in one run.
        methods.async("makeBase64") { (count: Int) throws -> String in
            guard (0...(1 << 30)).contains(count) else { throw BridgeError(code: .invalidArgument, message: "a count from 0 to 2^30") }
            return Self.pattern(count).base64EncodedString()
        }
        /// Whether `bytes` hold the pattern, byte for byte.
        methods.async("check") { (bytes: Data) in bytes == Self.pattern(bytes.count) }
        // A stream of the page's bytes in, its byte count out: read chunk by chunk as it arrives,
        // however long it is.
        methods.async("upload") { (bytes: ByteStream) in
            var count = 0
            for try await chunk in bytes { count += chunk.count }
            return count
        }
        /// Whether a stream of the page's bytes holds the pattern, byte for byte, across its chunks.
        methods.async("checkStream") { (bytes: ByteStream) in
            var start = 0
            var intact = true
            for try await chunk in bytes {
                intact = intact && chunk == Self.pattern(chunk.count, from: start)
                start += chunk.count
            }
            return intact
        }
        // Swift calls the page's handler `handler` with `count` bytes of the pattern, as `Data`: a
        // page on Keystone's runtime gets a Uint8Array. Answers what the handler answers.
        methods.async("callPage") { (request: PageBytesCall, context: CallContext) async throws -> JSONValue in
            guard (0...(1 << 28)).contains(request.count) else { throw BridgeError(code: .invalidArgument, message: "a count from 0 to 2^28") }
            return try await context.page.call(request.handler, arguments: [Self.pattern(request.count), request.count], as: JSONValue.self)
        }
        // Calls the page handler with a bundle of `count` parts (as `bundle` makes them) and its name.
        methods.async("callPageBundle") { (request: PageBytesCall, context: CallContext) async throws -> JSONValue in
            guard (0...1000).contains(request.count) else { throw BridgeError(code: .invalidArgument, message: "a count from 0 to 1000") }
            let bundle = Bundle(parts: (0..<request.count).map { Self.pattern($0 * 1000) })
            return try await context.page.call(request.handler, arguments: [Named(name: "bundle", bytes: Self.pattern(request.count)), bundle], as: JSONValue.self)
        }
        // `count` items, item i named "part i" with i × 1000 bytes of the pattern.
        methods.multiResponse("namedStream") { (count: Int, writer: ResponseWriter<Named>) in
            guard (0...1000).contains(count) else { throw BridgeError(code: .invalidArgument, message: "a count from 0 to 1000") }
            for index in 0..<count { try await writer.write(Named(name: "part \(index)", bytes: Self.pattern(index * 1000))) }
        }
        // The first chunk of the page's stream, then the Swift side gives up, as a cancelled task
        // does: the page stops sending, its call fails with the coded error, nothing is left behind.
        methods.async("uploadThenCancel") { (bytes: ByteStream) -> Int in
            for try await _ in bytes { break }
            throw BridgeError(code: .cancelled, message: "the upload was cancelled")
        }
        // `count` bytes of the pattern as a stream of chunks of at most 1 MiB, written no further
        // ahead of the page than it fetches.
        methods.multiResponse("download") { (count: Int, writer: ResponseWriter<Data>) in
            guard (0...(1 << 32)).contains(count) else { throw BridgeError(code: .invalidArgument, message: "a count from 0 to 2^32") }
            let chunk = 1 << 20
            var start = 0
            while start < count {
                let size = min(chunk, count - start)
                try await writer.write(Self.pattern(size, from: start))
                start += size
            }
        }
        // One chunk of the pattern, then the Swift side gives up, as a cancelled task does: the
        // page's stream ends with the coded error, and nothing is left behind.
        methods.multiResponse("downloadThenCancel") { (count: Int, writer: ResponseWriter<Data>) in
            try await writer.write(Self.pattern(min(max(count, 0), 1 << 20)))
            throw BridgeError(code: .cancelled, message: "the download was cancelled")
        }
    }
}
