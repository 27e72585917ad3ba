// PageDocumentTests.swift — an in-memory page's documents change as a host reports them: through
// the host core, so page changes, back/forward-cache restores and terminations are testable
// without a browser.
import Keystone
import KeystoneHost
import KeystoneTesting
import Testing

@Suite("An in-memory page's documents", .timeLimit(.minutes(1)))
struct PageDocumentTests {
    @Test func aPageRestoredFromTheBackForwardCacheIsANewPageLoadThatSwiftsCallsReach() async throws {
        let (keystone, page) = makeBridge()
        page.registerAsync("page.never") { _, _ in }
        page.register("page.double") { arguments in
            guard case .number(let value) = arguments.first else { return .null }
            return .number(value * 2)
        }
        page.initialize()
        let hidden = keystone.start("page.never", as: JSONValue.self)
        page.navigate()  // the page is hidden: its pending call settles
        let gone = await #expect(throws: BridgeError.self) { try await hidden.value }
        #expect(gone?.code == .pageGone)
        // A call made for the document navigated to settles when the restore ends that page load.
        let forTheOtherDocument = keystone.start("page.double", 21, as: Double.self)
        page.restoreFromBackForwardCache()
        await #expect(throws: BridgeError.self) { try await forTheOtherDocument.value }
        #expect(try await keystone.call("page.double", 21, as: Double.self) == 42)
    }

    @Test func theFirstDocumentEndsNothingAndEachNavigationEndsThePageLoad() throws {
        let (keystone, page) = makeBridge()
        let first = keystone.pageLoad
        page.navigate()
        #expect(keystone.pageLoad != first)
        let second = keystone.pageLoad
        page.restoreFromBackForwardCache()
        #expect(keystone.pageLoad != second)
    }

    @Test func terminationsAreReportedAsAHostWouldAndStopReloadingPastTheLimit() throws {
        let (_, page) = makeBridge()
        var reports: [WebProcessTermination] = []
        for second in 0..<6 { reports.append(try #require(page.terminateWebProcess(at: .seconds(second)))) }
        #expect(reports.map(\.reloads) == [true, true, true, true, true, false])
        #expect(reports.last?.recentCount == 6)
    }

    @Test func aFrameThePolicyRefusesIsRefusedWholeBeforeItsCallIsRead() throws {
        let keystone = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(allowedOrigins: ["https://app.example"])))
        let page = InMemoryPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: "https://evil.example"))
        let answer = try #require(page.prompt("not even a method name\u{0}", argumentText: "{not json"))
        #expect(answer.contains(#""code":11"#))  // refused as a sender, not as a malformed call
    }
}
