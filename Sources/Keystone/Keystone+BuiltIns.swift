// Keystone+BuiltIns.swift — the `_dsb` namespace that dsbridge.js itself calls.
import Foundation

extension Keystone {
    /// The namespace of the methods dsbridge.js calls on its own; apps cannot register it.
    public static let builtInNamespace = "_dsb"

    private static let builtInMethods: Set<String> = [
        "dsinit", "hasNativeMethod", "returnValue", "closePage", "disableJavascriptDialogBlock",
    ]

    /// What `_dsb.hasNativeMethod` asks: `{"name": "ns.m", "type": "all" | "syn" | "asyn"}`.
    struct MethodQuery: Decodable, Sendable {
        var name: String
        var type: String?
    }

    func handleBuiltIn(_ name: MethodName, arguments: Data) -> String {
        switch name.name {
        case "dsinit":
            return answerBuiltIn(name, arguments, NoInput.self) { _ in
                components.evaluator.pageDidInitialize()
                return PromptAnswer.accepted
            }
        case "hasNativeMethod":
            return answerBuiltIn(name, arguments, MethodQuery.self) { query in
                PromptAnswer.success(Data((hasNativeMethod(query) ? "true" : "false").utf8))
            }
        case "returnValue":
            return answerBuiltIn(name, arguments, ReturnHeader.self) { header in
                receiveReturnValue(header, arguments: arguments)
                return PromptAnswer.accepted
            }
        case "closePage":
            return answerBuiltIn(name, arguments, NoInput.self) { _ in
                state.withLock { $0.closePageHandler }?()
                return PromptAnswer.accepted
            }
        case "disableJavascriptDialogBlock":
            // Legacy dialog behaviour of DSBridge-iOS: accepted and ignored.
            return answerBuiltIn(name, arguments, NoInput.self) { _ in PromptAnswer.accepted }
        default:
            return refuse(BridgeError(code: .notFound, message: "no method \"\(name)\""), callbackStub: nil)
        }
    }

    /// Decodes a built-in's argument and answers; built-ins are synchronous, as dsbridge.js calls them.
    private func answerBuiltIn<Input: Decodable>(
        _ name: MethodName,
        _ arguments: Data,
        _ input: Input.Type,
        _ answer: (Input) -> String
    ) -> String {
        let (stub, decoded) = CallEnvelope<Input>.decode(arguments, with: components.serializer)
        guard stub == nil else {
            return refuse(BridgeError(code: .unsupportedCallKind, message: "\"\(name)\" is synchronous: call it without a callback"), callbackStub: stub)
        }
        switch decoded {
        case .success(let value):
            return answer(value)
        case .failure(.malformedMessage(let reason)):
            return refuse(BridgeError(code: .malformedMessage, message: "the call of \"\(name)\" is not a {\"data\": …} object: \(reason)"), callbackStub: nil)
        case .failure(.invalidArgument(let reason)):
            return refuse(BridgeError(code: .invalidArgument, message: "invalid argument for \"\(name)\": \(reason)"), callbackStub: nil)
        }
    }

    /// Whether a method of the kind asked for is registered, as DSBridge-iOS answers it.
    private func hasNativeMethod(_ query: MethodQuery) -> Bool {
        guard let name = try? components.resolver.resolve(query.name) else { return false }
        let kind: MethodKind
        if name.namespace == Self.builtInNamespace {
            guard Self.builtInMethods.contains(name.name) else { return false }
            kind = .sync
        } else if case .found(let method) = components.dispatcher.lookup(name) {
            kind = method.kind
        } else {
            return false
        }
        switch query.type ?? "all" {
        case "all": return true
        case "syn": return kind == .sync
        case "asyn": return kind.isAsynchronous
        default: return false
        }
    }
}
