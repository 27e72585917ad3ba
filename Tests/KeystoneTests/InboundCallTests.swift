// InboundCallTests.swift — the page calling Swift: sync, async, multi-response, every form.
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("Calls from the page", .timeLimit(.minutes(1)))
struct InboundCallTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        try keystone.register(Counter(), namespace: "stream")
        try keystone.register(Notebook(), namespace: "notes")
        page.initialize()
    }

    @Test func aSyncCallIsAnsweredInsideThePromptWithCodeZero() throws {
        let answer = page.prompt("math.add", argumentText: #"{"data":[1,2,3.5]}"#)
        #expect(answer == #"{"code":0,"data":6.5}"#)
        #expect(try page.call("math.add", [1.0, 2.0], as: Double.self) == 3)
    }

    @Test func whiteSpaceAroundTheMethodNameIsTrimmed() throws {
        #expect(try page.call("  math.add \n", [1.0, 2.0], as: Double.self) == 3)
    }

    @Test func noArgumentAndNoResultFormsWork() throws {
        #expect(try page.call("math.pi", as: Double.self) == 3.14)
        // A method that returns nothing answers "" as DSBridge does, marked for Keystone's runtime.
        #expect(page.prompt("math.nothing", argumentText: #"{"data":null}"#) == #"{"code":0,"data":"","void":true}"#)
        #expect(page.prompt("math.ignore", argumentText: #"{"data":{"any":[1]}}"#) == #"{"code":0,"data":"","void":true}"#)
        // dsbridge.js 3.1.4 sends `null` for a missing argument; older pages send "" or nothing.
        #expect(page.prompt("math.pi", argumentText: #"{"data":""}"#) == #"{"code":0,"data":3.14}"#)
        #expect(page.prompt("math.pi", argumentText: #"{}"#) == #"{"code":0,"data":3.14}"#)
    }

    @Test func theRawFormTakesAndReturnsAnyJSON() throws {
        let value: JSONValue = ["nested": [1, "two", nil, true]]
        #expect(try page.call("math.raw", value, as: JSONValue.self) == [value, "seen"])
    }

    @Test func anOptionalInputAcceptsNullAndAMissingData() throws {
        #expect(try page.call("math.optional", 21, as: Int?.self) == 42)
        #expect(try page.call("math.optional", as: Int?.self) == nil)
        #expect(page.prompt("math.optional", argumentText: "{}") == #"{"code":0,"data":null}"#)
    }

    @Test func anAsyncCallReturnsAtOnceThenAnswersThroughItsCallback() async throws {
        let answer = page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1,"b":2},"_dscbstub":"dscb99"}"#)
        #expect(answer == #"{"code":0,"data":""}"#)
        #expect(try await page.callAsync("math.slowAdd", Pair(a: 2, b: 3), as: Double.self) == 5)
        #expect(try await page.callAsync("math.later", as: String.self) == "later")
        #expect(try await page.callAsync("math.store", "x", as: String.self) == "")
        #expect(try await page.callAsync("math.done", as: String.self) == "")
    }

    @Test func theFinalAsyncResultDeletesItsCallback() async throws {
        _ = try await page.callAsync("math.slowAdd", Pair(a: 1, b: 1), as: Double.self)
        let last = try #require(page.receivedMessages.last)
        guard case .result(let callback, let value, let complete) = last else {
            Issue.record("expected a result, got \(last)")
            return
        }
        #expect(callback.hasPrefix("dscb"))
        #expect(value.string == "2")
        #expect(complete)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func anActorInterfaceAnswersAsynchronously() async throws {
        #expect(try await page.callAsync("notes.add", "one", as: Int.self) == 1)
        #expect(try await page.callAsync("notes.add", "two", as: Int.self) == 2)
    }

    @Test func aMultiResponseCallSendsEveryResultThenCompletes() async throws {
        var results: [Int] = []
        for try await n in page.stream("stream.countdown", 3, of: Int.self) {
            results.append(n)
        }
        #expect(results == [3, 2, 1, 0])
        let messages = page.receivedMessages.suffix(5)
        #expect(messages.last.map { if case .completion = $0 { true } else { false } } == true)
        #expect(messages.dropLast().allSatisfy { if case .result(_, _, false) = $0 { true } else { false } })
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func aMultiResponseCallWithNoResultsJustCompletes() async throws {
        var count = 0
        for try await _ in page.stream("stream.nothing", of: Int.self) { count += 1 }
        #expect(count == 0)
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func aMultiResponseFailureReachesThePageAfterItsResults() async throws {
        var results: [String] = []
        let error = await #expect(throws: BridgeError.self) {
            for try await item in page.stream("stream.failAfter", 2, of: String.self) { results.append(item) }
        }
        #expect(results == ["item 0", "item 1"])
        #expect(error?.code.rawValue == 1002)
        #expect(error?.message == "ran dry")
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func callsFromManyTasksAtOnceAreEachAnsweredCorrectly() async throws {
        try await withThrowingTaskGroup(of: (Int, Double, Double).self) { group in
            for n in 0..<200 {
                group.addTask {
                    let sync = try page.call("math.add", [Double(n), 1], as: Double.self)
                    let async = try await page.callAsync("math.slowAdd", Pair(a: Double(n), b: 2), as: Double.self)
                    return (n, sync, async)
                }
            }
            var seen = 0
            for try await (n, sync, async) in group {
                #expect(sync == Double(n) + 1)
                #expect(async == Double(n) + 2)
                seen += 1
            }
            #expect(seen == 200)
        }
        #expect(page.liveCallbacks.isEmpty)
    }
}
