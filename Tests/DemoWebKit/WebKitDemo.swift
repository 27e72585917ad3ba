// WebKitDemo.swift — `keystone-demo-webkit`: `keystone-demo --page` through the Apple host,
// `WKWebViewHost`, on the Cocoa WebKit API the shim implements over WebKitGTK (Tests/WebKitShim).
// Everything here is what an app on a device writes: a configuration, a web view in a window, its
// own UI delegate, its own script message handler for the page's console, and the host.
#if KEYSTONE_DEMO_WEBKIT && os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(KeystoneInternal) import KeystoneInterfaces
import Keystone
import KeystoneGTK
import WebKitShim

/// Runs one page in a `WKWebView` through `WKWebViewHost` until it closes itself or the timeout passes.
@MainActor
final class WebKitDemo {
    let arguments: KeystoneDemo.Arguments
    private let status = Locked<Int32?>(nil)
    private let swiftCalls = Locked<Task<Void, Never>?>(nil)
    private let terminations = Locked(0)
    private var shownOwnPage = false
    private let loop = GTKMainLoop()

    init(arguments: KeystoneDemo.Arguments) {
        self.arguments = arguments
    }

    func run() -> Int32 {
        let keystone = arguments.keystone { [self] in
            Task {
                await swiftCalls.withLock { $0 }?.value
                finish(0)
            }
        }
        guard let address = arguments.address else {
            Output.line("keystone-demo-webkit serves a page: give it --page FILE|URL or --app DIR")
            return 1
        }
        do {
            try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())
        } catch {
            Output.line("demo failed to start: \(error)")
            return 1
        }
        // One web view and host per window, each a page of the one Keystone: the first serves its
        // first page.
        var windows: [Window] = []
        for index in 0..<arguments.windows {
            do {
                windows.append(try window(keystone, title: arguments.windows == 1 ? "Keystone demo (WKWebViewHost)" : "Keystone demo \(index + 1) (WKWebViewHost)"))
            } catch {
                Output.line("demo failed to start: \(error)")
                return 1
            }
        }
        let hosts = DemoCommandLine.Hosts(windows.map { ((($0.host.hub as? KeystonePage)?.id ?? .first), $0.host) })
        do {
            try keystone.register(hostInterface(hosts), namespace: "host")
        } catch {
            Output.line("demo failed to start: \(error)")
            return 1
        }
        for window in windows { window.webView.load(URLRequest(url: URL(string: address)!)) }
        let calls = arguments.startSwiftCalls(on: keystone, print: Output.line)
        swiftCalls.withLock { $0 = calls }
        loop.after(seconds: max(1, arguments.timeout)) { [self] in
            Output.line("timed out")
            finish(2)
        }
        loop.run()
        withExtendedLifetime(windows) {}
        return status.withLock { $0 } ?? 1
    }

    /// One window of the demo: its web view, the host attached to it, and what the app keeps beside
    /// them (its UI delegate, its console relay, the window).
    private struct Window {
        let webView: WKWebView
        let host: WKWebViewHost
        let kept: [AnyObject]
    }

    /// A web view with the app's console relay and UI delegate, a host attached to it (a page of
    /// `keystone` of its own), in a window titled `title`.
    private func window(_ keystone: Keystone, title: String) throws -> Window {
        let configuration = WKWebViewConfiguration()
        if !arguments.bare, arguments.servesBytes { WKWebViewHost.serveBytes(in: configuration) }
        if let app = arguments.appOrigin { try WKWebViewHost.serveApp(app, in: configuration) }
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let dialogs = DemoUIDelegate(lines: Output.line) { [self] in finish(0) }
        webView.uiDelegate = dialogs
        let host = try WKWebViewHost(
            webView: webView, hub: keystone,
            options: .init(
                injectsPageRuntime: !arguments.bare, injectsIntoSubframes: arguments.allowsSubframes, wire: arguments.wire, servesBytes: arguments.servesBytes,
                appOrigin: arguments.appOrigin))
        let prefix = DemoCommandLine.Arguments.linePrefix((host.hub as? KeystonePage)?.id ?? .first)
        // The page's console, as an app collects it: its own script and handler, beside the host's.
        let console = ConsoleRelay(hub: host.hub) { Output.line(prefix + $0) }
        configuration.userContentController.addUserScript(
            WKUserScript(source: ConsoleRelay.script, injectionTime: .atDocumentStart, forMainFrameOnly: !arguments.allowsSubframes, in: .page))
        configuration.userContentController.addScriptMessageHandler(console, contentWorld: .page, name: ConsoleRelay.name)
        if let file = arguments.trustedCertificate, !webView.trustCertificate(file: file, host: "127.0.0.1") { Output.line("no certificate in \(file)") }
        let window = ShimWindow(showing: webView, title: title)
        host.terminationHandler = { [weak self, weak webView] termination in
            guard let self else { return }
            terminations.withLock { $0 += 1 }
            Output.line(prefix + "the web process ended (\(termination.reason)); " + (termination.reloads ? "reloading" : "the host stopped reloading it"))
            if !termination.reloads, !shownOwnPage, let webView, let address = arguments.address {
                shownOwnPage = true
                webView.load(URLRequest(url: URL(string: address + "#after-terminations")!))
            }
        }
        return Window(webView: webView, host: host, kept: [dialogs, console, window])
    }

    /// The `host` namespace: evaluating app JavaScript, and ending the web content process, each in
    /// the calling page's web view.
    private func hostInterface(_ hosts: DemoCommandLine.Hosts<WKWebViewHost>) -> HostInterface {
        let kill: @MainActor @Sendable (PageID) -> Void = { page in _ = hosts[page]?.webView?.perform(NSSelectorFromString("_killWebContentProcess")) }
        return HostInterface(
            evaluate: { script, page in
                guard let host = hosts[page] else { throw BridgeError(code: .pageGone, message: "the web view has gone") }
                return try await host.evaluate(javascript: script)
            },
            terminate: { [loop] page in
                loop.after(seconds: 0.05) { Task { @MainActor in kill(page) } }
            },
            terminations: { [terminations] in terminations.withLock { $0 } },
            host: "webkit"
        )
    }

    private nonisolated func finish(_ code: Int32) {
        let first = status.withLock { status -> Bool in
            guard status == nil else { return false }
            status = code
            return true
        }
        if first { loop.quit() }
    }
}

#endif
