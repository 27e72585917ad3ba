// PageMessage.swift — one message bound for the page, kept structured until a script is rendered.
import Foundation
import KeystoneInterfaces

/// One message from Swift to the page.
///
/// Messages stay structured all the way through the evaluator; only the renderer turns a
/// batch of them into JavaScript. An in-memory page receives exactly these values.
public enum PageMessage: Sendable, Hashable {
    /// A result for the page's callback `callback` (`window.dscbN`). When `complete`, the
    /// callback is removed after it runs.
    case result(callback: String, value: JSONText, complete: Bool)
    /// The call behind `callback` failed after it started: the callback runs once with `""` and the
    /// error object `{code, message}` as a second argument, then is removed.
    case failure(callback: String, error: BridgeError)
    /// The call finished, and its method returns nothing (`Invoker/noResult`): a dsbridge.js or
    /// WebViewJavascriptBridge callback runs once with `""`, as DSBridge sends, then is removed;
    /// Keystone's runtime settles `invoke` with `undefined`.
    case noResult(callback: String)
    /// A multi-response call finished without a final value: the callback is removed.
    case completion(callback: String)
    /// The callback is removed without running: its call was refused before it started, and the
    /// refusal was already the answer to the page's `prompt`.
    case release(callback: String)
    /// A Swift call of the page's handler `method` with positional `arguments` (a JSON array);
    /// the page answers through `_dsb.returnValue` with `callbackId`.
    case call(method: String, callbackId: Int, arguments: JSONText)
    /// A result, a call or an event whose value holds `Data` that Keystone's runtime takes as
    /// bytes: `message`'s value holds a marker string in each one's place, and `parts` says where the
    /// bytes are. Only a page running Keystone's runtime is sent one; any other gets `message` with
    /// each `Data` as base64 in its place.
    indirect case withParts(PageMessage, MessageParts)
    /// Swift stopped waiting for its call `callbackId` of a page handler (cancelled, timed out, or
    /// a stream left early). Keystone's runtime drops the handler's later answers and aborts the
    /// `signal` of its responder; dsbridge.js and WebViewJavascriptBridge have no way to hear it.
    case cancel(callbackId: Int)
    /// A named event for the page's listeners (`dsBridge.on(name, fn)`). Only Keystone's page
    /// runtime has listeners; a dsbridge.js page does not receive events.
    case event(name: String, value: JSONText)
    /// A durable Swift call, `message` (a ``call(method:callbackId:arguments:)``), which Swift makes
    /// again in each next document of its origin until one answers it: `id` is the same each time,
    /// for the handler to know a call it has seen. Keystone's runtime hands `id` to the handler's
    /// responder (`responder.durable`); dsbridge.js and WebViewJavascriptBridge get `message` alone.
    indirect case durable(PageMessage, id: String)
}

/// The bytes of a message's value (``PageMessage/withParts(_:_:)``): each `Data` in the value is a
/// string, ``marker`` followed by its index, which Keystone's runtime replaces with a `Uint8Array`.
public struct MessageParts: Sendable, Hashable {
    /// What each part's string in the value begins with: unguessable, drawn when the value was encoded.
    public var marker: String
    /// The size of each part, by index.
    public var sizes: [Int]
    /// Where the parts' bytes are.
    public var source: Source

    /// Where a message's parts are.
    public enum Source: Sendable, Hashable {
        /// On the host's byte channel, one after another, fetched with the ticket at this address.
        case ticket(String)
        /// In the message, as base64: where the page has no byte channel.
        case inline([Data])
    }

    package init(marker: String, sizes: [Int], source: Source) {
        self.marker = marker
        self.sizes = sizes
        self.source = source
    }
}

extension PageMessage {
    /// The callback of the page's call this message answers, when it answers one.
    package var resultCallback: String? {
        switch self {
        case .result(let callback, _, _), .failure(let callback, _), .noResult(let callback), .completion(let callback), .release(let callback): callback
        case .withParts(let message, _): message.resultCallback
        default: nil
        }
    }

    /// The id of Swift's call this message makes, when it makes one.
    package var swiftCallId: Int? {
        switch self {
        case .call(_, let id, _): id
        case .durable(let message, _), .withParts(let message, _): message.swiftCallId
        default: nil
        }
    }
}
