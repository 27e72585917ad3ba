// PageMessage.swift — one message bound for the page, kept structured until a script is rendered.
import KeystoneInterfaces

/// One message from Swift to the page.
///
/// Messages stay structured all the way through the evaluator; only the renderer turns a
/// batch of them into JavaScript. An in-memory page receives exactly these values.
public enum PageMessage: Sendable, Hashable {
    /// A result for the page's callback `callback` (`window.dscbN`). When `complete`, the
    /// callback is removed after it runs.
    case result(callback: String, value: JSONText, complete: Bool)
    /// A result for the page's callback `callback` that is bytes: Keystone's runtime fetches them
    /// from `source`, a ticketed address on the host's byte channel, and hands the page a
    /// `Uint8Array` of `size` bytes. Only a call of Keystone's runtime that takes bytes gets one; a
    /// dsbridge.js page is never sent one (its callback is removed, should one reach it).
    case bytes(callback: String, source: String, size: Int, complete: Bool)
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
    /// A Swift call of the page's handler `method` some of whose arguments are `Data`, sent as
    /// bytes: `arguments` holds `null` at their positions, and Keystone's runtime fetches each of
    /// `bytes` from its ticketed address and hands the handler a `Uint8Array` there. Only a page
    /// running Keystone's runtime, on a host with a byte channel, is sent one; any other gets a
    /// ``call(method:callbackId:arguments:)`` with the bytes as base64.
    case callWithBytes(method: String, callbackId: Int, arguments: JSONText, bytes: [ArgumentBytes])
    /// Swift stopped waiting for its call `callbackId` of a page handler (cancelled, timed out, or
    /// a stream left early). Keystone's runtime drops the handler's later answers and aborts the
    /// `signal` of its responder; dsbridge.js and WebViewJavascriptBridge have no way to hear it.
    case cancel(callbackId: Int)
    /// A named event for the page's listeners (`dsBridge.on(name, fn)`). Only Keystone's page
    /// runtime has listeners; a dsbridge.js page does not receive events.
    case event(name: String, value: JSONText)
}
