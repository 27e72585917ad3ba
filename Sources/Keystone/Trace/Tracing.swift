// Tracing.swift — a Keystone's trace: where its records go, whether they hold values, and what the
// app strips from them.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Where a trace's records go: a file (``TraceFileWriter``), memory (``TraceCollector``), or the
/// app's own sink. Called from any thread, one record at a time, never under a Keystone lock.
public protocol TraceSink: Sendable {
    /// Takes one record, in the order the Keystone wrote them.
    func write(_ record: TraceRecord)
}

/// A Keystone's tracing, a component like the others (`KeystoneComponents.tracing`; `nil`, the
/// default, traces nothing and costs the calls nothing but one test).
///
/// ```swift
/// let trace = TraceCollector()
/// var components = KeystoneComponents()
/// components.tracing = Tracing(to: trace, includesValues: true)
/// ```
public struct Tracing: Sendable {
    /// Where the records go.
    public var sink: any TraceSink
    /// Whether records hold the values calls and messages carry (their JSON), at most
    /// ``valueLimit`` bytes each. Off by default: a trace then holds names, sizes and outcomes only.
    public var includesValues: Bool
    /// The most bytes of a value a record holds.
    public var valueLimit: Int
    /// Rewrites each record before it is written, or drops it (`nil`): the app strips what it must
    /// not keep.
    public var redact: (@Sendable (TraceRecord) -> TraceRecord?)?

    /// Tracing to `sink`; each parameter sets the property of the same name.
    public init(to sink: any TraceSink, includesValues: Bool = false, valueLimit: Int = 64 << 10, redact: (@Sendable (TraceRecord) -> TraceRecord?)? = nil) {
        self.sink = sink
        self.includesValues = includesValues
        self.valueLimit = valueLimit
        self.redact = redact
    }
}

/// Keeps every record in memory, in order: for tests, and for an app that shows its own trace.
public final class TraceCollector: TraceSink {
    private let kept = Locked<[TraceRecord]>([])

    /// A collector holding no records yet.
    public init() {}

    /// Keeps `record`, after those before it.
    public func write(_ record: TraceRecord) {
        kept.withLock { $0.append(record) }
    }

    /// The records so far, in the order they were written.
    public var records: [TraceRecord] { kept.withLock { $0 } }
}

/// Appends each record to a file as one line of JSON (JSON Lines), in the order written, as it is
/// written: nothing is buffered, so the file can be followed while the app runs (`tail -f`), and a
/// pipe or socket given as a file handle streams the trace to another process.
public final class TraceFileWriter: TraceSink {
    private let handle: Locked<FileHandle>

    /// Writes to the file at `url`, made anew (an existing file is emptied).
    /// - Throws: the error of creating or opening the file.
    public init(url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BridgeError(code: .failed, message: "the trace file cannot be created at \(url.path)")
        }
        handle = Locked(try FileHandle(forWritingTo: url))
    }

    /// Writes to `handle`, open for writing: a file, a pipe, a socket, standard error.
    public init(handle: FileHandle) {
        self.handle = Locked(handle)
    }

    /// Appends `record` as one line of JSON, its keys sorted (``TraceRecord/jsonLine``).
    public func write(_ record: TraceRecord) {
        let line = record.jsonLine
        handle.withLock { $0.write(line) }
    }
}
