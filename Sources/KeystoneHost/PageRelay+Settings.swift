// PageRelay+Settings.swift — the settings a host writes into the relay's and the isolated world's
// scripts: every value data, never code.
import Foundation
import Keystone

extension PageRelay {
    /// The page-world relay's settings. Through the relay, `_dsbridge=` prompts and
    /// `window._keystoneHost.send` go to the host directly — prompts as prompts, messages through the page world's `keystone` script message
    /// handler — each prefixed with this document's capability (``capabilityPrefix``), which names
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
    /// capability (``forgottenCapability``), the relay asks for a new one and sends again, once.
    ///
    /// Messages sent in one turn of the page's event loop go to the host together, as one batch
    /// (`PostedText/batchMethod`, then each message as its length in UTF-16 code units, `:` and the
    /// message), posted when the turn's script ends, or sooner when it reaches ``batchLength`` or
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
    /// the relay also posts the document's `console` lines (``consoleMethod``), with the capability,
    /// so only admitted documents' lines reach the app, attributed to their frame.
    ///
    /// `window._keystoneHost.download(address, size)` asks the host for Swift's bytes at a ticket's
    /// address (``downloadMethod``); where the host runs the web-process extension it sends them
    /// there, and the extension copies them into a new `Uint8Array` and hands it to
    /// `_keystoneHost.received(request, bytes)`, which resolves the request. Where it does not,
    /// the request resolves to `undefined`, and the page runtime fetches the address itself.
    ///
    /// The relay holds the capability in its closure and hands it only to built-ins it took at
    /// document start (the handler's `postMessage` and `Promise.prototype.then` bound then, so a
    /// call makes no argument list), with no string method called on it, so a page script that
    /// replaces `Function.prototype.call`, `String.prototype.slice`, `dispatchEvent`, the node's accessors
    /// or the message handler's `postMessage` sees none of it.
    ///
    /// The script is `gtk-relay.js`, a resource with its own node suite; its settings reach it as
    /// one JSON value.
    ///
    /// The relay's object is named, with the members the web-process extension calls, as the
    /// extension's one description of its wire says (`names`, from `keystone-extension-wire.h`).
    package static func relaySettings(messagesPerPost: Int, relaysConsole: Bool, extensionCarriesBytes: Bool = false, names: ExtensionNames) -> RelaySettings {
        RelaySettings(
            capabilityPrefix: capabilityPrefix, forgottenCapability: forgottenCapability, batchMethod: PostedText.batchMethod,
            consoleMethod: consoleMethod, downloadMethod: downloadMethod, downloadSent: downloadSent, uploadMethod: uploadMethod,
            capabilityLength: FrameCapabilities.length, batchLength: batchLength, messagesPerPost: messagesPerPost,
            extensionPieceBytes: extensionCarriesBytes ? extensionPieceBytes : 0, relaysConsole: relaysConsole, extension: names)
    }

    /// The relay's settings, as `gtk-relay.js` reads them.
    package struct RelaySettings: Codable, Equatable {
        var capabilityPrefix, forgottenCapability, batchMethod, consoleMethod, downloadMethod, downloadSent, uploadMethod: String
        var capabilityLength, batchLength, messagesPerPost, extensionPieceBytes: Int
        var relaysConsole: Bool
        var `extension`: ExtensionNames
    }

    /// The page worlds' names the web-process extension reads, as its wire's one description
    /// (`keystone-extension-wire.h`) gives them: the relay's object and the members of it the
    /// extension calls, and the isolated world's global that holds a subframe document's number.
    package struct ExtensionNames: Codable, Equatable {
        package var relay, target, received, outgoing, documentGlobal: String

        package init(relay: String, target: String, received: String, outgoing: String, documentGlobal: String) {
            (self.relay, self.target, self.received, self.outgoing, self.documentGlobal) = (relay, target, received, outgoing, documentGlobal)
        }
    }

    /// The isolated world's settings. Introduced to the relay's channel, the isolated world's
    /// script asks the host for the document's capability with what the engine shows this world — whether this is the top
    /// frame, and its origin — tagged with a secret page scripts never see, so the host can tell
    /// its prompts from a page's own. It also reports the top document's token
    /// (`HostScripts.documentReporting`), and, with a `signalPattern` (the page dialect's), every
    /// signal the top document itself makes with an iframe: WebKitGTK's navigation decision does
    /// not say which document made a navigation, so a subframe could signal as the page; the
    /// watcher sees only iframes of the top document and reports each signal's address
    /// (``signalPrefix``), and the host answers only these.
    ///
    /// Where Keystone's web-process extension runs, it gives each subframe document a number
    /// (`names.documentGlobal`) before this script runs, and the script puts it in its tag: the host
    /// then delivers that document's results, and its own calls, to it through the extension.
    ///
    /// The script is `gtk-isolated.js`, a resource with its own node suite; its settings reach it
    /// as one JSON value, and the document's origin as `HostScripts.documentOrigin` reads it.
    ///
    /// The host's message handler (`messageHandler`) is registered in this world only, so no page
    /// script of any frame can post a value to it that the engine would rebuild in the app: the
    /// relay hands its messages to this world over their private channel, as text, and this world
    /// posts them, refusing one longer than `maximumPostLength` UTF-16 code units unread.
    package static func isolatedSettings(
        secret: String, documentChannel: String, messageHandler: String, signalPattern: String?, limits: BridgeLimits, names: ExtensionNames
    ) -> IsolatedSettings {
        let tooLong = BridgeError(
            code: .limitExceeded, message: "the call's arguments are larger than BridgeLimits.messageBytes (\(limits.messageBytes) bytes)"
        ).promptAnswer
        var tooLongBatch = ""
        PostedText.appendFramed(tooLong, to: &tooLongBatch)
        return IsolatedSettings(
            tagPrefix: tagPrefix(secret: secret), capabilityRequest: capabilityRequest, documentChannel: documentChannel, documentGlobal: names.documentGlobal,
            signalPattern: signalPattern, signalPrefix: signalPrefix, messageHandler: messageHandler, frameEnded: frameEnded,
            maximumPostLength: maximumPostLength(limits), batchAt: capabilityPrefix.utf16.count + FrameCapabilities.length + 1,
            batchHeader: PostedText.batchMethod + "\n", tooLong: tooLong, tooLongBatch: tooLongBatch)
    }

    /// The isolated world's settings, as `gtk-isolated.js` reads them.
    package struct IsolatedSettings: Encodable {
        var tagPrefix, capabilityRequest, documentChannel, documentGlobal: String
        var signalPattern: String?
        var signalPrefix, messageHandler, frameEnded: String
        var maximumPostLength, batchAt: Int
        var batchHeader, tooLong, tooLongBatch: String
    }

    /// Twice the longest message, in UTF-16 code units, the hub would read under `limits`: one call
    /// whose name and arguments are at their limits, or a batch of calls (``batchLength`` code
    /// units of them, framed), with the capability before it. Anything longer is refused unread,
    /// before it crosses to the app; anything shorter the hub measures and answers itself.
    package static func maximumPostLength(_ limits: BridgeLimits) -> Int {
        let call = limits.methodNameBytes + 1 + limits.messageBytes
        let batch = batchLength + 16 * limits.messagesPerPost
        return 2 * max(call, batch) + 1024
    }
}
