// InMemoryPage+Durable.swift — durable calls as Keystone's runtime makes them: under the page's
// key, their outcomes taken back after the page goes.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

extension InMemoryPage {
    /// Keystone's runtime's `dsBridge.invoke(method, data, { durable: key })`: a call that runs once
    /// under `key` for the page's origin, whatever becomes of the page: sent again under the same
    /// key (from this document or a later one), it does not run again but gets the same outcome.
    /// As the runtime does, the page acknowledges the outcome once it has it, and it is let go.
    public func invoke<Result: Decodable & Sendable>(
        _ method: String, _ data: some Encodable & Sendable = JSONValue.null, durable key: String, as: Result.Type = Result.self
    ) async throws -> Result {
        let (callback, results) = try openCallback()
        let arguments = try encodeCall(data, callback: callback, durable: key)
        let answer = hub.refusal(of: frame) ?? hub.handleMessage(method, arguments: arguments, frame: frame)
        let started = settle(callback, results, by: answer, inline: false)
        do {
            let result = try await firstResult(of: method, started, as: Result.self, nothing: nil)
            acknowledge([key])
            return result
        } catch let error as BridgeError where error.code != .cancelled {
            acknowledge([key])
            throw error
        }
    }

    /// Keystone's runtime's `dsBridge.recovered()`: the durable calls earlier documents of this
    /// page's origin made (each `{key, method, value}` or `{key, method, error}`), once none of
    /// them runs any more. As the runtime does, the page acknowledges them once it has them.
    public func recovered() async throws -> [JSONValue] {
        let calls = try await invoke("_dsb.recovered", as: [JSONValue].self)
        struct Keyed: Decodable { var key: String }
        acknowledge((try? serializer.decode([Keyed].self, from: serializer.encode(calls)))?.map(\.key) ?? [])
        return calls
    }

    /// Tells the hub the page has taken the outcomes of the durable calls under `keys`.
    func acknowledge(_ keys: [String]) {
        guard !keys.isEmpty, let arguments = try? encodeCall(["keys": keys], callback: nil) else { return }
        _ = hub.refusal(of: frame) ?? hub.handleMessage("_dsb.acknowledge", arguments: arguments, frame: frame)
    }
}
