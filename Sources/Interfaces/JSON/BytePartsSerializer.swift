// BytePartsSerializer.swift — a serializer that writes each `Data` of a value as a part beside its JSON.
import Foundation

/// A serializer that moves a value's `Data` as parts beside its JSON: Keystone's two serializers.
/// A hub offers a page the byte channel only when its serializer is one.
package protocol BytePartsSerializer: JSONSerializer {
    /// Whether this instance moves parts: `false` for a Foundation coder given a data strategy of
    /// its own.
    var movesParts: Bool { get }
    /// Encodes `value`, each `Data` in it a part: the JSON, with a marker string in each part's
    /// place, and the parts (`nil` when it holds no `Data`).
    func encodeMovingParts<Value: Encodable>(_ value: Value) throws -> (json: Data, parts: ByteParts?)
    /// Decodes `type` from `json`, where a `Data` may be a number: the index of one of `parts`,
    /// the page's bytes sent beside the JSON. A `Data` written as base64 still reads as base64.
    func decode<Value: Decodable>(_ type: Value.Type, from json: Data, parts: [Data]) throws -> Value
}
