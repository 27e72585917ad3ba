// DemoPagesInterface.swift — the demo's web views on its one Keystone (documented in Docs/Demo.md).
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Namespace `pages`: the pages (web views) of the demo's Keystone, as `keystone-demo --windows N`
/// opens them. `count` says how many there are; `whoami` the calling page's id and its document's
/// origin; `broadcast` sends an event to every page (a name, or `{name, value}`) and answers how many
/// it went to; `emit` sends `{name, value}` to one page (`page`) or an origin's pages (`origin`) and
/// answers the ids it went to; `callEach` calls the page handler `method` in every page at once and
/// answers each page's value (or error code) by its id.
struct PagesInterface: BridgeInterface {
    /// The demo's Keystone; `nil` once it has gone.
    let keystone: @Sendable () -> Keystone?

    struct Caller: Codable, Sendable {
        var page: Int
        var origin: String?
    }

    struct Event: Codable, Sendable {
        var name: String
        var value: JSONValue?
        var page: Int?
        var origin: String?
    }

    struct Answer: Codable, Sendable {
        var value: JSONValue?
        var code: Int?
    }

    func exposeMethods(to methods: inout MethodList) {
        let keystone = keystone
        methods.sync("count") { () -> Int in keystone()?.pages.count ?? 0 }
        methods.sync("whoami") { (context: CallContext) in Caller(page: context.pageID.rawValue, origin: context.frame.origin) }
        methods.sync("broadcast") { (event: JSONValue) throws -> Int in
            var (name, value): (String?, JSONValue) = (nil, .null)
            if case .string(let named) = event { name = named }
            if case .object(let members) = event, case .string(let named) = members["name"] { (name, value) = (named, members["value"] ?? .null) }
            guard let name else { throw BridgeError(code: .invalidArgument, message: "broadcast takes an event's name, or {name, value}") }
            return try keystone()?.emit(name, value, to: .all).count ?? 0
        }
        methods.sync("emit") { (event: Event) throws -> [Int] in
            let pages: PageSelection =
                if let page = event.page { .pages([PageID(rawValue: page)]) } else if let origin = event.origin { .origin(origin) } else { .all }
            return try keystone()?.emit(event.name, event.value ?? .null, to: pages).map(\.rawValue) ?? []
        }
        methods.async("callEach") { (call: NativeInterface.Call) async -> [String: Answer] in
            guard let keystone = keystone() else { return [:] }
            let outcomes = await keystone.call(call.method, arguments: call.args, as: JSONValue.self, on: .all)
            return Dictionary(
                uniqueKeysWithValues: outcomes.map { id, outcome in
                    switch outcome {
                    case .success(let value): (String(id.rawValue), Answer(value: value))
                    case .failure(let error): (String(id.rawValue), Answer(code: error.code.rawValue))
                    }
                })
        }
    }
}
