// OutboundCallTests.swift — Swift calling the page: typed results, streams, queueing, settlement.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Calls to the page", .timeLimit(.minutes(1)))
struct OutboundCallTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() {
        (keystone, page) = makeBridge()
        page.register("add") { args in
            guard case .number(let a) = args[0], case .number(let b) = args[1] else { return nil }
            return .number(a + b)
        }
        page.register("ns.deep.greet") { args in .string("hello \(args.first ?? nil)") }
        page.register("nothing") { _ in nil }
        page.registerAsync("ticks") { args, reply in
            guard case .number(let count) = args[0] else { return }
            for n in 0..<Int(count) { reply(.number(Double(n)), complete: n == Int(count) - 1) }
        }
        page.registerAsync("later") { _, reply in
            Task { reply("later") }
        }
        page.registerAsync("never") { _, _ in }
    }

    @Test func aCallReturnsTheHandlersTypedResult() async throws {
        page.initialize()
        let sum = try await keystone.call("add", 2, 3.5, as: Double.self)
        #expect(sum == 5.5)
        let greeting: String = try await keystone.call("ns.deep.greet", "page")
        #expect(greeting == #"hello "page""#)
        #expect(try await keystone.call("later", as: String.self) == "later")
    }

    @Test func aCallCarriesItsArgumentsAsTheProtocolsJSONArray() async throws {
        page.initialize()
        _ = try await keystone.call("add", 1, 2, as: Double.self)
        let call = try #require(page.receivedMessages.first)
        #expect(ScriptRenderer.render([call]) == #"try{window._handleMessageFromNative({"method":"add","callbackId":1,"data":"[1,2]"})}catch(e){}"#)
    }

    @Test func argumentsBuiltAtRunTimeArePassedPositionally() async throws {
        page.initialize()
        #expect(try await keystone.call("add", arguments: [4, 5], as: Double.self) == 9)
        var results: [Int] = []
        for try await n in keystone.stream("ticks", arguments: [2], of: Int.self) { results.append(n) }
        #expect(results == [0, 1])
        let call = try #require(page.receivedMessages.first)
        #expect(call == .call(method: "add", callbackId: 1, arguments: try JSONText(validating: Data("[4,5]".utf8))))
    }

    @Test func anUndefinedResultDecodesAsNull() async throws {
        page.initialize()
        #expect(try await keystone.call("nothing", as: JSONValue.self) == .null)
        #expect(try await keystone.call("nothing", as: Int?.self) == nil)
    }

    @Test func aResultOfTheWrongTypeIsAnInvalidResult() async throws {
        page.initialize()
        let error = await #expect(throws: BridgeError.self) { try await keystone.call("add", 1, 2, as: String.self) }
        #expect(error?.code == .invalidResult)
    }

    @Test func aStreamYieldsEveryResultUntilComplete() async throws {
        page.initialize()
        var results: [Int] = []
        for try await n in keystone.stream("ticks", 4, of: Int.self) { results.append(n) }
        #expect(results == [0, 1, 2, 3])
    }

    @Test func hasJavaScriptMethodAsksThePage() async throws {
        page.initialize()
        #expect(try await keystone.hasJavaScriptMethod("add"))
        #expect(try await keystone.hasJavaScriptMethod("ns.deep.greet"))
        #expect(try await !keystone.hasJavaScriptMethod("missing"))
    }

    @Test(arguments: [PageRuntime.dsbridge, .keystone])
    func aNamespaceThePageLacksHasNoMethodRatherThanFailing(runtime: PageRuntime) async throws {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
        let page = InMemoryPage(hub: keystone, runtime: runtime)
        page.register("page.title") { _ in "t" }
        page.initialize()
        #expect(try await !keystone.hasJavaScriptMethod("nope.XX"))
        #expect(try await !keystone.hasJavaScriptMethod("page.missing"))
        #expect(try await keystone.hasJavaScriptMethod("page.title"))
    }

    @Test func dsbridgeAnswersANamespaceItLacksWithNoData() async throws {
        let recorded = Locked<[String]>([])
        let hub = RecordingHub(keystone, prompts: recorded)
        let page = InMemoryPage(hub: hub)
        page.initialize()
        _ = try await keystone.hasJavaScriptMethod("nope.XX")
        let prefix = "_dsbridge=_dsb.returnValue "
        let text = try #require(recorded.withLock { $0 }.last { $0.hasPrefix(prefix) })
        let wrapper = try JSONDecoder().decode([String: [String: JSONValue]].self, from: Data(text.dropFirst(prefix.count).utf8))
        #expect(wrapper["data"]?["id"] == 1)
        #expect(wrapper["data"]?.keys.contains("data") == false)
    }

    @Test func callsBeforeDsinitWaitAndGoOutInOrderAfterIt() async throws {
        let first = keystone.start("ns.deep.greet", "1", as: String.self)  // made when it returns
        let second = keystone.start("add", 1, 1, as: Double.self)
        #expect(keystone.pendingCallCount == 2)
        #expect(page.receivedMessages.isEmpty)
        page.initialize()
        #expect(try await second.value == 2)
        #expect(try await first.value == #"hello "1""#)
        let batch = try #require(page.receivedBatches.first)
        let methods = batch.messages.map { if case .call(let method, _, _) = $0 { method } else { "" } }
        #expect(methods == ["ns.deep.greet", "add"])
    }

    @Test func aMessageMadeWhileAnEarlierOneIsOnItsWayFollowsIt() throws {
        // The debug log line of a message is written as it leaves the hub for the evaluator. An
        // event made there — after the call was made, before the call reached the evaluator —
        // must still reach the page after the call.
        let keystone = Locked<Keystone?>(nil)
        let logging = KeystoneLogging.debug { record in
            guard record.message.hasPrefix("to page: "), record.message.contains("page.never") else { return }
            try? keystone.withLock { $0 }?.emit("news", "made after the call")
        }
        let hub = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero), logging: logging))
        keystone.withLock { $0 = hub }
        defer { keystone.withLock { $0 = nil } }
        let page = InMemoryPage(hub: hub, runtime: .keystone)
        page.initialize()
        let stream = hub.stream("page.never", of: Int.self)
        let kinds = page.receivedMessages.map { message in
            switch message {
            case .call: "call"
            case .event: "event"
            default: "other"
            }
        }
        #expect(kinds == ["call", "event"])
        withExtendedLifetime(stream) {}
    }

    @Test func callsMadeConcurrentlyReachThePageInTheOrderOfTheirIds() async throws {
        page.initialize()
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<400 {
                group.addTask { _ = try? await keystone.call("add", n, 1, as: Int.self) }
            }
        }
        let ids = page.receivedMessages.compactMap { if case .call(_, let id, _) = $0 { id } else { nil } }
        #expect(ids.count == 400)
        #expect(ids == Array(1...400))
    }

    @Test func cancellingTheAwaitingTaskSettlesTheCallOnceAsCancelled() async throws {
        let warnings = Locked<[String]>([])
        let (keystone, page) = makeBridge(
            KeystoneComponents(
                logging: .debug { record in
                    if record.message.hasPrefix("dropped") { warnings.withLock { $0.append(record.message) } }
                }))
        page.registerAsync("never") { _, _ in }
        page.initialize()
        let call = keystone.start("never", as: Int.self)  // made when it returns
        let task = Task { try await call.value }
        task.cancel()
        let result = await task.result
        #expect(code(of: result) == .cancelled)
        #expect(keystone.pendingCallCount == 0)
        // A late answer for the cancelled call is dropped (it would resume the call a second time).
        _ = page.prompt("_dsb.returnValue", argumentText: #"{"data":{"id":1,"data":5,"complete":true}}"#)
        #expect(warnings.withLock { $0 } == ["dropped an answer for call 1, which nobody waits for"])
    }

    @Test func aTaskCancelledBeforeItsCallStartsSettlesAsCancelled() async throws {
        page.initialize()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await keystone.call("add", 1, 2, as: Double.self)
        }
        let result = await task.result
        #expect(code(of: result) == .cancelled)
        #expect(keystone.pendingCallCount == 0)
    }

    @Test func manyCallsRacingTheirCancellationEachSettleExactlyOnce() async throws {
        page.initialize()
        let settled = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<300 {
                let task = Task {
                    defer { settled.withLock { $0 += 1 } }
                    return try await keystone.call(n.isMultiple(of: 2) ? "never" : "later", as: String.self)
                }
                group.addTask {
                    task.cancel(); _ = await task.result
                }
            }
        }
        #expect(settled.withLock { $0 } == 300)
        #expect(keystone.pendingCallCount == 0)
    }

    @Test func concurrentCallsFromManyTasksAreAllAnswered() async throws {
        page.initialize()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<300 {
                group.addTask {
                    let sum = try await keystone.call("add", n, 1, as: Int.self)
                    #expect(sum == n + 1)
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func answersForUnknownOrFinishedCallsAreDroppedQuietly() async throws {
        let lines = Locked<[KeystoneLogging.Record]>([])
        let (keystone, page) = makeBridge(KeystoneComponents(logging: .debug { record in lines.withLock { $0.append(record) } }))
        page.register("add") { _ in 3 }
        page.initialize()
        #expect(page.prompt("_dsb.returnValue", argumentText: #"{"data":{"id":999,"data":1}}"#) == #"{"code":0,"data":""}"#)
        #expect(try await keystone.call("add", 1, 2, as: Double.self) == 3)
        #expect(page.prompt("_dsb.returnValue", argumentText: #"{"data":{"id":1,"data":"again"}}"#) == #"{"code":0,"data":""}"#)
        let dropped = lines.withLock { $0 }.filter { $0.message.hasPrefix("dropped") }
        #expect(
            dropped.map(\.message) == [
                "dropped an answer for call 999, which nobody waits for",
                "dropped an answer for call 1, which nobody waits for",
            ])
        #expect(dropped.allSatisfy { $0.level == .debug })
    }

    @Test func aCallWhoseHandlerAnswersAgainKeepsTheFirstAnswerAndReportsTheRest() async throws {
        let warnings = Locked<[String]>([])
        let (keystone, page) = makeBridge(KeystoneComponents(logging: .warnings { record in warnings.withLock { $0.append(record.message) } }))
        page.registerAsync("twice") { _, reply in
            reply(.number(1), complete: false)
            reply(.number(2), complete: false)
            reply(.number(3), complete: true)
        }
        page.initialize()
        #expect(try await keystone.call("twice", as: Int.self) == 1)
        #expect(
            warnings.withLock { $0 } == [
                #"the page's handler "twice" answered call 1 again: a call keeps its first answer; use stream for every answer"#,
                #"the page's handler "twice" answered call 1 again: a call keeps its first answer; use stream for every answer"#,
            ])
        // The last answer closed the call: nothing is left open, and a stream gets every answer.
        #expect(keystone.pendingCallCount == 0)
        var answers: [Int] = []
        for try await answer in keystone.stream("twice", of: Int.self) { answers.append(answer) }
        #expect(answers == [1, 2, 3])
    }

    @Test func anErrorReportedByThePageSettlesTheCall() async throws {
        page.initialize()
        let call = keystone.start("never", as: Int.self)  // made when it returns
        let task = Task { try await call.value }
        _ = page.prompt("_dsb.returnValue", argumentText: #"{"data":{"id":1,"error":{"code":1200,"message":"page said no"},"complete":true}}"#)
        let result = await task.result
        #expect(code(of: result)?.rawValue == 1200)
    }

    @Test func unloadingThePageSettlesWaitingCallsAsPageGone() async throws {
        page.initialize()
        let call = keystone.start("never", as: Int.self)  // made when it returns
        let waiting = Task { try await call.value }
        var stream = keystone.stream("never", of: Int.self).makeAsyncIterator()
        #expect(keystone.pendingCallCount == 2)
        keystone.pageDidUnload()
        #expect(code(of: await waiting.result) == .pageGone)
        let streamError = await #expect(throws: BridgeError.self) { _ = try await stream.next() }
        #expect(streamError?.code == .pageGone)
    }

    @Test func leavingAStreamEarlyStopsWaitingForIt() async throws {
        page.initialize()
        for try await _ in keystone.stream("ticks", 10, of: Int.self) { break }
        #expect(keystone.pendingCallCount == 0)
    }

    @Test func anArgumentThatDoesNotEncodeIsACodedError() async throws {
        struct Refuses: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
            }
        }
        let error = await #expect(throws: BridgeError.self) { try await keystone.call("add", Refuses(), as: Int.self) }
        #expect(error?.code == .unencodableValue)
    }
}

/// A hub that records every prompt's method and text before a Keystone answers it.
final class RecordingHub: BridgeHub {
    let inner: Keystone
    let prompts: Locked<[String]>

    init(_ inner: Keystone, prompts: Locked<[String]>) {
        self.inner = inner
        self.prompts = prompts
    }

    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? {
        prompts.withLock { $0.append(text + " " + (defaultText ?? "")) }
        return inner.handlePrompt(text, defaultText: defaultText, frame: frame)
    }
    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String {
        prompts.withLock { $0.append(method + " " + arguments) }
        return inner.handleMessage(method, arguments: arguments, frame: frame)
    }
    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func pageDidUnload() { inner.pageDidUnload() }
    var pageLoad: PageLoad { inner.pageLoad }
}

/// The bridge error code a finished task failed with, if any.
func code<Success>(of result: Result<Success, any Error>) -> BridgeError.Code? {
    if case .failure(let error as BridgeError) = result { error.code } else { nil }
}
