// Keystone+BuiltIns.swift — the `_dsb` namespace that dsbridge.js itself calls.
import Foundation

extension Keystone {
    /// The namespace of the methods dsbridge.js calls on its own; apps cannot register it.
    public static let builtInNamespace = "_dsb"

    private static let builtInMethods: Set<String> = [
        "dsinit", "hasNativeMethod", "returnValue", "closePage", "disableJavascriptDialogBlock", "cancel",
        "authorize", "declare",
    ]

    /// What `_dsb.hasNativeMethod` asks: `{"name": "ns.m", "type": "all" | "syn" | "asyn"}`. A
    /// kind it does not know matches nothing.
    struct MethodQuery: Decodable, Sendable {
        var name: String
        var type: String?

        var kind: MethodKindFilter? { type.map { MethodKindFilter(rawValue: $0) } ?? .all }
    }

    /// What Keystone's page runtime sends with `_dsb.dsinit`; dsbridge.js sends `null`.
    struct RuntimeAnnouncement: Decodable, Sendable {
        var runtime: String?
    }

    /// The answer to Keystone's runtime's `_dsb.dsinit`: `{"code":0,"data":"keystone"}`.
    static let deliversToKeystoneRuntime = PromptAnswer.success(Data(#""keystone""#.utf8))

    /// What `_dsb.cancel` asks: stop the running call behind `callback`.
    struct CancelRequest: Decodable, Sendable {
        var callback: String
    }

    /// What `_dsb.declare` says: the full names of the methods the page will call.
    struct Declaration: Decodable, Sendable {
        var methods: [String]
    }

    /// The built-ins that act on the page's state — its lifecycle, its calls, its window — which
    /// only the page's own main frame may call: Swift's calls and the page's running calls are the
    /// main frame's, and a subframe must not answer, cancel, close or re-announce them.
    private static let mainFrameBuiltIns: Set<String> = ["dsinit", "returnValue", "cancel", "closePage", "authorize", "declare"]

    /// Answers a call of the protocol's own namespace from `frame`; `callback` is what a refusal
    /// may release.
    func handleBuiltIn(_ name: MethodName, _ wrapper: CallWrapper, frame: CallerFrame, epoch: PageEpoch, callback: String?) -> String {
        if Self.mainFrameBuiltIns.contains(name.name), !frame.isAttestedMainFrame {
            return refuse(BridgeError(code: .notAllowed, message: "only the page's main frame may call \"\(name)\""), callback: nil)
        }
        switch name.name {
        case "authorize":
            return authorizePage(name, wrapper, frame: frame, epoch: epoch)
        case "declare":
            return answerBuiltIn(name, wrapper, callback, Declaration.self) { declaration in
                declare(declaration.methods, origin: frame.origin)
            }
        case "dsinit":
            return answerBuiltIn(name, wrapper, callback) {
                // Anything but Keystone's announcement (dsbridge.js sends null) is a plain page.
                let announced = try? components.serializer.decode(RuntimeAnnouncement?.self, fromData: wrapper.data)
                let runtime: PageRuntime = announced?.runtime == PageRuntime.keystone.rawValue ? .keystone : .dsbridge
                pageDidInitialize(runtime: runtime)
                // Keystone's runtime hears that every result will reach it through
                // `_keystone.deliver`, so it opens no global function per callback from now on.
                return runtime == .keystone ? Self.deliversToKeystoneRuntime : PromptAnswer.accepted
            }
        case "cancel":
            return answerBuiltIn(name, wrapper, callback, CancelRequest.self) { request in
                PromptAnswer.success(Data((cancelRunningCall(callback: request.callback) ? "true" : "false").utf8))
            }
        case "hasNativeMethod":
            return answerBuiltIn(name, wrapper, callback, MethodQuery.self) { query in
                PromptAnswer.success(Data((hasNativeMethod(query) ? "true" : "false").utf8))
            }
        case "returnValue":
            return answerBuiltIn(name, wrapper, callback, ReturnHeader.self) { header in
                receiveReturnValue(header, data: wrapper.data)
                return PromptAnswer.accepted
            }
        case "closePage":
            return answerBuiltIn(name, wrapper, callback) {
                components.closePage?()
                return PromptAnswer.accepted
            }
        case "disableJavascriptDialogBlock":
            // Legacy dialog behaviour of DSBridge-iOS: accepted and ignored.
            return answerBuiltIn(name, wrapper, callback) { PromptAnswer.accepted }
        default:
            return refuse(BridgeError(code: .notFound, message: "no method \"\(name)\""), callback: callback)
        }
    }

    /// Answers a built-in that takes no argument; built-ins are synchronous, as dsbridge.js calls them.
    private func answerBuiltIn(_ name: MethodName, _ wrapper: CallWrapper, _ callback: String?, _ answer: () -> String) -> String {
        guard wrapper.callbackStub == nil else {
            return refuse(BridgeError(code: .unsupportedCallKind, message: "\"\(name)\" is synchronous: call it without a callback"), callback: callback)
        }
        return answer()
    }

    /// Answers a built-in with its argument decoded from `data`.
    private func answerBuiltIn<Input: Decodable>(
        _ name: MethodName,
        _ wrapper: CallWrapper,
        _ callback: String?,
        _ input: Input.Type,
        _ answer: (Input) -> String
    ) -> String {
        answerBuiltIn(name, wrapper, callback) {
            do {
                return answer(try components.serializer.decode(Input.self, fromData: wrapper.data))
            } catch {
                let reason = describeDecodingFailure(error, in: "data")
                return refuse(BridgeError(code: .invalidArgument, message: "invalid argument for \"\(name)\": \(reason)"), callback: nil)
            }
        }
    }

    /// `_dsb.authorize`: asks the app's policy, in a task, whether the credentials in `data`
    /// authorise this page load; answers `true` or `false` through the callback.
    private func authorizePage(_ name: MethodName, _ wrapper: CallWrapper, frame: CallerFrame, epoch: PageEpoch) -> String {
        guard let callback = wrapper.callbackStub else {
            return refuse(BridgeError(code: .unsupportedCallKind, message: "\"\(name)\" is asynchronous: call it with a callback"), callback: nil)
        }
        let credentials: JSONValue
        do {
            credentials = try components.serializer.decode(JSONValue.self, fromData: wrapper.data)
        } catch {
            return refuse(BridgeError(code: .invalidArgument, message: "invalid argument for \"\(name)\": \(describeDecodingFailure(error, in: "data"))"), callback: callback)
        }
        let (policy, storage) = (components.policy, storage)
        let call = InboundCall(name: name, frame: frame, data: wrapper.data, callback: callback)
        let work = CallWork.single {
            let granted = try await policy.authorize(credentials, from: frame) && storage.update { $0.authorize(epoch, origin: frame.origin) }
            return Data((granted ? "true" : "false").utf8)
        }
        return InboundCallRunner(keystone: self, call: call, epoch: epoch).answer(running: work)
    }

    /// `_dsb.declare`: records the methods the page will call and answers those that are missing.
    private func declare(_ methods: [String], origin: String?) -> String {
        let (registry, resolver) = (components.registry, components.resolver)
        var declared = Set<String>()
        var missing: [String] = []
        for method in methods {
            guard let name = try? resolver.resolve(method) else {
                missing.append(method)
                continue
            }
            declared.insert(name.description)
            if case .found = registry.lookup(name) { continue }
            missing.append(method)
        }
        if case .failure(let error) = storage.update({ $0.declare(declared, origin: origin) }) { return refuse(error, callback: nil) }
        let encoded = (try? components.serializer.encode(missing)) ?? Data("[]".utf8)
        return PromptAnswer.success(encoded)
    }

    /// Whether a method of the kind asked for is registered, as DSBridge-iOS answers it.
    private func hasNativeMethod(_ query: MethodQuery) -> Bool {
        guard let name = try? components.resolver.resolve(query.name) else { return false }
        let kind: MethodKind
        if name.namespace == Self.builtInNamespace {
            guard Self.builtInMethods.contains(name.name) else { return false }
            kind = .sync
        } else if case .found(let method) = components.registry.lookup(name) {
            kind = method.kind
        } else {
            return false
        }
        return query.kind?.matches(kind) ?? false
    }
}
