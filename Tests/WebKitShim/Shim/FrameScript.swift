// FrameScript.swift — how the shim tells which frame and world prompted or posted: WebKit's Cocoa
// API reports a `WKFrameInfo` with every dialog and script message, WebKitGTK's reports none. The
// shim's own script runs first in every frame and world, at document start, before any page
// script: it wraps `prompt`, `alert`, `confirm` and the message handlers' `postMessage` so each
// carries a tag only the shim can write (a secret no page script can read, then the world, whether
// the frame is the main frame, and its origin, as the frame itself saw them at its start).
#if !canImport(WebKit)
import CWebKitGTK
import Foundation
import Keystone

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
          var stringify = JSON.stringify;
          // A file document's origin is opaque to its scripts; WebKit reports it as `file://`.
          var origin = location.protocol === 'file:' ? 'file://' : toText(self.origin);
          var tag = settings.secret + settings.world + '\n' + (window === window.top ? 'main' : 'sub') + '\n' + origin + '\n';
          // WebKitGTK hands a dialog's texts over as C strings, which end at a NUL: they go as JSON.
          function text(value) { return stringify(value === undefined ? '' : toText(value)); }
          var prompt = window.prompt, alert = window.alert, confirm = window.confirm;
          window.prompt = function prompt_(message, defaultText) { return apply(prompt, window, [tag + text(message), text(defaultText)]); };
          window.alert = function alert_(message) { return apply(alert, window, [tag + text(message)]); };
          window.confirm = function confirm_(message) { return apply(confirm, window, [tag + text(message)]); };
          // WebKitGTK's UI process crashes reading a custom scheme's request body that holds a Blob;
          // WebKit's Cocoa API hands such a body over. Its bytes go as a buffer of their own.
          var fetch = window.fetch, Blob_ = typeof Blob === 'function' ? Blob : null;
          if (typeof fetch === 'function' && Blob_ && !settings.world) {
            var readBlob = Blob_.prototype.arrayBuffer, then = Promise.prototype.then, assign = Object.assign, web = /^(https?|blob|data):/i;
            window.fetch = function fetch_(input, init) {
              var body = init && init.body;
              if (!(body instanceof Blob_) || web.test(toText(input && input.url !== undefined ? input.url : input))) return apply(fetch, window, [input, init]);
              return apply(then, apply(readBlob, body, []), [function (buffer) { return apply(fetch, window, [input, assign({}, init, { body: buffer })]); }]);
            };
          }
          var handlers = window.webkit && window.webkit.messageHandlers;
          var hidden = handlers && handlers[settings.hidden];
          if (hidden) {
            var prototype = getPrototypeOf(hidden), post = prototype.postMessage;
            prototype.postMessage = function postMessage(body) { return apply(post, this, [[tag, body]]); };
            // WebKitGTK names no navigation's source frame: this frame says which addresses it points
            // its iframes at, before the navigation starts (README.md: frames).
            if (!settings.world && typeof HTMLIFrameElement === 'function') {
              var IFrame = HTMLIFrameElement, Address = URL, setAttribute = Element.prototype.setAttribute;
              var src = Object.getOwnPropertyDescriptor(IFrame.prototype, 'src'), lower = String.prototype.toLowerCase;
              var report = function (value) {
                try { apply(post, hidden, [[tag, ['navigates', new Address(toText(value), document.baseURI).href]]]); } catch (e) {}
              };
              Object.defineProperty(IFrame.prototype, 'src', {
                configurable: true, enumerable: src.enumerable, get: src.get,
                set: function (value) { report(value); apply(src.set, this, [value]); }
              });
              Element.prototype.setAttribute = function setAttribute_(name, value) {
                if (this instanceof IFrame && apply(lower, toText(name), []) === 'src') report(value);
                return apply(setAttribute, this, [name, value]);
              };
            }
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

    /// A text the frame script sent as JSON (a dialog's message or default text), as Swift reads an
    /// `NSString`: a lone surrogate becomes U+FFFD.
    static func decoded(_ json: String) -> String? {
        guard case .string(let text)? = try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(json.utf8)) else { return nil }
        return text
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
        return (try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(repairingLoneSurrogates(String(cString: json)).utf8))).map(propertyList)
    }

    /// JSON text with each escaped lone surrogate (`JSON.stringify` writes them as `\udXXX`) made
    /// U+FFFD, as Swift reads an `NSString` that holds one.
    static func repairingLoneSurrogates(_ json: String) -> String {
        var units = Array(json.utf16)
        func surrogate(at index: Int) -> UInt16? {
            guard index + 5 < units.count, units[index] == 0x5C, units[index + 1] == 0x75 else { return nil }
            let hex = String(decoding: units[(index + 2)...(index + 5)], as: UTF16.self)
            guard let value = UInt16(hex, radix: 16), (0xD800...0xDFFF).contains(value) else { return nil }
            return value
        }
        var index = 0
        while index < units.count {
            if units[index] == 0x5C, index + 1 < units.count, units[index + 1] != 0x75 {
                index += 2  // an escape of one character: `\\`, `\"`, …
                continue
            }
            if let unit = surrogate(at: index) {
                if unit < 0xDC00, let next = surrogate(at: index + 6), next >= 0xDC00 {
                    index += 12
                    continue
                }
                units.replaceSubrange((index + 2)...(index + 5), with: Array("fffd".utf16))
            }
            index += 1
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// A JSON value as the property-list types: numbers as `NSNumber`, objects as dictionaries.
    static func propertyList(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): NSNumber(value: flag)
        case .number(let number): NSNumber(value: number)
        case .string(let text): text
        case .array(let items): items.map(propertyList)
        case .object(let members): Dictionary(members.map { ($0.key, propertyList($0.value)) }, uniquingKeysWith: { _, last in last })
        }
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
