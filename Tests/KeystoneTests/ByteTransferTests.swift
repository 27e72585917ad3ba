// ByteTransferTests.swift — `Data` anywhere in a value moved as bytes over the byte channel, or as
// base64 where there is none, driven by an in-memory page.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// Byte i of every pattern: i % 251, which the far side checks.
func bytePattern(_ count: Int) -> Data {
    Data((0..<count).map { UInt8($0 % 251) })
}

/// Methods whose input or output is `Data`, of every kind.
struct Binary: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.async("echo") { (bytes: Data) in bytes }
        methods.async("count") { (bytes: Data) in bytes.count }
        methods.sync("countNow") { (bytes: Data) in bytes.count }
        methods.sync("make") { (count: Int) in bytePattern(count) }
        methods.async("makeLater") { (count: Int) async in bytePattern(count) }
        methods.multiResponse("chunks") { (count: Int, writer: ResponseWriter<Data>) in
            for index in 0..<count { try await writer.write(bytePattern(index + 1)) }
        }
        methods.async("name") { (text: String) in text }
        methods.async("describe") { (photo: Photo) in Description(name: photo.name, count: photo.bytes.count, thumbs: photo.thumbs.map(\.count)) }
        methods.sync("describeNow") { (photo: Photo) in photo.bytes.count }
        methods.async("bundle") { (count: Int) in Bundle(parts: (0..<count).map { bytePattern($0 * 10) }, cover: count > 0 ? bytePattern(3) : nil) }
        methods.multiResponse("bundles") { (count: Int, writer: ResponseWriter<Bundle>) in
            for index in 0..<count { try await writer.write(Bundle(parts: [bytePattern(index + 1)], cover: nil)) }
        }
    }
}

/// A value with bytes beside its metadata, as a page sends it.
/// A method durable by default whose input holds bytes.
struct DurableSum: BridgeInterface {
    struct Named: Codable, Sendable {
        var name: String
        var bytes: Data
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.async("sum") { (named: Named) async in named.bytes.reduce(0) { $0 + Int($1) } }
        methods.durable("sum")
    }
}

struct Photo: Codable, Sendable, Equatable {
    var name: String
    var bytes: Data
    var thumbs: [Data] = []
    var cover: Data? = nil
}

struct Description: Codable, Sendable, Equatable {
    var name: String
    var count: Int
    var thumbs: [Int]
}

/// A value with bytes in it, as Swift answers it.
struct Bundle: Codable, Sendable, Equatable {
    var parts: [Data]
    var cover: Data?
}

@Suite("Bytes as values", .timeLimit(.minutes(1)))
struct ByteTransferTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.limits.transferBytes = 1 << 20
        components.limits.openTransfers = 4
        keystone = Keystone(components: components)
        try keystone.register(Binary(), namespace: "binary")
        page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.initialize()
    }

    /// Pages of every kind, each with a Keystone of its own: Keystone's runtime with a byte channel
    /// and without one, and dsbridge.js.
    func pages() throws -> [InMemoryPage] {
        try [(PageRuntime.keystone, true), (.keystone, false), (.dsbridge, false)].map { runtime, servesBytes in
            var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
            components.limits.transferBytes = 1 << 20
            let keystone = Keystone(components: components)
            try keystone.register(Binary(), namespace: "binary")
            let page = InMemoryPage(hub: keystone, runtime: runtime, servesBytes: servesBytes)
            page.initialize()
            return page
        }
    }

    @Test func thePageHearsAtInitialisationWhetherItHasAByteChannel() {
        #expect(page.hasByteChannel)
        let without = InMemoryPage(hub: Keystone(), runtime: .keystone, servesBytes: false)
        without.initialize()
        #expect(!without.hasByteChannel)
        let custom = Keystone(components: KeystoneComponents(serializer: PlainSerializer()))
        let withCustomSerializer = InMemoryPage(hub: custom, runtime: .keystone)
        withCustomSerializer.initialize()
        #expect(!withCustomSerializer.hasByteChannel, "a serializer that writes Data its own way moves no parts")
    }

    @Test(arguments: [0, 1, 250, 251, 4_099, (1 << 20) - 100])
    func dataAnywhereInAValueGoesToSwiftByteExactWithOrWithoutAChannel(count: Int) async throws {
        let photo = Photo(name: "ada.png", bytes: bytePattern(count), thumbs: [Data(), bytePattern(7)], cover: count.isMultiple(of: 2) ? bytePattern(3) : nil)
        for page in try pages() {
            let described: Description = try await page.invoke("binary.describe", photo)
            #expect(described == Description(name: "ada.png", count: count, thumbs: [0, 7]))
            #expect(page.liveCallbacks.isEmpty)
        }
    }

    @Test func theCallsValueNamesItsPartsAndTheBytesGoUnderOneTicket() async throws {
        let answer = page.prompt("binary.describe", argumentText: #"{"data":{"name":"n","bytes":0,"thumbs":[1,2]},"_dscbstub":"dscb80_x","_dsparts":[3,0,2]}"#)
        let address = try #require(ticketAddress(answer))
        #expect(keystone.openTransferCount == 1)
        #expect(keystone.piece(0, of: address, Data([1, 2, 3, 4, 5])) == .done)
        await untilNoCallRuns(keystone)
        let result: [String] = page.receivedMessages.compactMap { if case .result("dscb80_x", let value, true) = $0 { value.string } else { nil } }
        #expect(result == [#"{"name":"n","count":3,"thumbs":[0,2]}"#])
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aMethodDurableByDefaultTakesTheBytesKeystonesRuntimeSendsOverTheChannel() async throws {
        // Called as any method is (no key), its bytes announced as parts: it runs durably once they
        // are here, and its outcome reaches the call's callback.
        try keystone.register(DurableSum(), namespace: "kept")
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"))
        page.initialize()
        let answer = page.prompt("kept.sum", argumentText: #"{"data":{"name":"n","bytes":0},"_dscbstub":"dscb81_d","_dsparts":[3]}"#)
        let address = try #require(ticketAddress(answer))
        #expect(keystone.piece(0, of: address, Data([1, 2, 250]), origin: "https://app.example") == .done)
        for _ in 0..<100_000 where !page.receivedMessages.contains(where: { if case .result("dscb81_d", _, _) = $0 { true } else { false } }) { await Task.yield() }
        let result = page.receivedMessages.compactMap { if case .result("dscb81_d", let value, _) = $0 { value.string } else { nil } }
        #expect(result == ["253"])
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aDurableCallsBytesTravelRawAndItsOutcomesBytesComeAsJSONKeptForItsKey() async throws {
        // The runtime's `invoke(…, {durable: key})` with bytes in its value: they go over the byte
        // channel (the JSON the method sees names them by index); the outcome, bytes and all, is
        // kept and handed again under the same key without running the method again.
        let seen = Locked<[String]>([])
        var components = KeystoneComponents(middleware: [SeenData(seen: seen)], evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.limits.transferBytes = 1 << 20
        let keystone = Keystone(components: components)
        let runs = Locked(0)
        try keystone.register(Reverse(runs: runs), namespace: "kept")
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"))
        page.initialize()
        let photo = Photo(name: "n", bytes: bytePattern(70_000), thumbs: [Data([0, 1, 255])])
        let expected = Bundle(parts: [Data(bytePattern(70_000).reversed())], cover: Data([0, 1, 255]))
        let first: Bundle = try await page.invoke("kept.reverse", photo, durable: "report-1")
        let again: Bundle = try await page.invoke("kept.reverse", photo, durable: "report-1")
        #expect(first == expected)
        #expect(again == expected)
        #expect(runs.withLock { $0 } == 1)
        #expect(seen.withLock { $0 } == [#"{"name":"n","bytes":0,"thumbs":[1]}"#])
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aSynchronousMethodTakesPartsAndAnswersThroughTheCallback() async throws {
        let count: Int = try await page.invoke("binary.describeNow", Photo(name: "n", bytes: bytePattern(300)))
        #expect(count == 300)
        let counted: Int = try await page.invoke("binary.countNow", bytePattern(5))
        #expect(counted == 5)
    }

    @Test func dataAnywhereInAResultComesAsPartsWithOrWithoutAChannel() async throws {
        for page in try pages() {
            let bundle: Bundle = try await page.invoke("binary.bundle", 3)
            #expect(bundle == Bundle(parts: [Data(), bytePattern(10), bytePattern(20)], cover: bytePattern(3)))
            let made: Data = try await page.invoke("binary.make", 1_000)
            #expect(made == bytePattern(1_000))
        }
        let _: Bundle = try await page.invoke("binary.bundle", 3)
        let withParts = page.receivedMessages.compactMap { if case .withParts(_, let parts) = $0 { parts } else { nil } }
        #expect(withParts.map(\.sizes) == [[0, 10, 20, 3]])
        #expect(withParts.allSatisfy { if case .ticket = $0.source { true } else { false } })
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aPageWithoutAChannelGetsThePartsInTheMessageAndADsbridgePageGetsBase64InPlace() async throws {
        let pages = try pages()
        let _: Bundle = try await pages[1].invoke("binary.bundle", 2)
        let inline = pages[1].receivedMessages.compactMap { if case .withParts(_, let parts) = $0 { parts.source } else { nil } }
        #expect(inline == [.inline([Data(), bytePattern(10), bytePattern(3)])])
        let text: JSONValue = try await pages[2].callAsync("binary.bundle", 2)
        #expect(text == ["parts": ["", .string(bytePattern(10).base64EncodedString())], "cover": .string(bytePattern(3).base64EncodedString())])
        #expect(!pages[2].receivedMessages.contains { if case .withParts = $0 { true } else { false } })
    }

    @Test func aStreamOfValuesWithDataYieldsEachWithItsParts() async throws {
        var bundles: [Bundle] = []
        for try await bundle in page.stream("binary.bundles", 4, of: Bundle.self) { bundles.append(bundle) }
        #expect(bundles == (1...4).map { Bundle(parts: [bytePattern($0)], cover: nil) })
        var chunks: [Data] = []
        for try await chunk in page.stream("binary.chunks", 4, of: Data.self) { chunks.append(chunk) }
        #expect(chunks == (1...4).map(bytePattern))
    }

    @Test func anAnswerThatDoesNotDecodeIsABridgeErrorLikeEveryOtherFailure() async throws {
        let sync = #expect(throws: BridgeError.self) { try page.call("binary.make", 3, as: [String: Int].self) }
        #expect(sync?.code == .invalidResult)
        #expect(sync?.message == "the answer does not decode as Dictionary<String, Int>")
        let async = await #expect(throws: BridgeError.self) { try await page.callAsync("binary.name", "ada", as: Int.self) }
        #expect(async?.code == .invalidResult)
        #expect(async?.cause is DecodingError)
    }

    @Test func aForgottenNamespaceIsNamedTheSameForJSONPartsAndStreams() async throws {
        let json = await #expect(throws: BridgeError.self) { try await page.callAsync("photos.attach", "x", as: Int.self) }
        let bytes = await #expect(throws: BridgeError.self) { try await page.invoke("photos.attach", Data([1]), as: Int.self) }
        let stream = await #expect(throws: BridgeError.self) { try await page.invoke("photos.attach", streaming: [Data([1])], as: Int.self) }
        #expect(json == BridgeError(code: .notFound, message: #"no interface is registered under namespace "photos""#))
        #expect(bytes == json)
        #expect(stream == json)
    }

    @Test func aMethodThatTakesNoBytesRefusesThemAsABadArgument() async throws {
        let error = await #expect(throws: BridgeError.self) {
            let _: String = try await page.invoke("binary.name", Data([1, 2, 3]))
        }
        #expect(error?.code == .invalidArgument)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func aTicketIsSpentByItsFetch() async throws {
        let _: Data = try await page.invoke("binary.make", 10)
        let address = try #require(lastTicket)
        let replay = try #require(keystone.fetch(address))
        #expect(replay.refusal?.code == .notAllowed)
        #expect(replay.refusal.map { !$0.message.contains(Keystone.ticket(of: address)) } == true)
    }

    /// The address of the last ticket the hub sent the page.
    var lastTicket: String? {
        page.receivedMessages.reversed().lazy.compactMap { if case .withParts(_, let parts) = $0, case .ticket(let address) = parts.source { address } else { nil } }.first
    }

    @Test(arguments: ["0123456789abcdef0123456789abcdef", "../../etc/passwd", "", String(repeating: "f", count: 4_096)])
    func aForgedTicketIsRefusedWithoutReadingTheBody(token: String) throws {
        var read = false
        let response = try #require(keystone.piece(0, of: URLSchemeTransport.keystone.base + token, Data(), read: &read))
        #expect(response.refusal?.code == .notAllowed)
        #expect(!read)
        #expect((response.refusal?.message.count ?? 0) < 200)
    }

    @Test func partsOverTheLimitAreRefusedBeforeATicketIsIssued() async throws {
        let error = await #expect(throws: BridgeError.self) {
            let _: Description = try await page.invoke("binary.describe", Photo(name: "n", bytes: Data(count: 1 << 19), thumbs: [Data(count: (1 << 19) + 1)]))
        }
        #expect(error?.code == .limitExceeded)
        #expect(page.liveCallbacks.isEmpty)
        #expect(keystone.openTransferCount == 0)
    }

    @Test func sizesThatAddUpPastWhatAnIntHoldsAreRefusedNotTrapped() {
        // 10,000 sizes of 15 digits each: more than Int.max in all.
        var components = KeystoneComponents()
        components.limits.transferBytes = .max
        let keystone = Keystone(components: components)
        try? keystone.register(Binary(), namespace: "binary")
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.initialize()
        let sizes = Array(repeating: "999999999999999", count: 10_000).joined(separator: ",")
        let answer = page.prompt("binary.count", argumentText: #"{"data":0,"_dscbstub":"dscb95_x","_dsparts":[\#(sizes)]}"#)
        #expect(answer?.contains(#""code":12"#) == true)
        #expect(keystone.openTransferCount == 0)
    }

    @Test func bytesMoreThanAnnouncedAreRefusedAndTheCallFailsThroughItsCallback() async throws {
        let answer = page.prompt("binary.count", argumentText: #"{"data":0,"_dscbstub":"dscb90_x","_dsparts":[4]}"#)
        let address = try #require(ticketAddress(answer))
        let response = try #require(keystone.piece(0, of: address, Data(count: 5)))
        #expect(response.refusal?.code == .limitExceeded)
        #expect(page.receivedMessages.contains { if case .failure("dscb90_x", let error) = $0 { error.code == .limitExceeded } else { false } })
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aPieceWithoutItsBytesFailsTheCallRatherThanRunningItShort() async throws {
        let answer = page.prompt("binary.count", argumentText: #"{"data":0,"_dscbstub":"dscb93_x","_dsparts":[4]}"#)
        let address = try #require(ticketAddress(answer))
        #expect(keystone.piece(0, of: address, Data(count: 2)) == .more)
        #expect(keystone.piece(1, of: address, Data())?.refusal?.code == .malformedMessage)
        #expect(page.receivedMessages.contains { if case .failure("dscb93_x", let error) = $0 { error.code == .malformedMessage } else { false } })
        #expect(keystone.end(after: 2, of: address)?.refusal?.code == .notAllowed, "spent")
    }

    @Test func partsAnnouncedWithoutAChannelAreRefusedWithoutACodeThatMeansSomethingElse() {
        let without = InMemoryPage(hub: keystone, runtime: .keystone, servesBytes: false)
        keystone.stopServingBytes()
        without.initialize()
        let answer = without.prompt("binary.count", argumentText: #"{"data":0,"_dscbstub":"dscb94_x","_dsparts":[4]}"#)
        #expect(answer == #"{"code":-1,"data":"","error":{"code":11,"message":"the page has no byte channel"}}"#)
    }

    @Test func aTicketFromAnEarlierPageLoadIsRefused() async throws {
        let answer = page.prompt("binary.count", argumentText: #"{"data":0,"_dscbstub":"dscb91_x","_dsparts":[2]}"#)
        let address = try #require(ticketAddress(answer))
        page.navigate()
        page.initialize()
        var read = false
        let response = try #require(keystone.piece(0, of: address, Data([1, 2]), read: &read))
        #expect(response.refusal?.code == .notAllowed)
        #expect(!read)
    }

    @Test func aTicketPresentedFromAnotherOriginIsRefused() async throws {
        let framed = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"))
        framed.initialize()
        let answer = framed.prompt("binary.count", argumentText: #"{"data":0,"_dscbstub":"dscb92_x","_dsparts":[2]}"#)
        let address = try #require(ticketAddress(answer))
        #expect(keystone.piece(0, of: address, Data([1, 2]), origin: "https://evil.example")?.refusal?.code == .notAllowed)
    }

    @Test func unfetchedResultsAreCappedAndFreedByCancelOrUnload() async throws {
        for index in 0..<4 {
            let answer = page.prompt("binary.make", argumentText: #"{"data":5,"_dscbstub":"dscb9\#(index)_x","_dsinline":true,"_dsparts":[]}"#)
            #expect(answer == #"{"code":0,"data":""}"#)
        }
        let error = await #expect(throws: BridgeError.self) {
            let _: Data = try await page.invoke("binary.makeLater", 5)
        }
        #expect(error?.code == .limitExceeded)
        page.navigate()
        page.initialize()
        let made: Data = try await page.invoke("binary.makeLater", 5)
        #expect(made == bytePattern(5))
    }

    /// The page's four calls of `method` for `count` bytes, each aborted in the turn it is made:
    /// the code each ends with.
    static func abortedAsMade(_ method: String, count: Int) -> String {
        """
        (function () {
          var calls = [];
          for (var i = 0; i < 4; i++) {
            var controller = new AbortController();
            calls.push(dsBridge.invoke('\(method)', \(count), { signal: controller.signal }).then(function () { return 0; }, function (error) { return error.code; }));
            controller.abort();
          }
          return Promise.all(calls);
        })()
        """
    }

    @Test(arguments: ["binary.make", "binary.makeLater"])
    func callsAbortedAsTheyAreMadeLeaveNoTicket(_ method: String) async throws {
        #expect(try await page.page.awaited(Self.abortedAsMade(method, count: 100_000)) == [6, 6, 6, 6])
        await untilNoCallRuns(keystone)
        await page.page.settle()
        #expect(keystone.openTransferCount == 0)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func callsAbortedBeforeThePageIsReadyLeaveNoTicketWhenItIs() async throws {
        // Made as the document loads, before the runtime announces itself: their results wait for
        // the page to be ready, and the page aborts them meanwhile.
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.limits.transferBytes = 1 << 20
        let keystone = Keystone(components: components)
        try keystone.register(Binary(), namespace: "binary")
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        async let codes = page.page.awaited(Self.abortedAsMade("binary.makeLater", count: 1000))
        await untilNoCallRuns(keystone)
        #expect(try await codes == [6, 6, 6, 6])
        page.initialize()
        await page.page.settle()
        #expect(keystone.openTransferCount == 0)
        #expect(page.liveCallbacks.isEmpty)
        let made: Data = try await page.invoke("binary.makeLater", 5)
        #expect(made == bytePattern(5))
    }

    @Test func aCallAbortedWhileItsMethodRunsLeavesNoTicketAndNoBytes() async throws {
        // The method ignores the cancel and makes its bytes all the same: nobody will fetch them,
        // so no ticket is issued for them, and the call ends with its cancellation.
        let (gate, open) = AsyncStream<Void>.makeStream()
        try keystone.register(namespace: "slow") { methods in
            methods.async("make") { (count: Int) async -> Data in
                var opened = gate.makeAsyncIterator()
                _ = await opened.next()
                return bytePattern(count)
            }
        }
        let made = Task { try await page.invoke("slow.make", 100_000, as: Data.self) }
        for _ in 0..<100_000 where keystone.runningCallCount == 0 { await Task.yield() }
        made.cancel()
        let error = await #expect(throws: BridgeError.self) { try await made.value }
        #expect(error?.code == .cancelled)
        open.yield()
        await untilNoCallRuns(keystone)
        await page.page.settle()
        #expect(keystone.openTransferCount == 0)
        #expect(page.liveCallbacks.isEmpty)
        let last = page.receivedMessages.last
        #expect(last.map { if case .failure(_, let error) = $0 { error.code == .cancelled } else { false } } == true, "the call ends cancelled, with no result: \(String(describing: last))")
    }
}

/// Keeps the JSON of every call of the app's it sees.
private struct SeenData: CallMiddleware {
    let seen: Locked<[String]>

    func intercept<Answer>(_ call: InboundCall, next: () throws -> Answer) throws -> Answer {
        seen.withLock { $0.append(String(decoding: call.data ?? Data(), as: UTF8.self)) }
        return try next()
    }
}

/// Answers a photo with its bytes reversed and its first thumbnail, counting its runs.
private struct Reverse: BridgeInterface {
    let runs: Locked<Int>

    func exposeMethods(to methods: inout MethodList) {
        methods.async("reverse") { [runs] (photo: Photo) async in
            runs.withLock { $0 += 1 }
            return Bundle(parts: [Data(photo.bytes.reversed())], cover: photo.thumbs.first)
        }
    }
}
