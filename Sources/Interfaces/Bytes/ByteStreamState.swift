// ByteStreamState.swift — a stream of the page's bytes into Swift as a pure value: chunks the page
// posted, waiting for the method that reads them, and when the page may post the next.
import Foundation

/// The state of one stream of bytes from the page into a method, without locks or side effects.
///
/// The page posts one chunk at a time and posts the next only once told there is room: a chunk is
/// answered at once while fewer than ``windowBytes`` bytes wait for the reader, and otherwise when
/// the reader takes enough of them. So however fast the page and however slow the method, at most
/// ``windowBytes`` plus one chunk are held. `Reader` is what a waiting reader is resumed through,
/// `Poster` what a chunk waiting for room is answered through; each event returns what to resume,
/// for the caller to do once the lock is released.
package struct ByteStreamState<Reader, Poster> {
    /// What a reader gets: a chunk, the end (`nil`), or a failure.
    package typealias Read = Result<Data?, BridgeError>

    /// What to do after an event: resume a reader, answer a poster, both or neither.
    package struct Actions {
        package var reader: (Reader, Read)?
        package var poster: (Poster, ByteResponse)?
    }

    private enum End {
        case finished
        case failed(BridgeError)
        /// The method stopped reading: chunks are dropped and the page told to stop.
        case closed
    }

    /// The most bytes held for the reader before the page waits.
    package let windowBytes: Int
    /// The most bytes the whole stream may carry.
    package let limit: Int
    private var chunks: [Data] = []
    private var queuedBytes = 0
    private var received = 0
    private var leaveCount = 0
    private var waitingLeave: Int?
    private var end: End?
    private var reader: Reader?
    private var poster: Poster?

    package init(windowBytes: Int, limit: Int) {
        self.windowBytes = windowBytes
        self.limit = limit
    }

    /// The bytes held for the reader.
    package var heldBytes: Int { queuedBytes }

    /// Whether the stream is over: ended, failed or closed.
    package var isOver: Bool { end != nil }

    /// The number of the leave the page has to send its next piece and has not used: a page that
    /// keeps the same one unused is idle.
    package var unusedLeave: Int? { waitingLeave }

    /// The hub told the page to send its next piece (``ByteResponse/more``).
    package mutating func leaveGiven() {
        leaveCount += 1
        waitingLeave = leaveCount
    }

    /// The page posted `chunk`, answered through `poster`.
    package mutating func deliver(_ chunk: Data, answeredThrough poster: Poster) -> Actions {
        var actions = Actions()
        waitingLeave = nil
        switch end {
        case .failed(let error):
            actions.poster = (poster, .refused(error))
            return actions
        case .finished, .closed:
            actions.poster = (poster, .done)
            return actions
        case nil:
            break
        }
        received += chunk.count
        guard received <= limit else {
            let error = BridgeError(code: .limitExceeded, message: "the stream carried more than BridgeLimits.streamBytes (\(limit) bytes)")
            actions = fail(error)
            actions.poster = (poster, .refused(error))
            return actions
        }
        if let reader {
            self.reader = nil
            actions.reader = (reader, .success(chunk))
        } else {
            chunks.append(chunk)
            queuedBytes += chunk.count
        }
        if queuedBytes < windowBytes {
            actions.poster = (poster, .more)
        } else {
            self.poster = poster
        }
        return actions
    }

    /// The page's stream ended (its end posted with `?end`): the reader gets the chunks held, then the end.
    package mutating func finish() -> Actions {
        var actions = Actions()
        guard case .none = end else { return actions }
        end = .finished
        if let reader {
            self.reader = nil
            actions.reader = (reader, .success(nil))
        }
        return actions
    }

    /// The stream failed (its call was cancelled, its page went, or it carried too much): chunks
    /// held are dropped, and the reader and a waiting poster are told.
    package mutating func fail(_ error: BridgeError) -> Actions {
        stop(.failed(error), poster: .refused(error), reader: .failure(error))
    }

    /// The method stopped reading: chunks held are dropped, and a waiting poster is told to stop.
    package mutating func close() -> Actions {
        stop(.closed, poster: .done, reader: .success(nil))
    }

    /// The reader asks for the next chunk, through `reader`: resumed among the actions when a
    /// chunk, the end or a failure is there already, and kept until one is otherwise (no action).
    package mutating func next(_ reader: Reader) -> Actions {
        var actions = Actions()
        if !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            queuedBytes -= chunk.count
            actions.reader = (reader, .success(chunk))
            if queuedBytes < windowBytes, let poster {
                self.poster = nil
                actions.poster = (poster, .more)
            }
            return actions
        }
        switch end {
        case .finished, .closed: actions.reader = (reader, .success(nil))
        case .failed(let error): actions.reader = (reader, .failure(error))
        case nil: self.reader = reader
        }
        return actions
    }

    private mutating func stop(_ reason: End, poster room: ByteResponse, reader read: Read) -> Actions {
        var actions = Actions()
        if case .failed = end { return actions }
        if case .closed = end { return actions }
        end = reason
        chunks.removeAll()
        queuedBytes = 0
        if let poster {
            self.poster = nil
            actions.poster = (poster, room)
        }
        if let reader {
            self.reader = nil
            actions.reader = (reader, read)
        }
        return actions
    }
}
