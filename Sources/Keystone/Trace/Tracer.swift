// Tracer.swift — a Keystone's trace as its parts write it: each event made a record, dated, its
// value kept or left out, redacted, and handed to the sink.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Writes a Keystone's trace (``Tracing``), shared by its pages; the parts call it only when the
/// app traces, and never under a lock of theirs.
final class Tracer: Sendable {
    private let tracing: Tracing
    private let elapsed: @Sendable () -> Duration

    /// The tracer of `tracing`, dating records on `clock`; `nil` when the app does not trace.
    init?(_ tracing: Tracing?, clock: any Clock<Duration>) {
        guard let tracing else { return nil }
        self.tracing = tracing
        elapsed = stopwatch(clock)
    }

    /// The time since the Keystone began, in milliseconds.
    var now: Double {
        let time = elapsed()
        return Double(time.components.seconds) * 1000 + Double(time.components.attoseconds) / 1e15
    }

    /// Writes one record of `kind` for `page`, as `fill` sets it.
    private func write(_ kind: TraceRecord.Kind, page: PageID, _ fill: (inout TraceRecord) -> Void) {
        var record = TraceRecord(kind: kind, time: now, page: page.rawValue)
        fill(&record)
        guard let written = tracing.redact.map({ $0(record) }) ?? record else { return }
        tracing.sink.write(written)
    }

    /// Sets `record`'s value to `json`, when the trace keeps values, cut at its limit.
    private func keep(_ json: Data?, in record: inout TraceRecord) {
        (record.value, record.isValueCut) = kept(json)
    }

    /// `json` as a record keeps it: `nil` unless the trace keeps values, and cut at its limit.
    private func kept(_ json: Data?) -> (String?, Bool?) {
        guard tracing.includesValues, let json, !json.isEmpty else { return (nil, nil) }
        let isCut = json.count > tracing.valueLimit
        return (String(decoding: isCut ? json.prefix(tracing.valueLimit) : json, as: UTF8.self), isCut ? true : nil)
    }

    /// A call from the page in `frame`, during `pageLoad`, of `method` (`nil`: its name was past
    /// its limit, and is not read), with `callback`, its argument text `arguments` (`bytes` long),
    /// and its answer, which took from `started` (``now``) until now.
    func call(
        page: PageID, pageLoad: PageLoad, frame: CallerFrame, method: String?, callback: String?, bytes: Int, arguments: Data?, answer: CallAnswer,
        started: Double
    ) {
        write(.call, page: page) { record in
            record.pageLoad = pageLoad.rawValue
            record.duration = record.time - started
            record.document = frame.subframeDocument?.rawValue
            record.origin = frame.origin
            record.name = method
            record.callback = callback
            record.bytes = bytes
            keep(arguments, in: &record)
            switch answer {
            case .result(let value, _):
                record.outcome = "ok"
                record.answerBytes = value.count
                (record.answer, record.isAnswerCut) = kept(value)
            case .accepted: record.outcome = "accepted"
            case .ticket: record.outcome = "ticket"
            case .failure(let error):
                record.outcome = "error"
                record.code = error.code.rawValue
            }
        }
    }

    /// Messages handed to the page's evaluator for `pageLoad` and its subframe document `frame`.
    func messages(_ messages: [PageMessage], page: PageID, pageLoad: PageLoad, frame: FrameDocument?) {
        for message in messages {
            write(.message, page: page) { record in
                record.pageLoad = pageLoad.rawValue
                record.document = frame?.rawValue
                describe(message, in: &record)
            }
        }
    }

    /// Sets what `message` is, in `record`.
    private func describe(_ message: PageMessage, in record: inout TraceRecord) {
        switch message {
        case .result(let callback, let value, let complete):
            (record.step, record.callback, record.bytes, record.outcome) = ("result", callback, value.bytes.count, complete ? "ok" : nil)
            keep(value.bytes, in: &record)
        case .failure(let callback, let error):
            (record.step, record.callback, record.outcome, record.code) = ("failure", callback, "error", error.code.rawValue)
        case .noResult(let callback): (record.step, record.callback, record.outcome) = ("noResult", callback, "ok")
        case .completion(let callback): (record.step, record.callback, record.outcome) = ("completion", callback, "ok")
        case .release(let callback): (record.step, record.callback) = ("release", callback)
        case .call(let method, let id, let arguments):
            (record.step, record.name, record.callID, record.bytes) = ("call", method, id, arguments.bytes.count)
            keep(arguments.bytes, in: &record)
        case .cancel(let id): (record.step, record.callID) = ("cancel", id)
        case .event(let name, let value):
            (record.step, record.name, record.bytes) = ("event", name, value.bytes.count)
            keep(value.bytes, in: &record)
        case .withParts(let inner, _): describe(inner, in: &record)
        case .durable(let inner, _):
            describe(inner, in: &record)
            record.step = "durable"
        }
    }

    /// One request on the byte channel, for `pageLoad`, asked at `started` (``now``) and answered
    /// with `response`; `body` bytes the page sent with it.
    func transfer(_ request: ByteRequest, response: ByteResponse, body: Int, page: PageID, pageLoad: PageLoad, started: Double) {
        write(.transfer, page: page) { record in
            (record.pageLoad, record.origin, record.duration) = (pageLoad.rawValue, request.origin, record.time - started)
            record.transport = request.transport
            switch request.kind {
            case .fetch: record.step = "fetch"
            case .piece: (record.step, record.bytes) = ("piece", body)
            case .end: record.step = "end"
            }
            switch response {
            case .bytes(let bytes): (record.bytes, record.outcome) = (bytes.count, "ok")
            case .more, .done: record.outcome = "ok"
            case .refused(let error): (record.outcome, record.code) = ("error", error.code.rawValue)
            }
        }
    }

    /// A page load's step: `began`, `initialized` (its main document's runtime, of `origin`), `ended`.
    func pageLoad(_ step: String, page: PageID, pageLoad: PageLoad, origin: String? = nil) {
        write(.pageLoad, page: page) { record in
            (record.step, record.pageLoad, record.origin) = (step, pageLoad.rawValue, origin)
        }
    }

    /// A step of a durable call of `method`, for `origin`, made during `pageLoad`; `outcome` and
    /// `code` as a call's.
    func durable(_ step: String, page: PageID, pageLoad: PageLoad?, origin: String?, method: String?, outcome: String? = nil, code: Int? = nil) {
        write(.durable, page: page) { record in
            (record.step, record.pageLoad, record.origin, record.name) = (step, pageLoad?.rawValue, origin, method)
            (record.outcome, record.code) = (outcome, code)
        }
    }

    /// A page's mark of its own work (`dsBridge.mark`): `step` (`begin` or `end`) of span `span`
    /// named `name`, from the document in `frame` during `pageLoad`, made `ago` milliseconds before
    /// it arrived (a mark the runtime held until it had announced itself).
    func mark(_ step: String, name: String, span: Int, ago: Double, page: PageID, pageLoad: PageLoad, frame: CallerFrame) {
        write(.mark, page: page) { record in
            record.time -= ago
            (record.step, record.name, record.span, record.pageLoad) = (step, name, span, pageLoad.rawValue)
            (record.document, record.origin) = (frame.subframeDocument?.rawValue, frame.origin)
        }
    }
}
