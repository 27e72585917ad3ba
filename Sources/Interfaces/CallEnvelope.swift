// CallEnvelope.swift — the page's `{"data": …, "_dscbstub": …}` wrapper, decoded in one pass.
import Foundation

/// The wrapper a page sends with every call, decoded straight into the method's input type.
///
/// Decoding never fails because of `data` alone: a bad argument is kept as `input`'s failure, so the
/// callback name is still known and the failure can be answered through it.
package struct CallEnvelope<Input: Decodable>: Decodable {
    package var callbackStub: String?
    /// The decoded `data`; `nil` when the wrapper has no `data` key at all.
    package var input: Result<Input, any Error>?

    private enum CodingKeys: String, CodingKey {
        case data
        case callbackStub = "_dscbstub"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        callbackStub = try container.decodeIfPresent(String.self, forKey: .callbackStub)
        guard container.contains(.data) else {
            input = nil
            return
        }
        do {
            input = .success(try container.decode(Input.self, forKey: .data))
        } catch {
            input = .failure(error)
        }
    }
}

extension CallEnvelope {
    /// Decodes `arguments` into the input, treating a missing `data` as JSON `null`.
    package static func decode(
        _ arguments: Data,
        with serializer: any JSONSerializer
    ) -> (callbackStub: String?, input: Result<Input, DecodeFailure>) {
        let envelope: CallEnvelope
        do {
            envelope = try serializer.decode(CallEnvelope.self, from: arguments)
        } catch {
            return (nil, .failure(.malformedMessage(describeDecodingFailure(error))))
        }
        let input: Result<Input, any Error> =
            envelope.input ?? Result { try serializer.decode(Input.self, from: Data("null".utf8)) }
        return (envelope.callbackStub, input.mapError { .invalidArgument(describeDecodingFailure($0)) })
    }
}

/// A value that decodes from any JSON: the input of a method that takes no argument.
package struct NoInput: Decodable, Sendable {
    package init(from decoder: any Decoder) throws {}
}

/// Describes a decoding failure by where it happened and what was expected, never by echoing the
/// payload itself.
package func describeDecodingFailure(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ context: DecodingError.Context) -> String {
        let rendered = context.codingPath.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return rendered.isEmpty ? "the top level" : rendered
    }
    switch error {
    case .typeMismatch(let type, let context):
        return "expected \(type) at \(path(context))"
    case .valueNotFound(let type, let context):
        return "expected \(type) but found null at \(path(context))"
    case .keyNotFound(let key, let context):
        return "missing key \"\(key.stringValue)\" at \(path(context))"
    case .dataCorrupted(let context):
        return "\(context.debugDescription) (at \(path(context)))"
    @unknown default:
        return String(describing: error)
    }
}
