// CallAnswer.swift — the hub's answer to one call from the page, before it is written as text.
import Foundation
import KeystoneEvaluator

/// The hub's answer to one call from the page (``BridgeHub/handleCall(_:data:callback:acceptsInlineAnswer:frame:)``),
/// as a value: what a wire other than DSBridge's prompt (WebViewJavascriptBridge's) reads, and what
/// ``text`` writes for a `prompt` or a script message.
public enum CallAnswer: Sendable, Hashable {
    /// The call's result, in the answer: a synchronous call's, or an asynchronous call's that took
    /// it inline (``InboundCall/acceptsInlineAnswer``, where the rule is kept). The JSON bytes of
    /// the value; empty when the method returns nothing.
    case result(Data, inline: Bool)
    /// An asynchronous call was accepted: its results come through its callback.
    case accepted
    /// The call was refused or failed while the page waited.
    case failure(BridgeError)
    /// The call's parts are to come over the host's byte channel: the page sends them under the
    /// ticket at this address, and the call's outcome comes through its callback (Keystone's
    /// runtime only, which announced them with `"_dsparts"`).
    case ticket(String)

    /// The text a bridge `prompt` (or a script message's reply) returns to the page: DSBridge's
    /// `{"code":0,"data":…}`, with `"inline":true` for a result in an asynchronous call's answer,
    /// `"void":true` for no value, and `{"code":-1,…,"error":{…}}` for a failure.
    public var text: String {
        switch self {
        case .result(let value, inline: false): PromptAnswer.success(value)
        case .result(let value, inline: true): PromptAnswer.inline(value)
        case .accepted: PromptAnswer.accepted
        case .failure(let error): PromptAnswer.failure(error)
        case .ticket(let address): #"{"code":0,"data":"","ticket":"# + JSONText(quoting: address).string + "}"
        }
    }
}

extension CallAnswer {
    /// Reads the text a hub answered a call with, for a hub that answers only with text
    /// (``BridgeHub/handleMessage(_:arguments:frame:)``); `calledWithCallback` says whether the
    /// call had a callback, which tells an accepted call from a result of `""` (a call with a
    /// callback is answered `""` only when accepted). Text that is not a
    /// hub's answer is a failure that echoes none of it.
    init(text: String, calledWithCallback: Bool) {
        self =
            Self.read(Data(text.utf8), calledWithCallback: calledWithCallback)
            ?? .failure(BridgeError(code: .failed, message: "the hub's answer does not decode"))
    }

    private static func read(_ text: Data, calledWithCallback: Bool) -> CallAnswer? {
        let members = text.withUnsafeBytes { raw -> [Int: Data]? in
            var found: [Int: Data] = [:]
            let (fault, isTooDeep) = JSONObjectMembers.scan(raw, keys: keys, maximumDepth: 512) { key, value in
                found[key] = Data(raw[value])
            }
            return fault == nil && !isTooDeep ? found : nil
        }
        guard let members, let code = members[0] else { return nil }
        let isTrue = { (key: Int) in members[key] == Data("true".utf8) }
        if code != Data("0".utf8) {
            let error = members[4].flatMap { try? DefaultJSONSerializer().decode(BridgeError.self, from: $0) }
            return .failure(error ?? BridgeError(code: .failed, message: "the call failed"))
        }
        if let ticket = members[5], let address = try? DefaultJSONSerializer().decode(String.self, from: ticket) { return .ticket(address) }
        if isTrue(3) { return .result(Data(), inline: isTrue(2)) }
        if isTrue(2) { return .result(members[1] ?? Data(), inline: true) }
        let data = members[1] ?? Data("null".utf8)
        return calledWithCallback && data == Data(#""""#.utf8) ? .accepted : .result(data, inline: false)
    }

    /// `code`, `data`, `inline`, `void`, `error`, `ticket`, in that order.
    private static let keys = ["code", "data", "inline", "void", "error", "ticket"].map { Array($0.utf8) }
}
