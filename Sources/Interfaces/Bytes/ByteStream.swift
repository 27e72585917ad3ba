// ByteStream.swift — a method's input that is a stream of the page's bytes, read chunk by chunk as
// the page sends them, with the page held back while the method is behind.
import Foundation

/// A stream of bytes from the page, as a method's input: an `AsyncSequence` of `Data` chunks.
///
/// ```swift
/// methods.async("upload") { (bytes: ByteStream) -> Int in
///     var count = 0
///     for try await chunk in bytes { count += chunk.count }
///     return count
/// }
/// ```
///
/// The method starts as soon as the page calls it and reads each chunk as it arrives over the
/// host's byte channel. The page sends the next chunk only while few bytes wait for the method,
/// so a stream of any length holds a few megabytes at most.
///
/// - The page passes a `ReadableStream` (its chunks `Uint8Array`s or other bytes), a `Blob` or
///   `File`, an `ArrayBuffer`, a typed array or a `DataView`. Where there is no byte channel
///   (dsbridge.js and WebViewJavascriptBridge pages, or a host without one), the argument is a
///   `Data`, base64 in JSON, and the stream is that one chunk.
/// - Iterating throws ``BridgeError``: `cancelled` when the call or the reading task is cancelled,
///   `pageGone` when the page goes, `limitExceeded` past the hub's limit on a stream (`BridgeLimits.streamBytes`).
/// - When the method returns, the page stops sending; chunks it had not read are dropped.
public struct ByteStream: AsyncSequence, Sendable, Decodable {
    /// A chunk of the page's bytes.
    public typealias Element = Data
    /// Why reading stopped short: cancelled, the page gone, or the stream too long.
    public typealias Failure = BridgeError

    private let buffer: ByteStreamBuffer

    package init(buffer: ByteStreamBuffer) {
        self.buffer = buffer
    }

    /// A stream of `chunks`, for a test or a direct call of a method that takes a stream.
    public init(_ chunks: [Data]) {
        buffer = ByteStreamBuffer(chunks: chunks)
    }

    /// The stream of one chunk, a `Data` as the serializer decodes it (base64 in JSON): what a
    /// page without a byte channel sends.
    public init(from decoder: any Decoder) throws {
        // Through a container, so the serializer's own reading of `Data` (base64) applies.
        try self.init([decoder.singleValueContainer().decode(Data.self)])
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(buffer: buffer)
    }

    /// Reads the stream's chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        /// A chunk of the page's bytes.
        public typealias Element = Data
        /// Why reading stopped short: cancelled, the page gone, or the stream too long.
        public typealias Failure = BridgeError

        fileprivate let buffer: ByteStreamBuffer

        /// The next chunk, or `nil` at the end of the stream.
        public mutating func next() async throws(BridgeError) -> Data? {
            try await buffer.next()
        }

        /// The next chunk, or `nil` at the end of the stream.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BridgeError) -> Data? {
            try await buffer.next()
        }
    }
}
