// WebKitExpectations.swift — what WebKit's own API tests (Tools/TestWebKitAPI/Tests/WebKitCocoa in
// WebKit's repository) assert of the Cocoa API the shim implements, asked of the shim in a real
// engine. Each check names the WebKit test it comes from; what cannot hold on WebKitGTK is listed in
// Tests/WebKitShim/README.md instead.
#if os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Keystone
import WebKitShim

@MainActor
struct WebKitExpectations {
    let check: (String, () async throws -> Void) async -> Void

    func run() async {
        await check("WebKit's WKWebView.EvaluateJavaScriptErrorCases: a DOM node, or an array holding one, is an unsupported result (WKErrorDomain 5)", domNodes)
        await check("WebKit's WKWebView.EvaluateJavaScriptErrorCases: a thrown value is WKErrorDomain 4, its message, line and column in the user info", thrownString)
        await check("WebKit's EvaluateJavaScript.ReturnTypes: Date, undefined, null, containers and objects WebKit has no form for", returnTypes)
        await check("WebKit's EvaluateJavaScript.ReturnTypes: a script of 100,000 opening braces is WKErrorDomain 4", syntaxError)
        await check("WebKit's EvaluateJavaScript.EmptyStrings and LongStrings: nothing for an empty script; a megabyte of script runs", stringsOfScript)
        await check("WebKit's WKWebView.EvaluateJavaScriptBlockCrash: a web view that goes first still calls the handler, with an error", webViewGoesFirst)
        await check(
            "WebKit's WKUserContentController.AsyncScriptMessageHandlerBasicPost: a reply fulfils, rejects, is undefined, is not serializable, or is never given",
            replies)
        await check("WebKit's WKWebView.EvaluateJavaScriptErrorCases (message bodies): `undefined` arrives as nil, `null` as NSNull", messageBodies)
        await check("WebKit's WKUserContentController.ScriptMessageHandlerBasicPostIsolatedWorld: a handler of a named world is its world's only", isolatedWorld)
        await check("WebKit's WKUserContentController.UserScriptRemoveAll: the scripts in the order added, the same objects; then none", userScripts)
        await check("WebKit's URLSchemeHandler.BuiltinSchemes: WebKit's own schemes, and no other", builtinSchemes)
        await check("WebKit's WKNavigation.NavigationDelegate: the navigation delegate is held weakly", weakDelegate)
        await check("WebKit's WKURLSchemeHandler.h: a task is stopped when its load is cancelled, as when the page aborts its fetch", abortedFetch)
        await check(
            "WebKit's EvaluateJavaScript.JavaScriptInFramesFromPostMessage: each frame's message names its frame, main or not, and the frame's address",
            framesPost)
        await check(
            "WebKit's EvaluateJavaScript.JavaScriptInFramesFromPostMessage and JavaScriptInMissingFrameError: a script runs in the frame it is given, in its world; in a frame that has gone it fails, WKErrorDomain 12",
            framesEvaluate)
        await check(
            "WebKit's WKNavigation.AutomaticVisibleViewReloadAfterWebProcessCrash and AutomaticHiddenViewDelayedReloadAfterWebProcessCrash: one reload, when visible",
            reloadAfterCrash)
        await check("WebKit's WKNavigation.DidFailProvisionalNavigation: an unknown scheme fails the load's navigation, NSURLErrorDomain -1002", unknownScheme)
        await check("WebKit's WKNavigation.LoadRequest: the navigation a load returns is the one its delegate calls name", oneNavigation)
        await check(
            "WebKit's DecidePolicyForNavigationActionForHyperlinkThatRedirects: a frame navigating itself is the action's source and target frame, one object",
            sameFrameNavigation)
    }

    // MARK: WKWebViewEvaluateJavaScript.mm

    private func domNodes() async throws {
        let (webView, window) = try await loaded("<p id='node'>text</p>")
        for script in ["document.getElementById('node')", "[document.body]"] {
            let (value, error) = await evaluate(script, in: webView)
            let code = (error as? NSError).map { "\($0.domain) \($0.code)" }
            try expect(value == nil && code == "WKErrorDomain 5", "\(script): \(String(describing: value)), \(String(describing: code))")
        }
        withExtendedLifetime(window) {}
    }

    private func thrownString() async throws {
        let (webView, window) = try await loaded("<p>throws</p>")
        let (value, error) = await evaluate("var a = 1;\nvar b = 2;\nif (a + b === 3) throw 'something bad';", in: webView)
        let info = (error as? NSError)?.userInfo ?? [:]
        try expect(value == nil && (error as? NSError)?.code == 4, "the error: \(String(describing: error))")
        try expect(info["WKJavaScriptExceptionMessage"] as? String == "something bad", "the message: \(String(describing: info["WKJavaScriptExceptionMessage"]))")
        try expect((info["WKJavaScriptExceptionLineNumber"] as? NSNumber)?.intValue == 3, "the line: \(String(describing: info["WKJavaScriptExceptionLineNumber"]))")
        try expect(info["WKJavaScriptExceptionColumnNumber"] is NSNumber, "the column: \(String(describing: info["WKJavaScriptExceptionColumnNumber"]))")
        withExtendedLifetime(window) {}
    }

    private func returnTypes() async throws {
        let (webView, window) = try await loaded("<p>values</p>")
        let (nested, _) = await evaluate("[{a: null, b: undefined}, [null, undefined, 0]]", in: webView)
        let pair = nested as? [Any] ?? []
        let object = pair.first as? [String: Any]
        let array = pair.last as? [Any]
        try expect(object?.count == 1 && object?["a"] is NSNull, "an object's undefined member is left out: \(String(describing: object))")
        try expect(array?.count == 3 && array?[0] is NSNull && array?[1] is NSNull && (array?[2] as? NSNumber) == 0, "an array's undefined is NSNull: \(String(describing: array))")
        let (mixed, error) = await evaluate(
            """
            ({ text: 'a', empty: '', number: 1.5, flag: true, nothing: null, missing: undefined, when: [new Date(86400000)],
               pattern: /x/, map: new Map([[1, 2]]), set: new Set([1]), buffer: new ArrayBuffer(4),
               blob: new Blob(['x']), big: 10n, failure: new Error('e') })
            """, in: webView)
        let members = mixed as? [String: Any] ?? [:]
        try expect(error == nil && !members.isEmpty, "the object came back: \(String(describing: error))")
        try expect(members["text"] as? String == "a" && members["empty"] as? String == "" && (members["number"] as? NSNumber)?.doubleValue == 1.5, "strings and numbers: \(members)")
        try expect(members["nothing"] is NSNull && members["missing"] == nil, "null and undefined: \(members)")
        try expect(((members["when"] as? [Any])?.first as? Date) == Date(timeIntervalSince1970: 86400), "a Date is a Date: \(String(describing: members["when"]))")
        for name in ["pattern", "map", "set", "buffer"] {
            try expect((members[name] as? [String: Any])?.isEmpty == true, "\(name) is an empty dictionary: \(String(describing: members[name]))")
        }
        try expect(members["blob"] is NSNull, "a Blob is NSNull: \(String(describing: members["blob"]))")
        withExtendedLifetime(window) {}
    }

    private func syntaxError() async throws {
        let (webView, window) = try await loaded("<p>braces</p>")
        let (value, error) = await evaluate(String(repeating: "{", count: 100_000), in: webView)
        try expect(value == nil && (error as? NSError)?.code == 4, "\(String(describing: error))")
        withExtendedLifetime(window) {}
    }

    private func stringsOfScript() async throws {
        let (webView, window) = try await loaded("<p>strings</p>")
        let (none, noError) = await evaluate("", in: webView)
        try expect(none == nil && noError == nil, "an empty script: \(String(describing: none)), \(String(describing: noError))")
        let long = "var x = '" + String(repeating: "a", count: 1 << 20) + "'; x.slice(0, 1) + 'b'"
        let (value, error) = await evaluate(long, in: webView)
        try expect(value as? String == "ab" && error == nil, "a long script: \(String(describing: value)), \(String(describing: error))")
        withExtendedLifetime(window) {}
    }

    private func webViewGoesFirst() async throws {
        var webView: WKWebView? = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<(Bool, Bool), Never>) in
            webView?.evaluateJavaScript("1 + 1") { value, error in done.resume(returning: (value == nil, error != nil)) }
            webView = nil
        }
        try expect(outcome == (true, true), "value nil \(outcome.0), error \(outcome.1)")
    }

    // MARK: UserContentController.mm

    private func replies() async throws {
        let handler = ReplyingHandler()
        let configuration = WKWebViewConfiguration()
        configuration.userContentController.addScriptMessageHandler(handler, contentWorld: .page, name: "testHandler")
        let (webView, window) = try await loaded("<p>replies</p>", configuration: configuration)
        var outcomes: [String: String] = [:]
        for body in ["fulfil", "reject", "undefined", "data", "drop"] {
            let script = """
                window.outcome = 'pending';
                window.webkit.messageHandlers.testHandler.postMessage('\(body)').then(
                  function (value) { window.outcome = 'resolved ' + String(value); },
                  function (error) { window.outcome = 'rejected ' + String(error && error.message || error); });
                """
            _ = await evaluate(script, in: webView)
            outcomes[body] = try await settled("window.outcome", in: webView)
        }
        try expect(outcomes["fulfil"] == "resolved Fulfilled!", "fulfilled: \(String(describing: outcomes["fulfil"]))")
        try expect(outcomes["reject"]?.hasPrefix("rejected") == true && outcomes["reject"]?.contains("Rejected!") == true, "rejected: \(String(describing: outcomes["reject"]))")
        try expect(outcomes["undefined"] == "resolved undefined", "undefined: \(String(describing: outcomes["undefined"]))")
        try expect(outcomes["data"]?.contains("unable to be serialized") == true, "not serializable: \(String(describing: outcomes["data"]))")
        try expect(outcomes["drop"]?.contains("did not respond to this postMessage") == true, "never given: \(String(describing: outcomes["drop"]))")
        withExtendedLifetime(window) {}
    }

    private func messageBodies() async throws {
        let handler = ReplyingHandler()
        let configuration = WKWebViewConfiguration()
        configuration.userContentController.addScriptMessageHandler(handler, contentWorld: .page, name: "testHandler")
        let (webView, window) = try await loaded("<p>bodies</p>", configuration: configuration)
        let script = """
            window.webkit.messageHandlers.testHandler.postMessage(undefined);
            window.webkit.messageHandlers.testHandler.postMessage(null).then(function () { window.posted = 'both'; });
            0
            """
        _ = await evaluate(script, in: webView)
        _ = try await settled("window.posted", in: webView, until: "both")
        try expect(handler.bodies.count == 2, "two messages: \(handler.bodies)")
        try expect(handler.bodies.first.map { $0 == nil } == true, "undefined arrives as nil: \(handler.bodies)")
        try expect(handler.bodies.last.map { $0 is NSNull } == true, "null arrives as NSNull: \(handler.bodies)")
        withExtendedLifetime(window) {}
    }

    private func isolatedWorld() async throws {
        let handler = ReplyingHandler()
        let configuration = Self.posting("'Hello'", to: handler, in: .world(name: "testWorld"), mainFrameOnly: true)
        let (webView, window) = try await loaded("<p>worlds</p>", configuration: configuration)
        let (seen, _) = await evaluate("String(!!(window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.testHandler))", in: webView)
        try expect(handler.bodies.contains { $0 as? String == "Hello" }, "the named world's message: \(handler.bodies)")
        try expect(seen as? String == "false", "the page world sees the handler: \(String(describing: seen))")
        withExtendedLifetime(window) {}
    }

    private func userScripts() async throws {
        let controller = WKUserContentController()
        let first = WKUserScript(source: "1", injectionTime: .atDocumentStart, forMainFrameOnly: true, in: .page)
        let second = WKUserScript(source: "2", injectionTime: .atDocumentEnd, forMainFrameOnly: false, in: .world(name: "testWorld"))
        controller.addUserScript(first)
        controller.addUserScript(second)
        let scripts = controller.userScripts
        try expect(scripts.count == 2 && scripts[0] === first && scripts[1] === second, "the scripts: \(scripts.count)")
        controller.removeAllUserScripts()
        try expect(controller.userScripts.isEmpty, "after removeAllUserScripts: \(controller.userScripts.count)")
    }

    // MARK: WKURLSchemeHandler-1.mm, Navigation.mm

    private func builtinSchemes() async throws {
        let builtin = ["about", "applewebdata", "blob", "data", "file", "ftp", "http", "https", "javascript", "webkit-fake-url", "ws", "wss"]
        let handled = builtin.filter { WKWebView.handlesURLScheme($0) }
        try expect(handled == builtin, "handled: \(handled)")
        try expect(!WKWebView.handlesURLScheme("gopher") && !WKWebView.handlesURLScheme("my-custom-scheme"), "gopher and my-custom-scheme are no scheme of WebKit's")
    }

    private func weakDelegate() async throws {
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        var delegate: RecordingNavigationDelegate? = RecordingNavigationDelegate()
        webView.navigationDelegate = delegate
        try expect(webView.navigationDelegate === delegate, "the delegate is set")
        delegate = nil
        try expect(webView.navigationDelegate == nil, "the delegate outlived its last reference")
    }

    private func abortedFetch() async throws {
        let handler = SilentSchemeHandler()
        let configuration = WKWebViewConfiguration()
        configuration.setURLSchemeHandler(handler, forURLScheme: "testing")
        let (webView, window) = try await loaded("<p>aborts</p>", configuration: configuration)
        let script = """
            window.aborter = new AbortController();
            fetch('testing://host/slow', { signal: window.aborter.signal }).catch(function () { window.fetched = 'aborted'; });
            0
            """
        _ = await evaluate(script, in: webView)
        for _ in 0..<200 where handler.started.isEmpty { await pause() }
        try expect(handler.started == ["testing://host/slow"], "started: \(handler.started)")
        _ = await evaluate("window.aborter.abort(); 0", in: webView)
        _ = try await settled("window.fetched", in: webView, until: "aborted")
        for _ in 0..<200 where handler.stopped.isEmpty { await pause() }
        try expect(handler.stopped == ["testing://host/slow"], "stopped: \(handler.stopped)")
        withExtendedLifetime(window) {}
    }

    private func framesPost() async throws {
        let handler = FrameRecordingHandler()
        let configuration = Self.posting("location.href", to: handler, in: .world(name: "frames"), mainFrameOnly: false)
        let (_, window) = try await loaded("<iframe src='data:text/html,<p>inner</p>'></iframe>", configuration: configuration)
        for _ in 0..<300 where handler.frames.count < 2 { await pause() }
        let main = handler.frames.first { $0.isMainFrame }
        let sub = handler.frames.first { !$0.isMainFrame }
        try expect(handler.frames.count == 2 && main != nil && sub != nil && main !== sub, "two frames, one main: \(handler.frames.map(\.isMainFrame))")
        try expect(main?.request.url?.absoluteString == "http://127.0.0.1:9/", "the main frame's address: \(String(describing: main?.request.url))")
        try expect(sub?.request.url?.absoluteString.hasPrefix("data:text/html") == true, "the subframe's address: \(String(describing: sub?.request.url))")
        try expect(handler.matched, "each message's body is its frame's address")
        withExtendedLifetime(window) {}
    }

    private func framesEvaluate() async throws {
        let handler = FrameRecordingHandler()
        let configuration = Self.posting("location.href", to: handler, in: .world(name: "frames"), mainFrameOnly: false)
        configuration.userContentController.addUserScript(
            WKUserScript(source: "var whose = 'the world frames'", injectionTime: .atDocumentStart, forMainFrameOnly: false, in: .world(name: "frames")))
        let (webView, window) = try await loaded("<iframe src='data:text/html,<p>inner</p><script>var whose = \"the page\"</script>'></iframe>", configuration: configuration)
        for _ in 0..<300 where handler.frames.count < 2 { await pause() }
        guard let sub = handler.frames.first(where: { !$0.isMainFrame }), let main = handler.frames.first(where: \.isMainFrame) else {
            throw CheckFailure(why: "no subframe posted")
        }
        let inPage = await evaluate("[location.href.slice(0, 14), typeof whose === 'string' ? whose : 'none']", in: sub, world: .page, of: webView)
        try expect(inPage.value as? [String] == ["data:text/html", "the page"], "the subframe's page world: \(String(describing: inPage.value)), \(String(describing: inPage.error))")
        let inWorld = await evaluate("whose", in: sub, world: .world(name: "frames"), of: webView)
        try expect(inWorld.value as? String == "the world frames", "the subframe's world: \(String(describing: inWorld.value)), \(String(describing: inWorld.error))")
        let inMain = await evaluate("location.href", in: main, world: .page, of: webView)
        try expect(inMain.value as? String == "http://127.0.0.1:9/", "the main frame: \(String(describing: inMain.value))")
        let thrown = await evaluate("null.property", in: sub, world: .page, of: webView)
        try expect((thrown.error as? NSError)?.code == 4, "an exception in the subframe: \(String(describing: thrown.error))")
        // A frame names a frame, not a document: after it navigates, its next document.
        _ = await evaluate("document.querySelector('iframe').src = 'data:text/html,<p>next</p>'", in: webView)
        var next = ""
        for _ in 0..<300 where next != "next" {
            await pause()
            next = await evaluate("document.body ? document.body.textContent : ''", in: sub, world: .page, of: webView).value as? String ?? ""
        }
        try expect(next == "next", "the frame's next document: \(next)")
        _ = await evaluate("document.querySelector('iframe').remove()", in: webView)
        let gone = await evaluate("1", in: sub, world: .page, of: webView)
        let code = (gone.error as? NSError).map { "\($0.domain) \($0.code)" }
        try expect(code == "WKErrorDomain 12", "a removed frame: \(String(describing: code)), \(String(describing: gone.value))")
        withExtendedLifetime(window) {}
    }

    private func evaluate(_ script: String, in frame: WKFrameInfo, world: WKContentWorld, of webView: WKWebView) async -> Evaluated {
        await withCheckedContinuation { (done: CheckedContinuation<Evaluated, Never>) in
            webView.evaluateJavaScript(script, in: frame, in: world) { result in
                switch result {
                case .success(let value): done.resume(returning: Evaluated(value: ReplyingHandler.unwrapped(value), error: nil))
                case .failure(let error): done.resume(returning: Evaluated(value: nil, error: error))
                }
            }
        }
    }

    private func reloadAfterCrash() async throws {
        // Hidden: no reload until the view is shown.
        let hidden = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        hidden.loadHTMLString("<p>hidden</p>", baseURL: URL(string: "http://127.0.0.1:9/hidden.html"))
        for _ in 0..<50 { await pause() }
        hidden.killWebContentProcess()
        for _ in 0..<50 { await pause() }
        try expect(hidden.reloads == 0, "a hidden view reloaded: \(hidden.reloads)")
        let shown = ShimWindow(showing: hidden, title: "WebKit's expectations")
        try expect(hidden.reloads == 1, "shown, it reloads: \(hidden.reloads)")
        // Visible: one reload, and none for a second crash soon after.
        let (webView, window) = try await loaded("<p>visible</p>")
        webView.killWebContentProcess()
        for _ in 0..<100 where webView.reloads == 0 { await pause() }
        try expect(webView.reloads == 1, "the first crash reloads: \(webView.reloads)")
        for _ in 0..<30 { await pause() }
        webView.killWebContentProcess()
        for _ in 0..<50 { await pause() }
        try expect(webView.reloads == 1, "a second crash soon after reloads again: \(webView.reloads)")
        withExtendedLifetime((window, shown)) {}
    }

    private func unknownScheme() async throws {
        let delegate = NavigationRecorder()
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        webView.navigationDelegate = delegate
        let navigation = webView.load(URLRequest(url: URL(string: "non-existant-scheme://")!))
        for _ in 0..<300 where delegate.failures.isEmpty { await pause() }
        let failure = delegate.failures.first
        try expect(failure?.navigation === navigation && failure?.navigation != nil, "the failed navigation is the load's")
        let error = failure?.error as? NSError
        try expect(error?.domain == NSURLErrorDomain && error?.code == -1002, "the error: \(String(describing: error))")
    }

    private func oneNavigation() async throws {
        let delegate = NavigationRecorder()
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        webView.navigationDelegate = delegate
        let navigation = webView.loadHTMLString("<p>one navigation</p>", baseURL: URL(string: "http://127.0.0.1:9/one.html"))
        for _ in 0..<300 where delegate.finished.isEmpty { await pause() }
        let named = delegate.started + delegate.committed + delegate.finished
        try expect(named.count == 3 && named.allSatisfy { $0 === navigation }, "start, commit and finish name the load's navigation: \(named.count)")
    }

    private func sameFrameNavigation() async throws {
        let delegate = NavigationRecorder()
        let (webView, window) = try await loaded("<p>links</p>")
        webView.navigationDelegate = delegate
        // (Port 9 is one WebKit refuses before asking: another, where nothing listens.)
        _ = await evaluate("location.href = 'http://127.0.0.1:65000/elsewhere.html'; 0", in: webView)
        for _ in 0..<300 where delegate.actions.isEmpty { await pause() }
        let action = delegate.actions.first
        try expect(
            action != nil && action?.targetFrame != nil && action?.sourceFrame === action?.targetFrame,
            "source and target are one frame: \(delegate.actions.count) actions, target \(String(describing: action?.targetFrame)), source nil \(action.map { unsafeBitCast($0.sourceFrame, to: WKFrameInfo?.self) == nil } ?? true)"
        )
        withExtendedLifetime(window) {}
    }

    /// A configuration whose `world` has `handler` as `testHandler`, and a script that posts
    /// `value` to it at each document's start (the main frame's only, or every frame's).
    private static func posting(_ value: String, to handler: any WKScriptMessageHandlerWithReply, in world: WKContentWorld, mainFrameOnly: Bool) -> WKWebViewConfiguration {
        let configuration = WKWebViewConfiguration()
        configuration.userContentController.addScriptMessageHandler(handler, contentWorld: world, name: "testHandler")
        configuration.userContentController.addUserScript(
            WKUserScript(source: "window.webkit.messageHandlers.testHandler.postMessage(\(value))", injectionTime: .atDocumentStart, forMainFrameOnly: mainFrameOnly, in: world))
        return configuration
    }

    private func pause() async {
        await withCheckedContinuation { done in DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(10)) { done.resume() } }
    }

    // MARK: Helpers

    /// A web view in a window with `html` loaded, once its scripts have run.
    private func loaded(_ html: String, configuration: WKWebViewConfiguration = WKWebViewConfiguration()) async throws -> (WKWebView, ShimWindow) {
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let window = ShimWindow(showing: webView, title: "WebKit's expectations")
        webView.loadHTMLString(html + "<script>window.loadedForChecks = 'yes';</script>", baseURL: URL(string: "http://127.0.0.1:9/"))
        _ = try await settled("window.loadedForChecks", in: webView, until: "yes")
        return (webView, window)
    }

    /// The value of `script` and its error.
    private func evaluate(_ script: String, in webView: WKWebView) async -> (Any?, (any Error)?) {
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<Evaluated, Never>) in
            webView.evaluateJavaScript(script) { value, error in done.resume(returning: Evaluated(value: value, error: error)) }
        }
        return (outcome.value, outcome.error)
    }

    /// An evaluation's outcome, handed from its handler on the main actor to the check there.
    private struct Evaluated: @unchecked Sendable {
        let value: Any?
        let error: (any Error)?
    }

    /// The text of `script`'s value once it is `until` (or no longer "pending"), asked every 10 ms
    /// for at most 5 s.
    private func settled(_ script: String, in webView: WKWebView, until: String? = nil) async throws -> String {
        for _ in 0..<500 {
            let (value, _) = await evaluate(script, in: webView)
            let text = value.map { "\($0)" } ?? "undefined"
            if let until, text == until { return text }
            if until == nil, text != "pending" { return text }
            await pause()
        }
        throw CheckFailure(why: "\(script) did not settle")
    }
}

/// A navigation delegate that notes what it is told, and cancels every navigation a page starts
/// (the checks' addresses have no server).
@MainActor
final class NavigationRecorder: NSObject, WKNavigationDelegate {
    var actions: [WKNavigationAction] = []
    var started: [WKNavigation?] = []
    var committed: [WKNavigation?] = []
    var finished: [WKNavigation?] = []
    var failures: [(navigation: WKNavigation?, error: any Error)] = []

    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction, decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void) {
        actions.append(navigationAction)
        decisionHandler(actions.count > 1 || navigationAction.request.url?.path == "/elsewhere.html" ? .cancel : .allow)
    }
    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) { started.append(navigation) }
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) { committed.append(navigation) }
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) { finished.append(navigation) }
    func webView(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error) { failures.append((navigation, error)) }
}

/// A script message handler that keeps each message's frame.
@MainActor
final class FrameRecordingHandler: NSObject, WKScriptMessageHandlerWithReply {
    var frames: [WKFrameInfo] = []
    var matched = true

    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage, replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        frames.append(message.frameInfo)
        // (Foundation writes the address's characters that need it percent-encoded.)
        if (message.body as? String).flatMap(URL.init(string:)) != message.frameInfo.request.url { matched = false }
        replyHandler(nil, nil)
    }
}

/// A scheme handler that never answers, and notes the tasks it is handed and those stopped.
@MainActor
final class SilentSchemeHandler: NSObject, WKURLSchemeHandler {
    var started: [String] = []
    var stopped: [String] = []

    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask) {
        started.append(urlSchemeTask.request.url?.absoluteString ?? "")
    }

    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask) {
        stopped.append(urlSchemeTask.request.url?.absoluteString ?? "")
    }
}

/// A script message handler that answers as the page's message asks, and keeps the bodies.
@MainActor
final class ReplyingHandler: NSObject, WKScriptMessageHandlerWithReply {
    var bodies: [Any?] = []

    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage, replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        bodies.append(Self.unwrapped(message.body))
        switch message.body as? String {
        case "fulfil": replyHandler("Fulfilled!", nil)
        case "reject": replyHandler(nil, "Rejected!")
        case "undefined": replyHandler(nil, nil)
        case "data": replyHandler(Data([1, 2, 3]), nil)
        case "drop": break
        default: replyHandler(nil, nil)
        }
    }

    /// A body as Objective-C sees it: a nil one (declared nonnull, handed for `undefined`) is nil.
    static func unwrapped(_ body: Any) -> Any? {
        let mirror = Mirror(reflecting: body)
        guard mirror.displayStyle == .optional else { return body }
        return mirror.children.first.map(\.value)
    }
}
#endif
