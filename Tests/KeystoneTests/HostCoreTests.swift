// HostCoreTests.swift — host core.
import Foundation
import Keystone
import KeystoneHost
import Testing

@Suite("Host core")
struct HostCoreTests {
    func core(_ origins: Set<String>? = nil, reloads: Bool = true) throws -> HostCore {
        try HostCore(allowedOrigins: origins, reloadsAfterTermination: reloads)
    }

    @Test func anHttpsDocumentReachesOnlyASecureByteChannel() {
        #expect(HostCore.documentReachesByteChannel(origin: "https://greeter.example", channelIsSecure: true))
        #expect(!HostCore.documentReachesByteChannel(origin: "https://greeter.example", channelIsSecure: false))
        #expect(!HostCore.documentReachesByteChannel(origin: "https://127.0.0.1:8443", channelIsSecure: false))
        for origin in ["http://127.0.0.1:8000", "file://", "app://bundle", nil] as [String?] {
            #expect(HostCore.documentReachesByteChannel(origin: origin, channelIsSecure: false))
        }
    }

    @Test func theFirstCommittedDocumentEndsNothingAndEveryLaterOneEndsThePageLoad() throws {
        var core = try core()
        #expect(core.documentCommitted() == [])
        #expect(core.documentReported(token: "a", restored: false) == [])
        #expect(core.documentToken == "a")
        #expect(core.documentCommitted() == [.unloadPage])
        #expect(core.documentToken == nil)
        // The new document's report after its commit ends nothing more.
        #expect(core.documentReported(token: "b", restored: false) == [])
        #expect(core.guarded("go()") == #"if(window.__keystoneDocument==="b"){go()}"#)
    }

    @Test func aDocumentRestoredFromTheBackForwardCacheIsAPageLoadOfItsOwn() throws {
        var core = try core()
        _ = core.documentCommitted()
        _ = core.documentReported(token: "a", restored: false)
        _ = core.documentCommitted()
        _ = core.documentReported(token: "b", restored: false)
        // Going back: the engine commits the cached document, whose isolated world reports it.
        #expect(core.documentCommitted() == [.unloadPage])
        #expect(core.documentReported(token: "a", restored: true) == [])
        #expect(core.guarded("x") == #"if(window.__keystoneDocument==="a"){x}"#)
    }

    @Test func aHostThatLearnsOfDocumentsOnlyFromReportsEndsThePageLoadOnANewToken() throws {
        var core = try core()
        #expect(core.documentReported(token: "a", restored: false) == [])
        #expect(core.documentReported(token: "a", restored: false) == [])  // the same document again
        #expect(core.documentReported(token: "b", restored: false) == [.unloadPage])
        #expect(core.documentReported(token: "a", restored: true) == [.unloadPage])
        #expect(core.documentToken == "a")
    }

    @Test func closingTheHostEndsThePageLoadAndTheNextDocumentIsAFirstOne() throws {
        var core = try core()
        _ = core.documentCommitted()
        _ = core.documentReported(token: "a", restored: false)
        #expect(core.closed() == [.unloadPage])
        #expect(core.documentToken == nil)
        #expect(core.documentCommitted() == [])
    }

    @Test func theMainDocumentIsTheReportedOriginsUntilTheDocumentIsGone() throws {
        var core = try core()
        _ = core.documentReported(token: "a", restored: false, origin: "https://a.example")
        #expect(core.mainDocument == CallerFrame(isMainFrame: true, origin: "https://a.example"))
        _ = core.documentCommitted()
        #expect(core.mainDocument.origin == nil)
        _ = core.documentReported(token: "b", restored: false, origin: "https://b.example")
        _ = core.webProcessTerminated(.crashed, at: .zero)
        #expect(core.mainDocument.origin == nil)
    }

    @Test func beforeAnyReportBatchesAreNotGuarded() throws {
        #expect(try core().guarded("x") == "x")
    }

    @Test func terminationsReloadAtOnceThenBackOffThenStopWithinTheWindow() throws {
        var core = try core()
        func reload(_ actions: [HostCore.Action]) -> Duration? {
            actions.compactMap { if case .reload(let delay) = $0 { delay } else { nil } }.first
        }
        func report(_ actions: [HostCore.Action]) -> WebProcessTermination? {
            actions.compactMap { if case .reportTermination(let report) = $0 { report } else { nil } }.first
        }
        let first = core.webProcessTerminated(.crashed, at: .seconds(100))
        #expect(first.first == .unloadPage)
        #expect(reload(first) == .zero)
        #expect(report(first) == WebProcessTermination(reason: .crashed, reloads: true, recentCount: 1))
        #expect(reload(core.webProcessTerminated(.crashed, at: .seconds(101))) == .milliseconds(500))
        #expect(reload(core.webProcessTerminated(.crashed, at: .seconds(102))) == .seconds(1))
        #expect(reload(core.webProcessTerminated(.crashed, at: .seconds(103))) == .seconds(2))
        #expect(reload(core.webProcessTerminated(.crashed, at: .seconds(104))) == .seconds(4))
        let sixth = core.webProcessTerminated(.exceededMemoryLimit, at: .seconds(105))
        #expect(reload(sixth) == nil)
        #expect(report(sixth) == WebProcessTermination(reason: .exceededMemoryLimit, reloads: false, recentCount: 6))
        #expect(sixth.first == .unloadPage)
        // A minute after the first, the count has room again.
        #expect(reload(core.webProcessTerminated(.crashed, at: .seconds(170))) != nil)
    }

    @Test func anAppThatTurnedReloadingOffIsToldAndNothingReloads() throws {
        var core = try core(reloads: false)
        #expect(core.webProcessTerminated(.terminatedByApp, at: .zero) == [.unloadPage, .reportTermination(WebProcessTermination(reason: .terminatedByApp, reloads: false, recentCount: 1))])
    }

    @Test func exactlyTheAllowedOriginsPortIncludedGetScripts() throws {
        let core = try core(["http://127.0.0.1:8772", "https://a.example", "file://"])
        #expect(core.allowsDocument(of: "http://127.0.0.1:8772"))
        #expect(!core.allowsDocument(of: "http://127.0.0.1:8773"))
        #expect(!core.allowsDocument(of: "http://127.0.0.1"))
        #expect(core.allowsDocument(of: "https://a.example"))
        #expect(core.allowsDocument(of: "https://a.example:443"))
        #expect(!core.allowsDocument(of: "http://a.example"))
        #expect(core.allowsDocument(of: "file://"))
        #expect(!core.allowsDocument(of: nil))
        #expect(!core.allowsDocument(of: "null"))
        // The engine's patterns narrow by host only; the scripts check the exact origin.
        #expect(core.injectionPatterns == ["file:///*", "http://127.0.0.1/*", "https://a.example/*"])
        let script = core.scriptsOnlyForAllowedOrigins("run()")
        #expect(script.hasPrefix(#"if (["file://","http://127.0.0.1:8772","https://a.example"].indexOf("#))
        #expect(script.contains(HostScripts.documentOrigin))
        #expect(try self.core().scriptsOnlyForAllowedOrigins("run()") == "run()")
        #expect(try self.core().injectionPatterns == nil)
    }

    @Test(arguments: ["https://a.example:443", "HTTPS://a.example", "https://a.example/", "https://*.example", "a.example", "https://a.example:0", "null"])
    func anAllowedOriginTheEngineWouldNotWriteSoRefusesTheHost(origin: String) {
        let error = #expect(throws: BridgeError.self) { try HostCore(allowedOrigins: [origin]) }
        #expect(error?.code == .invalidRegistration)
    }
}
