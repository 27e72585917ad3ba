// WebViewDemo.swift — the demo's run: a GTK window with a web view, the Keystone, and the main loop.
#if canImport(KeystoneGTK) && os(Linux)
import CWebKitGTK
import Foundation
import Keystone
import KeystoneGTK

/// Runs one page in a real WebKitGTK web view until it closes itself or the timeout passes.
final class WebViewDemo: @unchecked Sendable {
    let arguments: KeystoneDemo.Arguments
    /// Set once the page asks to close, or the time runs out: the exit status.
    private let status = Locked<Int32?>(nil)
    private var loop: OpaquePointer?

    init(arguments: KeystoneDemo.Arguments) {
        self.arguments = arguments
    }

    /// Runs the main loop and returns the exit status.
    func run() -> Int32 {
        gtk_init(nil, nil)
        loop = g_main_loop_new(nil, 0)
        let keystone = Keystone()
        let host: WebKitGTKHost
        do {
            try keystone.registerDemoInterfaces()
            host = try WebKitGTKHost(
                hub: keystone,
                options: .init(injectsPageRuntime: !arguments.bare, allowsSubframes: arguments.allowsSubframes, relaysConsole: true)
            )
        } catch {
            Output.line("demo failed to start: \(error)")
            return 1
        }
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_default_size(ks_window(window), 800, 600)
        gtk_container_add(ks_container(window), host.widget)
        gtk_widget_show_all(window)

        let transcript = arguments.page == nil
        let swiftCall = Locked<Task<Void, Never>?>(nil)
        host.consoleHandler = { level, text in
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if transcript, fields.count == 5, fields[0] == "transcript" {
                Output.row(fields[1], fields[2], fields[3], Double(fields[4]) ?? 0)
            } else {
                Output.line(level == "log" || level == "info" ? text : "[\(level)] \(text)")
            }
        }
        keystone.setClosePageHandler { [self] in
            Task {
                await swiftCall.withLock { $0 }?.value
                self.finish(0)
            }
        }

        if let page = arguments.page {
            let url = URL(fileURLWithPath: page).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else {
                Output.line("no such page: \(page)")
                return 1
            }
            host.load(uri: url.absoluteString)
            let calls = arguments.calls
            swiftCall.withLock { $0 = Task {
                // Made before the page has loaded, one after another (a call is made once it is
                // pending): they wait for the page's dsinit and reach it in the order they were made.
                var made: [Task<Void, Never>] = []
                for method in calls {
                    let before = keystone.pendingCallCount
                    made.append(Task {
                        do {
                            let result = try await keystone.call(method, returning: JSONValue.self)
                            Output.line("swift call \(method) → \(result)")
                        } catch {
                            Output.line("swift call \(method) failed: \(error)")
                        }
                    })
                    while keystone.pendingCallCount == before { await Task.yield() }
                }
                for call in made { await call.value }
            } }
        } else {
            Output.line("Keystone demo: a WebKitGTK page and Swift calling each other over DSBridge v3\n")
            guard let page = Bundle.module.url(forResource: "demo", withExtension: "html") else {
                Output.line("the demo page is missing from the bundle")
                return 1
            }
            host.load(uri: page.absoluteString)
            swiftCall.withLock { $0 = Task {
                // Sent before the page is ready; it waits for the page's dsinit.
                let clock = ContinuousClock()
                let start = clock.now
                let greeting = (try? await keystone.call("page.greet", "Swift", returning: String.self)) ?? "failed"
                Output.row("Swift → JS", #"keystone.call("page.greet", "Swift")"#, greeting, start.duration(to: clock.now).milliseconds)
            } }
        }

        let timeout = UInt32(max(1, arguments.timeout * 1000))
        g_timeout_add_full(G_PRIORITY_DEFAULT, timeout, { data in
            let demo = Unmanaged<WebViewDemo>.fromOpaque(data!).takeUnretainedValue()
            Output.line("timed out")
            demo.finish(2)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        g_main_loop_run(loop)
        withExtendedLifetime(host) {}
        return status.withLock { $0 } ?? 1
    }

    /// Records the exit status (the first one wins) and stops the main loop; any thread.
    private func finish(_ code: Int32) {
        let first = status.withLock { status -> Bool in
            guard status == nil else { return false }
            status = code
            return true
        }
        if first { g_main_loop_quit(loop) }
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
#endif
