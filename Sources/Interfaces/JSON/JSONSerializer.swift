// JSONSerializer.swift — how values become JSON bytes and back: the protocol every serializer implements.
import Foundation

/// Turns typed values into JSON text and back.
///
/// Every value that crosses the bridge passes through one serializer: a page's argument is decoded
/// straight from the text the page sent into the method's input type, and results are encoded once.
///
/// An implementation must:
/// - produce UTF-8 JSON text from ``encode(_:)`` (Keystone checks text bound for a script and
///   answers with ``BridgeError/Code-swift.struct/unencodableValue`` when it is not JSON);
/// - throw from ``decode(_:from:)`` rather than trap on any input, however malformed;
/// - be safe to call from many threads at once.
public protocol JSONSerializer: Sendable {
    /// Decodes a value of `type` from UTF-8 JSON text.
    func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value
    /// Encodes `value` as UTF-8 JSON text.
    func encode<Value: Encodable>(_ value: Value) throws -> Data
}

extension JSONSerializer {
    /// Decodes `Value` from the bytes of a `data` value, a missing one read as JSON `null`.
    package func decode<Value: Decodable>(_ type: Value.Type, fromData data: Data?) throws -> Value {
        try decode(type, from: data ?? Data("null".utf8))
    }
}
