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
/// came in its answer or through its callback (a value, nothing, or an error's code); a stream with
/// every result it gave and how it ended (one the page left early is left after as many results).
/// The page answers Swift's calls to it as it answered them in the recording, in their order by
/// method, and has the handlers the recording shows it had, so an interface that calls the page
/// meets the same page. `_dsb.hasNativeMethod` is asked again; the runtime's other calls (`_dsb.…`)
/// are its own and are not. A call the trace does not hold in full, whose value was cut at the
/// trace's limit or which the Keystone refused before reading it, cannot be made again: see
/// ``unreplayable(page:)``.
public struct TraceReplay: Sendable {
    /// One call whose outcome differs from the recording.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        /// The method called.
        public var method: String
        /// Where it was in the trace: the index of its record.
        public var record: Int
        /// The outcome recorded: `value JSON`, `nothing` or `error CODE`; for a stream, its results
        /// and its end (`results 3, 2, 1 then end`, `… then error CODE`, `… then left`).
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

    /// The indices of page `page`'s call records the replay does not make again, because the trace
    /// does not hold them in full: a call whose name or arguments were past the Keystone's limits,
    /// or which it could not read (it is refused before anything reads it, and the trace keeps no
    /// value of it), and one whose value was cut at the trace's `valueLimit`.
    public func unreplayable(page: Int = 1) -> [Int] {
        plan(page: page).unreplayable
    }

    /// Makes the calls page `page` of the trace made again against `keystone`, in order, and returns
    /// each one whose outcome differs from the recording (none: the replay reproduces it).
    public func replay(against keystone: Keystone, page: Int = 1) async -> [Difference] {
        let plan = plan(page: page)
        let inMemory = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: plan.origin))
        inMemory.initialize()
        PageAnswers(records: records, page: page).register(in: inMemory)
        var differences: [Difference] = []
        for call in plan.calls {
            let replayed = await call.make(on: inMemory)
            if replayed != call.recorded {
                differences.append(Difference(method: call.method, record: call.record, recorded: call.recorded, replayed: replayed))
            }
        }
        return differences
    }

    // MARK: The plan

    /// What a replay of one page makes again, in order, and what it cannot.
    private struct Plan {
        var origin: String?
        var calls: [PlannedCall] = []
        var unreplayable: [Int] = []
    }

    private func plan(page: Int) -> Plan {
        var plan = Plan()
        // Each callback's messages, and the callbacks the page cancelled, by page load (a page
        // load's callback names are its own): read once, so a plan costs time linear in the trace.
        struct Cancel: Decodable { var callback: String }
        func key(_ record: TraceRecord, _ callback: String) -> String { "\(record.pageLoad ?? -1)/\(callback)" }
        var messagesOf: [String: [TraceRecord]] = [:]
        var cancelled: Set<String> = []
        for record in records where record.page == page {
            if record.kind == .message, let callback = record.callback { messagesOf[key(record, callback), default: []].append(record) }
            if record.kind == .call, record.name == "_dsb.cancel", let value = record.value,
                let cancel = try? JSONDecoder().decode(Cancel.self, from: Data(value.utf8))
            {
                cancelled.insert(key(record, cancel.callback))
            }
        }
        for (index, call) in records.enumerated() where call.page == page && call.kind == .call {
            plan.origin = plan.origin ?? call.origin
            let method = call.name ?? ""
            if method.hasPrefix("_dsb."), method != "_dsb.hasNativeMethod" { continue }
            let refusedUnread =
                call.value == nil && call.outcome == "error"
                && [BridgeError.Code.limitExceeded.rawValue, BridgeError.Code.malformedMessage.rawValue].contains(call.code)
            guard call.name != nil, call.isValueCut != true, !refusedUnread else {
                plan.unreplayable.append(index)
                continue
            }
            if call.callback == nil {
                let text = call.value.map { #"{"data":"# + $0 + "}" } ?? "{}"
                plan.calls.append(PlannedCall(record: index, method: method, kind: .sync(text), recorded: outcome(of: call)))
                continue
            }
            let argument = call.value.flatMap { try? DefaultJSONSerializer().decode(JSONValue.self, from: Data($0.utf8)) } ?? .null
            let callback = key(call, call.callback ?? "")
            let messages = messagesOf[callback] ?? []
            if call.outcome == "accepted", messages.contains(where: { ($0.step == "result" && $0.outcome == nil) || $0.step == "completion" }) {
                let left = cancelled.contains(callback)
                let (results, end) = Self.stream(messages, left: left)
                plan.calls.append(
                    PlannedCall(
                        record: index, method: method, kind: .stream(argument, leavesAfter: left ? results.count : nil),
                        recorded: Self.streamOutcome(results, end)))
            } else if let recorded = asyncOutcome(of: call, messages: messages) {
                plan.calls.append(PlannedCall(record: index, method: method, kind: .async(argument), recorded: recorded))
            } else {
                plan.unreplayable.append(index)
            }
        }
        return plan
    }

    /// A synchronous call's recorded answer.
    private func outcome(of call: TraceRecord) -> String {
        switch call.outcome {
        case "ok": call.answer.map { "value " + Self.canonical(text: $0) } ?? "nothing"
        default: "error \(call.code ?? 0)"
        }
    }

    /// What an asynchronous call recorded ended with: its answer, or its callback's end; `nil` when
    /// the trace does not hold its end.
    private func asyncOutcome(of call: TraceRecord, messages: [TraceRecord]) -> String? {
        switch call.outcome {
        case "error": return "error \(call.code ?? 0)"
        case "ok":
            guard call.answer != nil || call.answerBytes == 0 else { return nil }
            return call.answer.map { "value " + Self.canonical(text: $0) } ?? "nothing"
        case "accepted":
            // Its callback's messages: a result can go out before the call's record is written
            // (which waits for the answer), and a page load's callback names are its own.
            guard let end = messages.first(where: { $0.step != "release" }) else { return nil }
            switch end.step {
            case "result": return end.value.map { "value " + Self.canonical(text: $0) }
            case "noResult": return "nothing"
            case "failure": return "error \(end.code ?? 0)"
            default: return nil
            }
        default: return nil
        }
    }

    /// A stream's recorded results and end, from its callback's messages; `left`: the page left it.
    private static func stream(_ messages: [TraceRecord], left: Bool) -> ([String], String) {
        var results: [String] = []
        for message in messages {
            switch message.step {
            case "result":
                results.append(canonical(text: message.value ?? "null"))
                if message.outcome == "ok" { return (results, left ? "left" : "end") }
            case "completion", "noResult": return (results, left ? "left" : "end")
            case "failure": return (results, left ? "left" : "error \(message.code ?? 0)")
            default: continue
            }
        }
        return (results, left ? "left" : "open")
    }

    fileprivate static func streamOutcome(_ results: [String], _ end: String) -> String {
        "results " + results.joined(separator: ", ") + " then " + end
    }

    /// `text`'s JSON, written one way whatever its spacing and key order.
    fileprivate static func canonical(text: String) -> String {
        (try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(text.utf8))).map { canonical($0) } ?? text
    }

    fileprivate static func canonical(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

/// One call a replay makes again, and what the recording says it ended with.
private struct PlannedCall: Sendable {
    enum Kind: Sendable {
        /// `prompt` with the call's text.
        case sync(String)
        /// `dsBridge.invoke` of the argument.
        case async(JSONValue)
        /// `dsBridge.stream` of the argument, left after so many results when the page left it.
        case stream(JSONValue, leavesAfter: Int?)
    }

    var record: Int
    var method: String
    var kind: Kind
    var recorded: String

    /// Makes the call on `page`: its outcome, written as the recorded one is.
    func make(on page: InMemoryPage) async -> String {
        switch kind {
        case .sync(let text):
            return CallAnswerReading(text: page.prompt(method, argumentText: text) ?? "").outcome
        case .async(let argument):
            do {
                let value = try await page.invoke(method, argument, as: JSONValue?.self)
                return value.map { "value " + TraceReplay.canonical($0) } ?? "nothing"
            } catch {
                return "error \(BridgeError(error).code.rawValue)"
            }
        case .stream(let argument, let leavesAfter):
            var results: [String] = []
            do {
                for try await value in page.stream(method, argument, of: JSONValue.self) {
                    results.append(TraceReplay.canonical(value))
                    if results.count == leavesAfter { return TraceReplay.streamOutcome(results, "left") }
                }
                return TraceReplay.streamOutcome(results, "end")
            } catch {
                return TraceReplay.streamOutcome(results, "error \(BridgeError(error).code.rawValue)")
            }
        }
    }
}

/// How the recorded page answered Swift's calls to it: each call's answers (`_dsb.returnValue`), in
/// order by method, and the handlers it said it had (`_hasJavascriptMethod`).
private struct PageAnswers {
    struct Answer {
        var value: JSONValue?
        var error: BridgeError?
        var complete: Bool
    }

    /// Each method's calls, in order, and each call's answers.
    var calls: [String: [[Answer]]] = [:]
    /// The methods the page said it had a handler for.
    var present: Set<String> = []

    init(records: [TraceRecord], page: Int) {
        struct Returned: Decodable {
            struct Failure: Decodable {
                var code: Int
                var message: String?
            }
            var id: Int
            var data: JSONValue?
            var error: Failure?
            var complete: Bool?
        }
        var returned: [String: [Answer]] = [:]
        for record in records where record.page == page && record.kind == .call && record.name == "_dsb.returnValue" {
            guard let value = record.value, let answer = try? JSONDecoder().decode(Returned.self, from: Data(value.utf8)) else { continue }
            returned["\(record.pageLoad ?? 0)/\(answer.id)", default: []].append(
                Answer(
                    value: answer.error == nil ? answer.data ?? .null : nil,
                    error: answer.error.map { BridgeError(code: .init(rawValue: $0.code), message: $0.message ?? "") },
                    complete: answer.complete ?? true))
        }
        for record in records where record.page == page && record.kind == .message && record.step == "call" {
            guard let name = record.name, let id = record.callID else { continue }
            let answers = returned["\(record.pageLoad ?? 0)/\(id)"] ?? []
            if name == "_hasJavascriptMethod" {
                guard answers.first?.value == .bool(true), let value = record.value,
                    case .array(let arguments)? = try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(value.utf8)),
                    case .string(let asked)? = arguments.first
                else { continue }
                present.insert(asked)
            } else {
                calls[name, default: []].append(answers)
            }
        }
    }

    /// Registers in `page` a handler for each method the recorded page had one for, answering each
    /// call as the recorded page answered the call of the same turn.
    func register(in page: InMemoryPage) {
        let notFound = BridgeError.Code.notFound
        // A method every call of which the page had no handler for is one the page did not have.
        let names = present.union(calls.filter { !$0.value.allSatisfy { $0.allSatisfy { $0.error?.code == notFound } } }.keys)
        for name in names {
            let queue = Locked(calls[name] ?? [])
            let next: @Sendable () -> [Answer]? = {
                queue.withLock { queue in queue.isEmpty ? nil : queue.removeFirst() }
            }
            if (calls[name] ?? []).allSatisfy({ $0.count <= 1 }) {
                page.register(name) { _ in
                    guard let answer = next()?.first else { throw BridgeError(code: .notFound, message: "the recording has no more calls of \(name)") }
                    if let error = answer.error { throw error }
                    return answer.value ?? .null
                }
            } else {
                page.registerAsync(name) { _, reply in
                    for answer in next() ?? [] { reply(answer.value ?? .null, complete: answer.complete) }
                }
            }
        }
    }
}

/// A `prompt`'s answer text read for its outcome: DSBridge's `{"code":0,"data":…}` (with
/// `"void":true` for no value) or `{"code":-1,…,"error":{"code":…}}`.
private struct CallAnswerReading {
    let outcome: String

    init(text: String) {
        struct Answer: Decodable {
            struct Failure: Decodable { var code: Int }
            var code: Int
            var data: JSONValue?
            var void: Bool?
            var error: Failure?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(text.utf8)) else {
            outcome = "error \(BridgeError.Code.malformedMessage.rawValue)"
            return
        }
        if answer.code != 0 {
            outcome = "error \(answer.error?.code ?? answer.code)"
        } else if answer.void == true {
            outcome = "nothing"
        } else {
            outcome = "value " + TraceReplay.canonical(answer.data ?? .null)
        }
    }
}
