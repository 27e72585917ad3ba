// ReplayTests.swift — traces the demo's calls page wrote in the real engine, through each host, with
// values (Tests/Trace/trace.sh records them), replayed in memory against the demo's own interfaces.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("A real engine's trace, replayed in memory", .timeLimit(.minutes(1)))
struct ReplayTests {
    static let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Trace")

    /// The committed recordings, one per host, and those a run of Tests/Trace/trace.sh has just
    /// made (in `KEYSTONE_REPLAY_TRACES`, when it runs this suite).
    static var recordings: [URL] {
        let folders = [traces] + (ProcessInfo.processInfo.environment["KEYSTONE_REPLAY_TRACES"].map { [URL(fileURLWithPath: $0)] } ?? [])
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.pathExtension == "jsonl" }.sorted { $0.path < $1.path }
        }
    }

    /// The demo's Keystone, as keystone-demo runs the calls page; `changing` registers in place of
    /// the interface under its namespace.
    static func demo(changing: (namespace: String, interface: any BridgeInterface)? = nil) throws -> Keystone {
        let keystone = Keystone()
        try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())
        try keystone.register(HostInterface(evaluate: { _, _ in .null }, terminate: { _ in }, terminations: { 0 }), namespace: "host")
        if let changing {
            _ = keystone.removeInterface(namespace: changing.namespace)
            try keystone.register(changing.interface, namespace: changing.namespace)
        }
        return keystone
    }

    @Test(arguments: recordings) func everyAnswerAndCodeIsReproduced(recording: URL) async throws {
        let replay = try TraceReplay(contentsOf: recording)
        let calls = replay.records.filter { $0.kind == .call && !($0.name ?? "").hasPrefix("_dsb.") }
        #expect(calls.count > 20, "\(recording.lastPathComponent)")
        #expect(calls.allSatisfy { $0.value != nil || $0.code == BridgeError.Code.limitExceeded.rawValue }, "a trace with values")
        // Only what the Keystone refused unread for its size or depth is not made again.
        let unreplayable = replay.unreplayable()
        #expect(unreplayable.count == 3 && unreplayable.allSatisfy { replay.records[$0].code == BridgeError.Code.limitExceeded.rawValue })
        let differences = await replay.replay(against: try Self.demo())
        #expect(differences.isEmpty, "\(recording.lastPathComponent): \(differences)")
    }

    @Test(arguments: recordings) func aChangeThatAltersOneAnswerFailsTheReplayOnThatCall(recording: URL) async throws {
        struct Ops: BridgeInterface {
            func exposeMethods(to methods: inout MethodList) {
                methods.sync("mul") { (pair: [Double]) in pair[0] * pair[1] + 1 }
            }
        }
        let replay = try TraceReplay(contentsOf: recording)
        let differences = await replay.replay(against: try Self.demo(changing: ("math.basic.ops", Ops())))
        let record = try #require(replay.records.firstIndex { $0.name == "math.basic.ops.mul" })
        #expect(differences.map(\.description) == ["math.basic.ops.mul (record \(record)): recorded value 42, replayed value 43"])
    }
}
