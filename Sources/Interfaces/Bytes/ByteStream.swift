// ByteStream.swift — a method's input that is a stream of the page's bytes, read chunk by chunk as
// the page sends them, with the page held back while the method is behind: the method reads it,
// the hub delivers to it, both through the lock around its state (ByteStreamState).
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
///
/// A stream is one object however it is copied: the hub holds it to deliver the page's chunks
/// while the method reads them.
public struct ByteStream: AsyncSequence, Sendable, Decodable {
    /// A chunk of the page's bytes.
    public typealias Element = Data
    /// Why reading stopped short: cancelled, the page gone, or the stream too long.
    public typealias Failure = BridgeError
    /// Answers the page's post of a chunk: whether to post the next.
    package typealias Poster = @Sendable (ByteResponse) -> Void
    private typealias Reader = CheckedContinuation<Result<Data?, BridgeError>, Never>

    private let state: Locked<ByteStreamState<Reader, Poster>>
    /// What watches the stream for an idle page, ended with the stream: nothing outlives it.
    private let watcher = Locked<Task<Void, Never>?>(nil)

    /// A stream that holds at most `windowBytes` for its reader before the page waits, and carries
    /// at most `limit` bytes in all.
    package init(windowBytes: Int, limit: Int) {
        state = Locked(ByteStreamState(windowBytes: windowBytes, limit: limit))
    }

    /// A stream of `chunks`, for a test or a direct call of a method that takes a stream.
    public init(_ chunks: [Data]) {
        self.init(windowBytes: .max, limit: .max)
        for chunk in chunks { deliver(chunk) { _ in } }
        finish()
    }

    /// The stream of one chunk, a `Data` as the serializer decodes it (base64 in JSON): what a
    /// page without a byte channel sends.
    public init(from decoder: any Decoder) throws {
        // Through a container, so the serializer's own reading of `Data` (base64) applies.
        try self.init([decoder.singleValueContainer().decode(Data.self)])
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads the stream's chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        /// A chunk of the page's bytes.
        public typealias Element = Data
        /// Why reading stopped short: cancelled, the page gone, or the stream too long.
        public typealias Failure = BridgeError

        fileprivate let stream: ByteStream

        /// The next chunk, or `nil` at the end of the stream.
        public mutating func next() async throws(BridgeError) -> Data? {
            try await stream.next()
        }

        /// The next chunk, or `nil` at the end of the stream.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BridgeError) -> Data? {
            try await stream.next()
        }
    }

    // MARK: The hub's side

    /// The page posted `chunk`; `poster` is told, now or once the reader has taken enough, whether
    /// to post the next.
    package func deliver(_ chunk: Data, poster: @escaping Poster) {
        perform(state.withLock { $0.deliver(chunk, answeredThrough: poster) })
    }

    /// The page's stream ended.
    package func finish() {
        perform(state.withLock { $0.finish() })
        endWatching()
    }

    /// The stream failed with `error`: its call was cancelled, or its page went.
    package func fail(_ error: BridgeError) {
        perform(state.withLock { $0.fail(error) })
        endWatching()
    }

    /// The method stopped reading (its call ended): the page is told to stop posting.
    package func close() {
        perform(state.withLock { $0.close() })
        endWatching()
    }

    /// Runs `body` as the stream's watcher, cancelled when the stream is over (at once, if it is).
    package func watch(_ body: @escaping @Sendable () async -> Void) {
        let task = Task(operation: body)
        watcher.withLock { $0 = task }
        if isOver { endWatching() }
    }

    private func endWatching() {
        watcher.withLock { $0 }?.cancel()
    }

    /// Whether the stream is over: ended, failed or closed.
    package var isOver: Bool { state.withLock(\.isOver) }

    /// The leave the page has to send its next piece and has not used.
    package var unusedLeave: Int? { state.withLock(\.unusedLeave) }

    /// The hub told the page to send its next piece.
    package func leaveGiven() {
        state.withLock { $0.leaveGiven() }
    }

    // MARK: The method's side

    /// The next chunk, or `nil` at the end.
    /// - Throws: `limitExceeded` past the stream's limit; `cancelled` when the reading task is
    ///   cancelled or the call is; `pageGone` when the page went.
    private func next() async throws(BridgeError) -> Data? {
        let read = await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: Reader) in
                perform(state.withLock { $0.next(reader) })
            }
        } onCancel: {
            fail(BridgeError(code: .cancelled, message: "the task reading the stream was cancelled"))
        }
        return try read.get()
    }

    /// Resumes what an event of the state's says to, outside its lock.
    private func perform(_ actions: ByteStreamState<Reader, Poster>.Actions) {
        if let (reader, read) = actions.reader { reader.resume(returning: read) }
        if let (poster, room) = actions.poster { poster(room) }
    }
}
