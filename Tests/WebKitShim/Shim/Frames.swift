// Frames.swift — the page's frames as WebKit's Cocoa API names them: every shim web view is in one
// web context whose web processes run the shim's extension (WebProcessExtension/), which tells each
// frame's scripts the frame's identifier and evaluates a script in the frame it is given.
#if !canImport(WebKit)
import CWebKitGTK
import Foundation
import KeystoneHost

@MainActor
enum ShimFrames {
    /// The web context of every shim web view (what a `WKProcessPool` shared by them all is), whose
    /// web processes load the shim's extension. Without it no frame has an identifier, and
    /// evaluating in a subframe fails as in a frame that has gone.
    static let context: OpaquePointer = {
        let context = webkit_web_context_new()!
        do {
            guard let file = Bundle.module.url(forResource: "wkshim-web-process-extension", withExtension: "so") else {
                throw BridgeError(code: .notFound, message: "the shim's web-process extension is missing from its bundle")
            }
            webkit_web_context_set_web_extensions_directory(context, try WebProcessExtensionFolder.make(holding: file).path)
        } catch {
            ShimFaults.raise("the shim's web-process extension cannot be offered: \(error)")
        }
        return context
    }()

    /// The content worlds named so far: a web process started from now on makes them first, so
    /// that its extension evaluates in the worlds the scripts run in (README.md: frames).
    static func worldsNamed(_ names: [String]) {
        let strings = names.sorted().map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let list = strings.map { UnsafePointer($0) }
        let variant = list.withUnsafeBufferPointer { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
        webkit_web_context_set_web_extensions_initialization_user_data(context, variant)
    }

    /// The identifiers of frames their scripts first named otherwise (``FrameScript/FrameName``),
    /// the latest 4,096.
    private static var bound: [String: UInt64] = [:]
    private static var boundOrder: [String] = []

    /// What waits for a name to be bound (``identifier(of:_:)``).
    private static var waiting: [String: [@MainActor (UInt64?) -> Void]] = [:]

    /// A frame script named its frame `name` until it learned the frame's `identifier`.
    static func bind(_ name: String, to identifier: UInt64) {
        guard bound.updateValue(identifier, forKey: name) == nil else { return }
        boundOrder.append(name)
        if boundOrder.count > 4096 { bound.removeValue(forKey: boundOrder.removeFirst()) }
        for body in waiting.removeValue(forKey: name) ?? [] { body(identifier) }
    }

    static func identifier(boundTo name: String) -> UInt64? {
        bound[name]
    }

    /// Hands `body` the identifier of `frame`: at once when its script knew it, or as soon as the
    /// page world's script has told the frame's other worlds (a moment after a message WebKit
    /// would have named the frame in); `nil` for a frame no script named, or whose name is not
    /// bound within two seconds (it went first).
    static func identifier(of frame: WKFrameInfo, _ body: @escaping @MainActor (UInt64?) -> Void) {
        guard case .pending(let name)? = frame.frameName, bound[name] == nil else { return body(frame.frameIdentifier) }
        waiting[name, default: []].append(body)
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
            MainActor.assumeIsolated {
                for body in waiting.removeValue(forKey: name) ?? [] { body(nil) }
            }
        }
    }

    /// What the extension answers.
    enum Outcome {
        /// The walked value (JSValues' tagged JSON).
        case walked(String)
        /// An exception: its line, column, source address and message.
        case exception(line: Int, column: Int, source: String, message: String)
        /// The frame is not there (any more).
        case frameGone
        /// The value has no property-list form.
        case unsupported
    }

    private static let evaluateMessage = "wkshim.evaluate"

    /// Evaluates `script` in the frame `identifier` of `view`, in the world `world` (`nil`: the
    /// page's), and hands `completion` the outcome.
    static func evaluate(_ script: String, inFrame identifier: UInt64, world: String?, of view: OpaquePointer, completion: @escaping @MainActor (Outcome) -> Void) {
        let parameters = [
            g_variant_new_uint64(guint64(identifier)), g_variant_new_string(world ?? ""), g_variant_new_string(script), g_variant_new_string("(" + JSValues.walk + ")"),
        ].withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 4) }
        let box = Unmanaged.passRetained(Reply(completion)).toOpaque()
        webkit_web_view_send_message_to_page(
            view, webkit_user_message_new(evaluateMessage, parameters), nil,
            { source, result, data in
                guard let data else { return }
                var error: OpaquePointer?
                let answer = webkit_web_view_send_message_to_page_finish(ks_web_view_of(source), result, &error)
                if let error { g_error_free(error) }
                let outcome = answer.map(ShimFrames.outcome) ?? .frameGone
                answer.map { g_object_unref(UnsafeMutableRawPointer($0)) }
                MainActor.assumeIsolated { Unmanaged<Reply>.fromOpaque(data).takeRetainedValue().completion(outcome) }
            }, box)
    }

    /// The extension's reply, `(us)`; a reply of no such form (the web process went) is a frame
    /// that has gone.
    private nonisolated static func outcome(_ reply: OpaquePointer) -> Outcome {
        guard let parameters = webkit_user_message_get_parameters(reply), String(cString: g_variant_get_type_string(parameters)) == "(us)" else { return .frameGone }
        let status = g_variant_get_child_value(parameters, 0)
        let text = g_variant_get_child_value(parameters, 1)
        defer {
            g_variant_unref(status)
            g_variant_unref(text)
        }
        var length: gsize = 0
        let body = g_variant_get_string(text, &length).map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(length)), as: UTF8.self) } ?? ""
        switch g_variant_get_uint32(status) {
        case 0: return .walked(body)
        case 1:
            let parts = body.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4 else { return .exception(line: 0, column: 0, source: "", message: body) }
            return .exception(line: Int(parts[0]) ?? 0, column: Int(parts[1]) ?? 0, source: String(parts[2]), message: String(parts[3]))
        case 3: return .unsupported
        default: return .frameGone
        }
    }

    private final class Reply {
        let completion: @MainActor (Outcome) -> Void

        init(_ completion: @escaping @MainActor (Outcome) -> Void) {
            self.completion = completion
        }
    }
}
#endif
