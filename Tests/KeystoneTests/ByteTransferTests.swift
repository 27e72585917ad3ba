// ByteTransferTests.swift — `Data` moved as bytes over the byte channel, driven by an in-memory page.
import Foundation
import Keystone
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
    }
}

@Suite("Bytes as bytes", .timeLimit(.minutes(1)))
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

    @Test func aPageWithoutAByteChannelSendsTheSameBytesAsBase64() async throws {
        let plain = InMemoryPage(hub: keystone)  // a dsbridge.js page: no byte channel
        plain.initialize()
        #expect(try await plain.invoke("binary.count", bytes: bytePattern(1000), as: Int.self) == 1000)
        #expect(try await plain.invoke("binary.echo", bytes: bytePattern(300), as: Data.self) == bytePattern(300))
        #expect(try await plain.invoke("binary.count", streaming: [bytePattern(10), bytePattern(20)], as: Int.self) == 30)
    }

    @Test func anAnswerThatDoesNotDecodeIsABridgeErrorLikeEveryOtherFailure() async throws {
        let sync = #expect(throws: BridgeError.self) { try page.call("binary.make", 3, as: [String: Int].self) }
        #expect(sync?.code == .invalidResult)
        #expect(sync?.message == "the answer does not decode as Dictionary<String, Int>")
        let async = await #expect(throws: BridgeError.self) { try await page.callAsync("binary.name", "ada", as: Int.self) }
        #expect(async?.code == .invalidResult)
        #expect(async?.cause is DecodingError)
    }

    @Test func aForgottenNamespaceIsNamedTheSameForJSONBytesAndStreams() async throws {
        let json = await #expect(throws: BridgeError.self) { try await page.callAsync("photos.attach", "x", as: Int.self) }
        let bytes = await #expect(throws: BridgeError.self) { try await page.invoke("photos.attach", bytes: Data([1]), as: Int.self) }
        let stream = await #expect(throws: BridgeError.self) { try await page.invoke("photos.attach", streaming: [Data([1])], as: Int.self) }
        #expect(json == BridgeError(code: .notFound, message: #"no interface is registered under namespace "photos""#))
        #expect(bytes == json)
        #expect(stream == json)
        let method = await #expect(throws: BridgeError.self) { try await page.invoke("binary.nothing", bytes: Data([1]), as: Int.self) }
        #expect(method == BridgeError(code: .notFound, message: #"no method "binary.nothing""#))
    }

    /// The last transfer address the hub handed the page.
    var lastSource: String? {
        page.receivedMessages.reversed().lazy.compactMap { if case .bytes(_, let source, _, _) = $0 { source } else { nil } }.first
    }

    @Test(arguments: [0, 1, 250, 251, 4_099, 1 << 20])
    func bytesGoToSwiftAndComeBackByteExact(count: Int) async throws {
        let bytes = bytePattern(count)
        let echoed: Data = try await page.invoke("binary.echo", bytes: bytes)
        #expect(echoed == bytes)
        let counted: Int = try await page.invoke("binary.count", bytes: bytes)
        #expect(counted == count)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func aSynchronousMethodTakesBytesAndAnswersInline() async throws {
        let counted: Int = try await page.invoke("binary.countNow", bytes: bytePattern(300))
        #expect(counted == 300)
    }

    @Test func dataResultsComeAsBytesNotBase64() async throws {
        let made: Data = try await page.invoke("binary.make", 1_000)
        #expect(made == bytePattern(1_000))
        let later: Data = try await page.invoke("binary.makeLater", 7)
        #expect(later == bytePattern(7))
        let messages = page.receivedMessages
        #expect(messages.contains { if case .bytes(_, _, 1_000, true) = $0 { true } else { false } })
        #expect(!messages.contains { if case .result = $0 { true } else { false } })
    }

    @Test func aStreamOfDataYieldsEachChunkAsBytes() async throws {
        var chunks: [Data] = []
        for try await chunk in page.stream("binary.chunks", 4, of: Data.self) { chunks.append(chunk) }
        #expect(chunks == (1...4).map(bytePattern))
    }

    @Test func aDsbridgePageStillGetsBase64() async throws {
        let plain = InMemoryPage(hub: keystone)
        plain.initialize()
        let text: String = try await plain.callAsync("binary.makeLater", 3)
        #expect(text == bytePattern(3).base64EncodedString())
    }

    @Test func aTicketIsSpentByItsFirstUse() async throws {
        let _: Data = try await page.invoke("binary.make", 10)
        let source = try #require(lastSource)
        let replay = try #require(keystone.transferNow(method: "GET", url: source, origin: nil) { _ in Data() })
        #expect(replay.status == 403)
        #expect(!String(decoding: replay.body, as: UTF8.self).contains(source.suffix(32)))
    }

    @Test(arguments: ["0123456789abcdef0123456789abcdef", "../../etc/passwd", "", String(repeating: "f", count: 4_096)])
    func aForgedTicketIsRefusedWithoutReadingTheBody(token: String) throws {
        var read = false
        let response = try #require(
            keystone.transferNow(method: "POST", url: InMemoryPage.transferBase + token, origin: nil) { _ in
                read = true
                return Data()
            })
        #expect(response.status == 403)
        #expect(!read)
        #expect(response.body.count < 200)
    }

    @Test func aBodyOverTheLimitIsRefusedBeforeATicketIsIssued() async throws {
        let error = await #expect(throws: BridgeError.self) {
            let _: Int = try await page.invoke("binary.count", bytes: Data(count: (1 << 20) + 1))
        }
        #expect(error?.code == .limitExceeded)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func aBodyLongerThanAnnouncedIsRefusedAndTheCallFails() throws {
        let answer = page.prompt("binary.count", argumentText: #"{"data":null,"_dscbstub":"dscb90_x","_dsbytes":4}"#)
        let address = try #require(uploadAddress(answer))
        let response = try #require(keystone.transferNow(method: "POST", url: address, origin: nil) { _ in nil })
        #expect(response.status == 413)
    }

    @Test func aMethodThatTakesNoBytesRefusesThem() async throws {
        let error = await #expect(throws: BridgeError.self) {
            let _: String = try await page.invoke("binary.name", bytes: Data([1, 2, 3]))
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func aTicketFromAnEarlierPageLoadIsRefused() async throws {
        let answer = page.prompt("binary.count", argumentText: #"{"data":null,"_dscbstub":"dscb91_x","_dsbytes":2}"#)
        let address = try #require(uploadAddress(answer))
        page.navigate()
        page.initialize()
        var read = false
        let response = try #require(
            keystone.transferNow(method: "POST", url: address, origin: nil) { _ in
                read = true
                return Data([1, 2])
            })
        #expect(response.status == 403)
        #expect(!read)
    }

    @Test func aTicketPresentedFromAnotherOriginIsRefused() async throws {
        let framed = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"))
        framed.initialize()
        let answer = framed.prompt("binary.count", argumentText: #"{"data":null,"_dscbstub":"dscb92_x","_dsbytes":2}"#)
        let address = try #require(uploadAddress(answer))
        let response = try #require(keystone.transferNow(method: "POST", url: address, origin: "https://evil.example") { _ in Data([1, 2]) })
        #expect(response.status == 403)
    }

    @Test func unfetchedResultsAreCappedAndFreedByCancelOrUnload() async throws {
        for index in 0..<4 {
            let answer = page.prompt("binary.make", argumentText: #"{"data":5,"_dscbstub":"dscb9\#(index)_x","_dsinline":true,"_dsbytes":true}"#)
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

    func uploadAddress(_ answer: String?) -> String? {
        struct Upload: Decodable { var upload: String? }
        return answer.flatMap { try? JSONDecoder().decode(Upload.self, from: Data($0.utf8)).upload }
    }
}

@Suite("Swift's Data arguments to page handlers", .timeLimit(.minutes(1)))
struct OutboundBytesTests {
    let keystone: Keystone

    init() {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.limits.transferBytes = 1 << 20
        keystone = Keystone(components: components)
    }

    /// A page whose handler `show` answers what it was called with, as JSON.
    func page(_ runtime: PageRuntime, initialized: Bool = true) -> InMemoryPage {
        let page = InMemoryPage(hub: keystone, runtime: runtime)
        page.register("show") { arguments in .array(arguments) }
        if initialized { page.initialize() }
        return page
    }

    @Test func aDataArgumentGoesToKeystonesRuntimeAsBytes() async throws {
        let page = page(.keystone)
        let shown = try await keystone.call("show", arguments: [bytePattern(300), 7], as: [JSONValue].self)
        #expect(shown == [.string(bytePattern(300).base64EncodedString()), .number(7)])
        let call = try #require(page.receivedMessages.last { if case .callWithBytes = $0 { true } else { false } })
        guard case .callWithBytes(_, _, let arguments, let bytes) = call else { return }
        #expect(arguments.string == "[null,7]")
        #expect(bytes.map(\.index) == [0])
        #expect(bytes.map(\.size) == [300])
        #expect(keystone.openTransferCount == 0)  // fetched
    }

    @Test func aDsbridgePageGetsBase64AsBefore() async throws {
        let page = page(.dsbridge)
        let shown = try await keystone.call("show", arguments: [bytePattern(5)], as: [JSONValue].self)
        #expect(shown == [.string(bytePattern(5).base64EncodedString())])
        #expect(!page.receivedMessages.contains { if case .callWithBytes = $0 { true } else { false } })
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aCallMadeBeforeThePageIsReadyGoesAsThePageTakesIt() async throws {
        let page = page(.keystone, initialized: false)
        async let shown = keystone.call("show", arguments: [bytePattern(9)], as: [JSONValue].self)
        await eventually("the call waits for the page") { keystone.pendingCallCount == 1 }
        page.initialize()
        #expect(try await shown == [.string(bytePattern(9).base64EncodedString())])
        #expect(page.receivedMessages.contains { if case .callWithBytes = $0 { true } else { false } })
    }

    @Test func bytesTheHandlerNeverFetchedGoWithTheCall() async throws {
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.initialize()
        let error = await #expect(throws: BridgeError.self) {
            _ = try await keystone.call("missing", arguments: [bytePattern(9)], as: JSONValue.self)
        }
        #expect(error?.code == .notFound)
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aCancelledCallTakesItsBytesBack() async throws {
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.registerAsync("hold") { _, _ in }  // never answers
        page.initialize()
        let call = keystone.start("hold", arguments: [Data(count: 10)], as: JSONValue.self)
        await eventually("the call reached the page") { page.receivedMessages.contains { if case .callWithBytes = $0 { true } else { false } } }
        call.cancel()
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aDataArgumentPastTheLimitFailsTheCallAtOnce() async throws {
        _ = page(.keystone)
        let error = await #expect(throws: BridgeError.self) {
            _ = try await keystone.call("show", arguments: [Data(count: (1 << 20) + 1)], as: JSONValue.self)
        }
        #expect(error?.code == .limitExceeded)
    }
}

@Suite("The bytes held for a page load", .timeLimit(.minutes(1)))
struct PageLoadBytesTests {
    @Test func swiftsDataArgumentsPastThePageLoadsTotalFailTheirCallsAndTheRestGoOn() async throws {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.limits.pageLoadBytes = 1000
        let keystone = Keystone(components: components)
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.register("show") { arguments in .array(arguments) }
        // Before the page is ready, calls wait with their bytes.
        let held = keystone.start("show", arguments: [Data(count: 600)], as: JSONValue.self)
        await eventually("the first call waits for the page") { keystone.pendingCallCount == 1 }
        let refused = await #expect(throws: BridgeError.self) { _ = try await keystone.call("show", arguments: [Data(count: 401)], as: JSONValue.self) }
        #expect(refused == BridgeError(code: .limitExceeded, message: "the page load would hold more bytes than BridgeLimits.pageLoadBytes (1000 bytes)"))
        held.cancel()  // its bytes go with it
        page.initialize()
        #expect(try await keystone.call("show", arguments: [Data(count: 401)], as: [JSONValue].self).count == 1)
    }
}
