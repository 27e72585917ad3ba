// ScriptRenderer.swift — turns a batch of page messages into one JavaScript program.
import Foundation

/// Renders messages as the JavaScript that dsbridge.js 3.1.4 pages understand.
///
/// Each message becomes its own `try { … } catch (e) {}` statement, so a callback that throws does
/// not stop the rest of the batch. Every name and value enters the script as a JSON literal with
/// U+2028/U+2029 escaped — never as code — so nothing a value holds can end a literal or run.
/// The script is a few dozen bytes longer than the JSON it carries; nothing is percent-encoded.
public enum ScriptRenderer {
    /// The script for `messages`, in order.
    public static func render(_ messages: [PageMessage]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(messages.reduce(0) { $0 + estimatedSize(of: $1) })
        for message in messages {
            append(message, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ message: PageMessage, to out: inout [UInt8]) {
        switch message {
        case .result(let callback, let value, let complete):
            out.append(contentsOf: "try{window[".utf8)
            JSONText.appendQuoted(callback, to: &out)
            out.append(contentsOf: "](".utf8)
            JSONText.appendScriptLiteral(value.bytes, to: &out)
            out.append(contentsOf: ")}catch(e){}".utf8)
            if complete { appendDelete(callback, to: &out) }
        case .failure(let callback, let error):
            out.append(contentsOf: "try{window[".utf8)
            JSONText.appendQuoted(callback, to: &out)
            out.append(contentsOf: #"]("",{"code":"#.utf8)
            out.append(contentsOf: String(error.code.rawValue).utf8)
            out.append(contentsOf: #","message":"#.utf8)
            JSONText.appendQuoted(error.message, to: &out)
            out.append(contentsOf: "})}catch(e){}".utf8)
            appendDelete(callback, to: &out)
        case .completion(let callback), .release(let callback):
            appendDelete(callback, to: &out)
        case .call(let method, let callbackId, let arguments):
            out.append(contentsOf: #"try{window._handleMessageFromNative({"method":"#.utf8)
            JSONText.appendQuoted(method, to: &out)
            out.append(contentsOf: #","callbackId":"#.utf8)
            out.append(contentsOf: String(callbackId).utf8)
            out.append(contentsOf: #","data":"#.utf8)
            JSONText.appendQuoted(arguments.string, to: &out)
            out.append(contentsOf: "})}catch(e){}".utf8)
        }
    }

    private static func appendDelete(_ callback: String, to out: inout [UInt8]) {
        out.append(contentsOf: "delete window[".utf8)
        JSONText.appendQuoted(callback, to: &out)
        out.append(contentsOf: "];".utf8)
    }

    private static func estimatedSize(of message: PageMessage) -> Int {
        switch message {
        case .result(_, let value, _): value.bytes.count + 64
        case .call(_, _, let arguments): arguments.bytes.count + arguments.bytes.count / 8 + 96
        default: 96
        }
    }
}
