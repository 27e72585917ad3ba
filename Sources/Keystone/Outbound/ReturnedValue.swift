// ReturnedValue.swift — the page's `_dsb.returnValue`, decoded into what a Swift call asked for.
import Foundation

/// The part of `_dsb.returnValue` needed to find the call it answers.
struct ReturnHeader: Decodable, Sendable {
    var id: Int
    var complete: Bool?
}

/// A page handler's answer, decoded into the type the Swift caller asked for.
struct ReturnedValue<Value: Decodable>: Decodable {
    /// The value; `nil` when the page sent no `data` (a handler that returned `undefined`).
    var value: Value?
    /// An error the page reported instead of a value.
    var error: BridgeError?

    private enum CodingKeys: String, CodingKey {
        case data
        case error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try container.decodeIfPresent(BridgeError.self, forKey: .error)
        value = error == nil && container.contains(.data) ? try container.decode(Value.self, forKey: .data) : nil
    }

    /// Decodes the `_dsb.returnValue` message `answer` (`{"id", "data", "complete", "error"}`) as
    /// the result of `method`.
    static func decode(_ answer: Data?, serializer: any JSONSerializer, method: String) -> Result<Value, BridgeError> {
        func invalid(_ error: any Error) -> Result<Value, BridgeError> {
            .failure(BridgeError(code: .invalidResult, message: "the result of \"\(method)\" does not decode: \(describeDecodingFailure(error, in: "data"))"))
        }
        let returned: ReturnedValue<Value>
        do {
            returned = try serializer.decode(ReturnedValue<Value>.self, fromData: answer)
        } catch {
            return invalid(error)
        }
        if let error = returned.error { return .failure(error) }
        if let value = returned.value { return .success(value) }
        do {
            return .success(try serializer.decode(Value.self, fromData: nil))
        } catch {
            return invalid(error)
        }
    }
}
