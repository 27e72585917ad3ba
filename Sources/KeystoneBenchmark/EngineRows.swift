// EngineRows.swift — the real-engine rows, read from the samples scripts/bench.sh collected.
import Foundation

/// The real-engine rows, Keystone's and the raw floor's, from lines
/// `side:run<TAB>sample<TAB>path<TAB>ms` (side `floor`, `keystone`, or `fixed` for Keystone under
/// the fixed window; one run per process), and the flood's counts from `keystone:run<TAB>flood<TAB>…`
/// (the worst run's: the most evaluations in flight, then the most script per result).
///
/// Each figure is the best of the runs, each run the median of its rounds: on a shared machine a
/// whole process can be slowed by its neighbours, never sped up, so the least disturbed run is the
/// truest (as the in-process rows take the best of their rounds).
struct EngineRows {
    var rows: [BenchmarkRow] = []
    /// Every run's flood, in the order the runs were made.
    var floods: [Flood] = []

    /// The worst run's flood: the most evaluations in flight at once, then the most script bytes.
    var flood: Flood? {
        floods.max { ($0.maxInFlight, $0.overheadPerResult) < ($1.maxInFlight, $1.overheadPerResult) }
    }

    struct Flood {
        var results: Int
        var evaluations: Int
        var maxInFlight: Int
        var scriptBytes: Int
        var resultJSONBytes: Int

        /// Script bytes beyond the results' own JSON, per result.
        var overheadPerResult: Double { Double(scriptBytes - resultJSONBytes) / Double(max(1, results)) }
    }

    /// The paths in the order the table shows them, with their targets.
    static let paths: [(name: String, target: BenchmarkRow.Target?)] = [
        ("sync call", .ratio(1.2)),
        ("invoke of a sync method", .ratio(1.2)),
        ("awaited async call", .ratio(2)),
        ("awaited async call, answered by evaluation", .ratio(2)),
        ("JS → Swift → JS", .absolute(3)),
        ("burst of 10,000 calls", .ratio(1.3)),
    ]

    init(contentsOf url: URL) throws {
        // side → path → run → figures
        var samples: [String: [String: [String: [Double]]]] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 4, fields[1] == "sample", let ms = Double(fields[3]) {
                let source = fields[0].split(separator: ":", maxSplits: 1).map(String.init)
                samples[source[0], default: [:]][fields[2], default: [:]][source.count > 1 ? source[1] : "", default: []].append(ms)
            } else if fields.count >= 7, fields[1] == "flood", let numbers = Optional(fields[2...6].compactMap { Int($0) }), numbers.count == 5 {
                floods.append(Flood(results: numbers[0], evaluations: numbers[1], maxInFlight: numbers[2], scriptBytes: numbers[3], resultJSONBytes: numbers[4]))
            }
        }
        func median(_ side: String, _ path: String) -> Double? {
            samples[side]?[path]?.values.compactMap { list in list.isEmpty ? nil : list.sorted()[list.count / 2] }.min()
        }
        for (path, target) in Self.paths {
            guard let keystone = median("keystone", path) else { continue }
            rows.append(BenchmarkRow(path: "real engine: \(path)", keystone: keystone, floor: median("floor", path), unit: .milliseconds, target: target))
        }
        // Beside the floor in the same web view, in the same rounds: what the bridge's own path
        // adds, apart from what the process and the web view cost. The ratio pairs each round's
        // figure with the floor's in that round.
        func pairedRatio(_ path: String) -> Double? {
            guard let runs = samples["keystone"]?[path], let floors = samples["keystone"]?["here: \(path)"] else { return nil }
            let ratios = runs.flatMap { run, figures in zip(figures, floors[run] ?? []).map { $0 / $1 } }.sorted()
            return ratios.isEmpty ? nil : ratios[ratios.count / 2]
        }
        for (path, target) in Self.paths {
            guard let keystone = median("keystone", path), let here = median("keystone", "here: \(path)") else { continue }
            var row = BenchmarkRow(path: "same web view: \(path)", keystone: keystone, floor: here, unit: .milliseconds, target: target)
            row.pairedRatio = pairedRatio(path)
            rows.append(row)
        }
        for path in ["awaited async call", "awaited async call, answered by evaluation", "JS → Swift → JS"] {
            guard let fixed = median("fixed", path) else { continue }
            rows.append(BenchmarkRow(path: "real engine: \(path), fixed 50 ms window", keystone: fixed, floor: median("floor", path), unit: .milliseconds, target: nil))
        }
    }
}
