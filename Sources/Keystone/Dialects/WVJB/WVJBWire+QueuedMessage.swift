// WVJBWire+QueuedMessage.swift — one message from WVJB's queue, read so that a bad value spoils
// only its own message.
extension WVJBWire {
    /// One queued message. `data` and `responseData` are `.some(nil)` when absent or `null`, and
    /// `nil` when present but not decodable (a lone surrogate): that message is refused alone, and
    /// the rest of the queue goes on.
    struct QueuedMessage: Decodable {
        var handlerName: String?
        var callbackId: String?
        var responseId: String?
        var data: JSONValue??
        var responseData: JSONValue??
        /// `"wvjb"` in the marker Keystone's own WVJB page script sends first.
        var keystone: String?

        private enum CodingKeys: String, CodingKey {
            case handlerName, callbackId, responseId, data, responseData, keystone
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            handlerName = try? container.decodeIfPresent(String.self, forKey: .handlerName)
            callbackId = try? container.decodeIfPresent(String.self, forKey: .callbackId)
            responseId = try? container.decodeIfPresent(String.self, forKey: .responseId)
            data = Self.value(container, .data)
            responseData = Self.value(container, .responseData)
            keystone = try? container.decodeIfPresent(String.self, forKey: .keystone)
        }

        private static func value(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> JSONValue?? {
            guard container.contains(key) else { return .some(nil) }
            guard let value = try? container.decode(JSONValue.self, forKey: key) else { return nil }
            return .some(value == .null ? nil : value)
        }
    }
}
