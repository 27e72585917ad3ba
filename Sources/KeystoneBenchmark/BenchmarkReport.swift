// BenchmarkReport.swift — the one table scripts/bench.sh prints, and the chart it writes.
import Foundation

/// Prints every row — in process and in the real engine — with its floor, ratio and target, and
/// writes the chart of per-call latency by path (an SVG, Keystone beside the floors).
enum BenchmarkReport {
    static func run(engineSamples: URL?, chart: URL?) throws {
        var rows = try InProcessRows.measure()
        var flood: (worst: EngineRows.Flood, runs: Int)?
        if let engineSamples {
            let engine = try EngineRows(contentsOf: engineSamples)
            rows += engine.rows
            flood = engine.flood.map { ($0, engine.floods.count) }
        }
        print(table(rows, flood: flood))
        if let chart {
            try svg(rows).write(to: chart, atomically: true, encoding: .utf8)
            print("\nchart written to \(chart.path)")
        }
    }

    /// The table; the flood's row is the worst of its runs.
    static func table(_ rows: [BenchmarkRow], flood: (worst: EngineRows.Flood, runs: Int)?) -> String {
        var lines = [
            "| path | Keystone | floor | ratio | target | met |",
            "|---|---|---|---|---|---|",
        ]
        for row in rows {
            let target: String =
                switch row.target {
                case .ratio(let bar): "≤ \(String(format: "%g", bar))×"
                case .absolute(let bar): "≤ " + format(bar, row.unit)
                case nil: "—"
                }
            let met = row.meetsTarget.map { $0 ? "yes" : "no" } ?? "—"
            let floor = row.floor.map { format($0, row.unit) } ?? "—"
            let ratio = row.ratio.map { String(format: "%.2f×", $0) } ?? "—"
            lines.append("| \(row.path) | \(format(row.keystone, row.unit)) | \(floor) | \(ratio) | \(target) | \(met) |")
        }
        if let (flood, runs) = flood {
            let overhead = flood.overheadPerResult
            let worst = runs > 1 ? ", the worst of \(runs) runs" : ""
            lines.append(
                "| real engine: flood of \(flood.results) results\(worst) | \(flood.evaluations) evaluation\(flood.evaluations == 1 ? "" : "s"), at most \(flood.maxInFlight) in flight, "
                    + String(format: "%.1f", overhead) + " B of script per result beyond its JSON | — | — | 1 in flight, ≤ 48 B | "
                    + (flood.maxInFlight <= 1 && overhead <= 48 ? "yes" : "no") + " |"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ value: Double, _ unit: BenchmarkRow.Unit) -> String {
        switch unit {
        case .seconds: value < 1e-3 ? String(format: "%.1f µs", value * 1e6) : String(format: "%.2f ms", value * 1e3)
        case .milliseconds: value >= 100 ? String(format: "%.0f ms", value) : String(format: "%.2f ms", value)
        }
    }

    /// Milliseconds per call, the figure the chart plots (a burst's total is divided by its calls).
    static func perCallMilliseconds(_ value: Double, of row: BenchmarkRow) -> Double {
        switch row.unit {
        case .seconds: value * 1e3
        case .milliseconds: row.path.contains("burst of 10,000") ? value / 10_000 : value
        }
    }

    /// Two bars per path on a logarithmic scale of milliseconds per call, 1 µs to 1 s.
    static func svg(_ rows: [BenchmarkRow]) -> String {
        let (left, right, top, rowHeight) = (350.0, 860.0, 40.0, 40.0)
        let (low, high) = (-3.0, 3.0)  // log10 of milliseconds
        func x(_ ms: Double) -> Double { left + (right - left) * (min(max(log10(max(ms, 1e-6)), low), high) - low) / (high - low) }
        let height = top + rowHeight * Double(rows.count) + 40
        var out = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="\##(Int(height))" font-family="sans-serif" font-size="12">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
            ##"<text x="10" y="20" font-size="14" font-weight="bold">Time per call by path (a burst: its total over its calls): Keystone (blue) beside its floor (grey), log scale</text>"##,
        ]
        for (decade, label) in zip(-3...3, ["1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s"]) {
            let position = x(pow(10, Double(decade)))
            out.append(##"<line x1="\##(position)" y1="\##(top - 8)" x2="\##(position)" y2="\##(height - 30)" stroke="#ddd"/>"##)
            out.append(##"<text x="\##(position)" y="\##(height - 14)" text-anchor="middle" fill="#555">\##(label)</text>"##)
        }
        for (index, row) in rows.enumerated() {
            let y = top + rowHeight * Double(index)
            let label = labelLines(row.path)
            for (line, text) in label.enumerated() {
                let baseline = y + 18 + 14 * (Double(line) - Double(label.count - 1) / 2)
                out.append(##"<text x="10" y="\##(baseline)">\##(escape(text))</text>"##)
            }
            let keystone = perCallMilliseconds(row.keystone, of: row)
            out.append(##"<rect x="\##(left)" y="\##(y + 4)" width="\##(x(keystone) - left)" height="14" fill="#2f6fb0"/>"##)
            out.append(##"<text x="\##(x(keystone) + 4)" y="\##(y + 15)" fill="#2f6fb0">\##(escape(format(keystone / 1e3, .seconds)))</text>"##)
            if let floor = row.floor {
                let floorMs = perCallMilliseconds(floor, of: row)
                out.append(##"<rect x="\##(left)" y="\##(y + 20)" width="\##(x(floorMs) - left)" height="12" fill="#aaa"/>"##)
                out.append(##"<text x="\##(x(floorMs) + 4)" y="\##(y + 30)" fill="#666">\##(escape(format(floorMs / 1e3, .seconds)))</text>"##)
            }
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// A path's label in the chart: one line, or two split after the last comma that keeps the
    /// first within the label column.
    static func labelLines(_ path: String, fitting width: Int = 52) -> [String] {
        guard path.count > width, let comma = path.prefix(width).lastIndex(of: ",") else { return [path] }
        return [String(path[...comma]), String(path[path.index(after: comma)...].drop { $0 == " " })]
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
