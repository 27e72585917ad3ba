// AppleHostChecks.swift — what no page can show of WKWebViewHost: what it does with the app's
// delegates, with a host the app lets go, with a navigation the app itself starts, and with the
// hub's byte channel, checked in a real engine through the Cocoa WebKit shim and asked as WebKit
// asks. Prints "ok - …" or "not ok - …: why" for each check, then "e2e: N passed, N failed", as
// the pages do; Tests/E2E/run.sh runs it with the pages.
#if os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Keystone
import KeystoneHost
import KeystoneGTK
import WebKitShim

@_spi(KeystoneInternal) import KeystoneInterfaces

@main
struct AppleHostChecks {
    static func main() {
        let loop = GTKMainLoop()
        Task { @MainActor in
            await Checks().run()
            loop.quit()
        }
        loop.run()
    }
}

/// Prints a line at once (unbuffered: a check that crashes leaves the lines before it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A failed check, with why.
struct CheckFailure: Error {
    var why: String
}

func expect(_ condition: Bool, _ why: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure(why: why()) }
}

@MainActor
final class Checks {
    private var passed = 0
    private var failed = 0

    func run() async {
        await check("a host let go without detach() ends its page load, leaves no script, passes on no bridge prompt and keeps the app its delegates; a new host attaches", hostLetGo)
        await check("Lockdown Mode's message, orientation permission and the open panel reach the app's UI delegate", forwardsNewerMethods)
        await check(
            "the host's delegates have a method they only pass on exactly when the app's delegate has it: without one, WebKit's own behaviour stands",
            passesOnOnlyWhatTheAppHas)
        await check(
            "a file input: WebKit's own picker (iOS) where the app's UI delegate has no open panel, the app's answer where it has one",
            fileInputs)
        await check("an app delegate method whose signature only nearly matches WebKit's is never called", nearMissNeverCalled)
        await check("a link WebKit cannot load is cancelled when the app does not decide, and a new window's navigation allowed, as WebKit does", navigationDefault)
        await check("a WVJB signal the app loads itself (no source frame) is cancelled, and nothing crashes", signalWithoutSourceFrame)
        await check("a Keystone handler left in the host's own world gives way to the new host instead of raising", handlerLeftBehind)
        await check("a committed document that runs no host script ends the page load: Swift's call to the page settles", documentWithoutHostScript)
        await check("after detach(), the hub serves no byte channel", detachStopsByteChannel)
        await check(
            "an authentication challenge: WebKit's answer (no credential) where the app's navigation delegate has no challenge method, the app's credential where it has one",
            authentication)
        await check(
            "a document of a domain that is not among the app's App-Bound Domains, where WebKit runs no script of the app's: the app is told, and Swift's evaluation says why",
            appBoundDomains)
        await check(
            "an app origin is served from the configuration: a host whose options name one its configuration does not serve is refused, the hub untouched",
            appOriginFromConfiguration)
        await check("the byte channel reads a request's body off the main thread, and the call it carries is answered", bodyReadOffMain)
        await check("the end of the web content process: the app's delegate that handles it reloads, not the host; an unseen view is not reloaded", terminationReload)
        await check(
            "a page whose web content process ended while not visible reloads once it is: shown (webViewDidAppear), or its scene back from the background",
            reloadWhenVisible)
        await WebKitExpectations(check: check).run()
        say("e2e: \(passed) passed, \(failed) failed")
    }

    func check(_ name: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            passed += 1
            say("ok - \(name)")
        } catch {
            failed += 1
            say("not ok - \(name): \((error as? CheckFailure)?.why ?? "\(error)")")
        }
    }

    // MARK: The checks

    private func hostLetGo() async throws {
        let keystone = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(allowedOrigins: ["file://"])))
        let configuration = WKWebViewConfiguration()
        let appScript = WKUserScript(source: "window.appScriptRan = true;", injectionTime: .atDocumentStart, forMainFrameOnly: true, in: .page)
        configuration.userContentController.addUserScript(appScript)
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let window = ShimWindow(showing: webView, title: "checks")
        let ui = RecordingUIDelegate()
        let navigation = RecordingNavigationDelegate()
        webView.uiDelegate = ui
        webView.navigationDelegate = navigation
        var host: WKWebViewHost? = try WKWebViewHost(webView: webView, hub: keystone)
        try expect(host?.appUIDelegate === ui, "the host keeps the app's UI delegate")
        let page = "<script>dsBridge.registerAsyn('page.neverAnswered', function (respond) {});</script>"
        webView.loadHTMLString(page, baseURL: URL(fileURLWithPath: "/keystone-checks/let-go.html"))
        let call = keystone.start("page.neverAnswered", as: JSONValue.self)
        try await keystone.pageReady()
        host = nil
        // The page load ended with the host: Swift's call to the page settles.
        let outcome = await Self.outcome(of: call)
        try expect(outcome == "\(BridgeError.Code.pageGone)", "Swift's call after the host went: \(outcome)")
        let scripts = configuration.userContentController.userScripts
        try expect(scripts.count == 1 && scripts.first === appScript, "the controller keeps only the app's script: \(scripts.count)")
        // The document on screen still runs the page runtime: its bridge prompt reaches no dialog.
        let answer = try await evaluate("String(prompt('_dsbridge=math.add', JSON.stringify({data: [1, 2]})))", in: webView)
        try expect(answer == "null" && ui.prompts.isEmpty, "a bridge prompt after the host went: \(answer), the app heard \(ui.prompts)")
        _ = try await evaluate("String(prompt('name?', 'Ada'))", in: webView)
        try expect(ui.prompts == ["name?"], "the page's own prompt reaches the app's delegate: \(ui.prompts)")
        // WebKit asks the web view's delegate, as it would for the page's alert.
        let alerted = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            webView.uiDelegate?.webView?(webView, runJavaScriptAlertPanelWithMessage: "hello", initiatedByFrame: Self.frame(webView)) { done.resume(returning: true) }
                ?? done.resume(returning: false)
        }
        try expect(alerted && ui.alerts == ["hello"], "the app's UI delegate heard the alert after the host went: \(ui.alerts)")
        let again = try WKWebViewHost(webView: webView, hub: Keystone())
        try expect(again.appUIDelegate === ui && again.appNavigationDelegate === navigation, "the new host keeps the app's delegates")
        again.detach()
        try expect(webView.uiDelegate === ui && webView.navigationDelegate === navigation, "detach() gives the web view its delegates back")
        withExtendedLifetime(window) {}
    }

    /// The value of `script` in the page's main frame, as text.
    private func evaluate(_ script: String, in webView: WKWebView) async throws -> String {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<String, any Error>) in
            webView.evaluateJavaScript(script) { value, error in
                if let error { return done.resume(throwing: error) }
                done.resume(returning: value as? String ?? "\(String(describing: value))")
            }
        }
    }

    private func forwardsNewerMethods() async throws {
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let ui = RecordingUIDelegate()
        webView.uiDelegate = ui
        let host = try WKWebViewHost(webView: webView, hub: Keystone())
        defer { host.detach() }
        let delegate = try webViewUIDelegate(webView)
        let origin = WKSecurityOrigin(shimOrigin: "https://app.example")
        let lockdown: Void? = delegate.webView?(webView, showLockdownModeFirstUseMessage: "lockdown") { _ in }
        let orientation: Void? = delegate.webView?(webView, requestDeviceOrientationAndMotionPermissionFor: origin, initiatedByFrame: Self.frame(webView)) { _ in }
        let panel: Void? = delegate.webView?(webView, runOpenPanelWith: WKOpenPanelParameters(shimAllowsMultipleSelection: false), initiatedByFrame: Self.frame(webView)) { _ in }
        try expect(lockdown != nil && orientation != nil && panel != nil, "the host's delegate answers each (lockdown \(lockdown != nil), orientation \(orientation != nil), panel \(panel != nil))")
        try expect(ui.heard == ["lockdown", "orientation", "open panel"], "the app's delegate heard \(ui.heard)")
    }

    private func passesOnOnlyWhatTheAppHas() async throws {
        let openPanel = "webView:runOpenPanelWithParameters:initiatedByFrame:completionHandler:"
        let alert = "webView:runJavaScriptAlertPanelWithMessage:initiatedByFrame:completionHandler:"
        let prompt = "webView:runJavaScriptTextInputPanelWithPrompt:defaultText:initiatedByFrame:completionHandler:"
        let challenge = "webView:didReceiveAuthenticationChallenge:completionHandler:"
        let deprecatedTLS = "webView:authenticationChallenge:shouldAllowDeprecatedTLS:"
        let navigationAction = "webView:decidePolicyForNavigationAction:decisionHandler:"
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let appUI = RespondingUIDelegate(has: [openPanel])
        let appNavigation = RespondingNavigationDelegate(has: [])
        webView.uiDelegate = appUI
        webView.navigationDelegate = appNavigation
        let host = try WKWebViewHost(webView: webView, hub: Keystone())
        defer { host.detach() }
        func has(_ selector: String, _ delegate: AnyObject?) -> Bool? {
            (delegate as? any ShimSelectorResponder)?.responds(to: NSSelectorFromString(selector))
        }
        let ui = webView.uiDelegate
        let navigation = webView.navigationDelegate
        try expect(has(openPanel, ui) == true && has(alert, ui) == false, "open panel \(String(describing: has(openPanel, ui))), alert \(String(describing: has(alert, ui)))")
        try expect(has(prompt, ui) == true, "the prompt is the host's own")
        try expect(
            has(challenge, navigation) == false && has(deprecatedTLS, navigation) == false && has(navigationAction, navigation) == true,
            "authentication \(String(describing: has(challenge, navigation))), deprecated TLS \(String(describing: has(deprecatedTLS, navigation))), navigation actions \(String(describing: has(navigationAction, navigation)))"
        )
        // An alert no delegate has: WebKit's own answer (it returns at once), the app never asked.
        let app = RespondingUIDelegate(has: [alert])
        host.appUIDelegate = app
        try expect(has(alert, webView.uiDelegate) == true && has(openPanel, webView.uiDelegate) == false, "after a new app delegate: the host's delegates follow it")
        let alerted = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            webView.uiDelegate?.webView?(webView, runJavaScriptAlertPanelWithMessage: "hello", initiatedByFrame: Self.frame(webView)) { done.resume(returning: true) }
                ?? done.resume(returning: false)
        }
        try expect(alerted && app.alerts == ["hello"], "the app's alert: \(app.alerts)")
        withExtendedLifetime((appUI, appNavigation)) {}
    }

    private func fileInputs() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("keystone-checks-upload.txt")
        try Data("upload".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // WebKit's own picker on iOS, as a user chooses with it.
        ShimFilePicker.chosen = [file]
        defer { ShimFilePicker.chosen = nil }
        var chosen: [String: String] = [:]
        for (name, app) in [("no open panel", RespondingUIDelegate(has: []) as any WKUIDelegate), ("its own, which cancels", RecordingUIDelegate())] {
            let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
            let window = ShimWindow(showing: webView, title: "checks")
            webView.uiDelegate = app
            let host = try WKWebViewHost(webView: webView, hub: Keystone())
            webView.loadHTMLString(
                "<input type=file id=file><script>document.getElementById('file').onchange = function () { window.picked = String(this.files.length); };</script>",
                baseURL: URL(string: "http://127.0.0.1:9/upload.html"))
            _ = try await pageValue("document.getElementById('file') && document.readyState === 'complete' ? 'ready' : 'loading'", in: webView, until: "ready")
            _ = try await pageValue("window.picked = 'waiting'; document.getElementById('file').click(); 'clicked'", in: webView, until: "clicked")
            chosen[name] = try await pageValue("window.picked", in: webView, until: nil, while: "waiting")
            host.detach()
            withExtendedLifetime((window, app)) {}
        }
        try expect(chosen["no open panel"] == "1", "without an open panel of the app's, WebKit's picker chose \(String(describing: chosen["no open panel"])) files")
        try expect(chosen["its own, which cancels"] == "waiting", "the app's open panel cancelled: \(String(describing: chosen["its own, which cancels"]))")
    }

    /// The text of `script`'s value once it is `until`, or once it is no longer `while`, asked every
    /// 10 ms for at most 2 s (`while` still then: that value).
    private func pageValue(_ script: String, in webView: WKWebView, until: String?, while waiting: String? = nil) async throws -> String {
        var last = ""
        for _ in 0..<200 {
            last = try await evaluate(script, in: webView)
            if let until, last == until { return last }
            if until == nil, last != waiting { return last }
            await mainQueueMovesOn(milliseconds: 10)
        }
        if until == nil { return last }
        throw CheckFailure(why: "\(script) was \(last)")
    }

    private func nearMissNeverCalled() async throws {
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let nearMiss = NearMissUIDelegate()
        webView.uiDelegate = nearMiss
        let host = try WKWebViewHost(webView: webView, hub: Keystone())
        defer { host.detach() }
        let answered = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            _ = try? webViewUIDelegate(webView).webView?(webView, runJavaScriptConfirmPanelWithMessage: "sure?", initiatedByFrame: Self.frame(webView)) {
                done.resume(returning: $0)
            }
        }
        try expect(!nearMiss.called, "the near miss was called")
        try expect(answered == false, "a confirm no delegate answers is declined")
    }

    private func navigationDefault() async throws {
        let configuration = WKWebViewConfiguration()
        WKWebViewHost.serveBytes(in: configuration)
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let host = try WKWebViewHost(webView: webView, hub: Keystone())
        defer { host.detach() }
        var decided: [String: WKNavigationActionPolicy] = [:]
        for address in ["mailto:someone@example.com", "tel:+15551234567", "otherapp://open", "https://example.com/", "keystone://transfer/x", "about:blank"] {
            let action = WKNavigationAction(shimRequest: URLRequest(url: URL(string: address)!), sourceFrame: Self.frame(webView))
            webView.navigationDelegate?.webView?(webView, decidePolicyFor: action) { decided[address] = $0 }
        }
        try expect(
            decided == [
                "mailto:someone@example.com": .cancel, "tel:+15551234567": .cancel, "otherapp://open": .cancel, "https://example.com/": .allow,
                "keystone://transfer/x": .allow, "about:blank": .allow,
            ], "decided \(decided)")
        // A navigation that targets no frame (a new window's) is allowed whatever its address: the
        // UI delegate's createWebViewWith decides it.
        var newWindow: WKNavigationActionPolicy?
        let action = WKNavigationAction(shimRequest: URLRequest(url: URL(string: "otherapp://open")!), sourceFrame: Self.frame(webView), newWindow: true)
        webView.navigationDelegate?.webView?(webView, decidePolicyFor: action) { newWindow = $0 }
        try expect(newWindow == .allow, "a new window's navigation: \(String(describing: newWindow))")
    }

    private func signalWithoutSourceFrame() async throws {
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let host = try WKWebViewHost(webView: webView, hub: Keystone(), options: .init(injectsPageRuntime: false, wire: .webViewJavascriptBridge))
        defer { host.detach() }
        let action = WKNavigationAction(shimRequest: URLRequest(url: URL(string: "https://__wvjb_queue_message__/")!), sourceFrame: nil)
        var policy: WKNavigationActionPolicy?
        webView.navigationDelegate?.webView?(webView, decidePolicyFor: action) { policy = $0 }
        try expect(policy == .cancel, "the signal is cancelled: \(String(describing: policy))")
    }

    private func handlerLeftBehind() async throws {
        let configuration = WKWebViewConfiguration()
        // What a host of an older Keystone, or one this process lost track of, leaves behind.
        configuration.userContentController.addScriptMessageHandler(
            LeftBehindHandler(), contentWorld: .world(name: "keystone-host"), name: "keystoneDocument")
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let host = try WKWebViewHost(webView: webView, hub: Keystone())
        host.detach()
    }

    private func documentWithoutHostScript() async throws {
        let keystone = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(allowedOrigins: ["file://"])))
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let window = ShimWindow(showing: webView, title: "checks")
        let host = try WKWebViewHost(webView: webView, hub: keystone)
        defer { host.detach() }
        let page = "<script>dsBridge.registerAsyn('page.neverAnswered', function (respond) {});</script>"
        webView.loadHTMLString(page, baseURL: URL(fileURLWithPath: "/keystone-checks/page.html"))
        let call = keystone.start("page.neverAnswered", as: JSONValue.self)
        try await keystone.pageReady()
        // A document of no allowed origin: the host's scripts do not run in it, so only the
        // engine's commit tells the host the page has changed.
        webView.loadHTMLString("<p>elsewhere</p>", baseURL: URL(string: "http://127.0.0.1:9/"))
        // A call that never settles hangs the checks, which run.sh stops and reports.
        let outcome = await Self.outcome(of: call)
        try expect(outcome == "\(BridgeError.Code.pageGone)", "Swift's call: \(outcome)")
        withExtendedLifetime(window) {}
    }

    private func detachStopsByteChannel() async throws {
        let keystone = Keystone()
        let configuration = WKWebViewConfiguration()
        WKWebViewHost.serveBytes(in: configuration)
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let host = try WKWebViewHost(webView: webView, hub: keystone)
        try expect(keystone.servesBytes, "the host serves the byte channel while attached")
        host.detach()
        try expect(!keystone.servesBytes, "the hub still serves the byte channel after detach()")
    }

    private func appOriginFromConfiguration() async throws {
        let app = AppOrigin(folder: URL(fileURLWithPath: "Tests/E2E/pages"))
        let keystone = Keystone()
        let bare = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        do {
            _ = try WKWebViewHost(webView: bare, hub: keystone, options: HostOptions(appOrigin: app))
            throw CheckFailure(why: "a host was made for an app origin its configuration does not serve")
        } catch let error as BridgeError {
            try expect(error.code == .invalidRegistration, "refused with \(error.code), not invalidRegistration")
        }
        try expect(keystone.runtimeOrigins == nil, "the refused host bound the hub to the app origin")
        let configuration = WKWebViewConfiguration()
        try WKWebViewHost.serveApp(app, in: configuration)
        try expect((try? WKWebViewHost.serveApp(app, in: configuration)) == nil, "the same scheme was served twice in one configuration")
        try expect((try? WKWebViewHost.serveApp(AppOrigin(folder: app.folder, scheme: "https"), in: WKWebViewConfiguration())) == nil, "https was taken as an app's scheme")
        let host = try WKWebViewHost(webView: WKWebView(frame: .zero, configuration: configuration), hub: keystone, options: HostOptions(appOrigin: app))
        try expect(keystone.runtimeOrigins == ["app://localhost"], "the host did not bind the hub to the app origin: \(String(describing: keystone.runtimeOrigins))")
        host.detach()
    }

    private func authentication() async throws {
        // run.sh passes the suite's HTTP origin, whose /auth/ asks for credentials.
        guard CommandLine.arguments.count > 1 else { throw CheckFailure(why: "no server origin was given (run.sh gives one)") }
        let origin = CommandLine.arguments[1]
        var shown: [String: String] = [:]
        for (name, app) in [("no challenge method", RespondingNavigationDelegate(has: []) as any WKNavigationDelegate), ("the app's credential", CredentialDelegate())] {
            let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
            let window = ShimWindow(showing: webView, title: "checks")
            webView.navigationDelegate = app
            let host = try WKWebViewHost(webView: webView, hub: Keystone())
            webView.load(URLRequest(url: URL(string: origin + "/auth/page.html")!))
            shown[name] = try await pageValue("document.body && document.body.textContent ? document.body.textContent : 'loading'", in: webView, until: nil, while: "loading")
            host.detach()
            withExtendedLifetime((window, app)) {}
        }
        try expect(shown == ["no challenge method": "denied", "the app's credential": "granted"], "the pages showed \(shown)")
    }

    private func appBoundDomains() async throws {
        ShimAppBoundDomains.domains = ["app.example"]
        defer { ShimAppBoundDomains.domains = nil }
        let keystone = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(allowedOrigins: ["http://127.0.0.1:9"])))
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let window = ShimWindow(showing: webView, title: "checks")
        let host = try WKWebViewHost(webView: webView, hub: keystone)
        defer { host.detach() }
        // A document the host's scripts never reach tells nothing: only the app's handler can.
        let address = await withCheckedContinuation { (told: CheckedContinuation<String, Never>) in
            host.appBoundDomainHandler = { url in told.resume(returning: url?.absoluteString ?? "none") }
            webView.loadHTMLString("<p>elsewhere</p>", baseURL: URL(string: "http://127.0.0.1:9/page.html"))
        }
        host.appBoundDomainHandler = nil
        try expect(address == "http://127.0.0.1:9/page.html", "the app was told of \(address)")
        let why: String
        do {
            _ = try await host.evaluate(javascript: "1")
            why = "evaluated"
        } catch {
            why = error.message
        }
        try expect(why.contains("App-Bound Domains"), "Swift's evaluation: \(why)")
        withExtendedLifetime(window) {}
    }

    private func terminationReload() async throws {
        var reloads: [String: Int] = [:]
        for (name, app, shown) in [("app handles it", true, true), ("host, shown", false, true), ("host, not shown", false, false)] {
            let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
            let window = shown ? ShimWindow(showing: webView, title: "checks") : nil
            let terminations = TerminationDelegate()
            if app { webView.navigationDelegate = terminations }
            let host = try WKWebViewHost(webView: webView, hub: Keystone())
            let before = webView.reloads
            // As WebKit tells the web view's navigation delegate.
            webView.navigationDelegate?.webViewWebContentProcessDidTerminate?(webView)
            await mainQueueMovesOn()
            reloads[name] = webView.reloads - before
            try expect(terminations.told == (app ? 1 : 0), "\(name): the app's delegate was told \(terminations.told) times")
            host.detach()
            withExtendedLifetime(window) {}
        }
        try expect(reloads == ["app handles it": 0, "host, shown": 1, "host, not shown": 0], "reloads: \(reloads)")
    }

    private func reloadWhenVisible() async throws {
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let host = try WKWebViewHost(webView: webView, hub: Keystone())
        defer { host.detach() }
        // The process ends while the view is in no window: no reload until it is shown.
        webView.navigationDelegate?.webViewWebContentProcessDidTerminate?(webView)
        await mainQueueMovesOn()
        try expect(webView.reloads == 0, "reloaded in no window: \(webView.reloads)")
        let window = ShimWindow(showing: webView, title: "checks")
        host.webViewDidAppear()
        try expect(webView.reloads == 1, "shown, then webViewDidAppear(): \(webView.reloads) reloads")
        host.webViewDidAppear()
        try expect(webView.reloads == 1, "a second webViewDidAppear() reloads again: \(webView.reloads)")
        // In a window of a scene in the background (an iOS app the user left): no reload until the
        // scene is back in the foreground, which the host hears of itself.
        UIScene.shimMain.shimMove(to: .background)
        defer { UIScene.shimMain.shimMove(to: .foregroundActive) }
        await mainQueueMovesOn()
        webView.navigationDelegate?.webViewWebContentProcessDidTerminate?(webView)
        await mainQueueMovesOn(milliseconds: 1100)
        try expect(webView.reloads == 1, "reloaded in the background: \(webView.reloads)")
        UIScene.shimMain.shimMove(to: .foregroundActive)
        try expect(webView.reloads == 2, "the scene came back: \(webView.reloads) reloads")
        withExtendedLifetime(window) {}
    }

    /// Returns once the main queue has run what is already on it, and `milliseconds` more.
    private func mainQueueMovesOn(milliseconds: Int = 50) async {
        await withCheckedContinuation { done in DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { done.resume() } }
    }

    private func bodyReadOffMain() async throws {
        let hub = ThreadNotingHub(Keystone())
        let (counts, counted) = AsyncStream<Int>.makeStream()
        try hub.inner.register(CountingInterface { counted.yield($0) }, namespace: "bytes")
        let configuration = WKWebViewConfiguration()
        WKWebViewHost.serveBytes(in: configuration)
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let window = ShimWindow(showing: webView, title: "checks")
        let host = try WKWebViewHost(webView: webView, hub: hub)
        defer { host.detach() }
        webView.loadHTMLString("<script>dsBridge.invoke('bytes.count', new Uint8Array(70000));</script>", baseURL: URL(fileURLWithPath: "/keystone-checks/bytes.html"))
        // A call that never arrives hangs the checks, which run.sh stops and reports.
        var count: Int?
        for await counted in counts {
            count = counted
            break
        }
        try expect(count == 70000, "the method counted \(String(describing: count))")
        let reads = hub.bodyReadsOnMainThread.withLock { $0 }
        try expect(reads == [false], "the body was read on the main thread: \(reads)")
        withExtendedLifetime(window) {}
    }

    // MARK: Helpers

    /// How a call to the page ended: "answered", or its error's code.
    private static func outcome(of call: PageCall<JSONValue>) async -> String {
        do {
            _ = try await call.value
            return "answered"
        } catch {
            return "\(error.code)"
        }
    }

    private static func frame(_ webView: WKWebView) -> WKFrameInfo {
        WKFrameInfo(shimMainFrame: true, origin: "https://app.example", webView: webView)
    }

    private func webViewUIDelegate(_ webView: WKWebView) throws -> any WKUIDelegate {
        guard let delegate = webView.uiDelegate else { throw CheckFailure(why: "the web view has no UI delegate") }
        return delegate
    }
}

/// An app's UI delegate that notes what it is told.
@MainActor
final class RecordingUIDelegate: NSObject, WKUIDelegate {
    var alerts: [String] = []
    var prompts: [String] = []
    var heard: [String] = []

    func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        prompts.append(prompt)
        completionHandler(defaultText)
    }

    func webView(_ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable () -> Void) {
        alerts.append(message)
        completionHandler()
    }

    func webView(_ webView: WKWebView, showLockdownModeFirstUseMessage message: String, completionHandler: @escaping @MainActor @Sendable (WKDialogResult) -> Void) {
        heard.append("lockdown")
        completionHandler(.handled)
    }

    func webView(
        _ webView: WKWebView, requestDeviceOrientationAndMotionPermissionFor origin: WKSecurityOrigin, initiatedByFrame frame: WKFrameInfo,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {
        heard.append("orientation")
        decisionHandler(.grant)
    }

    func webView(
        _ webView: WKWebView, runOpenPanelWith parameters: WKOpenPanelParameters, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void
    ) {
        heard.append("open panel")
        completionHandler(nil)
    }
}

/// An app's UI delegate that says which optional methods it has, as the Objective-C runtime answers
/// `respondsToSelector:` for any object on a device.
@MainActor
final class RespondingUIDelegate: NSObject, WKUIDelegate, ShimSelectorResponder {
    let methods: Set<String>
    var alerts: [String] = []

    init(has methods: Set<String>) {
        self.methods = methods
    }

    func responds(to aSelector: Selector!) -> Bool { methods.contains(NSStringFromSelector(aSelector)) }

    func webView(_ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable () -> Void) {
        alerts.append(message)
        completionHandler()
    }
}

/// An app's navigation delegate that says which optional methods it has.
@MainActor
final class RespondingNavigationDelegate: NSObject, WKNavigationDelegate, ShimSelectorResponder {
    let methods: Set<String>

    init(has methods: Set<String>) {
        self.methods = methods
    }

    func responds(to aSelector: Selector!) -> Bool { methods.contains(NSStringFromSelector(aSelector)) }
}

/// An app's navigation delegate that answers an authentication challenge with the suite's
/// credential.
@MainActor
final class CredentialDelegate: NSObject, WKNavigationDelegate {
    func webView(
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.useCredential, URLCredential(user: "keystone", password: "secret", persistence: .none))
    }
}

/// An app's navigation delegate with no methods of its own.
@MainActor
final class RecordingNavigationDelegate: NSObject, WKNavigationDelegate {}

/// An app's UI delegate whose confirm method only nearly matches WebKit's: its handler is not
/// `@MainActor @Sendable`, so it witnesses nothing and WebKit never calls it.
@MainActor
final class NearMissUIDelegate: NSObject, WKUIDelegate {
    var called = false

    func webView(_ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping (Bool) -> Void) {
        called = true
        completionHandler(true)
    }
}

/// An app's navigation delegate that handles the end of the web content process itself.
@MainActor
final class TerminationDelegate: NSObject, WKNavigationDelegate {
    var told = 0

    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        told += 1
    }
}

/// A Keystone, with a note of the thread each byte-channel body is read on.
final class ThreadNotingHub: BridgeHub {
    let inner: Keystone
    let bodyReadsOnMainThread = Locked<[Bool]>([])

    init(_ inner: Keystone) {
        self.inner = inner
    }

    func receiveBytes(_ request: ByteRequest, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (ByteResponse) -> Void) {
        inner.receiveBytes(
            request,
            readBody: { limit in
                bodyReadsOnMainThread.withLock { $0.append(Thread.isMainThread) }
                return readBody(limit)
            }, respond: respond)
    }

    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String? { inner.handlePrompt(text, defaultText: defaultText, frame: frame) }
    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String { inner.handleMessage(method, arguments: arguments, frame: frame) }
    func handleCall(_ method: String, data: Data?, callback: String?, acceptsInlineAnswer: Bool, frame: CallerFrame) -> CallAnswer {
        inner.handleCall(method, data: data, callback: callback, acceptsInlineAnswer: acceptsInlineAnswer, frame: frame)
    }
    func serveBytes(over transport: any ByteTransport) { inner.serveBytes(over: transport) }
    func stopServingBytes() { inner.stopServingBytes() }
    func admitSender(_ frame: CallerFrame) throws(BridgeError) { try inner.admitSender(frame) }
    func attach(to target: any EvaluationTarget) { inner.attach(to: target) }
    func pageDidUnload() { inner.pageDidUnload() }
    var pageLoad: PageLoad { inner.pageLoad }
    var runtimeOrigins: Set<String>? { inner.runtimeOrigins }
    var limits: BridgeLimits { inner.limits }
}

/// Namespace `bytes`: counts the bytes it is sent, and says so.
struct CountingInterface: BridgeInterface {
    let counted: @Sendable (Int) -> Void

    func exposeMethods(to methods: inout MethodList) {
        methods.async("count") { (bytes: Data) -> Int in
            counted(bytes.count)
            return bytes.count
        }
    }
}

/// A script message handler that answers nothing.
@MainActor
final class LeftBehindHandler: NSObject, WKScriptMessageHandlerWithReply {
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage, replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        replyHandler(nil, nil)
    }
}
#else
@main
struct AppleHostChecks {
    static func main() {
        print("the Apple host's checks run on the Cocoa WebKit shim, on Linux; on a Mac, Tests/AppleHostTests runs the pages")
    }
}
#endif
