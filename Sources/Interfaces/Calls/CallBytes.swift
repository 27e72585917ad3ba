// CallBytes.swift — the bytes a call moves beside its JSON: a `Data` argument the page sent as raw
// bytes, and `Data` results that go back as raw bytes.
import Foundation

/// The raw bytes of one call, carried beside its JSON by the call's ``CallContext``.
///
/// Keystone's page runtime sends a `Data` argument as raw bytes over the host's byte channel, and
/// takes a `Data` result the same way. ``Invoker``'s closures keep their JSON shape, so a dispatcher
/// or middleware written outside the package is unchanged: ``MethodList`` reads the argument from
/// here when the method's input is `Data`, and hands a `Data` result here, returning
/// ``placeholder`` as its JSON; the hub takes it from here and sends it as bytes.
package final class CallBytes: Sendable {
    /// The bytes the page sent as the call's argument, when it sent them as bytes.
    package let argument: Data?
    /// Whether the page takes `Data` results as bytes (Keystone's runtime, on a host with a byte
    /// channel); otherwise a `Data` result is base64 in JSON, as for every other page.
    package let takesResults: Bool
    /// The origin of the frame that made the call, as the engine reported it: a result's ticket is
    /// issued to it.
    package let origin: String?
    private let held = Locked<Data?>(nil)

    package init(argument: Data?, takesResults: Bool, origin: String?) {
        self.argument = argument
        self.takesResults = takesResults
        self.origin = origin
    }

    /// Holds `bytes`, a result of the method, for the hub to send as bytes; returns the JSON the
    /// invoker returns in its place. A multi-response method's writes wait for each other, so one
    /// result is held at a time.
    package func hold(_ bytes: Data) -> Data {
        held.withLock { $0 = bytes }
        return Self.placeholder
    }

    /// The result held, if any, taken.
    package func take() -> Data? {
        held.withLock { held in
            defer { held = nil }
            return held
        }
    }

    /// The JSON an invoker returns for a result it handed over as bytes.
    package static let placeholder = Data("null".utf8)
}
