// InProcessRows.swift — the in-process rows of the benchmark table, each timed beside its floor.
import Dispatch
import Foundation
import Keystone
import KeystoneHost

/// One row of the table: what was measured, Keystone's figure, the floor's, and the bar it is held to.
struct BenchmarkRow {
    var path: String
    var keystone: Double
    var floor: Double?
    var unit: Unit
    /// The most Keystone may cost: as a ratio to the floor, or in the unit itself.
    var target: Target?

    enum Unit { case seconds, milliseconds }
    enum Target {
        case ratio(Double)
        case absolute(Double)
    }

    /// The median of ratios taken round by round, when Keystone and its floor ran in the same
    /// rounds: a disturbance that slows one round slows both sides of its ratio.
    var pairedRatio: Double?

    var ratio: Double? { pairedRatio ?? floor.map { keystone / $0 } }

    var meetsTarget: Bool? {
        switch target {
        case .ratio(let bar): ratio.map { $0 <= bar }
        case .absolute(let bar): keystone <= bar
        case nil: nil
        }
    }
}

/// The in-process rows: a tiny sync call, an isolated async call until its script is handed to the
/// page, an untyped (`JSONValue`) echo, each with its floor, rounds interleaved.
enum InProcessRows {
    static func measure() throws -> [BenchmarkRow] {
        let keystone = try SyncCallWorkload.makeKeystone()
        let tiny = try SyncCallWorkload(items: 1, keystone: keystone)
        let (tinyFloor, tinyCall) = try TimedTable.measurePair(iterations: 20_000, floor: tiny.floor, subject: tiny.call)

        let handOff = try AsyncHandOff()
        let (asyncFloor, asyncCall) = try TimedTable.measurePair(iterations: 5_000, floor: tiny.floor, subject: handOff.call)

        let untyped = try SyncCallWorkload(items: 10, keystone: keystone)
        let (typedFloor, untypedCall) = try TimedTable.measurePair(iterations: 4_000, floor: untyped.floor, subject: untyped.untypedCall)

        return [
            BenchmarkRow(path: "in process: tiny sync call (\(tiny.dataText.count) B)", keystone: tinyCall, floor: tinyFloor, unit: .seconds, target: .ratio(1.25)),
            BenchmarkRow(path: "in process: async call until handed on", keystone: asyncCall, floor: asyncFloor, unit: .seconds, target: .absolute(10e-6)),
            BenchmarkRow(
                path: "in process: JSONValue echo (\(untyped.dataText.count) B)", keystone: untypedCall, floor: typedFloor, unit: .seconds, target: .ratio(1.5)
            ),
        ]
    }
}

/// An asynchronous call made alone, timed until the evaluator hands its result's script to the
/// page: the page's call, the hop to the method's task, the result, the batch.
final class AsyncHandOff: EvaluationTarget, @unchecked Sendable {
    private let keystone: Keystone
    private let handedOn = DispatchSemaphore(value: 0)
    private let arguments: String

    /// With `takingBytes`, the call is made as Keystone's runtime makes it on a host with a byte
    /// channel (`dsBridge.stream` asks for results' `Data` as parts): the path every such call takes.
    init(takingBytes: Bool = false) throws {
        keystone = try SyncCallWorkload.makeKeystone()
        arguments = takingBytes ? #"{"data":1,"_dscbstub":"dscb1_b","_dsparts":[]}"# : #"{"data":1,"_dscbstub":"dscb1_b"}"#
        keystone.attach(to: self)
        if takingBytes { keystone.serveBytes(over: URLSchemeTransport.keystone) }
        _ = keystone.handlePrompt("_dsbridge=_dsb.dsinit", defaultText: #"{"data":{"runtime":"keystone"}}"#)
    }

    func evaluate(_ batch: ScriptBatch) {
        handedOn.signal()
    }

    /// One call, returned once its script is handed on.
    func call() -> Int {
        let answer = keystone.handleMessage("bench.echoAsync", arguments: arguments)
        handedOn.wait()
        return answer.utf8.count
    }
}
