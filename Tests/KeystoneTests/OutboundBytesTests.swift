// OutboundBytesTests.swift — `Data` in the arguments of Swift's calls of page handlers, as parts or
// base64 as the page takes it, and a serializer of an app's own that writes `Data` its own way.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// A serializer of an app's own, which writes `Data` as it likes.
struct PlainSerializer: JSONSerializer {
    func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value { try JSONDecoder().decode(type, from: json) }
    func encode<Value: Encodable>(_ value: Value) throws -> Data { try JSONEncoder().encode(value) }
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

    @Test func dataAnywhereInTheArgumentsGoesToKeystonesRuntimeAsParts() async throws {
        let page = page(.keystone)
        let shown = try await keystone.call("show", arguments: [bytePattern(300), 7, Photo(name: "p", bytes: bytePattern(2), thumbs: [Data()])], as: [JSONValue].self)
        #expect(
            shown == [
                .string(bytePattern(300).base64EncodedString()), .number(7),
                ["name": "p", "bytes": .string(bytePattern(2).base64EncodedString()), "thumbs": [""]],
            ])
        let call = try #require(page.receivedMessages.last { if case .withParts(.call, _) = $0 { true } else { false } })
        guard case .withParts(.call(_, _, let arguments), let parts) = call else { return }
        #expect(arguments.string == #"["\#(parts.marker)0",7,{"name":"p","bytes":"\#(parts.marker)1","thumbs":["\#(parts.marker)2"]}]"#)
        #expect(parts.sizes == [300, 2, 0])
        #expect(keystone.openTransferCount == 0)  // fetched
    }

    @Test func aDsbridgePageGetsBase64AsBefore() async throws {
        let page = page(.dsbridge)
        let shown = try await keystone.call("show", arguments: [bytePattern(5)], as: [JSONValue].self)
        #expect(shown == [.string(bytePattern(5).base64EncodedString())])
        #expect(!page.receivedMessages.contains { if case .withParts = $0 { true } else { false } })
        #expect(keystone.openTransferCount == 0)
    }

    @Test func aCallMadeBeforeThePageIsReadyGoesAsThePageTakesIt() async throws {
        let page = page(.keystone, initialized: false)
        let shown = keystone.start("show", arguments: [bytePattern(9)], as: [JSONValue].self)
        #expect(keystone.pendingCallCount == 1)  // the call waits for the page
        page.initialize()
        #expect(try await shown.value == [.string(bytePattern(9).base64EncodedString())])
        #expect(page.receivedMessages.contains { if case .withParts = $0 { true } else { false } })
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
        await page.untilReceived { $0.contains { if case .withParts = $0 { true } else { false } } }
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

    @Test func anEventsDataGoesAsPartsToo() async throws {
        let page = page(.keystone)
        let heard = Watched<[JSONValue]>([])
        page.on("photo") { value in heard.withLock { $0.append(value) } }
        try keystone.emit("photo", Photo(name: "p", bytes: bytePattern(4)))
        await heard.until { !$0.isEmpty }
        #expect(heard.withLock { $0 } == [["name": "p", "bytes": .string(bytePattern(4).base64EncodedString()), "thumbs": []]])
        #expect(page.receivedMessages.contains { if case .withParts(.event, _) = $0 { true } else { false } })
        #expect(keystone.openTransferCount == 0)
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
        #expect(keystone.pendingCallCount == 1)  // the first call waits for the page
        let refused = await #expect(throws: BridgeError.self) { _ = try await keystone.call("show", arguments: [Data(count: 401)], as: JSONValue.self) }
        #expect(refused == BridgeError(code: .limitExceeded, message: "the page load would hold more bytes than BridgeLimits.pageLoadBytes (1000 bytes)"))
        held.cancel()  // its bytes go with it
        page.initialize()
        #expect(try await keystone.call("show", arguments: [Data(count: 401)], as: [JSONValue].self).count == 1)
    }
}
