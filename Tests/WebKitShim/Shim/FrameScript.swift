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
          var start = settings.secret + settings.world + '\n' + (window === window.top ? 'main' : 'sub') + '\n' + origin + '\n';
          // The frame's address as it is when it prompts or posts (`location` cannot be redefined).
          var here = location;
          function tag() { return start + toText(here.href) + '\n'; }
          // WebKitGTK hands a dialog's texts over as C strings, which end at a NUL: they go as JSON.
          function text(value) { return stringify(value === undefined ? '' : toText(value)); }
          var prompt = window.prompt, alert = window.alert, confirm = window.confirm;
          window.prompt = function prompt_(message, defaultText) { return apply(prompt, window, [tag() + text(message), text(defaultText)]); };
          window.alert = function alert_(message) { return apply(alert, window, [tag() + text(message)]); };
          window.confirm = function confirm_(message) { return apply(confirm, window, [tag() + text(message)]); };
          // WebKitGTK's UI process crashes reading a custom scheme's request body that holds a Blob;
          // WebKit's Cocoa API hands such a body over. Its bytes go as a buffer of their own.
          var handlers = window.webkit && window.webkit.messageHandlers;
          var hidden = handlers && handlers[settings.hidden];
          var post = hidden && getPrototypeOf(hidden).postMessage;
          var fetch = window.fetch, Blob_ = typeof Blob === 'function' ? Blob : null;
          if (typeof fetch === 'function' && Blob_ && !settings.world) {
            var readBlob = Blob_.prototype.arrayBuffer, then = Promise.prototype.then, assign = Object.assign, web = /^(https?|blob|data):/i;
            var Address_ = URL, listen = EventTarget.prototype.addEventListener;
            window.fetch = function fetch_(input, init) {
              var body = init && init.body, address = toText(input && input.url !== undefined ? input.url : input);
              if (web.test(address)) return apply(fetch, window, [input, init]);
              // WebKit stops a scheme task whose fetch the page aborts; WebKitGTK tells no one, so
              // this frame says so (README.md: when a scheme task is stopped).
              var signal = init && init.signal;
              if (post && signal && typeof signal.aborted === 'boolean') {
                try {
                  var absolute = new Address_(address, document.baseURI).href;
                  apply(listen, signal, ['abort', function () { try { apply(post, hidden, [[tag(), ['aborts', absolute]]]); } catch (e) {} }]);
                } catch (e) {}
              }
              if (!(body instanceof Blob_)) return apply(fetch, window, [input, init]);
              return apply(then, apply(readBlob, body, []), [function (buffer) { return apply(fetch, window, [input, assign({}, init, { body: buffer })]); }]);
            };
          }
          if (hidden) {
            var prototype = getPrototypeOf(hidden);
            prototype.postMessage = function postMessage(body) { return apply(post, this, [[tag(), body]]); };
            // WebKitGTK names no navigation's source frame: this frame says which addresses it points
            // its iframes at, before the navigation starts (README.md: frames).
            if (!settings.world && typeof HTMLIFrameElement === 'function') {
              var IFrame = HTMLIFrameElement, Address = URL, setAttribute = Element.prototype.setAttribute;
              var src = Object.getOwnPropertyDescriptor(IFrame.prototype, 'src'), lower = String.prototype.toLowerCase;
              var report = function (value) {
                try { apply(post, hidden, [[tag(), ['navigates', new Address(toText(value), document.baseURI).href]]]); } catch (e) {}
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

    /// A dialog's text: the frame and world that showed it (and the frame's address then), and the
    /// page's own text. `nil` when the text carries no tag.
    static func untag(text: String) -> (world: String?, isMainFrame: Bool, origin: OriginParts, address: String, text: String)? {
        guard text.hasPrefix(secret) else { return nil }
        let lines = text.dropFirst(secret.count).split(separator: "\n", maxSplits: 4, omittingEmptySubsequences: false)
        guard lines.count == 5 else { return nil }
        return (lines[0].isEmpty ? nil : String(lines[0]), lines[1] == "main", OriginParts(serialized: String(lines[2])), String(lines[3]), String(lines[4]))
    }

    /// A text the frame script sent as JSON (a dialog's message or default text), as Swift reads an
    /// `NSString`: a lone surrogate becomes U+FFFD.
    static func decoded(_ json: String) -> String? {
        guard case .string(let text)? = try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(json.utf8)) else { return nil }
        return text
    }

    /// A script message's value as the frame script posted it, `[tag, body]`: its frame and world,
    /// and its body converted to the property-list types. `nil` when the value carries no tag.
    static func untag(_ value: OpaquePointer) -> (world: String?, isMainFrame: Bool, origin: OriginParts, address: String, body: Any)? {
        guard jsc_value_is_array(value) != 0, let first = jsc_value_object_get_property_at_index(value, 0),
            let second = jsc_value_object_get_property_at_index(value, 1)
        else { return nil }
        defer {
            g_object_unref(UnsafeMutableRawPointer(first))
            g_object_unref(UnsafeMutableRawPointer(second))
        }
        guard jsc_value_is_string(first) != 0, let tag = JSValues.text(first), let parsed = untag(text: tag), parsed.text.isEmpty else { return nil }
        // `undefined` is a nil body, which Swift holds as an empty optional.
        let body: Any = JSValues.propertyList(second).value ?? (Any?.none as Any)
        return (parsed.world, parsed.isMainFrame, parsed.origin, parsed.address, body)
    }
}

#endif
