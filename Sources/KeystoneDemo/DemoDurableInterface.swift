// DemoDurableInterface.swift — the demo's durable work (documented in Docs/Demo.md).
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Namespace `durable`: work worth doing exactly once, for durable calls (`invoke`'s `durable`):
/// `increment` takes a second, then adds one to the count under its key and returns it; `count`
/// says what the count is, so a page can tell whether the work ran once. `submit` does the same for
/// a report with a photo's and a thumbnail's bytes inside it, and answers with the count and each
/// one's length and byte sum. `callPage`, durable by
/// default, makes a durable Swift call of the page's handler `method` and answers with the
/// answer of whichever document of the origin answers it. `sendPhoto` counts under its key, then
/// makes a durable Swift call of the page's handler `durable.photo` with a photo's bytes (70,000
/// bytes of `(i * 7) & 255`) and answers with the handler's answer.
final class DurableInterface: BridgeInterface, Sendable {
    /// What `submit` takes: bytes inside a value.
    struct Report: Codable, Sendable {
        var key: String
        var photo: Data
        var thumbnail: Data
    }

    private let counts = Locked<[String: Int]>([:])
    /// A durable Swift call (`Keystone.call(_:arguments:as:durable:)`) of the page (web view) that
    /// asked; fails once that page has gone.
    private let callDurably: @Sendable (PageID, String, [any Encodable & Sendable]) async throws -> JSONValue

    init(callDurably: @escaping @Sendable (PageID, String, [any Encodable & Sendable]) async throws -> JSONValue) {
        self.callDurably = callDurably
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.async("increment") { [counts] (key: String) async throws -> Int in
            try await Task.sleep(for: .seconds(1))
            return counts.withLock { counts in
                counts[key, default: 0] += 1
                return counts[key] ?? 0
            }
        }
        methods.sync("count") { [counts] (key: String) in counts.withLock { $0[key] ?? 0 } }
        methods.async("submit") { [counts] (report: Report) async throws -> [Int] in
            try await Task.sleep(for: .seconds(1))
            let count = counts.withLock { counts in
                counts[report.key, default: 0] += 1
                return counts[report.key] ?? 0
            }
            return [count, report.photo.count, report.photo.reduce(0) { $0 + Int($1) }, report.thumbnail.count, report.thumbnail.reduce(0) { $0 + Int($1) }]
        }
        methods.async("callPage") { [callDurably] (call: NativeInterface.Call, context: CallContext) async throws -> JSONValue in
            try await callDurably(context.pageID, call.method, call.args)
        }
        methods.async("sendPhoto") { [counts, callDurably] (key: String, context: CallContext) async throws -> JSONValue in
            counts.withLock { $0[key, default: 0] += 1 }
            return try await callDurably(context.pageID, "durable.photo", [Data((0..<70_000).map { UInt8(($0 * 7) & 255) })])
        }
        methods.durable("callPage")
    }
}
