// PageLoadStateTests.swift — the page load as a pure value: what its main frame establishes, and
// who waits for it.
import Foundation
import Testing

@testable import Keystone

@Suite("The page load")
struct PageLoadStateTests {
    let top = CallerFrame(isMainFrame: true, origin: "https://app.example")

    @Test func whatTheMainFrameEstablishedIsItsAndItsOriginsAndEndsWithThePageLoad() {
        var load = PageLoadState<String>(declarationLimit: 10)
        let granted = load.authorize(load.pageLoad, origin: "https://app.example")
        #expect(granted)
        #expect(load.access(for: top).isAuthorized)
        #expect(load.access(for: CallerFrame(isMainFrame: false, origin: "https://app.example")).isAuthorized)
        #expect(!load.access(for: CallerFrame(isMainFrame: false, origin: "https://ads.example")).isAuthorized)
        #expect(!load.access(for: .unattested).isAuthorized)
        let earlier = load.pageLoad
        load.unload()
        #expect(!load.access(for: top).isAuthorized)
        let late = load.authorize(earlier, origin: "https://app.example")
        #expect(!late)  // a grant for a page load that has gone
    }

    @Test func declarationsAddUpAndPastTheLimitAreRefusedWhole() {
        var load = PageLoadState<String>(declarationLimit: 3)
        #expect((try? load.declare(["a.x", "a.y"], origin: nil).get()) != nil)
        #expect((try? load.declare(["a.y", "a.z"], origin: nil).get()) != nil)
        #expect(load.access(for: top).declaredMethods == ["a.x", "a.y", "a.z"])
        #expect((try? load.declare(["b.w"], origin: nil).get()) == nil)
        #expect(load.access(for: top).declaredMethods == ["a.x", "a.y", "a.z"])
    }

    @Test func waitersAreToldInOrderWhenThePageInitializesAndAnUnloadKeepsThemWaiting() {
        var load = PageLoadState<String>(declarationLimit: 10)
        let first = load.wait("first")
        _ = load.wait("second")
        #expect(load.stopWaiting(try! #require(first)) == "first")
        _ = load.wait("third")
        load.unload()
        #expect(load.initialize(runtime: .keystone) == ["second", "third"])
        #expect(load.isPageReady && load.runtime == .keystone)
        #expect(load.wait("late") == nil)  // ready: told at once
        // A second bridge script announcing DSBridge after Keystone's changes nothing.
        _ = load.initialize(runtime: .dsbridge)
        #expect(load.runtime == .keystone)
        load.unload()
        #expect(!load.isPageReady && load.runtime == .dsbridge)
    }
}
