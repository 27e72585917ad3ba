// JSValues.swift — JavaScript values to and from the property-list types, as WebKit's Cocoa API
// converts evaluation results, script message bodies and replies (WKWebView.h: `NSNumber`,
// `NSString`, `NSDate`, `NSArray`, `NSDictionary`, `NSNull`). WebKitGTK hands the shim a value
// deserialized in the UI process's own JavaScript context; a script run there walks it, as WebKit
// walks one, and says what it holds in a tagged JSON form no value can be mistaken for.
#if !canImport(WebKit)
import CWebKitGTK
import Foundation
import Keystone

@MainActor
enum JSValues {
    /// A value converted: its property-list form (`nil` for `undefined`), or none (a function,
    /// which WebKit reports as `WKErrorJavaScriptResultTypeIsUnsupported`).
    enum Converted {
        case value(Any?)
        case unsupported

        /// The value; `nil` when it has none.
        var value: Any? {
            if case .value(let value) = self { return value }
            return nil
        }
    }

    /// The global that holds a value while the walk runs, in the UI process's context only.
    private static let slot = "__wkshim" + UUID().uuidString.filter(\.isHexDigit)

    /// The value's text, all of it (read by length: a NUL inside ends nothing).
    static func text(_ value: OpaquePointer) -> String? {
        guard let bytes = jsc_value_to_string_as_bytes(value) else { return nil }
        defer { g_bytes_unref(bytes) }
        var count: gsize = 0
        guard let start = g_bytes_get_data(bytes, &count) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: Int(count)), as: UTF8.self)
    }

    /// The value as WebKit converts it: a `Date` is a `Date`; an object's property whose value is
    /// `undefined`, or whose getter throws, is left out, and an array's `undefined` element is
    /// `NSNull`; a `Map`, `Set`, regular expression, `ArrayBuffer` or typed array is an empty
    /// dictionary; a `Blob`, `File`, `FileList` or `ImageData` is `NSNull`; a `BigInt` or a
    /// symbol is left out. An object met again inside itself is `NSNull` (WebKit hands back the
    /// same object, which Swift's values cannot hold).
    static func propertyList(_ value: OpaquePointer) -> Converted {
        if jsc_value_is_undefined(value) != 0 { return .value(nil) }
        if jsc_value_is_function(value) != 0 { return .unsupported }
        guard let context = jsc_value_get_context(value) else { return .value(nil) }
        jsc_context_set_value(context, slot, value)
        let walked = jsc_context_evaluate(context, "(" + walk + ")(globalThis." + slot + ")", -1)
        let cleared = jsc_context_evaluate(context, "delete globalThis." + slot, -1)
        cleared.map { g_object_unref(UnsafeMutableRawPointer($0)) }
        guard let walked else { return .value(nil) }
        defer { g_object_unref(UnsafeMutableRawPointer(walked)) }
        guard jsc_value_is_string(walked) != 0, let json = text(walked) else { return .unsupported }
        return propertyList(walked: json)
    }

    /// The walk: `['u']` undefined, `['z']` null, `['s', text]`, `['n', digits]`, `['b', flag]`,
    /// `['d', milliseconds]`, `['a', items]`, `['o', [[key, item], …]]`; a function at the top
    /// is no value (the walk returns none).
    /// Also run in a frame's own context by the shim's web-process extension (``ShimFrames``),
    /// where a DOM node is a value WebKit cannot hand over (the walk returns none).
    static let walk = #"""
        function (root) {
          var describe = Object.prototype.toString, keys = Object.keys, isArray = Array.isArray;
          var onPath = new Set(), DOMNode = typeof Node === 'function' ? Node : null, noValue = {};
          function item(value, inArray) {
            switch (typeof value) {
              case 'undefined': case 'bigint': case 'symbol': case 'function': return inArray ? ['z'] : ['u'];
              case 'string': return ['s', value];
              case 'number': return ['n', String(value)];
              case 'boolean': return ['b', value];
            }
            if (value === null) return ['z'];
            if (DOMNode && value instanceof DOMNode) throw noValue;
            var kind = describe.call(value);
            if (kind === '[object Date]') return ['d', value.getTime()];
            if (kind === '[object Blob]' || kind === '[object File]' || kind === '[object FileList]' || kind === '[object ImageData]') return ['z'];
            if (/^\[object (ArrayBuffer|SharedArrayBuffer|DataView|Map|Set|RegExp|WeakMap|WeakSet|\w+Array)\]$/.test(kind) && !isArray(value)) return ['o', []];
            if (onPath.has(value)) return ['z'];
            onPath.add(value);
            try {
              if (isArray(value)) {
                var items = [];
                for (var index = 0; index < value.length; index++) items.push(item(value[index], true));
                return ['a', items];
              }
              var members = [], names = keys(value);
              for (var at = 0; at < names.length; at++) {
                var member;
                try { member = value[names[at]]; } catch (e) { continue; }
                var converted = item(member, false);
                if (converted[0] !== 'u') members.push([names[at], converted]);
              }
              return ['o', members];
            } finally {
              onPath.delete(value);
            }
          }
          if (typeof root === 'function') return undefined;
          try { return JSON.stringify(item(root, false)); } catch (e) { if (e === noValue) return undefined; throw e; }
        }
        """#

    /// A value the walk already turned into `json` (in a frame, by the shim's extension).
    static func propertyList(walked json: String) -> Converted {
        guard let tree = try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(repairingLoneSurrogates(json).utf8)) else { return .value(nil) }
        return .value(propertyList(tagged: tree))
    }

    /// A tagged tree as the property-list types.
    private static func propertyList(tagged: JSONValue) -> Any? {
        guard case .array(let parts) = tagged, case .string(let tag)? = parts.first else { return nil }
        let payload = parts.count > 1 ? parts[1] : .null
        switch (tag, payload) {
        case ("s", .string(let text)): return text
        case ("n", .string(let digits)): return NSNumber(value: Double(digits) ?? .nan)
        case ("b", .bool(let flag)): return NSNumber(value: flag)
        case ("d", .number(let milliseconds)): return Date(timeIntervalSince1970: milliseconds / 1000)
        case ("a", .array(let items)): return items.map { propertyList(tagged: $0) ?? NSNull() }
        case ("o", .array(let members)):
            var dictionary: [String: Any] = [:]
            for case .array(let pair) in members where pair.count == 2 {
                guard case .string(let key) = pair[0], let value = propertyList(tagged: pair[1]) else { continue }
                dictionary[key] = value
            }
            return dictionary
        case ("z", _): return NSNull()
        default: return nil
        }
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

    // MARK: To JavaScript

    /// A property list the page cannot be handed (WebKit rejects the page's promise with
    /// "The result value passed back from the WKWebView API client was unable to be serialized").
    struct Unserializable: Error {}

    /// A JavaScript value in `context` for a property list (`nil` is `undefined`, a `Date` a
    /// `Date`); the caller owns it.
    /// - Throws: ``Unserializable`` for a value of no property-list type (`Data`, say).
    static func make(_ value: Any?, in context: OpaquePointer) throws(Unserializable) -> OpaquePointer {
        let tagged = try tagged(value)
        let json = String(decoding: (try? DefaultJSONSerializer().encode(tagged)) ?? Data("[\"u\"]".utf8), as: UTF8.self)
        let text = jsc_value_new_string(context, json)
        defer { text.map { g_object_unref(UnsafeMutableRawPointer($0)) } }
        jsc_context_set_value(context, slot, text)
        let made = jsc_context_evaluate(context, "(" + revive + ")(JSON.parse(globalThis." + slot + "))", -1)
        let cleared = jsc_context_evaluate(context, "delete globalThis." + slot, -1)
        cleared.map { g_object_unref(UnsafeMutableRawPointer($0)) }
        return made ?? jsc_value_new_undefined(context)
    }

    /// The walk's tagged form, built back into JavaScript values.
    private static let revive = #"""
        function (tree) {
          function value(item) {
            switch (item[0]) {
              case 'z': return null;
              case 's': case 'b': return item[1];
              case 'n': return Number(item[1]);
              case 'd': return new Date(item[1]);
              case 'a': return item[1].map(value);
              case 'o':
                var object = {};
                item[1].forEach(function (member) {
                  Object.defineProperty(object, member[0], { value: value(member[1]), writable: true, enumerable: true, configurable: true });
                });
                return object;
            }
            return undefined;
          }
          return value(tree);
        }
        """#

    /// A number as JavaScript's `Number` reads it back.
    private static func digits(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return String(number)
    }

    private static func tagged(_ value: Any?) throws(Unserializable) -> JSONValue {
        guard let value else { return .array([.string("u")]) }
        switch value {
        case let text as String: return .array([.string("s"), .string(text)])
        case is NSNull: return .array([.string("z")])
        case let date as Date: return .array([.string("d"), .number(date.timeIntervalSince1970 * 1000)])
        case let items as [Any]: return .array([.string("a"), .array(try items.map { item throws(Unserializable) in try tagged(item) })])
        case let members as [String: Any]:
            var pairs: [JSONValue] = []
            for (key, member) in members.sorted(by: { $0.key < $1.key }) { pairs.append(.array([.string(key), try tagged(member)])) }
            return .array([.string("o"), .array(pairs)])
        default:
            if type(of: value) == Bool.self, let flag = value as? Bool { return .array([.string("b"), .bool(flag)]) }
            if let number = value as? NSNumber {
                if String(cString: number.objCType) == "c" { return .array([.string("b"), .bool(number.boolValue)]) }
                return .array([.string("n"), .string(digits(number.doubleValue))])
            }
            if let number = value as? any BinaryInteger { return .array([.string("n"), .string(String(describing: number))]) }
            if let number = value as? Double { return .array([.string("n"), .string(digits(number))]) }
            throw Unserializable()
        }
    }
}
#endif
