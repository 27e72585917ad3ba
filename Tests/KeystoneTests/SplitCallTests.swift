// SplitCallTests.swift — calls a host hands the hub already split, held to the same rules as text.
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("Calls a host hands over split", .timeLimit(.minutes(1)))
struct SplitCallTests {
    let keystone: Keystone
    let frame = CallerFrame(isMainFrame: true, origin: "https://app.example")

    init() throws {
        keystone = Keystone(
            components: KeystoneComponents(
                evaluator: BatchingEvaluator(clock: ManualClock(), window: .zero), limits: BridgeLimits(messageBytes: 64, nestingDepth: 4)))
        try keystone.register(Calculator(), namespace: "math")
    }

    func call(_ method: String, _ data: String?, callback: String? = nil, inline: Bool = false) -> CallAnswer {
        keystone.handleCall(method, data: data.map { Data($0.utf8) }, callback: callback, acceptsInlineAnswer: inline, frame: frame)
    }

    func code(_ answer: CallAnswer) -> BridgeError.Code? {
        if case .failure(let error) = answer { error.code } else { nil }
    }

    @Test func aSynchronousCallIsAnsweredWithItsResult() {
        #expect(call("math.add", "[1,2]") == .result(Data("3".utf8), inline: false))
        #expect(call("math.nothing", nil) == .result(Data(), inline: false))
        #expect(call("math.add", "[1,2]", callback: "dscb1", inline: true) == .result(Data("3".utf8), inline: true))
    }

    @Test func anAsynchronousCallIsAcceptedAndAnsweredThroughItsCallback() {
        #expect(call("math.slowAdd", #"{"a":1,"b":2}"#, callback: "dscb1") == .accepted)
    }

    @Test func theSameAnswerAsThePromptsTextForEveryCall() {
        let cases: [(String, String?)] = [("math.add", "[1,2]"), ("math.pi", nil), ("math.missing", "1"), ("math.add", #""x""#)]
        for (method, data) in cases {
            let wrapper = data.map { #"{"data":"# + $0 + "}" } ?? "{}"
            #expect(call(method, data).text == keystone.handleMessage(method, arguments: wrapper, frame: frame))
        }
    }

    @Test(arguments: ["", "[1,2", "[1,2] x", "{'a':1}", "\u{0}"])
    func dataThatIsNotOneJSONValueIsRefusedAsMalformed(_ data: String) {
        #expect(code(call("math.add", data)) == .malformedMessage)
    }

    @Test func dataPastTheLimitsIsRefusedUnread() {
        #expect(code(call("math.add", "[[[[[1]]]]]")) == .limitExceeded)
        #expect(code(call("math.add", "[" + String(repeating: "1,", count: 40) + "1]")) == .limitExceeded)
        #expect(code(call(String(repeating: "m", count: 10_000), "1")) == .limitExceeded)
    }

    @Test func aCallbackNotOfTheRuntimesFormIsRefused() {
        #expect(code(call("math.slowAdd", #"{"a":1,"b":2}"#, callback: "alert(1)")) == .notAllowed)
        #expect(code(call("math.slowAdd", #"{"a":1,"b":2}"#, callback: "dscb" + String(repeating: "1", count: 300))) == .limitExceeded)
    }
}
