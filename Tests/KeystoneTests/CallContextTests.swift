// CallContextTests.swift — a method that asks for its call's context: caller, cancellation, page load.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// Methods that use their context.
struct ContextUser: BridgeInterface {
    let events: AsyncStream<String>.Continuation

    func exposeMethods(to methods: inout MethodList) {
        let events = events
        methods.sync("origin") { (_: JSONValue?, context: CallContext) in context.frame.origin ?? "none" }
        methods.async("askPage") { (name: String, context: CallContext) async throws -> String in
            try await context.page.call("greet", name, as: String.self)
        }
        methods.async("askLater") { (context: CallContext) async throws -> String in
            events.yield("waiting")
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}  // ends when the task is cancelled
            events.yield(context.isCancelled ? "cancelled" : "not cancelled")
            // The page that made the call has gone: the context reaches nothing else.
            do {
                try context.page.emit("news", "late")
                return "sent"
            } catch {
                events.yield("emit: \(BridgeError(error).code)")
                return "gone"
            }
        }
        methods.multiResponse("relay") { (method: String, context: CallContext, writer: ResponseWriter<Int>) in
            for try await value in context.page.stream(method, of: Int.self) { try await writer.write(value) }
        }
    }
}

@Suite("Call context", .timeLimit(.minutes(1)))
struct CallContextTests {
    @Test func aMethodLearnsItsCallersFrameAndOrigin() throws {
        let keystone = Keystone()
        try keystone.register(ContextUser(events: AsyncStream<String>.makeStream().1), namespace: "ctx")
        let page = InMemoryPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: "https://shop.example"))
        #expect(try page.call("ctx.origin", as: String.self) == "https://shop.example")
    }

    @Test func aMethodCallsBackIntoThePageThatCalledIt() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(ContextUser(events: AsyncStream<String>.makeStream().1), namespace: "ctx")
        page.register("greet") { arguments in .string("hello \(arguments.first?.stringValue ?? "")") }
        page.registerAsync("count") { _, reply in
            reply(.number(1), complete: false)
            reply(.number(2), complete: true)
        }
        page.initialize()
        #expect(try await page.callAsync("ctx.askPage", "ada", as: String.self) == "hello ada")
        var relayed: [Int] = []
        for try await value in page.stream("ctx.relay", "count", of: Int.self) { relayed.append(value) }
        #expect(relayed == [1, 2])
    }

    @Test func aContextIsCancelledWithItsCallAndReachesNoLaterPage() async throws {
        let (events, continuation) = AsyncStream<String>.makeStream()
        let (keystone, page) = makeBridge()
        try keystone.register(ContextUser(events: continuation), namespace: "ctx")
        page.initialize()
        _ = page.prompt("ctx.askLater", argumentText: #"{"data":null,"_dscbstub":"dscb0"}"#)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "waiting")
        keystone.pageDidUnload()
        let next = InMemoryPage(hub: keystone, runtime: .keystone)
        let heard = Locked<[JSONValue]>([])
        next.on("news") { value in heard.withLock { $0.append(value) } }
        next.initialize()
        #expect(await iterator.next() == "cancelled")
        #expect(await iterator.next() == "emit: pageGone")
        #expect(heard.withLock { $0 }.isEmpty)
        #expect(next.receivedMessages.isEmpty)
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
