// BroadcastRow.swift — an event to every page of a Keystone with 16 web views, beside the same
// event to one of them, in one run (scripts/bench.sh's row; the bar is 2 ms).
#if canImport(KeystoneGTK) && os(Linux)
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces
import Keystone
import KeystoneGTK

/// `keystone-engine-benchmark --broadcast PAGES`: opens PAGES web views on one Keystone, each
/// loading Tests/Benchmark/broadcast.html, whose listener tells Swift when an event reaches it.
/// Rounds alternate between an event to every page (`Keystone.emit(_:_:to: .all)`) and the same
/// event to the first page alone; each round's time is from the emit until the last page has it,
/// on Swift's clock, the page's telling included (a synchronous call from each page, which the
/// main thread answers one after another: the figure is an upper bound). Prints both medians. It
/// decides nothing.
enum BroadcastRow {
    /// What the pages tell Swift: that each is ready, and each event as it arrives.
    final class Receipts: BridgeInterface, Sendable {
        private struct State {
            var ready: Set<PageID> = []
            var heard: [Int: Set<PageID>] = [:]
            var waiter: (round: Int, count: Int, continuation: CheckedContinuation<Void, Never>)?
            var readyWaiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
        }

        private let state = Locked(State())

        func exposeMethods(to methods: inout MethodList) {
            methods.sync("ready") { [self] (context: CallContext) in
                let resume = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.ready.insert(context.pageID)
                    guard let waiter = state.readyWaiter, state.ready.count >= waiter.count else { return nil }
                    state.readyWaiter = nil
                    return waiter.continuation
                }
                resume?.resume()
            }
            methods.sync("heard") { [self] (round: Int, context: CallContext) -> Bool in
                let resume = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.heard[round, default: []].insert(context.pageID)
                    guard let waiter = state.waiter, waiter.round == round, state.heard[round, default: []].count >= waiter.count else { return nil }
                    state.waiter = nil
                    return waiter.continuation
                }
                resume?.resume()
                return true
            }
        }

        /// Returns once `count` pages are ready.
        func untilReady(_ count: Int) async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    guard state.ready.count < count else { return true }
                    state.readyWaiter = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        /// Returns once `count` pages have heard the event of `round`.
        func untilHeard(_ round: Int, by count: Int) async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    guard state.heard[round, default: []].count < count else { return true }
                    state.waiter = (round, count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    static func run(pages count: Int, timeout: Double) -> Int32 {
        let loop = GTKMainLoop()
        let keystone = Keystone()
        let receipts = Receipts()
        var hosts: [WebKitGTKHost] = []
        do {
            try keystone.register(receipts, namespace: "broadcast")
            for _ in 0..<count { hosts.append(try WebKitGTKHost(hub: keystone)) }
        } catch {
            print("the benchmark failed to start: \(error)")
            return 1
        }
        let windows = hosts.map { WebViewWindow(showing: $0, title: "Keystone broadcast benchmark") }
        let page = URL(fileURLWithPath: "Tests/Benchmark/broadcast.html").standardizedFileURL.absoluteString
        for host in hosts { host.load(uri: page) }
        let status = Locked<Int32>(2)
        Task {
            await receipts.untilReady(count)
            var toAll: [Duration] = []
            var toOne: [Duration] = []
            for round in 0..<400 {
                let everyPage = round % 2 == 0
                let start = ContinuousClock.now
                do {
                    if everyPage { try keystone.emit("tick", round, to: .all) } else { try keystone.emit("tick", round) }
                } catch {
                    print("error: \(error)")
                    break
                }
                await receipts.untilHeard(round, by: everyPage ? count : 1)
                let time = start.duration(to: .now)
                // The first rounds warm the engine up.
                if round >= 40 { everyPage ? toAll.append(time) : toOne.append(time) }
            }
            let (all, one) = (median(toAll), median(toOne))
            print("event to \(count) pages\t\(format(all))\tto one page \(format(one))\tbar 2 ms to every page")
            status.withLock { $0 = 0 }
            loop.quit()
        }
        loop.after(seconds: timeout) {
            print("timed out")
            loop.quit()
        }
        loop.run()
        withExtendedLifetime((hosts, windows)) {}
        return status.withLock { $0 }
    }

    private static func median(_ times: [Duration]) -> Duration {
        times.isEmpty ? .zero : times.sorted()[times.count / 2]
    }

    private static func format(_ time: Duration) -> String {
        let microseconds = Double(time.components.seconds) * 1e6 + Double(time.components.attoseconds) / 1e12
        return String(format: "%.2f ms", microseconds / 1000)
    }
}
#endif
