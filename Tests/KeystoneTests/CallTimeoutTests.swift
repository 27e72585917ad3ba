// CallTimeoutTests.swift — Swift calls with a timeout: timedOut, and withdrawn on the page.
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
