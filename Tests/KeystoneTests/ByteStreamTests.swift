// ByteStreamTests.swift — a stream of the page's bytes into a method that takes a `ByteStream`,
// driven by an in-memory page and by the byte channel's requests themselves.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// Methods that read a stream of the page's bytes.
struct Streams: BridgeInterface {
    /// Each read of `gated` waits for one value here; finishing it stops the reading.
    let gate: AsyncStream<Void>

    func exposeMethods(to methods: inout MethodList) {
        methods.async("count") { (bytes: ByteStream) in
            var count = 0
            for try await chunk in bytes { count += chunk.count }
            return count
        }
        methods.async("join") { (bytes: ByteStream) -> Data in
            var joined = Data()
            for try await chunk in bytes { joined.append(chunk) }
            return joined
        }
        methods.async("first") { (bytes: ByteStream) -> Int in
            for try await chunk in bytes { return chunk.count }
            return -1
        }
        methods.sync("now") { (_: ByteStream) in 0 }
        methods.async("gather") { (bytes: Data) in bytes.count }
        let gate = gate
        methods.async("gated") { (bytes: ByteStream) -> Int in
            var opened = gate.makeAsyncIterator()
            var chunks = bytes.makeAsyncIterator()
            var count = 0
            while await opened.next() != nil, let chunk = try await chunks.next() { count += chunk.count }
            return count
        }
    }
}

@Suite("Byte streams into Swift", .timeLimit(.minutes(1)))
struct ByteStreamTests {
    let keystone: Keystone
    let page: InMemoryPage
    let gate: AsyncStream<Void>.Continuation
    static let window = 4 << 20

    init() throws {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.limits.transferBytes = 8 << 20
        components.limits.streamBytes = 32 << 20
        keystone = Keystone(components: components)
        let (gateStream, gate) = AsyncStream<Void>.makeStream()
        self.gate = gate
        try keystone.register(Streams(gate: gateStream), namespace: "streams")
        page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.initialize()
    }

    /// A page that posts one piece past the window (Keystone's runtime posts a chunk in pieces of
    /// 1 MiB at most, so only a page of its own making does).
    @Test(arguments: ["streams.count", "streams.gather"])
    func aPieceLargerThanTheWindowIsRefusedUnreadWhateverTheMethodTakes(_ method: String) async throws {
        let answer = page.prompt(method, argumentText: #"{"data":0,"_dscbstub":"dscb90_x","_dsparts":"stream"}"#)
        let address = try #require(ticketAddress(answer))
        #expect(keystone.piece(0, of: address, bytePattern(10)) != nil)
        let refused = keystone.piece(1, of: address, Data(count: Self.window + 1))
        #expect(refused?.refusal == BridgeError(code: .limitExceeded, message: "a stream's piece is larger than 4 MiB"))
        #expect(try await page.invoke(method, streaming: [Data(count: Self.window)], as: Int.self) == Self.window)
    }

    @Test(arguments: [[], [Data()], [bytePattern(1)], [bytePattern(251), bytePattern(4_099), bytePattern(1 << 20)]])
    func aStreamArrivesChunkByChunkInOrder(chunks: [Data]) async throws {
        let joined: Data = try await page.invoke("streams.join", streaming: chunks)
        #expect(joined == chunks.reduce(Data(), +))
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
    }

    @Test(arguments: ["streams.count", "streams.gather"])
    func aPieceWhoseBytesDidNotArriveFailsTheStreamInsteadOfEndingIt(_ method: String) async throws {
        // An engine that does not hand a request's body over shows it empty: the end of a stream
        // is said on its own (`?end=N`), so an empty piece is never taken for it.
        let first = try announce(method, callback: "dscb7_x")
        #expect(keystone.piece(0, of: first, bytePattern(5)) == .more)
        let empty = try #require(keystone.piece(1, of: first, Data()))
        #expect(empty.refusal?.code == .malformedMessage)
        await untilNoCallRuns(keystone)
        #expect(result(of: "dscb7_x") == nil)  // never answered with the 5 bytes alone
        // A piece out of order is refused, and spends the ticket.
        let other = try announce(method, callback: "dscb8_x")
        #expect(keystone.piece(1, of: other, bytePattern(3))?.refusal?.code == .malformedMessage)
        #expect(keystone.piece(0, of: other, bytePattern(3))?.refusal?.code == .notAllowed)
    }

    @Test func aStreamIntoAMethodThatTakesDataIsGathered() async throws {
        let count: Int = try await page.invoke("streams.gather", streaming: [bytePattern(3), bytePattern(5), bytePattern(1 << 20)])
        #expect(count == 8 + (1 << 20))
    }

    @Test func bytesSentAtOnceAreAStreamOfOneChunk() async throws {
        let count: Int = try await page.invoke("streams.count", bytePattern(4_099))
        #expect(count == 4_099)
    }

    @Test func aDsbridgePageSendsTheStreamAsOneBase64Chunk() async throws {
        // A page of its own, on a Keystone of its own: one Keystone serves one page.
        let other = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        try other.register(Streams(gate: AsyncStream { _ in }), namespace: "streams")
        let plain = InMemoryPage(hub: other)
        plain.initialize()
        let count: Int = try await plain.callAsync("streams.count", bytePattern(300).base64EncodedString())
        #expect(count == 300)
    }

    @Test func aSynchronousMethodCannotReadAStream() async throws {
        let error = await #expect(throws: BridgeError.self) {
            let _: Int = try await page.invoke("streams.now", streaming: [bytePattern(3)])
        }
        #expect(error?.code == .unsupportedCallKind)
    }

    @Test func aMethodThatStopsReadingEndsTheStreamForThePage() async throws {
        let first: Int = try await page.invoke("streams.first", streaming: [bytePattern(7), bytePattern(9), bytePattern(11)])
        #expect(first == 7)
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
    }

    @Test func theStreamsTicketGoesWhenTheMethodStopsReading() async throws {
        let first = try announce("streams.first", callback: "dscb3_x")
        #expect(keystone.piece(0, of: first, Data(count: 5)) == .more)
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
        var read = false
        let late = try #require(keystone.piece(1, of: first, Data(count: 5), read: &read))
        #expect(late.refusal?.code == .notAllowed)
        #expect(!read)
        #expect(result(of: "dscb3_x") == "5")
    }

    @Test func thePageWaitsWhileTheMethodIsBehind() async throws {
        let first = try announce("streams.gated", callback: "dscb1_x")
        // The method waits at its gate: a piece that fills the window is not answered.
        let full = Recorder()
        keystone.receiveBytes(ByteRequest(ticket: Keystone.ticket(of: first), kind: .piece(0), origin: nil), readBody: { _ in Data(count: Self.window) }, respond: full.record)
        #expect(full.responses.isEmpty)
        gate.yield()  // the method reads the piece: the page may send the next
        await full.untilAnswered()
        #expect(full.responses == [.more])
        // A small piece leaves room: answered at once; then the end.
        #expect(keystone.piece(1, of: first, Data(count: 10)) == .more)
        #expect(keystone.end(after: 2, of: first) == .done)
        gate.yield()
        gate.yield()
        await untilNoCallRuns(keystone)
        #expect(result(of: "dscb1_x") == "\(Self.window + 10)")
        #expect(keystone.openTransferCount == 0)
    }

    @Test(arguments: [false, true])
    func cancellingTheCallOrLeavingThePageAnswersAWaitingChunk(leaves: Bool) async throws {
        let first = try announce("streams.gated", callback: "dscb2_x")
        let full = Recorder()
        keystone.receiveBytes(ByteRequest(ticket: Keystone.ticket(of: first), kind: .piece(0), origin: nil), readBody: { _ in Data(count: Self.window) }, respond: full.record)
        #expect(full.responses.isEmpty)
        if leaves {
            page.navigate()
        } else {
            _ = page.prompt("_dsb.cancel", argumentText: #"{"data":{"callback":"dscb2_x"}}"#)
        }
        gate.finish()  // a method that ignores cancellation ends all the same
        await full.untilAnswered()
        let response = try #require(full.responses.first)
        #expect(response != .more, "the page sends no more")
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aStreamPastItsLimitIsRefusedAndFailsTheMethod() async throws {
        let error = await #expect(throws: BridgeError.self) {
            let _: Int = try await page.invoke("streams.count", streaming: Array(repeating: Data(count: 3 << 20), count: 11))
        }
        #expect(error?.code == .limitExceeded)
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aStreamLongerThanOneTransferGoesOnToTheStreamLimit() async throws {
        // BridgeLimits.transferBytes is 8 MiB here: a stream is bounded by streamBytes instead.
        let count: Int = try await page.invoke("streams.count", streaming: Array(repeating: Data(count: 3 << 20), count: 4))
        #expect(count == 12 << 20)
    }

    @Test func aChunkOverTheTransferLimitIsRefusedUnread() async throws {
        let answer = page.prompt("streams.count", argumentText: #"{"data":0,"_dscbstub":"dscb91_x","_dsparts":"stream"}"#)
        let address = try #require(ticketAddress(answer))
        #expect(keystone.piece(0, of: address, Data(count: (8 << 20) + 1))?.refusal?.code == .limitExceeded)
    }

    @Test func aStreamIntoAMethodThatTakesNoBytesIsRefused() async throws {
        try keystone.register(Binary(), namespace: "binary")
        let error = await #expect(throws: BridgeError.self) {
            let _: String = try await page.invoke("binary.name", streaming: [bytePattern(3)])
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func aMethodCalledDirectlyReadsTheChunksItIsGiven() async throws {
        var count = 0
        for try await chunk in ByteStream([bytePattern(2), bytePattern(3)]) { count += chunk.count }
        #expect(count == 5)
    }

    /// Calls `method` as Keystone's runtime announces a stream: the ticket's address.
    private func announce(_ method: String, callback: String) throws -> String {
        let answer = page.prompt(method, argumentText: #"{"data":0,"_dscbstub":"\#(callback)","_dsparts":"stream"}"#)
        return try #require(ticketAddress(answer))
    }

    /// The JSON of the complete result sent to `callback`.
    private func result(of callback: String) -> String? {
        for case .result(callback, let value, true) in page.receivedMessages { return value.string }
        return nil
    }
}

/// The byte channel's answers to requests the hub may answer later.
private final class Recorder: Sendable {
    private let answered = Watched<[ByteResponse]>([])

    var responses: [ByteResponse] { answered.withLock { $0 } }

    /// Returns once an answer has come.
    func untilAnswered() async {
        await answered.until { !$0.isEmpty }
    }

    @Sendable func record(_ response: ByteResponse) {
        answered.withLock { $0.append(response) }
    }
}

@Suite("A stream into Swift that goes idle", .timeLimit(.minutes(1)))
struct IdleStreamTests {
    let clock = ManualClock()
    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.clock = clock
        keystone = Keystone(components: components)
        try keystone.register(Streams(gate: AsyncStream { $0.finish() }), namespace: "streams")
        page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.initialize()
    }

    @Test func aPageThatKeepsItsTicketUnusedForATimeoutFailsTheMethodsReadingAndLosesTheTicket() async throws {
        let answer = page.prompt("streams.count", argumentText: #"{"data":0,"_dscbstub":"dscb1_i","_dsparts":"stream"}"#)
        let address = try #require(ticketAddress(answer))
        // The watcher looks four times a timeout; each time it finds the page sent a piece, it is
        // sending.
        for piece in 0..<3 {
            await clock.sleepers(1)
            #expect(keystone.piece(piece, of: address, Data(count: 3)) == .more)
            clock.advance(by: .seconds(15))
        }
        // Then nothing: a whole timeout after the last piece (sent at 30 s, now 90 s), it still reads.
        for _ in 0..<3 {
            await clock.sleepers(1)
            clock.advance(by: .seconds(15))
        }
        await clock.sleepers(1)
        #expect(keystone.openTransferCount == 1)
        #expect(keystone.runningCallCount == 1)
        // A quarter of a timeout more (75 s after the last piece, never twice the timeout): the
        // reading fails, and the ticket goes.
        clock.advance(by: .seconds(15))
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
        let failure = page.receivedMessages.first { if case .failure(callback: "dscb1_i", _) = $0 { true } else { false } }
        guard case .failure(_, let error) = failure else { Issue.record("the call failed"); return }
        #expect(error == BridgeError(code: .timedOut, message: "the page sent nothing of its stream for BridgeLimits.streamIdleTimeout (60 s)"))
        #expect(keystone.piece(3, of: address, Data(count: 3))?.refusal?.code == .notAllowed)
    }
}
