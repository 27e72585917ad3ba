// SeveralPagesTests.swift — one Keystone serving several web views: each host a page of its own,
// answers to the page that asked, events to the pages chosen, one page going while others call,
// durable calls shared by an origin's pages, and each page's limits its own.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// The caller's page and origin, and a call that waits until the test lets it through.
final class WhoAmI: BridgeInterface, Sendable {
    /// Passes released before their call waits, and the calls waiting for one.
    private let gate = Locked<(passes: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))
    let (started, startedContinuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)

    struct Caller: Codable, Sendable, Equatable {
        var page: Int
        var origin: String?
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("whoami") { (context: CallContext) in Caller(page: context.pageID.rawValue, origin: context.frame.origin) }
        methods.async("hold") { [self] (context: CallContext) async -> Int in
            startedContinuation.yield(context.pageID.rawValue)
            await pass()
            return context.pageID.rawValue
        }
    }

    /// Waits until the test lets one held call through.
    private func pass() async {
        await withCheckedContinuation { continuation in
            let now = gate.withLock { gate in
                guard gate.passes == 0 else {
                    gate.passes -= 1
                    return true
                }
                gate.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets `count` held calls through, those waiting first.
    func release(_ count: Int) {
        let through = gate.withLock { gate in
            let through = Array(gate.waiting.prefix(count))
            gate.waiting.removeFirst(through.count)
            gate.passes += count - through.count
            return through
        }
        for continuation in through { continuation.resume() }
    }

    /// Returns once `count` held calls have started.
    func untilStarted(_ count: Int) async {
        var seen = 0
        for await _ in started {
            seen += 1
            if seen == count { return }
        }
    }
}

@Suite("Several pages on one Keystone", .timeLimit(.minutes(1)))
struct SeveralPagesTests {
    let keystone: Keystone
    let who = WhoAmI()
    let counter = DurableCounter()
    static let shop = CallerFrame(isMainFrame: true, origin: "https://shop.example")
    static let news = CallerFrame(isMainFrame: true, origin: "https://news.example")

    init() throws {
        var components = KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero))
        components.pageEvaluator = { BatchingEvaluator(clock: ManualClock(), window: .zero) }
        components.limits.runningCalls = 2
        keystone = Keystone(components: components)
        try keystone.register(who, namespace: "pages")
        try keystone.register(counter, namespace: "durable")
    }

    /// A page of `hub` (the Keystone's first page, or one it added) showing a document of `frame`'s
    /// origin, initialized.
    func open(_ hub: any BridgeHub, _ frame: CallerFrame = shop) -> InMemoryPage {
        let page = InMemoryPage(hub: hub, runtime: .keystone, frame: frame)
        page.initialize()
        return page
    }

    @Test func eachHostAttachedAtOnceServesAPageOfItsOwn() throws {
        #expect(keystone.openPage() === keystone)
        let second = try #require(keystone.openPage() as? KeystonePage)
        let third = try #require(keystone.openPage() as? KeystonePage)
        #expect(second !== keystone && third !== second)
        #expect(keystone.pages.map(\.id.rawValue) == [1, 2, 3])
        // The first page's host closes: the next host serves the first page again.
        keystone.closePage()
        #expect(keystone.openPage() === keystone)
        // An added page whose host closes is gone for good, and its id is not reused.
        second.closePage()
        #expect(keystone.pages.map(\.id.rawValue) == [1, 3])
        #expect(keystone.page(PageID(rawValue: 2)) == nil)
        #expect((keystone.openPage() as? KeystonePage)?.id.rawValue == 4)
    }

    @Test func everyPageIsAnsweredItsOwnCallsThoughTheirIdsAndCallbacksCollide() async throws {
        let first = open(keystone)
        let second = open(keystone.addPage())
        first.register("name") { _ in "first" }
        second.register("name") { _ in "second" }
        // Each page's runtime numbers its callbacks from the same start, and Swift numbers its calls
        // of each page from the same start: ids collide across pages on purpose.
        async let a = first.invoke("pages.whoami", as: WhoAmI.Caller.self)
        async let b = second.invoke("pages.whoami", as: WhoAmI.Caller.self)
        #expect(try await a == WhoAmI.Caller(page: 1, origin: "https://shop.example"))
        #expect(try await b == WhoAmI.Caller(page: 2, origin: "https://shop.example"))
        let secondPage = try #require(keystone.page(PageID(rawValue: 2)))
        #expect(try await secondPage.call("name", as: String.self) == "second")
        #expect(try await keystone.call("name", as: String.self) == "first")
        let everyone = await keystone.call("name", arguments: [], as: String.self, on: .all)
        #expect(everyone.mapValues { try? $0.get() } == [.first: "first", PageID(rawValue: 2): "second"])
        let pageCalls = (first.receivedMessages + second.receivedMessages).compactMap(\.swiftCallId)
        #expect(pageCalls.count == 4 && Set(pageCalls).count < pageCalls.count)
    }

    @Test func anEventReachesThePagesChosenOnePageEveryPageOrAnOriginsPages() async throws {
        let pages = [open(keystone), open(keystone.addPage()), open(keystone.addPage(), Self.news)]
        let heard = Locked<[Int: [String]]>([:])
        for (index, page) in pages.enumerated() {
            page.on("note") { value in heard.withLock { $0[index, default: []].append(value.stringValue ?? "") } }
        }
        #expect(try keystone.emit("note", "one", to: .pages([PageID(rawValue: 2)])) == [PageID(rawValue: 2)])
        #expect(try keystone.emit("note", "all", to: .all).count == 3)
        #expect(try keystone.emit("note", "shop", to: .origin("https://shop.example")).map(\.rawValue) == [1, 2])
        #expect(try keystone.emit("note", "nobody", to: .origin("https://other.example")).isEmpty)
        for page in pages { try await page.evaluate("0") }
        #expect(heard.withLock { $0 } == [0: ["all", "shop"], 1: ["one", "all", "shop"], 2: ["all"]])
    }

    @Test func onePageNavigatingReloadingOrClosingLeavesTheOthersCalling() async throws {
        let staying = open(keystone)
        let going = open(keystone.addPage())
        let goingPage = try #require(keystone.page(PageID(rawValue: 2)))
        going.registerAsync("never") { _, _ in }
        let waiting = Task { try await goingPage.call("never", as: String.self) }
        await going.untilReceived { $0.contains { $0.swiftCallId != nil } }
        going.navigate()
        await #expect(throws: BridgeError.self) { try await waiting.value }
        #expect(try await staying.invoke("pages.whoami", as: WhoAmI.Caller.self).page == 1)
        going.terminateWebProcess(at: .seconds(1))
        going.initialize()
        #expect(try await going.invoke("pages.whoami", as: WhoAmI.Caller.self).page == 2)
        going.closeWebView()
        #expect(keystone.pages.map(\.id) == [.first])
        do {
            _ = try await goingPage.call("never", as: String.self)
            Issue.record("a call of a closed page was made")
        } catch {
            #expect(error.code == .pageGone)
        }
        #expect(try await staying.invoke("pages.whoami", as: WhoAmI.Caller.self).page == 1)
    }

    @Test func aDurableCallWhosePageWentIsRecoveredByAnotherPageOfItsOriginAndNoOther() async throws {
        let going = open(keystone.addPage())
        let staying = open(keystone)
        let other = open(keystone.addPage(), Self.news)
        let call = Task { try await going.invoke("durable.increment", "k", durable: "k", as: Int.self) }
        await counter.untilStarted()
        // While the page that made it is there, the call is its own: no other page waits for it.
        #expect(try await staying.recovered().isEmpty)
        going.closeWebView()
        _ = try? await call.value
        let recovering = Task { try await staying.recovered() }
        counter.gateContinuation.yield()
        let recovered = try await recovering.value
        #expect(recovered == [["key": "k", "method": "durable.increment", "value": 1]])
        #expect(try await other.recovered().isEmpty)
        #expect(counter.counts.withLock { $0["k"] } == 1)
    }

    @Test func onePageAtItsLimitOfRunningCallsLeavesAnotherPagesRoom() async throws {
        let flooding = open(keystone)
        let calm = open(keystone.addPage())
        let held = (0..<2).map { _ in Task { try await flooding.invoke("pages.hold", as: Int.self) } }
        await who.untilStarted(2)
        do {
            _ = try await flooding.invoke("pages.hold", as: Int.self)
            Issue.record("a page ran more calls than its limit")
        } catch let error as BridgeError {
            #expect(error.code == .limitExceeded)
        }
        let calmCall = Task { try await calm.invoke("pages.hold", as: Int.self) }
        await who.untilStarted(1)
        who.release(3)
        #expect(try await calmCall.value == 2)
        for call in held { #expect(try await call.value == 1) }
    }
}
