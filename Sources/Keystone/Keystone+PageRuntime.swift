// Keystone+PageRuntime.swift — the page script a host injects at document start.
import Foundation

extension Keystone {
    /// The source of Keystone's page runtime (`keystone-bridge.js`): a drop-in for dsbridge.js 3.1.4
    /// with promises, streams, cancellation and events. A host injects it at document start, after
    /// `window._dswk = true`.
    /// - Throws: `BridgeError` (`notFound`) if the package's resources are missing.
    package static func pageRuntimeScript() throws -> String {
        try resource("keystone-bridge", "js")
    }

    /// Keystone's WebViewJavascriptBridge page script on WVJB's own wire (`wvjb-bridge.js`): what a
    /// host injects when a page asks for a bridge (`https://__bridge_loaded__`) and has none.
    package static func wvjbPageScript() throws -> String {
        try resource("wvjb-bridge", "js")
    }

    /// The TypeScript declarations of the page API (`keystone-bridge.d.ts`).
    public static func pageRuntimeTypes() throws -> String {
        try resource("keystone-bridge", "d.ts")
    }

    private static func resource(_ name: String, _ type: String) throws -> String {
        try resourceText(name, type, in: .module, of: "Keystone")
    }

    /// The text of the resource `name.type` in `bundle`, the resources of the package's module
    /// `module`: a script a host injects.
    /// - Throws: `BridgeError` (`notFound`) if the resource is missing.
    package static func resourceText(_ name: String, _ type: String, in bundle: Bundle, of module: String) throws(BridgeError) -> String {
        guard let url = bundle.url(forResource: name, withExtension: type), let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw BridgeError(code: .notFound, message: "the resource \(name).\(type) is missing from the \(module) bundle")
        }
        return text
    }
}
