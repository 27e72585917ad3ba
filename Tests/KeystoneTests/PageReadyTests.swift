// PageReadyTests.swift — an app awaits the page's runtime instead of polling the document.
import Keystone
import KeystoneTesting
import Testing

@Suite struct PageReadyTests {
    @Test func waitingEndsWhenThePageInitializes() async throws {
        let keystone = Keystone()
        let page = InMemoryPage(hub: keystone)
        #expect(!keystone.isPageReady)
        let (waited, ended) = AsyncStream<Void>.makeStream()
        let waiting = Task {
            try await keystone.pageReady()
            ended.yield()
            ended.finish()
        }
        // Whether the wait is registered before the page initializes is the scheduler's; either way
        // it ends after dsinit, never before (PageLoadStateTests tells waiters in order as a value).
        page.initialize()
        try await waiting.value
        var iterator = waited.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        #expect(keystone.isPageReady)
    }

    @Test func aReadyPageAnswersAtOnce() async throws {
        let keystone = Keystone()
        let page = InMemoryPage(hub: keystone)
        page.initialize()
        try await keystone.pageReady()
        #expect(keystone.isPageReady)
    }

    @Test func anUnloadKeepsTheWaitForTheNextPage() async throws {
        let keystone = Keystone()
        let page = InMemoryPage(hub: keystone)
        page.initialize()
        page.navigate()
        #expect(!keystone.isPageReady)
        let waiting = Task { try await keystone.pageReady() }
        page.initialize()
        try await waiting.value
        #expect(keystone.isPageReady)
    }

    @Test func aCancelledWaitThrowsCancelled() async {
        let keystone = Keystone()
        _ = InMemoryPage(hub: keystone)
        let waiting = Task { () async -> BridgeError? in
            do throws(BridgeError) {
                try await keystone.pageReady()
                return nil
            } catch {
                return error
            }
        }
        waiting.cancel()
        #expect(await waiting.value?.code == .cancelled)
        #expect(!keystone.isPageReady)
    }

    @Test func manyWaitersAreAllTold() async throws {
        let keystone = Keystone()
        let page = InMemoryPage(hub: keystone)
        let waiters = (0..<50).map { _ in Task { try await keystone.pageReady() } }
        page.initialize()
        for waiter in waiters { try await waiter.value }
    }
}
