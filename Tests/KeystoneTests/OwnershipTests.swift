// OwnershipTests.swift — who keeps whom alive: a Keystone and its page are let go.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Ownership")
struct OwnershipTests {
    @Test func aKeystoneAndItsPageFormNoRetainCycle() async throws {
        weak var weakKeystone: Keystone?
        weak var weakState: AnyObject?
        weak var weakPage: InMemoryPage?
        do {
            let (keystone, page) = makeBridge()
            try keystone.register(Calculator(), namespace: "math")
            page.initialize()
            _ = try await page.callAsync("math.slowAdd", Pair(a: 1, b: 2), as: Double.self)
            // The task that answered may still be returning; it lets go of the Keystone when it ends.
            await untilNoCallRuns(keystone)
            weakKeystone = keystone
            weakState = keystone.sharedState
            weakPage = page
        }
        #expect(weakPage == nil)
        #expect(weakKeystone == nil)
        #expect(weakState == nil, "every part of the Keystone is let go")
    }
}
