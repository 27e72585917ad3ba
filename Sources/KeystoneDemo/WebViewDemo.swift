// WebViewDemo.swift — the demo's run: a window with a web view, the Keystone, and the main loop.
#if canImport(KeystoneGTK) && os(Linux)
import CWebKitGTK
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import Keystone
import KeystoneGTK

/// Runs one page in a real WebKitGTK web view until it closes itself or the timeout passes.
final class WebViewDemo: Sendable {
    let arguments: KeystoneDemo.Arguments
    /// Set once the page asks to close, or the time runs out: the exit status.
    private let status = Locked<Int32?>(nil)
    /// Swift's own calls of the page, which finish before the demo does.
    private let swiftCalls = Locked<Task<Void, Never>?>(nil)
    /// How many times the page's web process has ended.
    private let terminations = Locked(0)
    /// Whether the page was loaded again after the host stopped reloading it: only once.
    private let shownOwnPage = Locked(false)
    private let loop: GTKMainLoop

    init(arguments: KeystoneDemo.Arguments) {
        self.arguments = arguments
        loop = GTKMainLoop()
    }

    /// Runs the main loop and returns the exit status.
    func run() -> Int32 {
        let keystone = arguments.keystone { [self] in
            Task {
                await swiftCalls.withLock { $0 }?.value
                finish(0)
            }
        }
        // One host per window, each a page of the one Keystone: the first serves its first page.
        var hosts: [WebKitGTKHost] = []
        do {
            try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())
            for _ in 0..<arguments.windows {
                hosts.append(
                    try WebKitGTKHost(
                        hub: keystone,
                        options: .init(
                            injectsPageRuntime: !arguments.bare, injectsIntoSubframes: arguments.allowsSubframes, relaysConsole: true, wire: arguments.wire,
                            servesBytes: arguments.servesBytes, loadsWebProcessExtension: arguments.loadsWebProcessExtension, appOrigin: arguments.appOrigin
                        )
                    ))
            }
            try keystone.register(hostInterface(DemoCommandLine.Hosts(hosts.map { (Self.page(of: $0), $0) })), namespace: "host")
        } catch {
            Output.line("demo failed to start: \(error)")
            return 1
        }
        let windows = hosts.enumerated().map { index, host in
            configure(host, lines: DemoCommandLine.Arguments.linePrefix(Self.page(of: host)))
            return WebViewWindow(showing: host, title: hosts.count == 1 ? "Keystone demo" : "Keystone demo \(index + 1)")
        }
        guard load(in: hosts, keystone: keystone) else { return 1 }
        loop.after(seconds: max(1, arguments.timeout)) { [self] in
            Output.line("timed out")
            finish(2)
        }
        loop.run()
        withExtendedLifetime((hosts, windows)) {}
        return status.withLock { $0 } ?? 1
    }

    /// The page of the Keystone `host` serves.
    private static func page(of host: WebKitGTKHost) -> PageID {
        (host.hub as? KeystonePage)?.id ?? .first
    }

    /// Sets up one window's host: its certificate, its console lines (each after `prefix`), its
    /// dialogs, and what it does when its web process ends.
    private func configure(_ host: WebKitGTKHost, lines prefix: String) {
        if let file = arguments.trustedCertificate { Self.trust(certificate: file, in: host) }
        host.consoleHandler = consoleHandler(transcript: arguments.address == nil, prefix: prefix)
        host.dialogHandler = Self.dialogHandler
        host.terminationHandler = { [terminations, shownOwnPage, weak host, address = arguments.address] termination in
            terminations.withLock { $0 += 1 }
            Output.line(prefix + "the web process ended (\(termination.reason)); " + (termination.reloads ? "reloading" : "the host stopped reloading it"))
            // An app shows a page of its own once the host gives up; the demo loads the page again,
            // marked, so it can tell, and only the first time: a page that ends its web process
            // there too is left ended, never reloaded without end.
            let showsOwnPage =
                !termination.reloads
                && shownOwnPage.withLock { shown in
                    defer { shown = true }
                    return !shown
                }
            if showsOwnPage, let host, let address {
                host.load(uri: address + "#after-terminations")
            }
        }
    }

    /// Trusts the PEM certificate in `file` for 127.0.0.1 in the host's web context.
    private static func trust(certificate file: String, in host: WebKitGTKHost) {
        guard let certificate = g_tls_certificate_new_from_file(file, nil) else { return Output.line("no certificate in \(file)") }
        webkit_web_context_allow_tls_certificate_for_host(webkit_web_view_get_context(ks_web_view(OpaquePointer(host.widget))), certificate, "127.0.0.1")
        g_object_unref(UnsafeMutableRawPointer(certificate))
    }

    /// Loads the page in every window and makes Swift's calls of the first page, which wait for the
    /// page's `dsinit`.
    private func load(in hosts: [WebKitGTKHost], keystone: Keystone) -> Bool {
        guard let address = arguments.address else {
            Output.line("Keystone demo: a WebKitGTK page and Swift calling each other over DSBridge v3\n")
            guard let url = Bundle.module.url(forResource: "demo", withExtension: "html") else {
                Output.line("the demo page is missing from the bundle")
                return false
            }
            for host in hosts { host.load(uri: url.absoluteString) }
            let start = ContinuousClock.now
            let greeting = keystone.start("page.greet", "Swift", as: String.self)
            swiftCalls.withLock {
                $0 = Task {
                    let text = (try? await greeting.value) ?? "failed"
                    Output.row(
                        "Swift → JS", #"keystone.call("page.greet", "Swift")"#, text, start.duration(to: .now).milliseconds,
                        proves: "Swift calls a page handler with a typed result; made before the page loaded, it waits for the page's dsinit"
                    )
                }
            }
            return true
        }
        // The command line was refused already if the file (or the app's folder) is not there.
        for host in hosts { host.load(uri: address) }
        let calls = arguments.startSwiftCalls(on: keystone, print: Output.line)
        swiftCalls.withLock { $0 = calls }
        return true
    }

    /// The `host` namespace: evaluating app JavaScript, and ending the web process as a crash would,
    /// each in the calling page's web view.
    private func hostInterface(_ hosts: DemoCommandLine.Hosts<WebKitGTKHost>) -> HostInterface {
        let first: @Sendable () -> WebKitGTKHost? = { hosts[.first] }
        return HostInterface(
            evaluate: { script, page in
                guard let host = hosts[page] else { throw BridgeError(code: .pageGone, message: "the web view has gone") }
                return try await host.evaluate(javascript: script)
            },
            terminate: { [loop] page in
                // After the answer has reached the page, on the main loop.
                loop.after(seconds: 0.05) { hosts[page]?.terminateWebProcess() }
            },
            terminations: { [terminations] in terminations.withLock { $0 } },
            webProcessExtension: { first()?.runsWebProcessExtension ?? false },
            extensionTransfers: { first()?.extensionTransfers ?? 0 },
            extensionUploads: { first()?.extensionUploads ?? 0 }
        )
    }

    /// Prints the page's console lines, each after `prefix`; in the transcript, its rows as a table.
    private func consoleHandler(transcript: Bool, prefix: String) -> @Sendable (ConsoleLine) -> Void {
        { line in
            let (level, text) = (line.level, line.description)
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if transcript, fields.count == 6, fields[0] == "transcript" {
                Output.row(fields[1], fields[2], fields[3], Double(fields[4]) ?? 0, proves: fields[5])
            } else {
                Output.line(prefix + (level == "log" || level == "info" ? text : "[\(level)] \(text)"))
            }
        }
    }

    /// The page's own dialogs, answered without a window: alerts are printed, every confirm is
    /// accepted, and a prompt answers its default text followed by "!".
    private static let dialogHandler = ScriptDialogHandler(
        alert: { Output.line("alert: \($0)") },
        confirm: { _ in true },
        prompt: { _, defaultText in (defaultText ?? "") + "!" }
    )

    /// Records the exit status (the first one wins) and stops the main loop; any thread.
    private func finish(_ code: Int32) {
        let first = status.withLock { status -> Bool in
            guard status == nil else { return false }
            status = code
            return true
        }
        if first { loop.quit() }
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
#endif
