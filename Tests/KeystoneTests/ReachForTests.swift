// ReachForTests.swift — the Swift API users reach for: timeouts, variadic posts, listings, handlers
// that may not answer, and in-memory streams that stop their producer.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Swift calls with a timeout", .timeLimit(.minutes(1)))
struct CallTimeoutTests {
    @Test(arguments: [PageRuntime.dsbridge, .keystone])
    func aCallWithoutAnAnswerInTimeFailsTimedOutAndIsWithdrawn(_ runtime: PageRuntime) async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: runtime)
        let replies = Locked<[InMemoryPage.Reply]>([])
        page.registerAsync("slow") { _, reply in replies.withLock { $0.append(reply) } }  // answers later, if ever
        page.initialize()
        let clock = ManualClock()
        let outcome = Task { try await keystone.call("slow", arguments: [1], as: Int.self, timeout: .seconds(2), clock: clock) }
        await clock.sleepers()
        clock.advance(by: .seconds(2))
        let error = await #expect(throws: BridgeError.self) { try await outcome.value }
        #expect(error?.code == .timedOut)
        #expect(error?.message == "the page did not answer \"slow\" within 2.0 seconds")
        #expect(keystone.pendingCallCount == 0)
        // Keystone's runtime hears it, and its handler's late answer is dropped; dsbridge.js cannot.
        let reply = try #require(replies.withLock { $0.first })
        #expect(reply.isCancelled == (runtime == .keystone))
        #expect(page.receivedMessages.contains(.cancel(callbackId: 1)) == (runtime == .keystone))
        reply(.number(1))
        #expect(keystone.pendingCallCount == 0)
    }

    @Test func anAnswerInTimeIsTheResultAndStopsTheTimer() async throws {
        let (keystone, page) = makeBridge()
        page.register("double") { arguments in
            guard case .number(let value) = arguments.first else { return .null }
            return .number(value * 2)
        }
        page.initialize()
        let clock = ManualClock()
        #expect(try await keystone.call("double", 21, as: Int.self, timeout: .seconds(2), clock: clock) == 42)
        #expect(page.receivedMessages.filter { if case .cancel = $0 { true } else { false } }.isEmpty)
    }

    @Test func aCallMadeBeforeThePageIsReadyIsTakenBackUnsent() async throws {
        let (keystone, page) = makeBridge()
        let clock = ManualClock()
        let outcome = Task { try await keystone.call("early", arguments: [], as: Int.self, timeout: .milliseconds(50), clock: clock) }
        await clock.sleepers()
        clock.advance(by: .milliseconds(50))
        await #expect(throws: BridgeError(code: .timedOut, message: "the page did not answer \"early\" within 0.05 seconds")) { try await outcome.value }
        page.initialize()
        #expect(page.receivedMessages.isEmpty)  // never sent
    }

    @Test func leavingAStreamEarlyTellsKeystonesRuntime() async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.registerAsync("ticks") { _, reply in
            reply(0, complete: false)
            reply(1, complete: false)
        }
        page.initialize()
        for try await tick in keystone.stream("ticks", of: Int.self) {
            #expect(tick == 0)
            break
        }
        #expect(page.receivedMessages.last == .cancel(callbackId: 1))
    }
}

@Suite("The Swift API users reach for", .timeLimit(.minutes(1)))
struct ReachForTests {
    @Test func postTakesItsArgumentsWrittenOut() throws {
        let (keystone, page) = makeBridge()
        let seen = Locked<[[JSONValue]]>([])
        page.register("page.log") { arguments in
            seen.withLock { $0.append(arguments) }
            return .null
        }
        page.initialize()
        try keystone.post("page.log", "saved", 3, true)
        try keystone.post("page.log")
        #expect(seen.withLock { $0 } == [["saved", 3, true], []])
    }

    @Test func aMultiResponseMethodMayTakeTheContextWithoutAnInput() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(namespace: "clock") { methods in
            methods.multiResponse("frames") { (context: CallContext, writer: ResponseWriter<Bool>) in
                try await writer.write(context.frame.isMainFrame)
                try await writer.finish(with: context.hasCallback)
            }
        }
        page.initialize()
        var seen: [Bool] = []
        for try await value in page.stream("clock.frames", of: Bool.self) { seen.append(value) }
        #expect(seen == [true, true])
    }

    @Test func theRegisteredInterfacesAreListedInOrder() throws {
        let keystone = Keystone()
        try keystone.register(Calculator(), namespace: "math")
        try keystone.register(namespace: "") { methods in
            methods.sync("ping") { () in "pong" }
            methods.async("later") { () async in 1 }
            methods.multiResponse("feed") { (writer: ResponseWriter<Int>) in try await writer.write(1) }
        }
        let listed = keystone.registeredInterfaces
        #expect(listed.map(\.namespace) == ["", "math"])
        #expect(listed[0].methods == [.init(name: "feed", kind: .multiResponse), .init(name: "later", kind: .async), .init(name: "ping", kind: .sync)])
        #expect(listed[1].methods.map(\.name) == listed[1].methods.map(\.name).sorted())
        #expect(listed[1].methods.contains(.init(name: "slowAdd", kind: .async)))
        keystone.removeInterface(namespace: "")
        #expect(keystone.registeredInterfaces.map(\.namespace) == ["math"])
    }

    @Test func aNameListedTwiceInOneInterfaceIsRefusedNamingIt() throws {
        let keystone = Keystone()
        let error = #expect(throws: BridgeError.self) {
            try keystone.register(namespace: "files") { methods in
                methods.sync("save") { (_: String) in true }
                methods.async("save") { (_: String) async in false }
                methods.sync("open") { () in 1 }
            }
        }
        #expect(error == BridgeError(code: .invalidRegistration, message: "an interface lists a method name twice: \"save\""))
        #expect(keystone.registeredInterfaces.isEmpty)
    }
}

@Suite("Handlers in WebViewJavascriptBridge's style", .timeLimit(.minutes(1)))
struct WVJBHandlerTests {
    /// A handler that answers at once, later, never, or fails, as its data says.
    static func register(on keystone: Keystone, kept: Locked<[ResponseCallback<String>]>) throws {
        try keystone.register(namespace: "share") { methods in
            methods.handler("item") { (how: String, respond: ResponseCallback<String>?) in
                switch how {
                case "now": respond?("shared")
                case "later": if let respond { kept.withLock { $0.append(respond) } }
                case "fail": respond?.fail(BridgeError(code: 1002, message: "cancelled by the user"))
                default: break  // declines: the callback is let go
                }
            }
        }
    }

    @Test func itAnswersOnceNowOrLaterOrFails() async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        let kept = Locked<[ResponseCallback<String>]>([])
        try Self.register(on: keystone, kept: kept)
        page.initialize()
        #expect(try await page.callAsync("share.item", "now", as: String.self) == "shared")
        async let later = page.callAsync("share.item", "later", as: String.self)
        while kept.withLock({ $0.isEmpty }) { await Task.yield() }
        let respond = try #require(kept.withLock { $0.first })
        respond("shared later")
        respond("ignored")  // only the first answer counts
        #expect(try await later == "shared later")
        let error = await #expect(throws: BridgeError.self) { try await page.callAsync("share.item", "fail", as: String.self) }
        #expect(error?.code.rawValue == 1002)
        #expect(keystone.registeredInterfaces.first?.methods.first?.kind == .multiResponse)
    }

    @Test func aHandlerThatDeclinesCompletesTheCallWithNoValue() async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        try Self.register(on: keystone, kept: Locked([]))
        page.initialize()
        // Keystone's `invoke` resolves undefined; a dsbridge.js or WVJB callback never runs.
        #expect(try await page.invoke("share.item", "decline", as: String?.self) == nil)
        #expect(page.receivedMessages.last.map { if case .completion = $0 { true } else { false } } == true)
        #expect(page.liveCallbacks.isEmpty)
        await untilNoCallRuns(keystone)
    }

    @Test func withoutACallbackTheHandlerGetsNone() async throws {
        let (keystone, page) = makeBridge()
        let calls = Locked<[Bool]>([])
        try keystone.register(namespace: "") { methods in
            methods.handler("track") { (_: JSONValue?, respond: ResponseCallback<Bool>?) in
                calls.withLock { $0.append(respond != nil) }
                respond?(true)
            }
        }
        page.initialize()
        try page.post("track")
        #expect(try await page.callAsync("track", as: Bool.self))
        await untilNoCallRuns(keystone)
        #expect(calls.withLock { $0 } == [false, true])
    }

    @Test func aCallbackKeptOpenEndsWithThePage() async throws {
        let (keystone, page) = makeBridge()
        let kept = Locked<[ResponseCallback<String>]>([])
        try Self.register(on: keystone, kept: kept)
        page.initialize()
        let stream = page.stream("share.item", "later", of: String.self)
        while kept.withLock({ $0.isEmpty }) { await Task.yield() }
        #expect(keystone.runningCallCount == 1)
        page.navigate()
        await untilNoCallRuns(keystone)
        kept.withLock { $0.first?("too late") }  // after the page went: goes nowhere
        _ = stream
    }
}

@Suite("In-memory pages behave as real ones", .timeLimit(.minutes(1)))
struct InMemoryPageBehaviourTests {
    @Test(arguments: [PageRuntime.dsbridge, .keystone])
    func leavingAStreamEarlyCancelsTheProducer(_ runtime: PageRuntime) async throws {
        let (keystone, _) = makeBridge()
        let page = InMemoryPage(hub: keystone, runtime: runtime)
        let (stopped, stop) = AsyncStream<String>.makeStream()
        try keystone.register(namespace: "feed") { methods in
            methods.multiResponse("endless") { (writer: ResponseWriter<Int>) in
                do {
                    var index = 0
                    while true {
                        try await writer.write(index)
                        index += 1
                        await Task.yield()
                    }
                } catch {
                    stop.yield("\(type(of: error))")
                    throw error
                }
            }
        }
        page.initialize()
        for try await value in page.stream("feed.endless", of: Int.self) where value == 2 { break }
        // The producer stops because its call was cancelled (a write throws CancellationError):
        // without the page's `_dsb.cancel` it would write for ever and this would never return.
        var reasons = stopped.makeAsyncIterator()
        #expect(await reasons.next() == "CancellationError")
    }

    @Test func anAsynchronousCallBeforeInitializeFailsAtOnceSayingWhy() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        let error = await #expect(throws: BridgeError.self) { try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self) }
        #expect(error?.code == .pageGone)
        #expect(error?.message.contains("call initialize() first") == true)
        page.initialize()
        #expect(try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self) == 3)
        page.navigate()  // a new document must announce itself again
        await #expect(throws: BridgeError.self) { try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self) }
    }
}
