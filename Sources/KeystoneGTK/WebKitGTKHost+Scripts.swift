// WebKitGTKHost+Scripts.swift — the host's document-start scripts: one in the page's world, one in
// an isolated world that page scripts cannot reach.
#if canImport(CWebKitGTK)
import Foundation
import Keystone
import KeystoneHost

extension WebKitGTKHost {
    /// The isolated script world the host's own script and message handler live in. Page scripts
    /// can neither read its variables nor post to its handler, and its `window`, `prompt` and
    /// built-ins are its own, untouched by whatever the page replaces.
    static let worldName = "keystone-host"
    /// The host's script message handler for the relay's calls, in the isolated world only.
    static let messageHandler = "keystone"
    /// The isolated world's script message handler, which hears only the top document's token.
    static let documentChannel = "keystoneDocument"

    /// The page-world relay (`gtk-relay.js`, a resource with its own node suite), speaking
    /// ``PageRelay``'s protocol; its settings reach it as one JSON value.
    static func relayScript(messagesPerPost: Int, relaysConsole: Bool, extensionCarriesBytes: Bool = false) throws(BridgeError) -> String {
        let settings = PageRelay.relaySettings(
            messagesPerPost: messagesPerPost, relaysConsole: relaysConsole, extensionCarriesBytes: extensionCarriesBytes, names: extensionNames)
        return "(\(try resource("gtk-relay")))(\(try json(settings)));"
    }

    /// The isolated world's script (`gtk-isolated.js`, a resource with its own node suite), speaking
    /// ``PageRelay``'s protocol: its settings reach it as one JSON value, and the document's origin
    /// as `HostScripts.documentOrigin` reads it. The host's message handler (``messageHandler``) is
    /// registered in this world only, so no page script of any frame can post a value to it that
    /// the engine would rebuild in the app.
    static func isolatedScript(secret: String, signalPattern: String? = nil, limits: BridgeLimits = BridgeLimits()) throws(BridgeError) -> String {
        let settings = PageRelay.isolatedSettings(
            secret: secret, documentChannel: documentChannel, messageHandler: messageHandler, signalPattern: signalPattern, limits: limits,
            names: extensionNames)
        return """
            (function () {
              var post = (\(try resource("gtk-isolated")))(\(try json(settings)), \(HostScripts.documentOrigin));
              if (!post) return;
              \(HostScripts.documentReporting(post: "post(report)"))
            })();
            """
    }

    /// A script of the host's resources, without its trailing new line.
    private static func resource(_ name: String) throws(BridgeError) -> String {
        try Keystone.resourceText(name, "js", in: .module, of: "KeystoneGTK").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `value` as JSON: data for a script, never code.
    private static func json(_ value: some Encodable) throws(BridgeError) -> String {
        do {
            return try JSONText(validating: try DefaultJSONSerializer().encode(value)).string
        } catch {
            throw BridgeError(error)
        }
    }
}
#endif
