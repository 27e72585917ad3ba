// AppleHostPageTests.swift — on a Mac, every end-to-end page in a real WKWebView through
// WKWebViewHost: `swift test --filter AppleHostPageTests`. On Linux the same code is built against
// the Cocoa WebKit shim and the suite is off (Tests/E2E/run.sh runs the pages there, through both
// hosts). Docs/Development.md says how to run it.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(WebKit)
import AppKit
import KeystoneWebKit
import WebKit
#else
import WebKitShim
#endif

@Suite("Apple host: the end-to-end pages in a real WKWebView", .serialized, .enabled(if: PageRun.onAMac))
struct AppleHostPageTests {
    @Test(.timeLimit(.minutes(5)), arguments: PageRun.pages)
    @MainActor func pagePasses(_ page: String) async throws {
        let result = try await PageRun(page: page).run()
        #expect(result.summaries == 1, "\(page): \(result.lines.suffix(5))")
        #expect(result.failures == [], "\(page)")
        #expect(result.passed > 0, "\(page)")
    }
}

/// One page, served as `keystone-demo-webkit --page` serves it, with the flags of its `e2e-flags:`
/// comment; pages with an `e2e-url:` comment come from the suite's own servers (serve.py).
@MainActor
final class PageRun {
    struct Result {
        var lines: [String]
        var summaries: Int { lines.filter(Self.isSummary).count }
        var passed: Int { lines.last(where: Self.isSummary).flatMap { Int($0.split(separator: " ")[1]) } ?? 0 }
        var failures: [String] { lines.filter { $0.hasPrefix("not ok - ") } }
        static func isSummary(_ line: String) -> Bool { line.hasPrefix("e2e: ") && line.hasSuffix(" failed") }
    }

    #if canImport(WebKit) && os(macOS)
    nonisolated static let onAMac = true
    #else
    nonisolated static let onAMac = false
    #endif

    nonisolated static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("E2E")

    /// The pages' file names.
    nonisolated static let pages: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("pages").path)) ?? []
        return names.filter { $0.hasSuffix(".html") }.sorted()
    }()

    private let page: String
    private var lines: [String] = []
    private var closed: CheckedContinuation<Void, Never>?

    init(page: String) {
        self.page = page
    }

    /// Serves the page until it closes itself.
    func run() async throws -> Result {
        let file = Self.root.appendingPathComponent("pages").appendingPathComponent(page)
        let source = try String(contentsOf: file, encoding: .utf8)
        let servers = Self.comment("e2e-url", in: source) != nil || source.contains("{A}") ? try Servers.shared() : nil
        // A folder the flags serve at the app origin is named from the package's root.
        let flags = (Self.comment("e2e-flags", in: source).map { servers?.substitute($0) ?? $0 }?.split(separator: " ").map(String.init) ?? []).map {
            $0.hasPrefix("Tests/") ? Self.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent($0).path : $0
        }
        let url = Self.comment("e2e-url", in: source).map { servers?.substitute($0) ?? $0 }
        guard case .run(let arguments) = try DemoCommandLine.request(["--page", url ?? file.path] + flags) else { return Result(lines: []) }
        let address = arguments.address ?? file.absoluteString

        let keystone = arguments.keystone { [weak self] in Task { @MainActor in self?.finish() } }
        try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())

        let configuration = WKWebViewConfiguration()
        let console = ConsoleRelay(hub: keystone) { [weak self] in self?.lines.append($0) }
        configuration.userContentController.addUserScript(
            WKUserScript(source: ConsoleRelay.script, injectionTime: .atDocumentStart, forMainFrameOnly: !arguments.allowsSubframes, in: .page))
        configuration.userContentController.addScriptMessageHandler(console, contentWorld: .page, name: ConsoleRelay.name)
        if !arguments.bare { WKWebViewHost.serveBytes(in: configuration) }
        if let app = arguments.appOrigin { try WKWebViewHost.serveApp(app, in: configuration) }
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let dialogs = DemoUIDelegate(lines: { [weak self] in self?.lines.append($0) }, closed: { [weak self] in self?.finish() })
        webView.uiDelegate = dialogs
        let trust = TrustingNavigationDelegate()
        webView.navigationDelegate = trust
        if let servers { trust.trust(servers.certificate, in: webView) }
        let host = try WKWebViewHost(
            webView: webView, hub: keystone,
            options: .init(injectsPageRuntime: !arguments.bare, injectsIntoSubframes: arguments.allowsSubframes, wire: arguments.wire, appOrigin: arguments.appOrigin))
        let terminations = Locked(0)
        host.terminationHandler = { _ in terminations.withLock { $0 += 1 } }
        let kill: @MainActor @Sendable () -> Void = { [weak webView] in _ = webView?.perform(NSSelectorFromString("_killWebContentProcess")) }
        try keystone.register(
            HostInterface(
                evaluate: { [weak host] script, _ in
                    guard let host else { throw BridgeError(code: .pageGone, message: "the web view has gone") }
                    return try await host.evaluate(javascript: script)
                },
                terminate: { _ in Task { @MainActor in kill() } },
                terminations: { terminations.withLock { $0 } },
                host: "webkit"
            ), namespace: "host")
        let window = PageWindow(showing: webView)
        webView.load(URLRequest(url: URL(string: address)!))
        let printed = Locked<[String]>([])
        let calls = arguments.startSwiftCalls(on: keystone) { line in printed.withLock { $0.append(line) } }
        // A page that never closes is stopped by the test's time limit.
        await withCheckedContinuation { closed = $0 }
        await calls.value
        lines += printed.withLock { $0 }
        host.detach()
        withExtendedLifetime((window, dialogs, console, trust)) {}
        return Result(lines: lines)
    }

    private func finish() {
        closed?.resume()
        closed = nil
    }

    /// The text of a page's `<!-- NAME: … -->` comment.
    static func comment(_ name: String, in source: String) -> String? {
        guard let start = source.range(of: "<!-- \(name): "), let end = source[start.upperBound...].range(of: " -->") else { return nil }
        return String(source[start.upperBound..<end.lowerBound])
    }
}

/// The suite's loopback servers (Tests/E2E/serve.py: two HTTP origins and an HTTPS one, with a
/// certificate made for the run), started once.
final class Servers: Sendable {
    let origins: [String: String]
    let certificate: String

    private init(origins: [String: String], certificate: String) {
        self.origins = origins
        self.certificate = certificate
    }

    private static let started = Locked<Servers?>(nil)

    static func shared() throws -> Servers {
        try started.withLock { servers in
            if let servers { return servers }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keystone-e2e-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let certificate = folder.appendingPathComponent("certificate.pem").path
            let key = folder.appendingPathComponent("key.pem").path
            try run(
                "/usr/bin/env",
                [
                    "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
                ], wait: true)
            // serve.py writes its ports as one line on its standard output when given "-".
            let output = Pipe()
            try run("/usr/bin/env", ["python3", PageRun.root.appendingPathComponent("serve.py").path, "-", "3600", certificate, key], wait: false, output: output)
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let more = output.fileHandleForReading.availableData
                if more.isEmpty { break }
                line += more
            }
            let numbers = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            guard numbers.count == 3 else { throw BridgeError(code: .failed, message: "the suite's servers did not start") }
            let made = Servers(
                origins: ["{A}": "http://127.0.0.1:\(numbers[0])", "{B}": "http://127.0.0.1:\(numbers[1])", "{S}": "https://127.0.0.1:\(numbers[2])"],
                certificate: certificate)
            servers = made
            return made
        }
    }

    private static func run(_ tool: String, _ arguments: [String], wait: Bool, output: Pipe? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        if let output { process.standardOutput = output }
        try process.run()
        if wait { process.waitUntilExit() }
    }

    func substitute(_ text: String) -> String {
        origins.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }
}

/// The app's navigation delegate: it trusts the suite's https server, as an app trusts a server its
/// configuration names.
@MainActor
final class TrustingNavigationDelegate: NSObject, WKNavigationDelegate {
    #if canImport(WebKit)
    func webView(
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard challenge.protectionSpace.host == "127.0.0.1", let trust = challenge.protectionSpace.serverTrust else {
            return completionHandler(.performDefaultHandling, nil)
        }
        completionHandler(.useCredential, URLCredential(trust: trust))
    }

    func trust(_ certificate: String, in webView: WKWebView) {}
    #else
    /// The shim's engine asks no navigation delegate about a server's certificate: it is told to
    /// trust it.
    func trust(_ certificate: String, in webView: WKWebView) {
        webView.trustCertificate(file: certificate, host: "127.0.0.1")
    }
    #endif
}

/// A window showing the web view: WebKit runs a page's timers at full speed only in a visible view.
@MainActor
final class PageWindow {
    #if canImport(WebKit)
    private let window: NSWindow

    init(showing webView: WKWebView) {
        window = NSWindow(contentRect: NSRect(x: 0, y: 0, width: 800, height: 600), styleMask: [.titled], backing: .buffered, defer: false)
        window.contentView = webView
        window.orderFront(nil)
    }
    #else
    private let window: ShimWindow

    init(showing webView: WKWebView) {
        window = ShimWindow(showing: webView, title: "Keystone: Apple host pages")
    }
    #endif
}
