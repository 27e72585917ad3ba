// BenchInterface.swift — the methods the real-engine benchmark page calls.
import Foundation
import Keystone

/// Namespace `bench`: the smallest method of each kind, so the figures are the bridge's own cost.
struct BenchInterface: BridgeInterface {
    let counter: EvaluationCounter
    let policy: FlushPolicy
    /// How many of the hub's tickets are open.
    var openTransfers: @Sendable () -> Int = { 0 }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("echo") { (value: Int) in value }
        methods.sync("openTransfers", openTransfers)
        methods.async("echoAsync") { (value: Int) async in value }
        // Suspends once before it answers, so its result cannot go in the reply: it is sent to the
        // page by the evaluator, as every result of a method that waits for something is.
        methods.async("echoLater") { (value: Int) async in
            await Task.yield()
            return value
        }
        // Native calling the page in the middle of the page's call: JS → Swift → JS → Swift → JS.
        methods.async("roundTrip") { (value: Int, context: CallContext) async throws in
            try await context.page.call("bench.pageEcho", value, as: Int.self)
        }
        // `count` results as fast as the page can be sent them, evaluations counted meanwhile.
        methods.multiResponse("flood") { (count: Int, writer: ResponseWriter<Int>) in
            counter.start()
            for n in 0..<max(0, count) { try await writer.write(n) }
        }
        methods.sync("floodStats") { () -> EvaluationCounter.Stats in counter.stop() }
        methods.sync("isFixedWindow") { policy == .fixedWindow }
        // Bytes (Tests/Benchmark/bytes-keystone.html): as bytes from Keystone's `invoke`, as base64
        // in JSON from `dsBridge.call`. Byte i of what `make` returns is i % 251.
        methods.async("count") { (bytes: Data) in bytes.count }
        // The same bytes inside a value, beside a name: their count.
        methods.async("describe") { (named: Named) in named.bytes.count }
        // The app's memory around one transfer (Linux): `resetPeak` clears the process's peak
        // resident size and answers the resident size now; `peak` answers the peak since.
        methods.sync("resetPeak") { () -> Int in
            try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
            return Self.status("VmRSS")
        }
        methods.sync("peak") { () -> Int in Self.status("VmHWM") }
        // Streams of any length: the page's bytes counted as they arrive, and `count` bytes sent
        // to the page in chunks of 1 MiB, no further ahead of it than it fetches.
        methods.async("upload") { (bytes: ByteStream) in
            var count = 0
            for try await chunk in bytes { count += chunk.count }
            return count
        }
        methods.multiResponse("download") { (count: Int, writer: ResponseWriter<Data>) in
            let chunk = Data(count: 1 << 20)
            var left = max(0, count)
            while left > 0 {
                try await writer.write(left >= chunk.count ? chunk : chunk.prefix(left))
                left -= min(left, chunk.count)
            }
        }
        // Byte i is i % 251: one period written, then copied in doubling runs, as the floor makes them.
        methods.async("make") { (count: Int) in
            var bytes = Data(count: max(0, count))
            bytes.withUnsafeMutableBytes { raw in
                let period = min(raw.count, 251)
                for index in 0..<period { raw[index] = UInt8(index) }
                var filled = period
                while filled < raw.count {
                    let run = min(filled - filled % 251, raw.count - filled)
                    raw.baseAddress!.advanced(by: filled).copyMemory(from: raw.baseAddress!, byteCount: run)
                    filled += run
                }
            }
            return bytes
        }
    }

    /// A size from /proc/self/status, in bytes (0 where it cannot be read).
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes << 10
    }
}

/// Bytes with a name beside them, as `bench.describe` takes them.
struct Named: Decodable, Sendable {
    var name: String
    var bytes: Data
}
