// LimitTests.swift — every input from a page has a bound; past it, a coded error names the limit.
import Foundation
import Keystone
import KeystoneTesting
import Testing

struct Slow: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.async("forever") { () async throws -> Int in
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            throw CancellationError()
        }
        methods.sync("echo") { (value: JSONValue) in value }
    }
}

@Suite("Limits", .timeLimit(.minutes(1)))
struct LimitTests {
    func bridge(_ limits: BridgeLimits = BridgeLimits()) throws -> (Keystone, InMemoryPage) {
        let (keystone, page) = makeBridge(KeystoneComponents(limits: limits))
        try keystone.register(Slow(), namespace: "slow")
        page.initialize()
        return (keystone, page)
    }

    func error(_ answer: String?) throws -> BridgeError {
        struct Answer: Decodable { var error: BridgeError? }
        let text = try #require(answer)
        return try #require(try JSONDecoder().decode(Answer.self, from: Data(text.utf8)).error)
    }

    @Test func aMethodNameOverTheLimitIsRefusedWithoutBeingEchoed() throws {
        let (_, page) = try bridge()
        let name = "slow." + String(repeating: "n", count: 10_000_000)
        let refused = try error(page.prompt(name, argumentText: #"{"data":null}"#))
        #expect(refused == BridgeError(code: .limitExceeded, message: "the method name is longer than BridgeLimits.methodNameBytes (256 bytes)"))
        #expect(try error(page.prompt("slow." + String(repeating: "n", count: 251), argumentText: #"{"data":null}"#)).code == .notFound)
    }

    @Test func argumentsOverTheLimitAreRefusedBeforeTheyAreRead() throws {
        let (_, page) = try bridge(BridgeLimits(messageBytes: 1000))
        let big = #"{"data":""# + String(repeating: "x", count: 1000) + #""}"#
        #expect(try error(page.prompt("slow.echo", argumentText: big)) == BridgeError(code: .limitExceeded, message: "the call's arguments are larger than BridgeLimits.messageBytes (1000 bytes)"))
        #expect(try page.call("slow.echo", JSONValue.string(String(repeating: "x", count: 900)), as: JSONValue.self) == .string(String(repeating: "x", count: 900)))
    }

    @Test(arguments: [129, 513, 100_000])
    func nestingPastTheLimitSaysSo(depth: Int) throws {
        let (_, page) = try bridge()
        let text = #"{"data":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let refused = BridgeError(code: .limitExceeded, message: "the call nests arrays and objects deeper than BridgeLimits.nestingDepth (128 levels)")
        #expect(try error(page.prompt("slow.echo", argumentText: text)) == refused)
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        let (_, page) = try bridge()
        let text = #"{"data":"# + String(repeating: "[", count: 128) + String(repeating: "]", count: 128) + "}"
        let answer = try #require(page.prompt("slow.echo", argumentText: text))
        #expect(answer.hasPrefix(#"{"code":0,"data":[[[["#))
    }

    @Test func aCallbackNameOverTheLimitIsRefusedAndNeverPutInAScript() throws {
        let (_, page) = try bridge()
        let stub = String(repeating: "c", count: 50_000)
        let refused = try error(page.prompt("slow.forever", argumentText: #"{"data":null,"_dscbstub":"\#(stub)"}"#))
        #expect(refused == BridgeError(code: .limitExceeded, message: "the callback name is longer than BridgeLimits.callbackNameBytes (128 bytes)"))
        #expect(page.receivedMessages.isEmpty)
    }

    @Test func thePagesRunningCallsAreBoundedAndFreedWhenTheyEnd() throws {
        let (_, page) = try bridge(BridgeLimits(runningCalls: 2))
        #expect(page.prompt("slow.forever", argumentText: #"{"data":null,"_dscbstub":"dscb1"}"#) == #"{"code":0,"data":""}"#)
        #expect(page.prompt("slow.forever", argumentText: #"{"data":null,"_dscbstub":"dscb2"}"#) == #"{"code":0,"data":""}"#)
        let refused = try error(page.prompt("slow.forever", argumentText: #"{"data":null,"_dscbstub":"dscb3"}"#))
        #expect(refused == BridgeError(code: .limitExceeded, message: "the page already has BridgeLimits.runningCalls (2) calls running"))
        #expect(page.receivedMessages == [.release(callback: "dscb3")])
        // Cancelling one makes room for the next.
        #expect(page.prompt("_dsb.cancel", argumentText: #"{"data":{"callback":"dscb1"}}"#) == #"{"code":0,"data":true}"#)
        #expect(page.prompt("slow.forever", argumentText: #"{"data":null,"_dscbstub":"dscb4"}"#) == #"{"code":0,"data":""}"#)
    }

    @Test func swiftCallsWaitingForThePageAreBounded() async throws {
        let (keystone, page) = try bridge(BridgeLimits(pendingCalls: 2))
        page.registerAsync("never") { _, _ in }
        let firstCall = keystone.start("never", as: Int.self)  // made when it returns
        let first = Task { try await firstCall.value }
        let stream = keystone.stream("never", of: Int.self)
        #expect(keystone.pendingCallCount == 2)
        let third = await #expect(throws: BridgeError.self) { try await keystone.call("never", as: Int.self) }
        #expect(third == BridgeError(code: .limitExceeded, message: "BridgeLimits.pendingCalls (2) calls already wait for the page"))
        #expect(page.receivedMessages.count == 2)  // the refused call never reached the page
        // A call that settles makes room for the next.
        first.cancel()
        #expect(code(of: await first.result) == .cancelled)
        let next = keystone.stream("never", of: Int.self)
        #expect(keystone.pendingCallCount == 2)
        #expect(page.receivedMessages.count == 3)
        withExtendedLifetime((stream, next)) {}
    }
}
