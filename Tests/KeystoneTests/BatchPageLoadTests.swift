// BatchPageLoadTests.swift — a batch runs only in its page.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("A batch runs only in its page")
struct BatchPageLoadTests {
    @Test func aBatchQueuedBeforeANavigationDoesNotRunInTheNextPage() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        page.initialize()
        let queue = QueueingTarget(showing: page)
        keystone.attach(to: queue)
        #expect(page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1,"b":2},"_dscbstub":"dscb0"}"#) == #"{"code":0,"data":""}"#)
        await queue.queued.until { !$0.isEmpty }  // the result, queued for the engine
        #expect(queue.queued.withLock { $0.first?.pageLoad } == .first)
        keystone.pageDidUnload()  // the engine committed the next page before the batch ran
        let next = InMemoryPage(hub: keystone)
        next.initialize()
        keystone.attach(to: queue)
        queue.showing.withLock { $0 = next }  // the view now shows the next page
        queue.runQueued()
        // The next page's dscb0 never hears the old page's result, and neither does the old page.
        #expect(next.receivedMessages.isEmpty)
        #expect(page.receivedMessages.isEmpty)
    }
}
