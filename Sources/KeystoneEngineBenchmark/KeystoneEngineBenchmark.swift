// KeystoneEngineBenchmark.swift — Keystone's side of the real-engine benchmark: a page in
// WebKitGTK calling the `bench` interface, its console lines printed for scripts/bench.sh.
#if canImport(KeystoneGTK) && os(Linux)
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import Keystone
import KeystoneGTK

/// `keystone-engine-benchmark --in-memory` prints the in-memory row (``InMemoryRow``);
/// `keystone-engine-benchmark --broadcast PAGES` the row of an event to PAGES web views
/// (``BroadcastRow``).
///
/// `keystone-engine-benchmark PAGE [TIMEOUT] [--fixed-window] [--app DIR]`: loads `PAGE`
/// (Tests/Benchmark/engine.html; with `--app`, a path inside `DIR`, served at the app origin) in a web view with a Keystone, prints the page's console lines,
/// and exits when the page closes itself (status 0) or the timeout passes (status 2). With
/// `--fixed-window` the evaluator uses ``FlushPolicy/fixedWindow``; the page then times only the
/// chained calls, the paths the policy changes. It decides nothing: scripts/bench.sh compares its
/// figures with the raw floor's (Tests/Benchmark/floor.c) measured in the same run.
@main
struct KeystoneEngineBenchmark {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--in-memory"] {
            InMemoryRow.print()
            exit(0)
        }
        if arguments.first == "--broadcast", arguments.count == 2, let pages = Int(arguments[1]), pages > 0 {
            exit(BroadcastRow.run(pages: pages, timeout: 300))
        }
        let policy: FlushPolicy = arguments.contains("--fixed-window") ? .fixedWindow : .whenIdle
        // The byte scheme instead of the web-process extension: the path a host without it takes.
        let loadsExtension = !arguments.contains("--no-web-process-extension")
        arguments.removeAll { $0 == "--fixed-window" || $0 == "--no-web-process-extension" }
        // `--app DIR`: DIR served at the app origin, PAGE its path there.
        var app: AppOrigin?
        if let flag = arguments.firstIndex(of: "--app"), flag + 1 < arguments.count {
            app = AppOrigin(folder: URL(fileURLWithPath: arguments[flag + 1]).standardizedFileURL)
            arguments.removeSubrange(flag...(flag + 1))
        }
        guard let page = arguments.first, app != nil || FileManager.default.fileExists(atPath: page) else {
            print("usage: keystone-engine-benchmark PAGE.html [TIMEOUT-SECONDS] [--fixed-window] [--no-web-process-extension] [--app DIR]")
            exit(1)
        }
        let timeout = arguments.dropFirst().first.flatMap(Double.init) ?? 300
        exit(run(page: page, timeout: timeout, policy: policy, loadsExtension: loadsExtension, app: app))
    }

    static func run(page: String, timeout: Double, policy: FlushPolicy, loadsExtension: Bool, app: AppOrigin?) -> Int32 {
        let loop = GTKMainLoop()
        let status = Locked<Int32>(2)
        var components = KeystoneComponents()
        components.evaluator = BatchingEvaluator(clock: ContinuousClock(), window: .milliseconds(50), policy: policy)
        // Room for 8 MB as base64 in JSON, today's path the bytes rows are compared with.
        components.limits.messageBytes = 64 << 20
        components.closePage = {
            status.withLock { $0 = 0 }
            loop.quit()
        }
        let keystone = Keystone(components: components)
        let counter = EvaluationCounter()
        let host: WebKitGTKHost
        do {
            try keystone.register(
                BenchInterface(counter: counter, policy: policy, openTransfers: { [weak keystone] in keystone?.openTransferCount ?? 0 }), namespace: "bench")
            host = try WebKitGTKHost(hub: keystone, options: .init(relaysConsole: true, loadsWebProcessExtension: loadsExtension, appOrigin: app))
        } catch {
            print("the benchmark failed to start: \(error)")
            return 1
        }
        host.consoleHandler = { line in FileHandle.standardOutput.write(Data((line.text + "\n").utf8)) }
        // WebKit's own transports in this web view too, for the page to time beside the bridge.
        SameViewFloor.install(in: host)
        // The counter stands between the evaluator and the host, so the flood's evaluations can be
        // counted; it forwards every batch unchanged.
        counter.target = host
        keystone.attach(to: counter)
        let window = WebViewWindow(showing: host, title: "Keystone engine benchmark")
        host.load(uri: app?.url(page).absoluteString ?? URL(fileURLWithPath: page).standardizedFileURL.absoluteString)
        loop.after(seconds: timeout) {
            print("timed out")
            loop.quit()
        }
        loop.run()
        withExtendedLifetime((host, window)) {}
        return status.withLock { $0 }
    }
}
#else
@main
struct KeystoneEngineBenchmark {
    static func main() {
        print("keystone-engine-benchmark runs WebKitGTK, on Linux only")
    }
}
#endif
