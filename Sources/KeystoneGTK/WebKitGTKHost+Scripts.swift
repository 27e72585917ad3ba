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

    /// The page-world relay: `_dsbridge=` prompts and `window._keystoneHost.send` go to the host
    /// directly — prompts as prompts, messages through the page world's `keystone` script message
    /// handler — each prefixed with this document's capability (`PageRelay.capabilityPrefix`), which names
    /// the frame and origin the isolated world read for it. A page script that goes around the
    /// relay reaches the host without one, unattested.
    ///
    /// The relay asks for the capability on its first call, through a channel to the isolated
    /// world: a detached comment node that only the two hold. The relay writes the node's text and
    /// dispatches an event on the node, which runs the isolated world's listener at once and
    /// reaches nothing else in the document; the isolated world asks the host for a capability and
    /// writes `=` and the capability back. The relay introduces the node once, on `window`, as the
    /// `relatedTarget` of a cancellable `keystone:channel` event, at document start and when the
    /// isolated world says hello, whichever comes last; the isolated world cancels the event to take
    /// the node. Both run before any page script. When the host answers that it has forgotten the
    /// capability (`PageRelay.forgottenCapability`), the relay asks for a new one and sends again, once.
    ///
    /// Messages sent in one turn of the page's event loop go to the host together, as one batch
    /// (`PostedText/batchMethod`, then each message as its length in UTF-16 code units, `:` and the
    /// message), posted when the turn's script ends, or sooner when it reaches `PageRelay.batchLength` or
    /// `messagesPerPost` messages: one trip between the processes instead of one each. A prompt
    /// first posts what is waiting, so a synchronous call never overtakes an asynchronous one made
    /// before it. The answer to a batch is each answer framed the same way, in order; when it ends
    /// early (the host refused the rest), the rest get its last answer.
    ///
    /// Each message is made well-formed (`toWellFormed`, taken at document start) before it is
    /// framed: the engine converts a message to UTF-8 only up to a lone surrogate, which would cut
    /// the batch short; as U+FFFD the call keeps its length and fails on its own.
    ///
    /// A prompt is framed with the lengths of its text and default text, so that the host, which
    /// the engine hands both as C strings, can tell a text a NUL cut short. With `relaysConsole`,
    /// the relay also posts the document's `console` lines (`PageRelay.consoleMethod`), with the capability,
    /// so only admitted documents' lines reach the app, attributed to their frame.
    ///
    /// The relay holds the capability in its closure and hands it only to built-ins it took at
    /// document start (the handler's `postMessage` and `Promise.prototype.then` bound then, so a
    /// call makes no argument list), with no string method called on it, so a page script that replaces
    /// `Function.prototype.call`, `String.prototype.slice`, `dispatchEvent`, the node's accessors
    /// or the message handler's `postMessage` sees none of it.
    ///
    /// The script is `gtk-relay.js`, a resource with its own node suite; its settings reach it as
    /// one JSON value.
    static func relayScript(messagesPerPost: Int, relaysConsole: Bool) throws(BridgeError) -> String {
        let settings = RelaySettings(
            capabilityPrefix: PageRelay.capabilityPrefix, forgottenCapability: PageRelay.forgottenCapability, batchMethod: PostedText.batchMethod,
            consoleMethod: PageRelay.consoleMethod, capabilityLength: FrameCapabilities.length, batchLength: PageRelay.batchLength,
            messagesPerPost: messagesPerPost, relaysConsole: relaysConsole
        )
        return "(\(try resource("gtk-relay")))(\(try json(settings)));"
    }

    /// The relay's settings, as `gtk-relay.js` reads them.
    struct RelaySettings: Encodable {
        var capabilityPrefix, forgottenCapability, batchMethod, consoleMethod: String
        var capabilityLength, batchLength, messagesPerPost: Int
        var relaysConsole: Bool
    }

    /// The isolated world's script: introduced to the relay's channel, it asks the host for the
    /// document's capability with what the engine shows this world — whether this is the top
    /// frame, and its origin — tagged with a secret page scripts never see, so the host can tell
    /// its prompts from a page's own. It also reports the top document's token
    /// (`HostScripts.documentReporting`), and, with a `signalPattern` (the page dialect's), every
    /// signal the top document itself makes with an iframe: WebKitGTK's navigation decision does
    /// not say which document made a navigation, so a subframe could signal as the page; the
    /// watcher sees only iframes of the top document and reports each signal's address
    /// (`PageRelay.signalPrefix`), and the host answers only these.
    ///
    /// The script is `gtk-isolated.js`, a resource with its own node suite; its settings reach it
    /// as one JSON value, and the document's origin as `HostScripts.documentOrigin` reads it.
    ///
    /// The host's message handler (``messageHandler``) is registered in this world only, so no page
    /// script of any frame can post a value to it that the engine would rebuild in the app: the
    /// relay hands its messages to this world over their private channel, as text, and this world
    /// posts them, refusing one longer than `maximumPostLength` UTF-16 code units unread.
    static func isolatedScript(secret: String, signalPattern: String? = nil, limits: BridgeLimits = BridgeLimits()) throws(BridgeError) -> String {
        let tooLong = BridgeError(
            code: .limitExceeded, message: "the call's arguments are larger than BridgeLimits.messageBytes (\(limits.messageBytes) bytes)"
        ).promptAnswer
        var tooLongBatch = ""
        PostedText.appendFramed(tooLong, to: &tooLongBatch)
        let settings = IsolatedSettings(
            tagPrefix: PageRelay.tagPrefix(secret: secret), capabilityRequest: PageRelay.capabilityRequest, documentChannel: documentChannel,
            signalPattern: signalPattern, signalPrefix: PageRelay.signalPrefix, messageHandler: messageHandler,
            maximumPostLength: maximumPostLength(limits), batchAt: PageRelay.capabilityPrefix.utf16.count + FrameCapabilities.length + 1,
            batchHeader: PostedText.batchMethod + "\n", tooLong: tooLong, tooLongBatch: tooLongBatch
        )
        return """
            (function () {
              var post = (\(try resource("gtk-isolated")))(\(try json(settings)), \(HostScripts.documentOrigin));
              if (!post) return;
              \(HostScripts.documentReporting(post: "post(report)"))
            })();
            """
    }

    /// The isolated world's settings, as `gtk-isolated.js` reads them.
    struct IsolatedSettings: Encodable {
        var tagPrefix, capabilityRequest, documentChannel: String
        var signalPattern: String?
        var signalPrefix, messageHandler: String
        var maximumPostLength, batchAt: Int
        var batchHeader, tooLong, tooLongBatch: String
    }

    /// Twice the longest message, in UTF-16 code units, the hub would read under `limits`: one call
    /// whose name and arguments are at their limits, or a batch of calls (`PageRelay.batchLength` code
    /// units of them, framed), with the capability before it. Anything longer is refused unread,
    /// before it crosses to the app; anything shorter the hub measures and answers itself.
    static func maximumPostLength(_ limits: BridgeLimits) -> Int {
        let call = limits.methodNameBytes + 1 + limits.messageBytes
        let batch = PageRelay.batchLength + 16 * limits.messagesPerPost
        return 2 * max(call, batch) + 1024
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

    /// The host's script message handler for the relay's calls, in the isolated world only.
    static let messageHandler = "keystone"
    /// The isolated world's script message handler, which hears only the top document's token.
    static let documentChannel = "keystoneDocument"
}
#endif
