// JSONValue+Description.swift — a JSON value prints as the JSON it stands for.
import Foundation

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, as Keystone's serializer writes it: `print(value)` and
    /// string interpolation show `{"name":"Ada","tags":[1,2]}`, not the enumeration's cases. A number
    /// JSON cannot write (infinity, NaN) shows as `null`.
    public var description: String {
        (try? DefaultJSONSerializer().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text, its members in their order.
    public var description: String { JSONValue.object(self).description }
}
