// HostSessionTests.swift — a host's decisions carried out through an engine that records its calls:
// batches, documents, terminations, signals and the byte channel, without a browser.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

/// An engine that records what the session asks of it, answers evaluations with `values` (by the
/// script's first characters), and runs later work only when a test says.
final class RecordingEngine: HostEngine, @unchecked Sendable {
    var evaluated: [(script: String, valueLimit: Int?)] = []
    var values: [(prefix: String, json: String)] = []
    var later: [(delay: Duration, work: @Sendable () -> Void)] = []
    var reloads = 0
    var reports: [WebProcessTermination] = []
    /// Whether work for later runs at once, as an engine whose thread is free would run it.
    var runsLaterAtOnce = false

    func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void) {
        evaluated.append((script, valueLimit))
        completion(.success(valueLimit == nil ? nil : values.first { script.hasPrefix($0.prefix) }?.json))
    }

    func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void) {
        if runsLaterAtOnce { work() } else { later.append((delay, work)) }
    }

    func reload() { reloads += 1 }

    func report(_ termination: WebProcessTermination) { reports.append(termination) }

    /// Runs the work waiting, and whatever it queues, in order.
    func runLaterWork() {
        while !later.isEmpty { later.removeFirst().work() }
    }
}

@Suite("Host session")
struct HostSessionTests {
    let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero)))
    let engine = RecordingEngine()

    @Test func aHostThatGivesSubframesNoRuntimeWhileThePolicyAdmitsThemIsWarnedOnce() throws {
        let lines = Locked<[String]>([])
        func session(allowsSubframes: Bool, options: HostOptions) throws {
            let policy = DefaultCallPolicy(allowsSubframes: allowsSubframes, allowedOrigins: ["https://app.example", "https://widget.example"])
            let hub = Keystone(components: KeystoneComponents(policy: policy, logging: .warnings { record in lines.withLock { $0.append(record.message) } }))
            _ = try HostSession(hub: hub, options: options)
        }
        try session(allowsSubframes: true, options: HostOptions())
        #expect(lines.withLock { $0.count } == 1)
        #expect(lines.withLock { $0.first?.contains("HostOptions(injectsIntoSubframes: true)") } == true)
        #expect(lines.withLock { $0.first?.contains("https://app.example") } == true)
        // The host and the policy agree, or the app brings its own runtime: nothing to say.
        try session(allowsSubframes: true, options: HostOptions(injectsIntoSubframes: true))
        try session(allowsSubframes: false, options: HostOptions())
        try session(allowsSubframes: true, options: HostOptions(injectsPageRuntime: false))
        #expect(lines.withLock { $0.count } == 1)
    }
    let top = CallerFrame(isMainFrame: true, origin: "http://app.example")

    func session(_ options: HostOptions = HostOptions()) throws -> HostSession {
        let session = try HostSession(hub: keystone, options: options)
        session.engine = engine
        return session
    }

    @Test func aBatchGoesOnTheEnginesThreadGuardedForItsDocumentAndOnlyWhileItsPageLoadIsCurrent() throws {
        let session = try session()
        session.documentReported("start doc1", from: top)
        let batch = ScriptBatch(messages: [.completion(callback: "dscb1")], pageLoad: keystone.pageLoad)
        let done = Locked(0)
        session.evaluate(batch) { done.withLock { $0 += 1 } }
        #expect(engine.evaluated.isEmpty)  // not before the engine's thread runs it
        engine.runLaterWork()
        #expect(engine.evaluated.map(\.script) == [session.core.guarded(batch.script)])
        #expect(engine.evaluated.first?.script.contains("doc1") == true)
        #expect(engine.evaluated.first?.valueLimit == nil)
        // Queued while its page load was current, run after the page changed: dropped, yet done.
        session.evaluate(batch) { done.withLock { $0 += 1 } }
        session.documentCommitted()
        engine.runLaterWork()
        #expect(engine.evaluated.count == 1)
        #expect(done.withLock { $0 } == 2)
    }

    @Test func aDocumentReportEndsThePageLoadOnlyForAnotherDocumentOfTheMainFrame() throws {
        let session = try session()
        let first = keystone.pageLoad
        session.documentReported("start a", from: top)
        session.documentReported("start b", from: CallerFrame(isMainFrame: false, origin: "http://app.example"))
        session.documentReported("nonsense", from: top)
        #expect(keystone.pageLoad == first)
        #expect(session.mainDocument == top)
        session.documentReported("restore b", from: top)
        #expect(keystone.pageLoad != first)
    }

    @Test func aTerminationIsReportedAndTheReloadScheduledBackingOffUnlessTheAppReloads() throws {
        let session = try session()
        let before = keystone.pageLoad
        session.webProcessTerminated(.crashed)
        #expect(keystone.pageLoad != before)  // the page load ends with its web process
        session.webProcessTerminated(.exceededMemoryLimit)
        #expect(engine.reports.map(\.reason) == [.crashed, .exceededMemoryLimit])
        #expect(engine.later.map(\.delay) == [.zero, .milliseconds(500)])
        #expect(engine.reloads == 0)
        engine.runLaterWork()
        #expect(engine.reloads == 2)
        session.webProcessTerminated(.crashed, reloads: false)
        #expect(engine.reports.count == 3)
        #expect(engine.later.isEmpty)
    }

    @Test func aDSBridgePageMakesNoSignal() throws {
        let session = try session()
        #expect(session.signalPattern == nil)
        #expect(!session.isSignal("https://__wvjb_queue_message__"))
        session.signalled("https://__wvjb_queue_message__", from: top)
        #expect(engine.evaluated.isEmpty)
    }

    @Test func aWVJBSignalFetchesTheQueueAndAnswersItASliceAtATime() throws {
        try keystone.register(namespace: "") { $0.sync("echo") { (value: Int) in value } }
        let session = try session(HostOptions(injectsPageRuntime: false, wire: .webViewJavascriptBridge))
        session.documentReported("start doc1", from: top)
        let messages = (0..<600).map { #"{"handlerName":"echo","data":\#($0),"callbackId":"cb\#($0)"}"# }
        let queue = "[" + messages.joined(separator: ",") + "]"
        let fetch = "(function(q){"
        engine.values = [(fetch, String(decoding: try DefaultJSONSerializer().encode(queue), as: UTF8.self))]
        #expect(session.isSignal("https://__WVJB_QUEUE_MESSAGE__"))
        session.signalled("https://__wvjb_queue_message__", from: top)
        // The fetch, with the dialect's limit, then the first slice's answers, guarded.
        #expect(engine.evaluated.count == 2)
        #expect(engine.evaluated[0].script.hasPrefix(fetch) && engine.evaluated[0].valueLimit == 64 << 20)
        #expect(engine.evaluated[1].script.hasPrefix("if(window.__keystoneDocument==="))
        #expect(engine.evaluated[1].script.components(separatedBy: "_handleMessageFromObjC").count - 1 == WVJBWire.sliceSize)
        // The next slice waits for the engine's other events.
        #expect(engine.later.count == 1)
        engine.runLaterWork()
        #expect(engine.evaluated.count == 3)
        #expect(engine.evaluated[2].script.components(separatedBy: "_handleMessageFromObjC").count - 1 == 600 - WVJBWire.sliceSize)
    }

    @Test func aFailedFetchStillLetsTheNextSignalBeAnswered() throws {
        let session = try session(HostOptions(injectsPageRuntime: false, wire: .webViewJavascriptBridge))
        session.signalled("https://__wvjb_queue_message__", from: top)  // the engine gives no value
        session.signalled("https://__wvjb_queue_message__", from: top)
        #expect(engine.evaluated.filter { $0.valueLimit != nil }.count == 2)
        // A subframe's signal is cancelled and not answered.
        session.signalled("https://__wvjb_queue_message__", from: CallerFrame(isMainFrame: false, origin: "http://app.example"))
        #expect(engine.evaluated.count == 2)
    }

    @Test(arguments: [
        "https://__wvjb_queue_message__", "HTTPS://__WVJB_QUEUE_MESSAGE__/x", "wvjbscheme://__bridge_loaded__", "https://__bridge_loaded__",
        "https://example.com/__wvjb_queue_message__", "http://__wvjb_queue_message__", "wvjbscheme://__other__", "",
    ])
    func theSignalPatternAHostWatchesForIsExactlyTheDialectsSignals(_ url: String) throws {
        let session = try session(HostOptions(injectsPageRuntime: false, wire: .webViewJavascriptBridge))
        let pattern = try NSRegularExpression(pattern: try #require(session.signalPattern), options: [.caseInsensitive])
        let matches = pattern.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
        #expect(matches == session.isSignal(url))
    }

    @Test func theAppsJavaScriptIsMeasuredInThePageAndRunAsItIsWhereEvalIsForbidden() async throws {
        let session = try session()
        engine.runsLaterAtOnce = true
        let measured = "(function(s,n){"
        engine.values = [(measured, #""={\"a\":1}""#)]
        #expect(try await session.evaluate(javascript: "({a: 1})") == .object(["a": 1]))
        #expect(engine.evaluated.count == 1)
        #expect(engine.evaluated.last?.valueLimit == 3 * keystone.limits.evaluationResultBytes + 16)
        // A page whose Content Security Policy forbids eval: the script runs as it is.
        engine.values = [(measured, #""\u0001unmeasured""#), ("document.title", #""Greeter""#)]
        #expect(try await session.evaluate(javascript: "document.title") == "Greeter")
        #expect(engine.evaluated.last?.script == "document.title")
        #expect(engine.evaluated.last?.valueLimit == keystone.limits.evaluationResultBytes)
    }

    @Test func theAppsJavaScriptWithNoEngineFailsAsThePageGone() async throws {
        let session = try HostSession(hub: keystone, options: HostOptions())
        let error = await #expect(throws: BridgeError.self) { try await session.evaluate(javascript: "1") }
        #expect(error?.code == .pageGone)
    }

    @Test func theByteChannelIsServedToTheDocumentsThatCanReachItUntilTheSessionCloses() throws {
        let session = try session()
        session.serveBytes(over: URLSchemeTransport.keystone, isSecure: false)
        #expect(keystone.servesBytes)
        session.documentReported("start a", from: CallerFrame(isMainFrame: true, origin: "https://bank.example"))
        #expect(!keystone.servesBytes)
        session.documentReported("start b", from: top)
        #expect(keystone.servesBytes)
        session.closed()
        #expect(!keystone.servesBytes)
    }

    // MARK: Subframe documents (a host whose engine names frames, not documents: WKWebView's)

    let widget = CallerFrame(isMainFrame: false, origin: "https://widget.example")

    @Test func aSubframesReportNumbersItsDocumentAndItsPromptsNameItFromAFrameOfThatOriginOnly() throws {
        let session = try session()
        session.documentReported("start top", from: top)
        guard case .started(let document)? = session.subframeReported("frame w1", from: widget) else {
            Issue.record("the report numbered no document")
            return
        }
        #expect(session.subframeReported("frame w1", from: widget) == .started(document))  // restored: the same
        let marked = HostScripts.documentMark + "w1\n" + #"{"data":1}"#
        let caller = session.caller(ofPromptWith: marked, frame: widget)
        #expect(caller.defaultText == #"{"data":1}"#)
        #expect(caller.frame == CallerFrame(isMainFrame: false, origin: "https://widget.example", document: document))
        #expect(caller.named == nil)
        // Another origin's frame, or the main frame, naming that document: the mark goes, no document.
        for frame in [CallerFrame(isMainFrame: false, origin: "https://ad.example"), top] {
            let other = session.caller(ofPromptWith: marked, frame: frame)
            #expect(other.defaultText == #"{"data":1}"#)
            #expect(other.frame.document == nil)
        }
        // An unmarked prompt is as it was; a report from the main frame or of nonsense names nothing.
        let unmarked = session.caller(ofPromptWith: #"{"data":1}"#, frame: widget)
        #expect(unmarked.defaultText == #"{"data":1}"# && unmarked.frame == widget && unmarked.named == nil)
        #expect(session.subframeReported("frame w2", from: top) == nil)
        #expect(session.subframeReported("frame W-2!", from: widget) == nil)
        #expect(session.subframeReported("start w3", from: widget) == nil)
        #expect(session.core.guarded("go()", inSubframe: document)?.contains(#"window.__keystoneDocument==="w1""#) == true)
        // Its end: once.
        #expect(session.subframeReported("frame-end w1", from: widget) == .ended(document))
        #expect(session.subframeReported("frame-end w1", from: widget) == nil)
        #expect(session.core.guarded("go()", inSubframe: document) == nil)
        #expect(session.caller(ofPromptWith: marked, frame: widget).named != document)
    }

    @Test func aPromptThatComesBeforeItsDocumentsReportNumbersTheDocumentTheReportThenNames() throws {
        let session = try session()
        let caller = session.caller(ofPromptWith: HostScripts.documentMark + "early\n{}", frame: widget)
        let document = try #require(caller.named)
        #expect(caller.frame.document == document)
        #expect(caller.frame.isNested)  // until its report says where its frame is
        #expect(session.subframeReported("frame early", from: widget) == .started(document))
        #expect(!session.caller(ofPromptWith: HostScripts.documentMark + "early\n{}", frame: widget).frame.isNested)
        // A frame inside a frame says so in its report, and its prompts' caller carries it.
        guard case .started? = session.subframeReported("nested inner https://ad.example", from: widget) else {
            Issue.record("a nested frame's report numbered no document")
            return
        }
        #expect(session.caller(ofPromptWith: HostScripts.documentMark + "inner\n{}", frame: widget).frame.nestedIn == "https://ad.example")
        // The same name from a frame of another origin is no one's.
        #expect(session.subframeReported("frame early", from: CallerFrame(isMainFrame: false, origin: "https://ad.example")) == nil)
        #expect(session.caller(ofPromptWith: HostScripts.documentMark + "early\n{}", frame: CallerFrame(isMainFrame: false, origin: "https://ad.example")).frame.document == nil)
        // An unattested prompt, or one whose name is not a document's, names none.
        #expect(session.caller(ofPromptWith: HostScripts.documentMark + "other\n{}", frame: .unattested).named == nil)
        #expect(session.caller(ofPromptWith: HostScripts.documentMark + "no such name\n{}", frame: widget).named == nil)
    }

    @Test func aSubframeDocumentGoesWithItsPageLoadAndWhenTheHostFindsItGone() throws {
        let session = try session()
        session.documentReported("start top", from: top)
        guard case .started(let first)? = session.subframeReported("frame a", from: widget),
            case .started(let second)? = session.subframeReported("frame b", from: widget)
        else {
            Issue.record("the reports numbered no documents")
            return
        }
        #expect(first != second)
        session.subframeGone(first)
        #expect(!session.core.namesSubframe(first))
        #expect(session.core.namesSubframe(second))
        session.documentCommitted()
        #expect(!session.core.namesSubframe(second))
        #expect(session.caller(ofPromptWith: HostScripts.documentMark + "b\n{}", frame: widget).frame.document != second)
    }

    /// A document the engine numbered (GTK's web-process extension) goes through the session too:
    /// the hub hears, and lets go of its calls.
    @Test func aDocumentTheEngineNumberedGoesThroughTheSession() throws {
        let keystone = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(allowsSubframes: true)))
        let session = try HostSession(hub: keystone, options: HostOptions())
        let numbered = FrameDocument(rawValue: 9)
        let nested = CallerFrame(isMainFrame: false, origin: "https://widget.example", document: numbered)
        _ = keystone.handleMessage("_dsb.dsinit", arguments: #"{"data":{"runtime":"keystone"}}"#, frame: nested)
        #expect(keystone.subframes.map(\.document) == [numbered])
        session.numberedDocumentGone(numbered)
        #expect(keystone.subframes.isEmpty)
    }

    @Test func aSubframeOfAnOriginTheHubDoesNotAllowIsNeverNumbered() throws {
        var core = try HostCore(allowedOrigins: ["https://app.example"])
        #expect(core.subframeStarted(token: "x", origin: "https://widget.example") == nil)
        #expect(core.subframeStarted(token: "x", origin: nil) == nil)
        #expect(core.subframeStarted(token: "y", origin: "https://app.example") != nil)
        var open = HostCore()
        for index in 0..<HostCore.subframeDocuments { #expect(open.subframeStarted(token: "t\(index)", origin: "https://a.example") != nil) }
        #expect(open.subframeStarted(token: "past", origin: "https://a.example") == nil)
    }
}
