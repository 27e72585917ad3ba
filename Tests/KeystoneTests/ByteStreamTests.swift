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

    @Test(arguments: ["streams.count", "streams.gather"])
    func aPieceLargerThanTheWindowIsRefusedUnreadWhateverTheMethodTakes(_ method: String) async throws {
        let error = await #expect(throws: BridgeError.self) {
            try await page.invoke(method, streaming: [bytePattern(10), Data(count: Self.window + 1)], as: Int.self)
        }
        #expect(error == BridgeError(code: .limitExceeded, message: "a stream's piece is larger than 4 MiB"))
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
        // is said with `?end`, so an empty piece is never taken for it.
        let first = try announce(method, callback: "dscb7_x")
        let piece = try #require(keystone.transferNow(method: "POST", url: first, origin: nil) { _ in bytePattern(5) })
        let next = try #require(uploadAddress(piece))
        let empty = try #require(keystone.transferNow(method: "POST", url: next, origin: nil) { _ in Data() })
        #expect(empty.status == 400)
        #expect(String(decoding: empty.body, as: UTF8.self).contains(#""code":4"#))
        await untilNoCallRuns(keystone)
        #expect(result(of: "dscb7_x") == nil)  // never answered with the 5 bytes alone
        // An end that carries bytes is refused too.
        let other = try #require(uploadAddress(try #require(keystone.transferNow(method: "POST", url: try announce(method, callback: "dscb8_x"), origin: nil) { _ in bytePattern(3) })))
        #expect(try #require(keystone.transferNow(method: "POST", url: other + "?end", origin: nil) { _ in bytePattern(1) }).status == 400)
    }

    @Test func aStreamIntoAMethodThatTakesDataIsGathered() async throws {
        let count: Int = try await page.invoke("streams.gather", streaming: [bytePattern(3), bytePattern(5), bytePattern(1 << 20)])
        #expect(count == 8 + (1 << 20))
    }

    @Test func bytesSentAtOnceAreAStreamOfOneChunk() async throws {
        let count: Int = try await page.invoke("streams.count", bytes: bytePattern(4_099))
        #expect(count == 4_099)
    }

    @Test func aDsbridgePageSendsTheStreamAsOneBase64Chunk() async throws {
        let plain = InMemoryPage(hub: keystone)
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

    @Test func aTicketForTheNextChunkGoesWhenTheMethodStopsReading() async throws {
        let first = try announce("streams.first", callback: "dscb3_x")
        let answered = try #require(keystone.transferNow(method: "POST", url: first, origin: nil) { _ in Data(count: 5) })
        let next = try #require(uploadAddress(answered))
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
        var read = false
        let late = try #require(
            keystone.transferNow(method: "POST", url: next, origin: nil) { _ in
                read = true
                return Data(count: 5)
            })
        #expect(late.status == 403)
        #expect(!read)
        #expect(result(of: "dscb3_x") == "5")
    }

    @Test func thePageWaitsWhileTheMethodIsBehind() async throws {
        let first = try announce("streams.gated", callback: "dscb1_x")
        // The method waits at its gate: a chunk that fills the window is not answered.
        let full = Recorder()
        keystone.handleTransfer(method: "POST", url: first, origin: nil, readBody: { _ in Data(count: Self.window) }, respond: full.record)
        #expect(full.responses.isEmpty)
        #expect(keystone.openTransferCount == 0)  // no ticket for the next chunk yet
        gate.yield()  // the method reads the chunk: the page may send the next
        await eventually("the chunk was answered") { !full.responses.isEmpty }
        let next = try #require(uploadAddress(full.responses.first))
        // A small chunk leaves room: answered at once; then the end.
        let small = try #require(keystone.transferNow(method: "POST", url: next, origin: nil) { _ in Data(count: 10) })
        let last = try #require(uploadAddress(small))
        let end = try #require(keystone.transferNow(method: "POST", url: last + "?end", origin: nil) { _ in Data() })
        #expect(String(decoding: end.body, as: UTF8.self) == #"{"code":0,"data":""}"#)
        gate.yield()
        gate.yield()
        await untilNoCallRuns(keystone)
        #expect(result(of: "dscb1_x") == "\(Self.window + 10)")
    }

    @Test(arguments: [false, true])
    func cancellingTheCallOrLeavingThePageAnswersAWaitingChunk(leaves: Bool) async throws {
        let first = try announce("streams.gated", callback: "dscb2_x")
        let full = Recorder()
        keystone.handleTransfer(method: "POST", url: first, origin: nil, readBody: { _ in Data(count: Self.window) }, respond: full.record)
        #expect(full.responses.isEmpty)
        if leaves {
            page.navigate()
        } else {
            _ = page.prompt("_dsb.cancel", argumentText: #"{"data":{"callback":"dscb2_x"}}"#)
        }
        gate.finish()  // a method that ignores cancellation ends all the same
        await eventually("the waiting chunk was answered") { !full.responses.isEmpty }
        let response = try #require(full.responses.first)
        #expect([200, 410].contains(response.status))
        #expect(uploadAddress(String(decoding: response.body, as: UTF8.self)) == nil)
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

    @Test func aChunkOverTheTransferLimitIsRefusedUnread() async throws {
        let error = await #expect(throws: BridgeError.self) {
            let _: Int = try await page.invoke("streams.count", streaming: [Data(count: (8 << 20) + 1)])
        }
        #expect(error?.code == .limitExceeded)
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

    /// Calls `method` as Keystone's runtime announces a stream: the first chunk's address.
    private func announce(_ method: String, callback: String) throws -> String {
        let answer = page.prompt(method, argumentText: #"{"data":null,"_dscbstub":"\#(callback)","_dsbytes":"stream"}"#)
        return try #require(uploadAddress(answer))
    }

    /// The JSON of the complete result sent to `callback`.
    private func result(of callback: String) -> String? {
        for case .result(callback, let value, true) in page.receivedMessages { return value.string }
        return nil
    }

    private func uploadAddress(_ answer: String?) -> String? {
        struct Upload: Decodable { var upload: String? }
        return answer.flatMap { try? JSONDecoder().decode(Upload.self, from: Data($0.utf8)).upload }
    }

    private func uploadAddress(_ response: TransferResponse?) -> String? {
        uploadAddress(response.map { String(decoding: $0.body, as: UTF8.self) })
    }
}

/// The byte channel's answers to requests the hub may answer later.
private final class Recorder: Sendable {
    private let answered = Locked<[TransferResponse]>([])

    var responses: [TransferResponse] { answered.withLock { $0 } }

    @Sendable func record(_ response: TransferResponse) {
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

    private func upload(_ answer: String?) -> String? {
        struct Upload: Decodable { var upload: String? }
        return answer.flatMap { try? JSONDecoder().decode(Upload.self, from: Data($0.utf8)).upload }
    }

    /// Posts a piece to `address`: the address of the next.
    private func post(_ address: String) throws -> String {
        let answer = keystone.transferNow(method: "POST", url: address, origin: nil) { _ in Data(count: 3) }
        return try #require(upload(answer.map { String(decoding: $0.body, as: UTF8.self) }))
    }

    @Test func aPageThatKeepsItsTicketUnusedForATimeoutFailsTheMethodsReadingAndLosesTheTicket() async throws {
        let answer = page.prompt("streams.count", argumentText: #"{"data":null,"_dscbstub":"dscb1_i","_dsbytes":"stream"}"#)
        var address = try #require(upload(answer))
        // The watcher looks every timeout; each time it finds a new ticket, the page is sending.
        await clock.sleepers(1)
        address = try post(address)
        clock.advance(by: .seconds(60))
        await clock.sleepers(1)
        address = try post(address)
        clock.advance(by: .seconds(60))
        await clock.sleepers(1)
        #expect(keystone.openTransferCount == 1)
        #expect(keystone.runningCallCount == 1)
        // Then the same ticket unused from one look to the next: the reading fails, the ticket goes.
        clock.advance(by: .seconds(60))
        await untilNoCallRuns(keystone)
        #expect(keystone.openTransferCount == 0)
        let failure = page.receivedMessages.first { if case .failure(callback: "dscb1_i", _) = $0 { true } else { false } }
        guard case .failure(_, let error) = failure else { Issue.record("the call failed"); return }
        #expect(error == BridgeError(code: .timedOut, message: "the page sent nothing of its stream for BridgeLimits.streamIdleTimeout (60 s)"))
        #expect(keystone.transferNow(method: "POST", url: address, origin: nil) { _ in Data(count: 3) }?.status == 403)
    }
}
