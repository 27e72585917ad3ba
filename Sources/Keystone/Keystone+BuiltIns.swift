// Keystone+BuiltIns.swift — the `_dsb` namespace that dsbridge.js itself calls.
import Foundation

extension Keystone {
    /// The namespace of the methods dsbridge.js calls on its own; apps cannot register it.
    public static let builtInNamespace = "_dsb"

    private static let builtInMethods: Set<String> = [
        "dsinit", "hasNativeMethod", "returnValue", "closePage", "disableJavascriptDialogBlock", "cancel",
    ]

    /// What `_dsb.hasNativeMethod` asks: `{"name": "ns.m", "type": "all" | "syn" | "asyn"}`.
    struct MethodQuery: Decodable, Sendable {
        var name: String
        var type: String?
    }

    /// What Keystone's page runtime sends with `_dsb.dsinit`; dsbridge.js sends `null`.
    struct RuntimeAnnouncement: Decodable, Sendable {
        var runtime: String?
    }

    /// What `_dsb.cancel` asks: stop the running call behind `callback`.
    struct CancelRequest: Decodable, Sendable {
        var callback: String
    }

    func handleBuiltIn(_ name: MethodName, _ wrapper: CallWrapper) -> String {
        switch name.name {
        case "dsinit":
            return answerBuiltIn(name, wrapper) {
                // Anything but Keystone's announcement (dsbridge.js sends null) is a plain page.
                let announced = try? components.serializer.decode(RuntimeAnnouncement?.self, fromData: wrapper.data)
                let runtime: PageRuntime = announced?.runtime == PageRuntime.keystone.rawValue ? .keystone : .dsbridge
                components.evaluator.pageDidInitialize(runtime: runtime)
                return PromptAnswer.accepted
            }
        case "cancel":
            return answerBuiltIn(name, wrapper, CancelRequest.self) { request in
                PromptAnswer.success(Data((cancelRunningCall(callback: request.callback) ? "true" : "false").utf8))
            }
        case "hasNativeMethod":
            return answerBuiltIn(name, wrapper, MethodQuery.self) { query in
                PromptAnswer.success(Data((hasNativeMethod(query) ? "true" : "false").utf8))
            }
        case "returnValue":
            return answerBuiltIn(name, wrapper, ReturnHeader.self) { header in
                receiveReturnValue(header, data: wrapper.data)
                return PromptAnswer.accepted
            }
        case "closePage":
            return answerBuiltIn(name, wrapper) {
                state.withLock { $0.closePageHandler }?()
                return PromptAnswer.accepted
            }
        case "disableJavascriptDialogBlock":
            // Legacy dialog behaviour of DSBridge-iOS: accepted and ignored.
            return answerBuiltIn(name, wrapper) { PromptAnswer.accepted }
        default:
            return refuse(BridgeError(code: .notFound, message: "no method \"\(name)\""), callbackStub: wrapper.callbackStub)
        }
    }

    /// Answers a built-in that takes no argument; built-ins are synchronous, as dsbridge.js calls them.
    private func answerBuiltIn(_ name: MethodName, _ wrapper: CallWrapper, _ answer: () -> String) -> String {
        guard wrapper.callbackStub == nil else {
            return refuse(BridgeError(code: .unsupportedCallKind, message: "\"\(name)\" is synchronous: call it without a callback"), callbackStub: wrapper.callbackStub)
        }
        return answer()
    }

    /// Answers a built-in with its argument decoded from `data`.
    private func answerBuiltIn<Input: Decodable>(
        _ name: MethodName,
        _ wrapper: CallWrapper,
        _ input: Input.Type,
        _ answer: (Input) -> String
    ) -> String {
        answerBuiltIn(name, wrapper) {
            do {
                return answer(try components.serializer.decode(Input.self, fromData: wrapper.data))
            } catch {
                let reason = describeDecodingFailure(error, in: "data")
                return refuse(BridgeError(code: .invalidArgument, message: "invalid argument for \"\(name)\": \(reason)"), callbackStub: nil)
            }
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
