// TraceReplay.swift — a trace recorded with values, its page's calls made again through an in-memory
// page against the app's own Keystone, each answer compared with the recording.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Replays a trace recorded with values (`Tracing(includesValues: true)`): the calls one page made
/// are made again, in their order, by an in-memory page of the recorded origin running Keystone's
/// runtime, against the Keystone a test gives it (the app's own, with its own interfaces), and every
/// answer and error code is compared with the recording. Times are not compared.
///
/// ```swift
/// let replay = try TraceReplay(contentsOf: URL(fileURLWithPath: "Tests/Fixtures/checkout.jsonl"))
/// let keystone = Keystone()
/// try keystone.register(Checkout(), namespace: "checkout")
/// #expect(await replay.replay(against: keystone).isEmpty)
/// ```
///
/// A synchronous call is compared with its answer; an asynchronous one with its outcome, whether it
/// came in its answer or through its callback (a value, nothing, or an error's code). The runtime's
/// own calls (`_dsb.…`) and calls answered more than once (streams) are not made again.
public struct TraceReplay: Sendable {
    /// One call whose outcome differs from the recording.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        /// The method called.
        public var method: String
        /// Where it was in the trace: the index of its record.
        public var record: Int
        /// The outcome recorded: `value JSON`, `nothing` or `error CODE`.
        public var recorded: String
        /// The outcome of the replay, written the same way.
        public var replayed: String

        public var description: String { "\(method) (record \(record)): recorded \(recorded), replayed \(replayed)" }
    }

    /// The trace's records, in order.
    public let records: [TraceRecord]

    /// A replay of `records`.
    public init(records: [TraceRecord]) {
        self.records = records
    }

    /// A replay of the trace in the JSON Lines file at `url` (a `TraceFileWriter`'s).
    /// - Throws: the error of reading the file, or of decoding one of its lines.
    public init(contentsOf url: URL) throws {
        let decoder = JSONDecoder()
        records = try Data(contentsOf: url).split(separator: UInt8(ascii: "\n")).map { try decoder.decode(TraceRecord.self, from: Data($0)) }
    }

    /// Makes the calls page `page` of the trace made again against `keystone`, in order, and returns
    /// each one whose outcome differs from the recording (none: the replay reproduces it).
    public func replay(against keystone: Keystone, page: Int = 1) async -> [Difference] {
        let calls = records.enumerated().filter { $0.element.page == page && $0.element.kind == .call && !($0.element.name ?? "_dsb.").hasPrefix("_dsb.") }
        let origin = calls.first?.element.origin
        let inMemory = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: origin))
        inMemory.initialize()
        var differences: [Difference] = []
        for (index, call) in calls {
            guard let method = call.name, let recorded = outcome(of: call, page: page) else { continue }
            let argument = call.value.flatMap { try? DefaultJSONSerializer().decode(JSONValue.self, from: Data($0.utf8)) } ?? .null
            let replayed: String
            if call.callback == nil {
                let text = inMemory.prompt(method, argumentText: call.value.map { #"{"data":"# + $0 + "}" } ?? "{}") ?? ""
                replayed = Self.outcome(of: CallAnswerReading(text: text))
            } else {
                do {
                    let value = try await inMemory.invoke(method, argument, as: JSONValue?.self)
                    replayed = value.map { "value " + Self.canonical($0) } ?? "nothing"
                } catch {
                    replayed = "error \(BridgeError(error).code.rawValue)"
                }
            }
            if replayed != recorded { differences.append(Difference(method: method, record: index, recorded: recorded, replayed: replayed)) }
        }
        return differences
    }

    /// What the call recorded ended with: its answer, or its callback's end; `nil` for one answered
    /// more than once, or whose end the trace does not hold.
    private func outcome(of call: TraceRecord, page: Int) -> String? {
        switch call.outcome {
        case "error": return "error \(call.code ?? 0)"
        case "ok":
            guard call.callback == nil || call.answer != nil || call.answerBytes == 0 else { return nil }
            return call.answer.map { "value " + Self.canonical(text: $0) } ?? "nothing"
        case "accepted":
            // Its callback's messages: a result can go out before the call's record is written
            // (which waits for the answer), and a page load's callback names are its own.
            let ends = records.filter {
                $0.kind == .message && $0.page == page && $0.pageLoad == call.pageLoad && $0.callback == call.callback
            }
            guard let end = ends.first, ends.filter({ $0.step == "result" }).count <= 1 else { return nil }
            switch end.step {
            case "result": return end.value.map { "value " + Self.canonical(text: $0) }
            case "noResult": return "nothing"
            case "failure": return "error \(end.code ?? 0)"
            default: return nil
            }
        default: return nil
        }
    }

    /// A synchronous call's answer as an outcome.
    private static func outcome(of answer: CallAnswerReading) -> String {
        switch answer {
        case .value(let json): "value " + canonical(text: json)
        case .nothing: "nothing"
        case .error(let code): "error \(code)"
        }
    }

    /// `text`'s JSON, written one way whatever its spacing and key order.
    private static func canonical(text: String) -> String {
        (try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(text.utf8))).map { canonical($0) } ?? text
    }

    private static func canonical(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

/// A `prompt`'s answer text read for its outcome: DSBridge's `{"code":0,"data":…}` (with
/// `"void":true` for no value) or `{"code":-1,…,"error":{"code":…}}`.
private enum CallAnswerReading {
    case value(String)
    case nothing
    case error(Int)

    init(text: String) {
        struct Answer: Decodable {
            struct Failure: Decodable { var code: Int }
            var code: Int
            var data: JSONValue?
            var void: Bool?
            var error: Failure?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(text.utf8)) else {
            self = .error(BridgeError.Code.malformedMessage.rawValue)
            return
        }
        if answer.code != 0 {
            self = .error(answer.error?.code ?? answer.code)
        } else if answer.void == true {
            self = .nothing
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            self = .value((try? encoder.encode(answer.data ?? .null)).map { String(decoding: $0, as: UTF8.self) } ?? "null")
        }
    }
}
