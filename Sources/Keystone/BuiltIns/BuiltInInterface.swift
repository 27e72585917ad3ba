// BuiltInInterface.swift — the `_dsb` methods dsbridge.js and Keystone's runtime call on their own:
// an interface like any other, registered in a registry of its own.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The protocol's own methods, under ``MethodName/builtInNamespace``: the page's lifecycle
/// (`dsinit`, `closePage`), its answers to Swift's calls (`returnValue`), its calls' cancellation,
/// the questions it asks (`hasNativeMethod`, `declare`) and its authorisation (`authorize`).
///
/// The hub dispatches a `_dsb` call over its built-ins' registry (``BuiltInRegistry``, which holds
/// these beside those the rooms add) with the default dispatcher, exactly as an
/// app's call over the app's registry; no middleware sees it, and neither does an app's own
/// dispatcher, so the protocol answers as the protocol says whatever an app replaces. Each method
/// reaches the hub and the page load that called through its ``CallContext``.
struct BuiltInInterface: BridgeInterface {
    /// The built-ins that act on the page's state — its window, its grants — which only the page's
    /// own main frame may call.
    static let mainFrameOnly: Set<String> = ["closePage", "authorize", "declare"]
    /// The built-ins that act on the calling document's own calls and handlers: the main frame's,
    /// or a subframe document's the host delivers to (`CallerFrame.document`). Such a document
    /// announces its own runtime, answers Swift's calls made to it and cancels its own calls, and
    /// nobody else's; any other subframe may call none of them.
    static let ownDocumentOnly: Set<String> = ["dsinit", "returnValue", "cancel"]

    /// Whether `frame` may call the built-in `name`.
    static func admits(_ name: String, from frame: CallerFrame) -> Bool {
        if frame.isAttestedMainFrame { return true }
        if mainFrameOnly.contains(name) { return false }
        return !ownDocumentOnly.contains(name) || frame.subframeDocument != nil
    }

    /// The name of the page's answer to one of Swift's calls, which the hub takes straight from the
    /// wire to Swift's calls (``OutboundCalls``) rather than dispatching it: listed here for
    /// `hasNativeMethod` and as a synchronous method, so that an asynchronous call of it is refused.
    static let returnValue = "returnValue"

    func exposeMethods(to methods: inout MethodList) {
        methods.add("dsinit", BridgeMethod(invoker: .sync(Self.initialize)))
        methods.add(Self.returnValue, BridgeMethod(invoker: .sync(Self.answeredBeforeDispatch)))
        methods.sync("cancel") { (request: CancelRequest, context: CallContext) in
            try BuiltInPage.calling(context).hub.state.cancelRunningCall(callback: PageCallback(request.callback, in: context.frame.subframeDocument))
        }
        methods.sync("hasNativeMethod") { (query: MethodQuery, context: CallContext) in
            Self.hasNativeMethod(query, in: try BuiltInPage.calling(context).hub)
        }
        methods.sync("declare") { (declaration: Declaration, context: CallContext) in
            try Self.declare(declaration.methods, origin: context.frame.origin, in: BuiltInPage.calling(context).hub)
        }
        methods.sync("closePage") { (context: CallContext) in
            try BuiltInPage.calling(context).hub.components.closePage?()
            return Self.accepted
        }
        // Legacy dialog behaviour of DSBridge-iOS: accepted and ignored.
        methods.sync("disableJavascriptDialogBlock") { Self.accepted }
        methods.async("authorize") { (credentials: JSONValue, context: CallContext) in
            let page = try BuiltInPage.calling(context)
            let granted = try await page.hub.components.policy.authorize(credentials, from: context.frame)
            return granted && page.hub.state.authorize(page.pageLoad, origin: context.frame.origin)
        }
    }

    /// What a built-in that acts answers: `""`, as DSBridge answers (`{"code":0,"data":""}`).
    private static let accepted = ""

    /// `_dsb.dsinit`: the page's runtime has registered its handlers. Keystone's runtime announces
    /// itself (`{"runtime":"keystone"}`) and hears back `{"runtime":"keystone","bytes":…}`: every
    /// result will reach it through `_keystone.deliver`, so it opens no global function per
    /// callback from then on; and `bytes` says whether it has a byte channel, so it learns once how
    /// `Data` moves rather than finding out call by call; `marks` (only where the Keystone traces)
    /// that the page's `dsBridge.mark` goes on the trace. Anything else (dsbridge.js sends `null`)
    /// is a plain page, and hears `""`.
    private static func initialize(_ data: Data?, _ serializer: any JSONSerializer, _ context: CallContext) throws -> Data {
        let announced = try? serializer.decode(RuntimeAnnouncement?.self, fromData: data)
        let runtime: PageRuntime = announced?.runtime == PageRuntime.keystone.rawValue ? .keystone : .dsbridge
        let hub = try BuiltInPage.calling(context).hub
        hub.state.documentDidInitialize(runtime: runtime, frame: context.frame)
        guard runtime == .keystone else { return Data(#""""#.utf8) }
        let bytes = hub.announcesBytes ? "true" : "false"
        let marks = hub.components.tracing == nil ? "" : #","marks":true"#
        return Data((#"{"runtime":"keystone","bytes":"# + bytes + marks + "}").utf8)
    }

    /// `_dsb.returnValue` reaches Swift's calls before dispatch; a call that gets here was refused
    /// on its kind first.
    private static func answeredBeforeDispatch(_ data: Data?, _ serializer: any JSONSerializer, _ context: CallContext) throws -> Data {
        throw BridgeError(code: .failed, message: "an answer to a Swift call is taken before dispatch")
    }

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

    /// What `_dsb.cancel` asks: stop the running call behind `callback`.
    struct CancelRequest: Decodable, Sendable {
        var callback: String
    }

    /// What `_dsb.declare` says: the full names of the methods the page will call.
    struct Declaration: Decodable, Sendable {
        var methods: [String]
    }
}

extension BuiltInInterface {
    /// `_dsb.declare`: records in the hub's page load the methods the page will call, and
    /// answers those that are missing.
    fileprivate static func declare(_ methods: [String], origin: String?, in hub: any BuiltInHub) throws(BridgeError) -> [String] {
        let components = hub.components
        let (registry, resolver) = (components.registry, components.resolver)
        // A name no call could use is refused before anything is kept: what a page load holds
        // stays within BridgeLimits.declaredMethods names of BridgeLimits.methodNameBytes each.
        let longest = components.limits.methodNameBytes
        guard methods.allSatisfy({ $0.utf8.count <= longest }) else {
            throw BridgeError(code: .limitExceeded, message: "a declared name is longer than BridgeLimits.methodNameBytes (\(longest) bytes)")
        }
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
        try hub.state.declare(declared, origin: origin).get()
        return missing
    }

    /// Whether the hub has a method of the kind asked for, as DSBridge-iOS answers it; the
    /// built-ins are found in their own registry.
    fileprivate static func hasNativeMethod(_ query: MethodQuery, in hub: any BuiltInHub) -> Bool {
        let components = hub.components
        guard let name = try? components.resolver.resolve(query.name) else { return false }
        let registry = name.namespace == MethodName.builtInNamespace ? hub.builtIns : components.registry
        guard case .found(let method) = registry.lookup(name) else { return false }
        return query.kind?.matches(method.kind) ?? false
    }
}
