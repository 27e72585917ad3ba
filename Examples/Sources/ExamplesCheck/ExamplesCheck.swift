// ExamplesCheck.swift — builds a Keystone from the example parts and checks each one takes effect.
import CustomParts
import Foundation
import Keystone
import KeystoneHost
import KeystoneTesting

/// Methods for the checks.
struct Profile: BridgeInterface {
    struct Card: Codable, Sendable {
        var name: String
        var age: Int
    }

    func exposeMethods(to methods: inout MethodList) {
        methods.sync("card") { Card(name: "Ada", age: 36) }
        methods.sync("caller") { (_: JSONValue?, context: CallContext) in context.frame.origin ?? "unknown" }
        methods.async("greet") { (name: String, context: CallContext) async throws -> String in
            try await context.page.call("page.greet", name, as: String.self)
        }
    }
}

struct Admin: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("wipe") { true }
    }
}

/// Prints one line per check and counts the failures.
@MainActor
final class Report {
    private(set) var failures = 0

    func callAsFunction(_ condition: Bool, _ what: String) {
        print("\(condition ? "ok" : "not ok") - \(what)")
        if !condition { failures += 1 }
    }
}

@main
struct ExamplesCheck {
    static func main() async {
        let check = Report()
        do {
            try await run(check)
        } catch {
            check(false, "ran without an error (\(error))")
        }
        print("examples: \(check.failures == 0 ? "every part took effect" : "\(check.failures) failed")")
        exit(check.failures == 0 ? 0 : 1)
    }

    @MainActor
    static func run(_ check: Report) async throws {
        let serializer = SortedKeysSerializer()
        let audit = AuditMiddleware(closing: "admin")
        let evaluator = ImmediateEvaluator()
        let keystone = Keystone(
            components: KeystoneComponents(
                serializer: serializer,
                registry: AllowListRegistry(allowing: ["profile", "admin"]),
                dispatcher: AnyKindDispatcher(),
                middleware: [audit],
                evaluator: evaluator
            ))
        try keystone.register(Profile(), namespace: "profile")
        try keystone.register(Admin(), namespace: "admin")
        do {
            try keystone.register(Profile(), namespace: "elsewhere")
            check(false, "the registry refuses a namespace that is not on its list")
        } catch {
            check(error.code == .invalidRegistration, "the registry refuses a namespace that is not on its list")
        }

        let page = InMemoryPage(hub: keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"))
        let transcript = ScriptTranscript(passingTo: page)
        keystone.attach(to: transcript)
        page.register("page.greet") { arguments in
            guard case .string(let name) = arguments.first else { return .null }
            return .string("hello \(name)")
        }
        page.initialize()

        check(
            page.prompt("profile.card", argumentText: #"{"data":null}"#) == #"{"code":0,"data":{"age":36,"name":"Ada"}}"#,
            "the serializer writes the result with its keys sorted")
        check(serializer.encodeCount > 0, "the serializer encoded it")
        check((try? page.call("profile.caller", as: String.self)) == "https://app.example", "a method reads its caller's origin from its context")
        let card = try await page.callAsync("profile.card", as: Profile.Card.self)
        check(card.name == "Ada", "the dispatcher answers a synchronous method called with a callback")
        check((try? page.call("admin.wipe", as: Bool.self)) == nil, "the middleware refuses the closed namespace")
        check(
            try await page.callAsync("profile.greet", "Grace", as: String.self) == "hello Grace",
            "a method calls back into the page that called it")
        check(transcript.recorded.contains { $0.contains("_handleMessageFromNative") }, "the target received the scripts a web view would run")
        check(evaluator.evaluationCount == transcript.recorded.count, "the evaluator sent each group at once")
        check(audit.trail.contains("refused admin.wipe from https://app.example"), "the middleware kept its audit trail")
        try await checkToyHost(check)
        try checkAccessFile(check)
    }

    /// A host of a stranger's, built on the host kit's public API alone, does what Keystone's own
    /// hosts do (HostSessionTests checks the same of the kit, and the real-engine suite of the hosts).
    @MainActor
    static func checkToyHost(_ check: Report) async throws {
        let keystone = Keystone(components: KeystoneComponents(evaluator: ImmediateEvaluator()))
        let host = try ToyHost(hub: keystone)
        check(host.documentStartScripts.first?.contains("window._dswk = true") == true, "the toy host injects the kit's page-world script")
        host.engineCommittedDocument()
        host.isolatedWorldPosted("start doc1", origin: "https://toy.example")
        _ = keystone.handlePrompt("_dsbridge=_dsb.dsinit", defaultText: #"{"data":{"runtime":"keystone","version":1}}"#, frame: CallerFrame(isMainFrame: true, origin: "https://toy.example"))
        try keystone.emit("tick", 1)
        check(host.engine.evaluations.isEmpty, "a batch waits for the engine's thread")
        host.engine.turn()
        check(
            host.engine.evaluations.count == 1 && host.engine.evaluations[0].script.contains("doc1") && !host.engine.evaluations[0].readsValue,
            "a batch runs on the engine's thread, guarded for its document")
        try keystone.emit("tick", 2)
        host.engineCommittedDocument()  // the page changed before the engine's thread ran the batch
        host.engine.turn()
        check(host.engine.evaluations.count == 1, "a batch for a page load that has gone runs nowhere")
        host.webProcessCrashed()
        host.webProcessCrashed()
        check(host.engine.reports.map(\.reason) == [.crashed, .crashed], "the app hears of each end of the web process")
        check(host.engine.waitingDelays == [.zero, .milliseconds(500)], "the reloads are scheduled, backing off")
        host.engine.turn()
        check(host.engine.reloads == 2, "the page is reloaded")
        check(!host.mainFrameNavigates(to: "https://__wvjb_queue_message__", origin: nil), "a DSBridge page makes no signal")

        let wvjb = try ToyHost(hub: Keystone(), options: HostOptions(injectsPageRuntime: false, wire: .webViewJavascriptBridge))
        wvjb.engine.answer("(function(q){", with: #""[]""#)
        check(wvjb.mainFrameNavigates(to: "https://__wvjb_queue_message__", origin: "https://toy.example"), "WebViewJavascriptBridge's signal is cancelled")
        check(wvjb.engine.evaluations.first?.readsValue == true, "and its queue is fetched")
    }
}
