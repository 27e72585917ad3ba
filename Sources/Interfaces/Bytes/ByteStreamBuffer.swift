// ByteStreamBuffer.swift — the lock around one stream's state (ByteStreamState), shared by the hub,
// which delivers the page's chunks, and the method, which reads them.
import Foundation

/// The chunks of one stream of the page's bytes on their way into a method: the hub delivers
/// them as the page posts them, and the method reads them through its ``ByteStream``.
package final class ByteStreamBuffer: Sendable {
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

    /// A stream of `chunks` already delivered and finished.
    convenience init(chunks: [Data]) {
        self.init(windowBytes: .max, limit: .max)
        for chunk in chunks { deliver(chunk) { _ in } }
        finish()
    }

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

    /// The bytes held for the reader now.
    package var heldBytes: Int { state.withLock(\.heldBytes) }

    /// Whether the stream is over: ended, failed or closed.
    package var isOver: Bool { state.withLock(\.isOver) }

    /// The leave the page has to send its next piece and has not used.
    package var unusedLeave: Int? { state.withLock(\.unusedLeave) }

    /// The hub told the page to send its next piece.
    package func leaveGiven() {
        state.withLock { $0.leaveGiven() }
    }

    /// Whether the stream stopped before the page ended it.
    package var isStopped: Bool { state.withLock(\.isStopped) }

    /// The next chunk, or `nil` at the end.
    /// - Throws: `limitExceeded` past the stream's limit; `cancelled` when the reading task is
    ///   cancelled or the call is; `pageGone` when the page went.
    func next() async throws(BridgeError) -> Data? {
        let read = await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: Reader) in
                switch state.withLock({ $0.next(reader) }) {
                case .now(let read, let actions):
                    reader.resume(returning: read)
                    perform(actions)
                case .wait:
                    break
                }
            }
        } onCancel: {
            fail(BridgeError(code: .cancelled, message: "the task reading the stream was cancelled"))
        }
        return try read.get()
    }

    private func perform(_ actions: ByteStreamState<Reader, Poster>.Actions) {
        if let (reader, read) = actions.reader { reader.resume(returning: read) }
        if let (poster, room) = actions.poster { poster(room) }
    }
}
