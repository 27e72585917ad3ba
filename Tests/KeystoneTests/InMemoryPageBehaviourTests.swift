// InMemoryPageBehaviourTests.swift — in-memory pages behave as real ones.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

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
