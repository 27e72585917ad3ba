// FuzzHarness.swift — what one fuzz input is checked against: the inbound path and the wrapper split.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Takes one input and fails loudly (a trap, which the fuzzer reports) when Keystone misbehaves.
///
/// The first byte chooses what the rest is:
/// - 0: a call wrapper, split by Keystone and by `JSONSerialization`, which must agree on `data`
///   and `_dscbstub` for every JSON object (escaped and repeated keys included) and refuse what
///   it refuses;
/// - 1: a method name, a NUL, and arguments, sent as a bridge `prompt`;
/// - 2: the same, sent as a script message;
/// - 3: a prompt's text, a NUL, and its default text, exactly as a page could send them;
/// - 4: a post as a host reads it: its sender admitted first (a refused one gets one short
///   refusal), then a batch read by length (`PostedText`), NULs, lone surrogates' bytes and broken
///   framing included: at most its limit of calls is made, and every answer is framed, coded JSON;
/// - 5: the byte channel: a method name, a NUL, a call's wrapper (sent as a script message), a NUL,
///   a request's method, a NUL, and its body. The request goes to the address the call's answer
///   gave, or, when there is none, to an address made of the wrapper's own bytes. Every answer is
///   the protocol's coded JSON (or, for a fetched result, bytes), and a refused request's body is
///   never read.
///
/// Every call reaches a fresh Keystone with interfaces of every kind and Swift calls waiting for
/// the page, so `_dsb.returnValue`, `_dsb.cancel` and the other built-ins have something to touch.
/// Each answer must be JSON, coded, and short enough that it cannot be quoting a payload.
enum FuzzHarness {
    static func check(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        let rest = input.dropFirst()
        switch mode % 6 {
        case 0: checkWrapperSplit(Data(String(decoding: rest, as: UTF8.self).utf8))
        case 1: checkCall(rest, asPrompt: true)
        case 2: checkCall(rest, asPrompt: false)
        case 3: checkPrompt(rest)
        case 4: checkBatch(rest)
        default: checkTransfer(rest)
        }
    }

    // MARK: The wrapper split, against JSONSerialization

    static func checkWrapperSplit(_ text: Data) {
        let ours = Result { try CallWrapper(splitting: text) }
        // JSONSerialization reads more than JSON: it skips a byte order mark and takes text with
        // NUL bytes for UTF-16 or UTF-32. Neither is JSON text (JSON.parse refuses both), so the
        // split must refuse them, and JSONSerialization is no judge of them.
        if text.contains(0) || text.starts(with: [0xEF, 0xBB, 0xBF]) {
            if case .success = ours { fail("the split accepted text with a NUL or a byte order mark", text) }
            return
        }
        let theirs = try? JSONSerialization.jsonObject(with: text) as? [String: Any]
        guard let theirs else {
            // What JSONSerialization refuses, the split refuses too, except values the grammar
            // allows and a later decoder refuses (lone surrogates, numbers past Double's range):
            // Keystone's own decoder refuses those as well.
            if case .success = ours, (try? DefaultJSONSerializer().decode(JSONValue.self, from: text)) != nil,
                (try? JSONSerialization.jsonObject(with: text, options: .fragmentsAllowed)) is [String: Any]
            {
                fail("the split accepted what JSONSerialization refuses", text)
            }
            return
        }
        let stub = theirs["_dscbstub"]
        guard case .success(let wrapper) = ours else {
            // The only objects the split refuses: one whose `_dscbstub` is not a string, and one
            // whose `_dsparts` is not a list of byte counts written plainly or `"stream"` (which the
            // parsed value no longer shows). (Linux's JSONSerialization also reads a trailing
            // comma, which JSON.parse and RFC 8259 refuse.)
            if stub == nil || stub is String, theirs["_dsparts"] == nil, !hasTrailingComma(text) { fail("the split refused a JSON object", text) }
            return
        }
        if stub != nil, !(stub is String) { fail("the split took a callback that is not a string", text) }
        if wrapper.callbackStub != stub as? String { fail("the split read another callback than JSON.parse", text) }
        switch (wrapper.data, theirs["data"]) {
        case (nil, nil): break
        case (let data?, let expected?):
            guard let read = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed), canonical(read) == canonical(expected) else {
                return fail("the split read another data than JSON.parse", text)
            }
        default: fail("the split found data where JSON.parse did not, or the reverse", text)
        }
    }

    /// Whether a comma outside strings is followed, after white space, by `}` or `]`.
    static func hasTrailingComma(_ text: Data) -> Bool {
        var inString = false
        var escaped = false
        var afterComma = false
        for byte in text {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; afterComma = false
            case UInt8(ascii: ","): afterComma = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if afterComma { return true }
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: afterComma = false
            }
        }
        return false
    }

    /// A value read by JSONSerialization, written back with sorted keys: equal values, equal text.
    static func canonical(_ value: Any) -> Data? {
        try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    // MARK: The inbound path

    struct Typed: Codable, Sendable {
        enum Kind: String, Codable, Sendable { case a, b }
        var name: String
        var count: Int
        var kind: Kind?
        var tags: [String]?
        var when: Date?
        var blob: Data?
        var nested: [String: [Double]]?
    }

    struct Everything: BridgeInterface {
        func exposeMethods(to methods: inout MethodList) {
            methods.sync("echo") { (value: JSONValue) in value }
            methods.sync("typed") { (value: Typed) in value }
            methods.sync("none") {}
            methods.sync("fail") { (value: String) throws -> Int in throw BridgeError(code: .init(rawValue: 1000), message: "no") }
            methods.async("later") { (value: JSONValue) async in value }
            methods.async("typedLater") { (value: Typed) async in value.count }
            methods.multiResponse("count") { (value: Int, writer: ResponseWriter<Int>) in
                for n in 0..<min(max(value, 0), 3) { try await writer.write(n) }
            }
            methods.async("bytes") { (value: Data) async in value }
            methods.sync("size") { (value: Data) in value.count }
            methods.async("make") { (value: Int) async in Data(count: min(max(value, 0), 64)) }
            methods.async("stream") { (value: ByteStream) async throws in
                var count = 0
                for try await chunk in value { count += chunk.count }
                return count
            }
        }
    }

    static func checkCall(_ bytes: ArraySlice<UInt8>, asPrompt: Bool) {
        let (method, arguments) = split(bytes)
        withFreshKeystone(Data(bytes)) { keystone in
            let answer: String? =
                asPrompt
                ? keystone.handlePrompt(BridgePrompt.prefix + method, defaultText: arguments)
                : keystone.handleMessage(method, arguments: arguments)
            guard let answer else { return fail("a bridge prompt was not answered", Data(bytes)) }
            checkAnswer(answer, Data(bytes))
        }
    }

    static func checkTransfer(_ bytes: ArraySlice<UInt8>) {
        let parts = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard parts.count == 4 else { return }
        let (method, wrapper, request, body) = (parts[0], parts[1], parts[2], Data(parts[3].utf8))
        // The request's own query: the piece the fuzzed method names, when it names one.
        let query = body.first.map { ["", "?piece=0", "?piece=1", "?end=0", "?end=1"][Int($0) % 5] } ?? ""
        withFreshKeystone(Data(bytes)) { keystone in
            let answer = keystone.handleMessage(method, arguments: wrapper)
            checkAnswer(answer, Data(bytes))
            struct Ticket: Decodable { var ticket: String? }
            let address = (try? JSONDecoder().decode(Ticket.self, from: Data(answer.utf8)))?.ticket ?? "keystone://transfer/" + wrapper
            var read = false
            // Nothing a fuzzed input sends fills a stream's window: every request is answered at once.
            let answered = Locked<URLSchemeTransport.Response?>(nil)
            URLSchemeTransport.keystone.serve(method: request, url: address + query, origin: nil, hub: keystone) { limit in
                read = true
                return body.count <= limit ? body : nil
            } respond: { response in
                answered.withLock { $0 = response }
            }
            guard let response = answered.withLock({ $0 }) else { return fail("a byte-channel request was not answered", Data(bytes)) }
            if read, [403, 404, 405].contains(response.status) {
                fail("a refused request's body was read", Data(bytes))
            }
            if response.status != 200 || response.contentType == "application/json" {
                guard !response.body.isEmpty || response.status == 204 else { return fail("a byte-channel answer is empty", Data(bytes)) }
                struct Refusal: Decodable { var code: Int?; var message: String?; var more: Bool? }
                guard response.status == 204 || (try? JSONDecoder().decode(Refusal.self, from: response.body)) != nil else {
                    return fail("a byte-channel answer is not JSON", Data(bytes))
                }
                if response.body.count > 700 { fail("a byte-channel refusal is long enough to quote a payload", Data(bytes)) }
            }
        }
    }

    static func checkPrompt(_ bytes: ArraySlice<UInt8>) {
        let (text, defaultText) = split(bytes)
        withFreshKeystone(Data(bytes)) { keystone in
            let answer = keystone.handlePrompt(text, defaultText: defaultText)
            if BridgePrompt.matches(text) != (answer != nil) {
                fail("a prompt was answered although it is not the bridge's, or the reverse", Data(bytes))
            }
            if let answer { checkAnswer(answer, Data(bytes)) }
        }
    }

    /// A post as a host reads it: its sender admitted first (the first byte's low bit: the attested
    /// main frame, or a sender the default policy refuses, whose post must get one short refusal
    /// and make no call), then the batch read by length.
    static func checkBatch(_ input: ArraySlice<UInt8>) {
        let limit = 8
        guard let first = input.first else { return }
        let bytes = input.dropFirst()
        let frame = first & 1 == 0 ? CallerFrame.mainFrame : CallerFrame.unattested
        withFreshKeystone(Data(input)) { keystone in
            if let refusal = keystone.refusal(of: frame) {
                if frame.isAttestedMainFrame || refusal.utf8.count > 160 { fail("the sender's admission went wrong", Data(input)) }
                return checkAnswer(refusal, Data(input))
            }
            var calls = 0
            let answers = Array(bytes).withUnsafeBufferPointer { batch in
                PostedText.answerBatch(batch, limit: limit) { method, arguments in
                    calls += 1
                    return keystone.handleMessage(String(decoding: method, as: UTF8.self), arguments: String(decoding: arguments, as: UTF8.self), frame: frame)
                }
            }
            if calls > limit { fail("a batch made more calls than its limit", Data(bytes)) }
            var rest = Substring(answers)
            var count = 0
            while !rest.isEmpty {
                count += 1
                guard let colon = rest.firstIndex(of: ":"), let length = Int(rest[..<colon]),
                    let end = rest.utf16.index(rest.index(after: colon), offsetBy: length, limitedBy: rest.endIndex)
                else { return fail("a batch's answers are not framed", Data(bytes)) }
                checkAnswer(String(rest[rest.index(after: colon)..<end]), Data(bytes))
                rest = rest[end...]
            }
            // One answer a message read (a call, or one that names no method), and one refusal for
            // the rest: never more than the limit and one.
            if count > limit + 1 { fail("a batch has more answers than its limit of messages and one refusal", Data(bytes)) }
        }
    }

    /// Runs `body` on a fresh Keystone, unloads the page, and waits until everything the input
    /// started has let go of the Keystone: each input ends with nothing of its own left alive, so
    /// a Keystone that outlives its input is a leak (a cycle), reported as such.
    static func withFreshKeystone(_ input: Data, _ body: (Keystone) -> Void) {
        // Its shared state, which every part of it and every task it started holds.
        weak var released: AnyObject?
        do {
            let (keystone, keep) = makeKeystone()
            released = keystone.sharedState
            body(keystone)
            keystone.pageDidUnload()  // cancels the input's running calls
            withExtendedLifetime(keep) {}
        }
        // The cancelled tasks end on other threads, moments later; on any machine, long before this.
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while released != nil, ContinuousClock.now < deadline { sched_yield() }
        if released != nil { fail("a Keystone, or a part of it, outlived the input that used it", input) }
    }

    /// A Keystone with every kind of interface, a page that has initialized, and three Swift calls
    /// (ids 1, 2 and 3) waiting for it; the objects to keep alive while the input runs.
    static func makeKeystone() -> (Keystone, [AnyObject]) {
        let keystone = Keystone(components: KeystoneComponents(evaluator: BatchingEvaluator(clock: ContinuousClock(), window: .zero)))
        try! keystone.register(Everything())
        try! keystone.register(Everything(), namespace: "a.b")
        keystone.serveBytes(over: URLSchemeTransport.keystone)
        let sink = Sink()
        keystone.attach(to: sink)
        _ = keystone.handlePrompt("_dsbridge=_dsb.dsinit", defaultText: #"{"data":{"runtime":"keystone"}}"#)
        let streams: [AnyObject] = [
            sink,
            Box(keystone.stream("page.values", of: JSONValue.self)),
            Box(keystone.stream("page.typed", of: Typed.self)),
            Box(keystone.stream("page.flags", of: Bool.self)),
        ]
        return (keystone, streams)
    }

    final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Renders every batch, as a web view host would, and drops it.
    final class Sink: EvaluationTarget, @unchecked Sendable {
        func evaluate(_ batch: ScriptBatch) { _ = batch.script.utf8.count }
    }

    static func checkAnswer(_ answer: String, _ input: Data) {
        struct Answer: Decodable {
            var code: Int
            var error: BridgeError?
        }
        guard let read = try? JSONDecoder().decode(Answer.self, from: Data(answer.utf8)) else {
            return fail("an answer is not the protocol's JSON", input)
        }
        if read.code != 0, read.error == nil { fail("a refusal carries no error object", input) }
        if let error = read.error, error.message.utf8.count > 600 { fail("an error message is long enough to quote a payload", input) }
    }

    static func split(_ bytes: ArraySlice<UInt8>) -> (String, String) {
        let separator = bytes.firstIndex(of: 0) ?? bytes.endIndex
        let second = separator < bytes.endIndex ? bytes[(separator + 1)...] : []
        return (String(decoding: bytes[..<separator], as: UTF8.self), String(decoding: second, as: UTF8.self))
    }

    static func fail(_ what: String, _ input: Data) {
        fatalError("\(what): \(String(decoding: input.prefix(200), as: UTF8.self))")
    }
}
