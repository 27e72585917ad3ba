// FrameScript.swift — how the shim tells which frame and world prompted or posted: WebKit's Cocoa
// API reports a `WKFrameInfo` with every dialog and script message, WebKitGTK's reports none. The
// shim's own script runs first in every frame and world, at document start, before any page
// script: it wraps `prompt`, `alert`, `confirm` and the message handlers' `postMessage` so each
// carries a tag only the shim can write (a secret no page script can read, then the world, whether
// the frame is the main frame, and its origin, as the frame itself saw them at its start).
#if !canImport(WebKit)
import CWebKitGTK
import Foundation

@MainActor
enum FrameScript {
    /// Known to the shim's scripts and the app's process only: never in the page's reach.
    static let secret = "\u{1}wkshim-" + UUID().uuidString + "\u{1}"

    /// The name of the hidden handler of `world`, which gives the world `window.webkit`.
    static func hiddenHandler(world: String?) -> String {
        "wkshim" + secret.filter { $0.isLetter || $0.isNumber } + (world.map { "-" + $0.filter { $0.isLetter || $0.isNumber } } ?? "")
    }

    /// The frame script of `world`.
    static func source(world: String?) -> String {
        let settings = [
            "secret": secret, "world": world ?? "", "hidden": hiddenHandler(world: world),
        ]
        let json = String(decoding: try! JSONSerialization.data(withJSONObject: settings, options: [.sortedKeys]), as: UTF8.self)
        return "(" + body + ")(" + json + ");"
    }

    private static let body = #"""
        function (settings) {
          'use strict';
          var apply = Reflect.apply, toText = String, getPrototypeOf = Object.getPrototypeOf;
          var tag = settings.secret + settings.world + '\n' + (window === window.top ? 'main' : 'sub') + '\n' + toText(self.origin) + '\n';
          function text(value) { return value === undefined ? '' : toText(value); }
          var prompt = window.prompt, alert = window.alert, confirm = window.confirm;
          window.prompt = function prompt_(message, defaultText) { return apply(prompt, window, [tag + text(message), text(defaultText)]); };
          window.alert = function alert_(message) { return apply(alert, window, [tag + text(message)]); };
          window.confirm = function confirm_(message) { return apply(confirm, window, [tag + text(message)]); };
          var handlers = window.webkit && window.webkit.messageHandlers;
          var hidden = handlers && handlers[settings.hidden];
          if (hidden) {
            var prototype = getPrototypeOf(hidden), post = prototype.postMessage;
            prototype.postMessage = function postMessage(body) { return apply(post, this, [[tag, body]]); };
          }
        }
        """#

    /// A dialog's text: the frame and world that showed it, and the page's own text. `nil` when
    /// the text carries no tag.
    static func untag(text: String) -> (world: String?, isMainFrame: Bool, origin: OriginParts, text: String)? {
        guard text.hasPrefix(secret) else { return nil }
        let lines = text.dropFirst(secret.count).split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard lines.count == 4 else { return nil }
        return (lines[0].isEmpty ? nil : String(lines[0]), lines[1] == "main", OriginParts(serialized: String(lines[2])), String(lines[3]))
    }

    /// A script message's value as the frame script posted it, `[tag, body]`: its frame and world,
    /// and its body converted to the property-list types. `nil` when the value carries no tag.
    static func untag(_ value: OpaquePointer) -> (world: String?, isMainFrame: Bool, origin: OriginParts, body: Any)? {
        guard jsc_value_is_array(value) != 0, let first = jsc_value_object_get_property_at_index(value, 0),
            let second = jsc_value_object_get_property_at_index(value, 1)
        else { return nil }
        defer {
            g_object_unref(UnsafeMutableRawPointer(first))
            g_object_unref(UnsafeMutableRawPointer(second))
        }
        guard jsc_value_is_string(first) != 0, let tag = JSValues.text(first), let parsed = untag(text: tag), parsed.text.isEmpty else { return nil }
        return (parsed.world, parsed.isMainFrame, parsed.origin, JSValues.propertyList(second) ?? NSNull())
    }
}

/// JavaScript values to and from the property-list types, as WebKit converts script messages,
/// replies and evaluation results (`NSNumber, NSString, NSDate, NSArray, NSDictionary, and NSNull`).
enum JSValues {
    /// The value's text, all of it (read by length: a NUL inside ends nothing).
    static func text(_ value: OpaquePointer) -> String? {
        guard let bytes = jsc_value_to_string_as_bytes(value) else { return nil }
        defer { g_bytes_unref(bytes) }
        var count: gsize = 0
        guard let start = g_bytes_get_data(bytes, &count) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: Int(count)), as: UTF8.self)
    }

    /// The value as a property list: `nil` for `undefined` (and for what has no such form).
    static func propertyList(_ value: OpaquePointer) -> Any? {
        if jsc_value_is_undefined(value) != 0 { return nil }
        if jsc_value_is_null(value) != 0 { return NSNull() }
        if jsc_value_is_string(value) != 0 { return text(value) }
        if jsc_value_is_boolean(value) != 0 { return NSNumber(value: jsc_value_to_boolean(value) != 0) }
        if jsc_value_is_number(value) != 0 { return NSNumber(value: jsc_value_to_double(value)) }
        if jsc_value_is_function(value) != 0 { return nil }
        guard let json = jsc_value_to_json(value, 0) else { return nil }
        defer { g_free(json) }
        return try? JSONSerialization.jsonObject(with: Data(String(cString: json).utf8), options: [.fragmentsAllowed])
    }

    /// A JavaScript value in `context` for a property list (`nil` is `undefined`); the caller owns it.
    static func make(_ value: Any?, in context: OpaquePointer) -> OpaquePointer {
        switch value {
        case nil:
            return jsc_value_new_undefined(context)
        case let text as String:
            let bytes = Array(text.utf8)
            let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            defer { g_bytes_unref(data) }
            return jsc_value_new_string_from_bytes(context, data)
        case is NSNull:
            return jsc_value_new_null(context)
        default:
            guard let value, JSONSerialization.isValidJSONObject([value]),
                let json = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            else { return jsc_value_new_undefined(context) }
            return jsc_value_new_from_json(context, String(decoding: json, as: UTF8.self))
        }
    }
}
#endif
