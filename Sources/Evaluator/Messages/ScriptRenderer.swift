// ScriptRenderer.swift — turns a batch of page messages into one JavaScript program.
import Foundation
import KeystoneInterfaces

/// Renders messages as JavaScript for the page's runtime.
///
/// For a dsbridge.js page, each message becomes its own `try { … } catch (e) {}` statement that
/// calls `window.dscbN` or `window._handleMessageFromNative`, so a callback that throws does not
/// stop the rest of the batch. For Keystone's runtime, the whole batch is one call of
/// `window._keystone.deliver([...])` with structured messages, which the runtime dispatches one by
/// one, each in its own `try`.
///
/// Every name and value enters the script as a JSON literal with U+2028/U+2029 escaped — never as
/// code — so nothing a value holds can end a literal or run; an object key spelling `__proto__` is
/// written as a computed key, so every value arrives as `JSON.parse` would give it. The script is a few dozen bytes per
/// message longer than the JSON it carries; nothing is percent-encoded.
package enum ScriptRenderer {
    /// The script for `messages`, in order, written for `runtime`.
    package static func render(_ messages: [PageMessage], for runtime: PageRuntime = .dsbridge) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(messages.reduce(32) { $0 + estimatedSize(of: $1) })
        switch runtime {
        case .dsbridge:
            for message in messages {
                appendStatement(message, to: &out)
            }
        case .keystone:
            out.append(contentsOf: "try{window._keystone.deliver([".utf8)
            var index = messages.startIndex
            while index < messages.endIndex {
                if index > messages.startIndex { out.append(UInt8(ascii: ",")) }
                index = appendRun(of: messages, from: index, to: &out)
            }
            out.append(contentsOf: "])}catch(e){}".utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: dsbridge.js 3.1.4

    private static func appendStatement(_ message: PageMessage, to out: inout [UInt8]) {
        switch message {
        case .result(let callback, let value, let complete):
            out.append(contentsOf: "try{window[".utf8)
            JSONText.appendQuoted(callback, to: &out)
            out.append(contentsOf: "](".utf8)
            JSONText.appendScriptLiteral(value, to: &out)
            out.append(contentsOf: ")}catch(e){}".utf8)
            if complete { appendDelete(callback, to: &out) }
        case .failure(let callback, let error):
            out.append(contentsOf: "try{window[".utf8)
            JSONText.appendQuoted(callback, to: &out)
            out.append(contentsOf: #"]("","#.utf8)
            appendError(error, to: &out)
            out.append(contentsOf: ")}catch(e){}".utf8)
            appendDelete(callback, to: &out)
        case .noResult(let callback):
            out.append(contentsOf: "try{window[".utf8)
            JSONText.appendQuoted(callback, to: &out)
            out.append(contentsOf: #"]("")}catch(e){}"#.utf8)
            appendDelete(callback, to: &out)
        case .completion(let callback), .release(let callback):
            appendDelete(callback, to: &out)
        case .withParts(let message, _):
            // Never sent to dsbridge.js (the hub writes each part as base64 in its place instead).
            appendStatement(message, to: &out)
        case .call(let method, let callbackId, let arguments):
            appendHandleMessage(method, callbackId, arguments, durable: nil, to: &out)
        case .durable(.call(let method, let callbackId, let arguments), let id):
            appendHandleMessage(method, callbackId, arguments, durable: id, to: &out)
        case .durable(let message, _):
            appendStatement(message, to: &out)
        case .event, .cancel:
            break  // dsbridge.js has no event listeners, and no way to stop a handler
        }
    }

    /// `window._handleMessageFromNative({"method":…,"callbackId":…,"data":"[…]"})`, with the
    /// durable call's `"durable":…` (which dsbridge.js ignores) when it is one.
    private static func appendHandleMessage(_ method: String, _ callbackId: Int, _ arguments: JSONText, durable: String?, to out: inout [UInt8]) {
        out.append(contentsOf: "try{window._handleMessageFromNative(".utf8)
        appendCallHead(method, callbackId, to: &out)
        out.append(contentsOf: #","data":"#.utf8)
        JSONText.appendQuoted(arguments.string, to: &out)
        if let durable {
            out.append(contentsOf: #","durable":"#.utf8)
            JSONText.appendQuoted(durable, to: &out)
        }
        out.append(contentsOf: "})}catch(e){}".utf8)
    }

    private static func appendDelete(_ callback: String, to out: inout [UInt8]) {
        out.append(contentsOf: "delete window[".utf8)
        JSONText.appendQuoted(callback, to: &out)
        out.append(contentsOf: "];".utf8)
    }

    // MARK: Keystone's page runtime

    /// Appends the message at `start`, or, when results for one callback follow each other, all of
    /// them as one `{"callback":…,"values":[…]}` (a stream's flood costs a few bytes per result
    /// beyond its JSON); returns the index after what it appended.
    private static func appendRun(of messages: [PageMessage], from start: Int, to out: inout [UInt8]) -> Int {
        guard case .result(let callback, _, false) = messages[start], start + 1 < messages.endIndex,
            case .result(callback, _, _) = messages[start + 1]
        else {
            appendStructured(messages[start], to: &out)
            return start + 1
        }
        appendCallbackKey(callback, to: &out)
        out.append(contentsOf: #","values":["#.utf8)
        var index = start
        var isComplete = false
        while index < messages.endIndex, !isComplete, case .result(callback, let value, let complete) = messages[index] {
            if index > start { out.append(UInt8(ascii: ",")) }
            JSONText.appendScriptLiteral(value, to: &out)
            isComplete = complete
            index += 1
        }
        out.append(contentsOf: (isComplete ? #"],"complete":true}"# : "]}").utf8)
        return index
    }

    /// One message as a JSON object for `_keystone.deliver`.
    private static func appendStructured(_ message: PageMessage, to out: inout [UInt8]) {
        switch message {
        case .result(let callback, let value, let complete):
            appendCallbackKey(callback, to: &out)
            out.append(contentsOf: #","value":"#.utf8)
            JSONText.appendScriptLiteral(value, to: &out)
            out.append(contentsOf: (complete ? #","complete":true}"# : "}").utf8)
        case .failure(let callback, let error):
            appendCallbackKey(callback, to: &out)
            out.append(contentsOf: #","error":"#.utf8)
            appendError(error, to: &out)
            out.append(UInt8(ascii: "}"))
        case .noResult(let callback):
            // `value` for a callback the runtime did not open (a co-loaded dsbridge.js's), `void`
            // for its own.
            appendCallbackKey(callback, to: &out)
            out.append(contentsOf: #","value":"","void":true,"complete":true}"#.utf8)
        case .completion(let callback):
            appendCallbackKey(callback, to: &out)
            out.append(contentsOf: #","complete":true}"#.utf8)
        case .release(let callback):
            appendCallbackKey(callback, to: &out)
            out.append(contentsOf: #","release":true}"#.utf8)
        case .call(let method, let callbackId, let arguments):
            appendCallHead(method, callbackId, to: &out)
            out.append(contentsOf: #","args":"#.utf8)
            JSONText.appendScriptLiteral(arguments, to: &out)
            out.append(UInt8(ascii: "}"))
        case .withParts(let message, let parts):
            appendStructured(message, to: &out)
            out.removeLast()  // the message's closing brace: its parts go inside it
            appendParts(parts, to: &out)
            out.append(UInt8(ascii: "}"))
        case .durable(let message, let id):
            appendStructured(message, to: &out)
            out.removeLast()  // the message's closing brace: its id goes inside it
            out.append(contentsOf: #","durable":"#.utf8)
            JSONText.appendQuoted(id, to: &out)
            out.append(UInt8(ascii: "}"))
        case .cancel(let callbackId):
            out.append(contentsOf: #"{"cancel":"#.utf8)
            out.append(contentsOf: String(callbackId).utf8)
            out.append(UInt8(ascii: "}"))
        case .event(let name, let value):
            out.append(contentsOf: #"{"event":"#.utf8)
            JSONText.appendQuoted(name, to: &out)
            out.append(contentsOf: #","value":"#.utf8)
            JSONText.appendScriptLiteral(value, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `,"parts":{"marker":…,"sizes":[…],"ticket":…}`, or with `"base64":[…]` in place of the ticket.
    private static func appendParts(_ parts: MessageParts, to out: inout [UInt8]) {
        out.append(contentsOf: #","parts":{"marker":"#.utf8)
        JSONText.appendQuoted(parts.marker, to: &out)
        out.append(contentsOf: #","sizes":["#.utf8)
        for (index, size) in parts.sizes.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: String(size).utf8)
        }
        out.append(UInt8(ascii: "]"))
        switch parts.source {
        case .ticket(let address):
            out.append(contentsOf: #","ticket":"#.utf8)
            JSONText.appendQuoted(address, to: &out)
        case .inline(let parts):
            out.append(contentsOf: #","base64":["#.utf8)
            for (index, part) in parts.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: part.base64EncodedData())
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"method":…,"callbackId":…`: how both dialects begin a call of a page handler.
    private static func appendCallHead(_ method: String, _ callbackId: Int, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"method":"#.utf8)
        JSONText.appendQuoted(method, to: &out)
        out.append(contentsOf: #","callbackId":"#.utf8)
        out.append(contentsOf: String(callbackId).utf8)
    }

    private static func appendCallbackKey(_ callback: String, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"callback":"#.utf8)
        JSONText.appendQuoted(callback, to: &out)
    }

    /// `{"code":…,"message":…}`
    private static func appendError(_ error: BridgeError, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"code":"#.utf8)
        out.append(contentsOf: String(error.code.rawValue).utf8)
        out.append(contentsOf: #","message":"#.utf8)
        JSONText.appendQuoted(error.message, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func estimatedSize(of message: PageMessage) -> Int {
        switch message {
        case .result(_, let value, _), .event(_, let value): value.bytes.count + 64
        case .call(_, _, let arguments): arguments.bytes.count + arguments.bytes.count / 8 + 96
        case .withParts(let message, let parts):
            estimatedSize(of: message) + 96 + parts.sizes.count * 12 + parts.inlineBytes
        case .durable(let message, let id): estimatedSize(of: message) + id.utf8.count + 16
        default: 96
        }
    }
}

extension MessageParts {
    /// How long the parts written in the message are.
    fileprivate var inlineBytes: Int {
        guard case .inline = source else { return 0 }
        return sizes.reduce(0) { $0 + $1 / 3 * 4 + 8 }
    }
}
