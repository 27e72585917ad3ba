// DurableBuiltIns.swift — the built-ins of durable calls: `_dsb.recovered` and `_dsb.acknowledge`,
// which the durable room adds to the protocol's own methods.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// What a later document of an origin asks about the durable calls of earlier ones: `recovered`
/// hands it their outcomes once none of them runs any more, and `acknowledge` lets go of those it
/// has taken. Registered beside ``BuiltInInterface`` under `_dsb`, in the hub's built-ins'
/// registry, and dispatched as they are.
struct DurableBuiltIns: BridgeInterface {
    let stage: DurableStage

    func exposeMethods(to methods: inout MethodList) {
        let stage = stage
        methods.async("recovered") { (context: CallContext) async throws -> [RecoveredCall] in
            guard let pageLoad = (context.page as? any PageLoadBound)?.pageLoad else {
                throw BridgeError(code: .failed, message: "a built-in method ran outside a Keystone's call")
            }
            guard let origin = context.frame.origin else { throw Self.noOrigin }
            guard let handed = await stage.recover(origin: origin, pageLoad: pageLoad) else {
                throw BridgeError(code: .pageGone, message: "the page that made the call has gone")
            }
            return handed.map(RecoveredCall.init)
        }
        methods.sync("acknowledge") { (acknowledgement: Acknowledgement, context: CallContext) in
            guard let origin = context.frame.origin else { throw Self.noOrigin }
            stage.acknowledge(acknowledgement.keys, origin: origin)
            return ""
        }
    }

    /// The refusal to a page without an origin to keep its calls for.
    private static let noOrigin = BridgeError(code: .notAllowed, message: "durable calls are kept for their page's origin, and this page has none")

    /// One durable call of an earlier document, as `_dsb.recovered` answers it: its key, method, and
    /// its value (none for a method that returns nothing) or its error.
    struct RecoveredCall: Encodable, Sendable {
        var key: String
        var method: String
        var value: JSONValue?
        var error: BridgeError?

        init(_ recovered: DurableRecovered) {
            key = recovered.key
            method = recovered.method
            switch recovered.outcome {
            case .value(let json): value = json.flatMap { try? DefaultJSONSerializer().decode(JSONValue.self, from: $0.bytes) }
            case .failure(let failure): error = failure
            }
        }
    }

    /// What `_dsb.acknowledge` says: the keys of the outcomes the page has taken.
    struct Acknowledgement: Decodable, Sendable {
        var keys: [String]
    }
}
