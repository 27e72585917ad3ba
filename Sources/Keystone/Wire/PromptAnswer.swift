// PromptAnswer.swift — the texts a bridge `prompt` returns to the page.
import Foundation

/// The JSON texts returned from the page's `prompt`, built straight from bytes.
enum PromptAnswer {
    /// `{"code":0,"data":<value>}` around already-encoded JSON; for no value (`Invoker/noResult`),
    /// `{"code":0,"data":"","void":true}`: dsbridge.js reads `""`, as DSBridge answers, and
    /// Keystone's runtime `undefined`.
    static func success(_ value: Data) -> String {
        value.isEmpty ? nothing : wrapping(value, closing: successEnd)
    }

    /// `{"code":0,"data":<value>,"inline":true}`: a result in the call's own answer, as
    /// ``InboundCall/acceptsInlineAnswer`` says when.
    static func inline(_ value: Data) -> String {
        value.isEmpty ? inlineNothing : wrapping(value, closing: inlineEnd)
    }

    private static let nothing = #"{"code":0,"data":"","void":true}"#
    private static let inlineNothing = #"{"code":0,"data":"","inline":true,"void":true}"#

    /// `{"code":0,"data":` + `value` + `closing`, written straight into the string's storage: one
    /// allocation, one copy of the value.
    private static func wrapping(_ value: Data, closing: [UInt8]) -> String {
        let count = successPrefix.count + value.count + closing.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyBytes(from: successPrefix)
            value.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: raw[successPrefix.count..<(successPrefix.count + value.count)]).copyMemory(from: bytes)
            }
            UnsafeMutableRawBufferPointer(rebasing: raw[(count - closing.count)...]).copyBytes(from: closing)
            return count
        }
    }

    private static let successPrefix: [UInt8] = Array(#"{"code":0,"data":"#.utf8)
    private static let successEnd: [UInt8] = Array("}".utf8)
    private static let inlineEnd: [UInt8] = Array(#","inline":true}"#.utf8)

    /// The answer to an asynchronous call that was accepted; its results come through the callback.
    static let accepted = #"{"code":0,"data":""}"#

    /// `{"code":-1,"data":"","error":{"code":…,"message":…}}`: what DSBridge answers for a call it
    /// did not handle, plus an error object that pages written for dsbridge.js ignore.
    static func failure(_ error: BridgeError) -> String {
        var out = [UInt8]()
        out.append(contentsOf: #"{"code":-1,"data":"","error":{"code":"#.utf8)
        out.append(contentsOf: String(error.code.rawValue).utf8)
        out.append(contentsOf: #","message":"#.utf8)
        JSONText.appendQuoted(error.message, to: &out)
        out.append(contentsOf: "}}".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}

extension BridgeError {
    /// The text a bridge `prompt` returns for this error: `{"code":-1,"data":"","error":{…}}`.
    /// Hosts that refuse a call themselves answer with it.
    package var promptAnswer: String { PromptAnswer.failure(self) }
}
