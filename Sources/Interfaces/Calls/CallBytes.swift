// CallBytes.swift — the bytes a call moves beside its JSON: a `Data` argument the page sent as raw
// bytes, and `Data` results that go back as raw bytes.
import Foundation

/// The raw bytes of one call, carried beside its JSON by the call's ``CallContext``.
///
/// Keystone's page runtime sends a `Data` argument as raw bytes over the host's byte channel, and
/// takes a `Data` result the same way. ``Invoker``'s closures keep their JSON shape, so a dispatcher
/// or middleware written outside the package is unchanged: ``MethodList`` reads the argument from
/// here when the method's input is `Data`, and hands a `Data` result here, returning
/// ``placeholder`` as its JSON; the hub takes it from here and sends it as bytes. A ``ByteStream``
/// input is read from here too, as the page sends it.
package final class CallBytes: Sendable {
    /// The bytes the page sent as the call's argument, when it sent them as bytes.
    package let argument: Data?
    /// The stream of bytes the page is sending as the call's argument, for a method whose input is
    /// a ``ByteStream``; the hub delivers the page's chunks to it.
    package let stream: ByteStreamBuffer?
    /// Whether the page takes `Data` results as bytes (Keystone's runtime, on a host with a byte
    /// channel); otherwise a `Data` result is base64 in JSON, as for every other page.
    package let takesResults: Bool
    /// The origin of the frame that made the call, as the engine reported it: a result's ticket is
    /// issued to it.
    package let origin: String?
    /// One lock for all that changes: one allocation beside the object, made with every call that
    /// asks for bytes.
    private let state = Locked(State())

    /// The result held for the hub; the results sent as bytes that the page has not fetched yet,
    /// and a writer waiting for room.
    private struct State {
        var held: Data?
        var outstanding = 0
        var waiter: CheckedContinuation<Void, Never>?
        var isCancelled = false
    }

    package init(argument: Data?, stream: ByteStreamBuffer? = nil, takesResults: Bool, origin: String?) {
        self.argument = argument
        self.stream = stream
        self.takesResults = takesResults
        self.origin = origin
    }

    /// Holds `bytes`, a result of the method, for the hub to send as bytes; returns the JSON the
    /// invoker returns in its place. A multi-response method's writes wait for each other, so one
    /// result is held at a time.
    package func hold(_ bytes: Data) -> Data {
        state.withLock { $0.held = bytes }
        return Self.placeholder
    }

    /// The result held, if any, taken.
    package func take() -> Data? {
        state.withLock { state in
            defer { state.held = nil }
            return state.held
        }
    }

    /// A result went to the page as bytes, to be fetched.
    package func sent() {
        state.withLock { $0.outstanding += 1 }
    }

    /// The page fetched a result's bytes (or its ticket went): a writer waiting for room goes on.
    package func fetched() {
        let waiter = state.withLock { flow in
            flow.outstanding -= 1
            defer { flow.waiter = nil }
            return flow.waiter
        }
        waiter?.resume()
    }

    /// Whether a writer waits for room now.
    package var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    /// Returns once fewer than `window` results wait for the page to fetch them, or the task is
    /// cancelled: a producer of `Data` never runs ahead of the page by more than `window` results.
    package func waitForRoom(window: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isReady = state.withLock { flow in
                    guard flow.outstanding >= window, !flow.isCancelled else { return true }
                    flow.waiter = continuation
                    return false
                }
                if isReady { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { flow in
                flow.isCancelled = true
                defer { flow.waiter = nil }
                return flow.waiter
            }
            waiter?.resume()
        }
    }

    /// The JSON an invoker returns for a result it handed over as bytes.
    package static let placeholder = Data("null".utf8)
}
