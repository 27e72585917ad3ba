// JavaScriptPage+Natives.swift — the C functions a JavaScriptPage's window calls into Swift with:
// each finds its document by its context, and runs on the page's queue.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// The natives every document's window gets, by name.
let nativeFunctions: [(String, JSObjectCallAsFunctionCallback)] = [
    ("prompt", nativePrompt), ("send", nativeSend), ("fetch", nativeFetch), ("schedule", nativeSchedule), ("console", nativeConsole),
    ("error", nativeError), ("settled", nativeSettled), ("result", nativeResult), ("ended", nativeEnded), ("handle", nativeHandle),
    ("handleLater", nativeHandleLater), ("heard", nativeHeard), ("lastAnswer", nativeLastAnswer), ("navigate", nativeNavigate),
    ("storage", nativeStorage),
]

/// The arguments of a native call, read in its document.
private struct Arguments {
    let document: PageDocument
    let page: JavaScriptPage
    let context: JSContextRef
    let values: [JSValueRef?]

    init?(_ context: JSContextRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?) {
        guard let context, let document = PageDocument.document(of: context), let page = document.page else { return nil }
        self.document = document
        self.page = page
        self.context = context
        values = arguments.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    func string(_ index: Int) -> String? {
        guard index < values.count, let value = values[index], JSValueIsString(context, value) else { return nil }
        return document.text(value)
    }

    func number(_ index: Int) -> Double {
        index < values.count ? JSValueToNumber(context, values[index], nil) : .nan
    }

    func int(_ index: Int) -> Int {
        let value = number(index)
        return value.isFinite ? Int(value) : 0
    }

    func parts(_ index: Int) -> [Data] { index < values.count ? document.parts(values[index]) : [] }

    var undefined: JSValueRef? { JSValueMakeUndefined(context) }
}

func nativePrompt(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments) else { return nil }
    let frame = call.page.frame
    let answer = call.page.hub.refusal(of: frame) ?? call.page.hub.handlePrompt(call.string(0) ?? "", defaultText: call.string(1), frame: frame)
    call.document.lastAnswer = answer
    if call.string(0) == BridgePrompt.prefix + "_dsb.dsinit" { call.document.announcement = answer }
    guard let answer else { return JSValueMakeNull(context) }
    return call.document.string(answer)
}

func nativeSend(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments) else { return nil }
    let frame = call.page.frame
    let answer = call.page.hub.refusal(of: frame) ?? call.page.hub.handleMessage(call.string(0) ?? "", arguments: call.string(1) ?? "", frame: frame)
    call.document.lastAnswer = answer
    return call.document.string(answer)
}

func nativeFetch(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), count > 3, let done = JSValueToObject(context, call.values[3], nil) else { return nil }
    let body = JSValueIsObject(context, call.values[2]) ? call.document.bytes(call.values[2]) : Data()
    call.page.fetch(method: call.string(0) ?? "GET", url: call.string(1) ?? "", body: body, done: done, in: call.document)
    return call.undefined
}

func nativeSchedule(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments) else { return nil }
    if call.document.loadingTimers != nil {
        call.document.loadingTimers?.append((call.int(0), call.number(1)))
    } else {
        call.page.schedule(timer: call.int(0), after: call.number(1), in: call.document)
    }
    return call.undefined
}

func nativeConsole(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments) else { return nil }
    call.page.lines.append(call.string(0) ?? "")
    return call.undefined
}

func nativeError(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments) else { return nil }
    call.page.lines.append("error: " + (call.string(0) ?? ""))
    return call.undefined
}

/// `settled(id, fulfilled, json, parts)`: call `id` settled.
func nativeSettled(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), let pending = call.document.calls.removeValue(forKey: call.int(0)) else { return nil }
    let json = call.string(2) ?? "null"
    if call.number(1) != 0 {
        pending.end(.success((json, call.parts(3))))
    } else {
        let error = (try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(json.utf8))) ?? .null
        pending.end(.failure(JavaScriptPage.error(error)))
    }
    return call.undefined
}

/// `result(id, json, parts)`: one result of call `id`.
func nativeResult(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), case .results(let result, _) = call.document.calls[call.int(0)] else { return nil }
    result(call.string(1) ?? "null", call.parts(2))
    return call.undefined
}

/// `ended(id, errorJSON)`: call `id` ended, with an error unless `null`.
func nativeEnded(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), let pending = call.document.calls.removeValue(forKey: call.int(0)) else { return nil }
    guard let json = call.string(1) else {
        pending.end(.success(("null", [])))
        return call.undefined
    }
    pending.end(.failure(JavaScriptPage.error((try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(json.utf8))) ?? .null)))
    return call.undefined
}

/// `handle(number, json, parts)`: Swift's synchronous handler `number`; its answer's JSON.
func nativeHandle(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), case .sync(let handler) = call.page.handlers[call.int(0)] else { return nil }
    return call.document.string(handler(call.string(1) ?? "[]", call.parts(2)))
}

/// `handleLater(number, reply, json, parts, durable)`: Swift's asynchronous handler `number`.
func nativeHandleLater(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), case .async(let handler) = call.page.handlers[call.int(0)] else { return nil }
    handler(call.string(2) ?? "[]", call.parts(3), PageReply(page: call.page, document: call.document, number: call.int(1)), call.string(4))
    return call.undefined
}

/// `heard(number, json, parts)`: an event for Swift's listener `number`.
func nativeHeard(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), case .listener(let listener) = call.page.handlers[call.int(0)] else { return nil }
    listener(call.string(1) ?? "null", call.parts(2))
    return call.undefined
}

/// `lastAnswer()`: the answer to the document's last prompt or message, as the page read it.
func nativeLastAnswer(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments) else { return nil }
    return call.document.lastAnswer.map { call.document.string($0) } ?? JSValueMakeNull(context)
}

/// `navigate(address)`: the page loads a new document at `address`, after the script that asked.
func nativeNavigate(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments) else { return nil }
    call.page.navigateLater(to: call.string(0) ?? "")
    return call.undefined
}

/// `storage(kind, operation, key, value)`: the page's session or local storage (`get`, `set` with
/// `null` to remove, `clear`).
func nativeStorage(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let call = Arguments(context, count, arguments), let kind = call.string(0), let key = call.string(2) else { return nil }
    let page = call.page.parent ?? call.page
    let area = kind + " " + call.page.origin
    switch call.string(1) {
    case "get":
        return page.storage[area]?[key].map { call.document.string($0) } ?? JSValueMakeNull(context)
    case "set":
        page.storage[area, default: [:]][key] = call.string(3)
    default:
        page.storage[area] = nil
    }
    return call.undefined
}
