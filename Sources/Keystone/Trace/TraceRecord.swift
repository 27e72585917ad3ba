// TraceRecord.swift — one event of a Keystone's trace: a message in or out, a page load's start or
// end, a durable call's step.
import Foundation
import KeystoneEvaluator

/// One event a Keystone traces (``Tracing``): written as one JSON line, its fields those that apply
/// to its ``kind``, the others left out.
///
/// Values are left out unless ``Tracing/includesValues``; then ``value`` holds the JSON the call or
/// message carried, at most ``Tracing/valueLimit`` bytes of it (``isValueCut`` when cut).
public struct TraceRecord: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable {
        /// A call from the page arrived and was answered (its answer's outcome here; an
        /// asynchronous call's results go out as messages).
        case call
        /// A message went to the page: a result, a failure, a call of its handler, an event…
        case message
        /// A page load began, its document's runtime initialized, or it ended.
        case pageLoad
        /// A step of one of the page's durable calls.
        case durable
        /// One request on the host's byte channel, answered: bytes Swift's calls send the page
        /// (`fetch`), or a piece the page sends (`piece`) or its stream's end (`end`).
        case transfer
        /// A mark the page made of its own work (`dsBridge.mark`): a span's `begin` or `end`.
        case mark
    }

    /// What happened.
    public var kind: Kind
    /// When, in milliseconds since the Keystone began, on its clock (`KeystoneComponents.clock`,
    /// monotonic by default).
    public var time: Double
    /// The page (web view) of the Keystone's, by its number (`PageID.rawValue`).
    public var page: Int
    /// The page load, by its number: unique across the Keystone's pages.
    public var pageLoad: Int?
    /// The subframe document, when the event is one of a subframe's.
    public var document: UInt64?
    /// The origin of the frame that called, or of the page's document.
    public var origin: String?
    /// What a message or a step was: `result`, `failure`, `noResult`, `completion`, `release`,
    /// `call`, `cancel`, `event`, `durable` (a message); `began`, `initialized`, `ended` (a page
    /// load); `begun`, `joined`, `answered`, `refused`, `ended`, `recovered`, `acknowledged` (a
    /// durable call); `fetch`, `piece`, `end` (a transfer); `begin`, `end` (a page's mark).
    public var step: String?
    /// The method called, the event's name, or the page's mark's.
    public var name: String?
    /// A page's mark: the span its `begin` and `end` share, numbered by its document.
    public var span: Int?
    /// What carried a transfer (`ByteRequest.transport`): `scheme`, `webProcess`.
    public var transport: String?
    /// A Swift call of the page's handler: its id in its page.
    public var callID: Int?
    /// The page's callback a call's results go to.
    public var callback: String?
    /// The bytes of the call's or the message's value (its JSON; a call's whole argument text).
    public var bytes: Int?
    /// The bytes of a call's answer.
    public var answerBytes: Int?
    /// How a call was answered, or a message ended its call: `ok`, `accepted`, `ticket`, `error`.
    public var outcome: String?
    /// The error's code, for an `error` outcome.
    public var code: Int?
    /// The value's JSON, when the trace includes values.
    public var value: String?
    /// Whether ``value`` was cut at the trace's limit.
    public var isValueCut: Bool?
    /// A call's answer, its JSON, when the trace includes values and the answer holds one (cut at
    /// the trace's limit, as ``value``; ``isAnswerCut`` when cut).
    public var answer: String?
    /// Whether ``answer`` was cut at the trace's limit.
    public var isAnswerCut: Bool?
    /// How long a call took to answer, or a transfer, in milliseconds, from its arrival to its
    /// answer (its record's ``time`` is the answer's). An asynchronous call's results go out later,
    /// as messages to its callback.
    public var duration: Double?

    /// A record of `kind` for `page`, at `time`; every other field is set where it applies.
    public init(kind: Kind, time: Double, page: Int) {
        self.kind = kind
        self.time = time
        self.page = page
    }
}

extension TraceRecord {
    /// The record as one line of JSON with its newline, its keys sorted and the fields that do not
    /// apply left out: what `JSONEncoder` with sorted keys writes, written directly, so that a
    /// traced call costs little more than an untraced one.
    public var jsonLine: Data {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(160 + (value?.utf8.count ?? 0))
        func key(_ name: String) {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out += name.utf8
            out += "\":".utf8
        }
        func number(_ name: String, _ value: Double?) {
            guard let value else { return }
            key(name)
            out += (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)).utf8
        }
        func integer(_ name: String, _ value: (some BinaryInteger)?) {
            guard let value else { return }
            key(name)
            out += String(value).utf8
        }
        func string(_ name: String, _ value: String?) {
            guard let value else { return }
            key(name)
            out += JSONText(quoting: value).bytes
        }
        string("answer", answer)
        integer("answerBytes", answerBytes)
        integer("bytes", bytes)
        integer("callID", callID)
        string("callback", callback)
        integer("code", code)
        integer("document", document)
        number("duration", duration)
        if let isAnswerCut {
            key("isAnswerCut")
            out += (isAnswerCut ? "true" : "false").utf8
        }
        if let isValueCut {
            key("isValueCut")
            out += (isValueCut ? "true" : "false").utf8
        }
        string("kind", kind.rawValue)
        string("name", name)
        string("origin", origin)
        string("outcome", outcome)
        integer("page", page)
        integer("pageLoad", pageLoad)
        integer("span", span)
        string("step", step)
        number("time", time)
        string("transport", transport)
        string("value", value)
        out += "}\n".utf8
        return Data(out)
    }
}
