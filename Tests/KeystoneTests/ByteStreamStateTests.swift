// ByteStreamStateTests.swift — a stream of the page's bytes into Swift as a pure value: the window,
// the order, and how it ends.
import Foundation
import KeystoneInterfaces
import Testing

@Suite("A byte stream's state")
struct ByteStreamStateTests {
    /// Readers and posters named by numbers, so every action can be checked.
    typealias State = ByteStreamState<Int, Int>

    @Test func aChunkIsAnsweredAtOnceWhileTheWindowHasRoom() {
        var state = State(windowBytes: 10, limit: 100)
        let actions = state.deliver(Data(count: 9), answeredThrough: 1)
        #expect(actions.poster?.0 == 1)
        #expect(actions.poster?.1 == .more)
        #expect(state.heldBytes == 9)
    }

    @Test func aChunkThatFillsTheWindowWaitsUntilTheReaderTakesIt() throws {
        var state = State(windowBytes: 10, limit: 100)
        #expect(state.deliver(Data(count: 10), answeredThrough: 1).poster == nil)
        let actions = state.next(7)
        #expect(actions.reader?.0 == 7)
        #expect(try actions.reader?.1.get()?.count == 10)
        #expect(actions.poster?.0 == 1)
        #expect(actions.poster?.1 == .more)
        #expect(state.heldBytes == 0)
    }

    @Test func aWaitingReaderGetsTheChunkDirectly() throws {
        var state = State(windowBytes: 10, limit: 100)
        let waits = state.next(7)
        #expect(waits.reader == nil && waits.poster == nil)
        let actions = state.deliver(Data([1, 2, 3]), answeredThrough: 1)
        #expect(actions.reader?.0 == 7)
        #expect(try actions.reader?.1.get() == Data([1, 2, 3]))
        #expect(actions.poster?.1 == .more)
        #expect(state.heldBytes == 0)
    }

    @Test func chunksAreReadInOrderThenTheEnd() throws {
        var state = State(windowBytes: 100, limit: 100)
        for byte in 1...3 { _ = state.deliver(Data([UInt8(byte)]), answeredThrough: byte) }
        _ = state.finish()
        var read: [Data?] = []
        for _ in 0..<4 {
            guard let (_, result) = state.next(0).reader else { throw Failure("a finished stream waited") }
            read.append(try result.get())
        }
        #expect(read == [Data([1]), Data([2]), Data([3]), nil])
    }

    @Test func theEndReachesAWaitingReader() throws {
        var state = State(windowBytes: 10, limit: 100)
        _ = state.next(7)
        let actions = state.finish()
        #expect(actions.reader?.0 == 7)
        #expect(try actions.reader?.1.get() == nil)
    }

    @Test func aStreamPastItsLimitFailsTheReaderAndRefusesTheChunk() {
        var state = State(windowBytes: 100, limit: 10)
        _ = state.deliver(Data(count: 8), answeredThrough: 1)
        _ = state.next(7)  // takes the 8
        _ = state.next(8)  // waits
        let actions = state.deliver(Data(count: 3), answeredThrough: 2)
        #expect(actions.poster?.0 == 2)
        #expect(actions.poster?.1 == .refused(BridgeError(code: .limitExceeded, message: "the stream carried more than BridgeLimits.streamBytes (10 bytes)")))
        #expect(actions.reader?.0 == 8)
        #expect(throws: BridgeError.self) { try actions.reader?.1.get() }
    }

    @Test func failingDropsWhatIsHeldAndTellsTheWaitingPoster() {
        var state = State(windowBytes: 4, limit: 100)
        _ = state.deliver(Data(count: 4), answeredThrough: 1)
        let cancelled = BridgeError(code: .cancelled, message: "cancelled")
        let actions = state.fail(cancelled)
        #expect(actions.poster?.0 == 1)
        #expect(actions.poster?.1 == .refused(cancelled))
        #expect(state.heldBytes == 0)
        #expect(state.deliver(Data([1]), answeredThrough: 2).poster?.1 == .refused(cancelled))
    }

    @Test func aMethodThatStopsReadingTellsThePageItIsDone() {
        var state = State(windowBytes: 4, limit: 100)
        _ = state.deliver(Data(count: 4), answeredThrough: 1)
        let actions = state.close()
        #expect(actions.poster?.0 == 1)
        #expect(actions.poster?.1 == .done)
        #expect(state.heldBytes == 0)
        #expect(state.deliver(Data([1]), answeredThrough: 2).poster?.1 == .done)
    }

    @Test func aFailureAfterTheEndStillStopsTheReader() throws {
        var state = State(windowBytes: 100, limit: 100)
        _ = state.deliver(Data([1]), answeredThrough: 1)
        _ = state.finish()
        _ = state.fail(BridgeError(code: .pageGone, message: "gone"))
        guard let (_, read) = state.next(0).reader else { throw Failure("a failed stream waited") }
        #expect(throws: BridgeError.self) { try read.get() }
    }
}

/// A test's own failure, with what went wrong.
private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
