// FrameScript.swift — how the shim tells which frame and world prompted or posted: WebKit's Cocoa
// API reports a `WKFrameInfo` with every dialog and script message, WebKitGTK's reports none. The
// shim's own script runs first in every frame and world, at document start, before any page
// script: it wraps `prompt`, `alert`, `confirm` and the message handlers' `postMessage` so each
// carries a tag only the shim can write (a secret no page script can read, then the world, whether
// the frame is the main frame, the frame's identifier, and its origin, as the frame itself saw them
// at its start). The identifier is WebKit's own for the frame: the shim's web-process extension
// gives it to the frame's page world (Frames.swift), whose frame script hands it to the frame's
// other worlds.
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
            "secret": secret, "world": world ?? "", "hidden": hiddenHandler(world: world), "events": hiddenHandler(world: nil),
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
          // The frame's identifier: the extension's, read and removed before any page script runs in
          // the page world, and told to the frame's other worlds below.
          var frame = '', pending = '';
          if (!settings.world) {
            frame = typeof window.__wkshimFrame === 'string' ? window.__wkshimFrame : '';
            delete window.__wkshimFrame;
          } else {
            var words = new Uint32Array(2);
            crypto.getRandomValues(words);
            pending = '~' + words[0].toString(36) + words[1].toString(36);
          }
          var start = settings.secret + settings.world + '\n' + (window === window.top ? 'main' : 'sub') + '\n';
          function head() { return start + (frame || pending) + '\n' + origin + '\n'; }
          // The frame's address as it is when it prompts or posts (`location` cannot be redefined).
          var here = location;
          function tag() { return head() + toText(here.href) + '\n'; }
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
          // Another world's frame script may run before the page world's: what it posts first names
          // the frame by a name of its own (`~` and random digits), bound to the identifier as soon
          // as the page world's frame script tells it (any world's script may run first; every one
          // runs before any page script, so the first word it hears is the page world's).
          var announce = 'wkshim:frame' + settings.events, hello = 'wkshim:hello' + settings.events;
          var CustomEvent_ = CustomEvent, dispatch = EventTarget.prototype.dispatchEvent, listenFor = EventTarget.prototype.addEventListener;
          if (!settings.world) {
            var tell = function () { apply(dispatch, window, [new CustomEvent_(announce, { detail: frame })]); };
            apply(listenFor, window, [hello, tell]);
            tell();
          } else {
            apply(listenFor, window, [announce, function (event) {
              if (frame || typeof event.detail !== 'string' || !event.detail) return;
              frame = event.detail;
              if (post) try { apply(post, hidden, [[tag(), ['binds', pending]]]); } catch (e) {}
            }]);
            apply(dispatch, window, [new CustomEvent_(hello)]);
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
    static func untag(text: String) -> Tagged? {
        guard text.hasPrefix(secret) else { return nil }
        let lines = text.dropFirst(secret.count).split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false)
        guard lines.count == 6 else { return nil }
        return Tagged(
            world: lines[0].isEmpty ? nil : String(lines[0]), isMainFrame: lines[1] == "main", frame: FrameName(lines[2]),
            origin: OriginParts(serialized: String(lines[3])), address: String(lines[4]), text: String(lines[5]))
    }

    /// How a frame script names its frame: WebKit's identifier, or a name of its own until the
    /// page world's frame script has told it the identifier (``ShimFrames/bind(_:to:)``).
    enum FrameName {
        case identifier(UInt64)
        case pending(String)

        init?(_ text: Substring) {
            if text.hasPrefix("~"), text.count > 1 {
                self = .pending(String(text))
            } else if let identifier = UInt64(text) {
                self = .identifier(identifier)
            } else {
                return nil
            }
        }
    }

    /// What a tag says, and the text after it.
    struct Tagged {
        let world: String?
        let isMainFrame: Bool
        /// The frame's name; `nil` without the shim's extension.
        let frame: FrameName?
        let origin: OriginParts
        let address: String
        let text: String

        /// The frame as a `WKFrameInfo` of `webView`.
        @MainActor func frameInfo(of webView: WKWebView?) -> WKFrameInfo {
            WKFrameInfo(isMainFrame: isMainFrame, origin: origin, address: URL(string: address), frame: frame, webView: webView)
        }
    }

    /// A text the frame script sent as JSON (a dialog's message or default text), as Swift reads an
    /// `NSString`: a lone surrogate becomes U+FFFD.
    static func decoded(_ json: String) -> String? {
        guard case .string(let text)? = try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(json.utf8)) else { return nil }
        return text
    }

    /// A script message's value as the frame script posted it, `[tag, body]`: its frame and world,
    /// and its body converted to the property-list types. `nil` when the value carries no tag.
    static func untag(_ value: OpaquePointer) -> (tag: Tagged, body: Any)? {
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
        return (parsed, body)
    }
}

#endif
