// ErrorAnswerTests.swift — every way a call can fail is answered with a code and a message.
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("Errors answered to the page", .timeLimit(.minutes(1)))
struct ErrorAnswerTests {
    let keystone: Keystone
    let page: InMemoryPage

    init() throws {
        (keystone, page) = makeBridge()
        try keystone.register(Calculator(), namespace: "math")
        try keystone.register(Failures.instance, namespace: "errors")
        try keystone.register(Counter(), namespace: "stream")
        page.initialize()
    }

    /// The answer's `code`, `data` and `error`, as a page reads them.
    func read(_ answer: String?) throws -> (code: Int, data: JSONValue?, error: BridgeError?) {
        struct Answer: Decodable { var code: Int; var data: JSONValue?; var error: BridgeError? }
        let decoded = try JSONDecoder().decode(Answer.self, from: Data(try #require(answer).utf8))
        return (decoded.code, decoded.data, decoded.error)
    }

    @Test(arguments: [
        ("nowhere.m", "no interface is registered under namespace \"nowhere\""),
        ("math.missing", "no method \"math.missing\""),
        ("missing", "no interface is registered under the empty namespace"),
        ("math..add", "\"math..add\" is not a method name: a part is empty or padded with white space"),
        (".add", "\".add\" is not a method name: a part is empty or padded with white space"),
        (" .add", "\".add\" is not a method name: a part is empty or padded with white space"),
        ("_dsb.unknown", "no method \"_dsb.unknown\""),
    ])
    func anUnknownMethodIsCodeMinusOneWithANotFoundError(_ method: String, _ message: String) throws {
        let answer = try read(page.prompt(method, argumentText: #"{"data":null}"#))
        #expect(answer.code == -1)
        #expect(answer.data == "")  // what dsbridge.js pages read today
        #expect(answer.error == BridgeError(code: .notFound, message: message))
    }

    @Test(arguments: ["_dsbridge=\u{301}x", "_dsbridge=\u{301}", "_dsbridge=\u{200D}math.add", "_dsbridge="])
    func everyPromptWithTheBridgesBytesIsAnswered(_ text: String) throws {
        #expect(BridgePrompt.matches(text))
        let answer = try read(keystone.handlePrompt(text, defaultText: #"{"data":[1,2]}"#))
        #expect(answer.code == -1)
        #expect(answer.error?.code == .notFound)
    }

    @Test func aPromptWithoutTheBridgesBytesIsNotTheBridges() {
        #expect(!BridgePrompt.matches("_dsbridge"))
        #expect(!BridgePrompt.matches("\u{301}_dsbridge=math.add"))
        #expect(keystone.handlePrompt("Your name?", defaultText: nil) == nil)
    }

    @Test func anAsyncCallOfAnUnknownMethodIsRefusedAndItsCallbackReleased() throws {
        let answer = try read(page.prompt("math.missing", argumentText: #"{"data":1,"_dscbstub":"dscb8"}"#))
        #expect(answer.error?.code == .notFound)
        #expect(page.receivedMessages == [.release(callback: "dscb8")])
    }

    @Test func anUndecodableArgumentNamesTheMethodAndWhatFailed() throws {
        let answer = try read(page.prompt("errors.needsInt", argumentText: #"{"data":"seven"}"#))
        #expect(answer.code == -1)
        #expect(answer.error?.code == .invalidArgument)
        #expect(answer.error?.message.hasPrefix(#"invalid argument for "errors.needsInt": expected Int at data"#) == true)
    }

    @Test func aNestedArgumentFailureSaysWhere() throws {
        let answer = try read(page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1},"_dscbstub":"dscb5"}"#))
        #expect(answer.error?.code == .invalidArgument)
        #expect(answer.error?.message.contains(#"missing key "b" at data"#) == true)
        #expect(page.receivedMessages == [.release(callback: "dscb5")])
    }

    @Test func aThrownBridgeErrorKeepsItsCodeAndMessage() throws {
        let error = #expect(throws: BridgeError.self) { try page.call("errors.fail", "out of paper", as: Int.self) }
        #expect(error == BridgeError(code: .init(rawValue: 1000), message: "out of paper"))
    }

    @Test func anAppErrorTypeChoosesItsOwnCode() throws {
        let error = #expect(throws: BridgeError.self) { try page.call("errors.signIn", as: Int.self) }
        #expect(error == BridgeError(code: .init(rawValue: 1001), message: "not signed in"))
    }

    @Test func anyOtherThrownErrorIsFailedWithItsDescription() throws {
        let error = #expect(throws: BridgeError.self) { try page.call("errors.unlucky", as: Int.self) }
        #expect(error == BridgeError(code: .failed, message: "unlucky"))
    }

    @Test func anAsyncFailureReachesTheCallbackAsEmptyDataPlusAnErrorObject() async throws {
        let error = await #expect(throws: BridgeError.self) {
            try await page.callAsync("errors.failLater", "too late", as: Int.self)
        }
        #expect(error == BridgeError(code: .init(rawValue: 1000), message: "too late"))
        let last = try #require(page.receivedMessages.last)
        // A dsbridge.js page's callback receives "" (as a sync failure's data) and ignores the
        // second argument; the script also deletes the callback.
        #expect(ScriptRenderer.render([last]).hasPrefix(#"try{window["dscb0"]("",{"code":1000,"message":"too late"})}"#))
        #expect(page.liveCallbacks.isEmpty)
    }

    @Test func anAsyncMethodCalledWithoutACallbackIsAccepted() throws {
        // DSBridge-Android runs it and drops its result; DSBridge-iOS refused it with code 3.
        let answer = try read(page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1,"b":2}}"#))
        #expect(answer.code == 0)
        #expect(answer.data == "")
        #expect(answer.error == nil)  // what it does is shown in FireAndForgetTests
    }

    @Test func callingASyncMethodAsynchronouslyIsRefusedAndItsCallbackReleased() throws {
        let answer = try read(page.prompt("math.add", argumentText: #"{"data":[1,2],"_dscbstub":"dscb3"}"#))
        #expect(answer.code == -1)
        #expect(answer.error?.code == .unsupportedCallKind)
        #expect(page.receivedMessages == [.release(callback: "dscb3")])
    }

    @Test func aSyncMethodCalledAsynchronouslyAnswersInlineWhenThePageAsks() throws {
        let text = page.prompt("math.add", argumentText: #"{"data":[1,2],"_dscbstub":"dscb4","_dsinline":true}"#)
        #expect(text == #"{"code":0,"data":3,"inline":true}"#)
        #expect(page.receivedMessages.isEmpty)  // nothing through the callback, nothing released
        // Only `true` asks; the flag means nothing to an asynchronous method or a synchronous call.
        let notTrue = try read(page.prompt("math.add", argumentText: #"{"data":[1,2],"_dscbstub":"dscb5","_dsinline":1}"#))
        #expect(notTrue.error?.code == .unsupportedCallKind)
        #expect(page.prompt("math.add", argumentText: #"{"data":[1,2],"_dsinline":true}"#) == #"{"code":0,"data":3}"#)
        #expect(page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1,"b":2},"_dscbstub":"dscb6","_dsinline":true}"#) == #"{"code":0,"data":""}"#)
    }

    @Test func anAsyncMethodThatFinishesWithoutWaitingAnswersInlineWhenThePageAsks() async throws {
        let text = page.prompt("math.later", argumentText: #"{"data":null,"_dscbstub":"dscb8","_dsinline":true}"#)
        if #available(macOS 26, iOS 26, *) {
            // It ran on this thread to its end before the call was answered: the result is the answer.
            #expect(text == #"{"code":0,"data":"later","inline":true}"#)
            #expect(page.receivedMessages.isEmpty)
        } else {
            // Without Task.immediate it starts elsewhere, and its result comes through the callback.
            #expect(text == #"{"code":0,"data":""}"#)
        }
        // Not asked for (a dsbridge.js page): the result comes through the callback, as DSBridge sends it.
        #expect(page.prompt("math.later", argumentText: #"{"data":null,"_dscbstub":"dscb9"}"#) == #"{"code":0,"data":""}"#)
        let sent = PageMessage.result(callback: "dscb9", value: JSONText(quoting: "later"), complete: true)
        await page.untilReceived { $0.contains(sent) }
        if #available(macOS 26, iOS 26, *) {
            #expect(page.receivedMessages == [sent])  // nothing for dscb8, which was answered inline
        }
    }

    @Test func anAsyncMethodThatWaitsOrFailsAnswersThroughTheCallbackEvenWhenAskedInline() async throws {
        // slowAdd waits once, and resumes on another thread: never inline, however soon it finishes.
        for index in 0..<50 {
            let text = page.prompt("math.slowAdd", argumentText: #"{"data":{"a":1,"b":2},"_dscbstub":"dscb1\#(index)","_dsinline":true}"#)
            #expect(text == #"{"code":0,"data":""}"#)
        }
        // A failure is never an inline answer: it comes through the callback with its own code.
        #expect(page.prompt("errors.failLater", argumentText: #"{"data":"no","_dscbstub":"dscb99","_dsinline":true}"#) == #"{"code":0,"data":""}"#)
        // Every result and the failure arrive through their callbacks.
        await page.untilReceived { $0.count >= 51 }
        let callbacks = Set(
            page.receivedMessages.compactMap { message -> String? in
                switch message {
                case .result(let callback, _, true), .failure(let callback, _): callback
                default: nil
                }
            })
        #expect(callbacks == Set((0..<50).map { "dscb1\($0)" } + ["dscb99"]))
    }

    @Test func anInlineCallOfASyncMethodThatFailsIsAnsweredWithItsError() throws {
        let answer = try read(page.prompt("math.add", argumentText: #"{"data":"x","_dscbstub":"dscb7","_dsinline":true}"#))
        #expect(answer.error?.code == .invalidArgument)
        #expect(page.receivedMessages == [.release(callback: "dscb7")])
    }

    @Test func aMultiResponseMethodCalledWithoutACallbackIsAcceptedToo() throws {
        let answer = try read(page.prompt("stream.countdown", argumentText: #"{"data":3}"#))
        #expect(answer.code == 0)
        #expect(answer.error == nil)
    }

    @Test(arguments: [
        "not json", "", "[1,2]", "\"text\"", "42", "null", #"{"data":1,"_dscbstub":7}"#, "{\"data\":",
    ])
    func aMalformedWrapperIsAnsweredNotCrashed(_ text: String) throws {
        let answer = try read(page.prompt("math.add", argumentText: text))
        #expect(answer.code == -1)
        #expect(answer.error?.code == .malformedMessage)
    }

    @Test func aPromptWithNoDefaultTextIsMalformed() throws {
        let answer = try read(page.prompt("math.add", argumentText: nil))
        #expect(answer.error?.code == .malformedMessage)
    }

    @Test func aMissingDataFieldIsAnInvalidArgumentForAMethodThatNeedsOne() throws {
        let answer = try read(page.prompt("errors.needsInt", argumentText: "{}"))
        #expect(answer.error?.code == .invalidArgument)
    }

    @Test func aPromptThatIsNotTheBridgesIsLeftToTheHost() {
        #expect(keystone.handlePrompt("What is your name?", defaultText: "") == nil)
        #expect(keystone.handlePrompt("_dsbridge", defaultText: "{}") == nil)
    }

    @Test func aLoneSurrogateFromThePageIsAnsweredWithACodedError() throws {
        // JSON.stringify on the page escapes a lone surrogate as \ud800; a Swift String cannot
        // hold one, and Foundation refuses it when it decodes `data`: an invalid argument.
        let answer = try read(page.prompt("math.raw", argumentText: #"{"data":"a\ud800b"}"#))
        #expect(answer.code == -1)
        #expect(answer.error?.code == .invalidArgument)
        #expect(answer.error?.message.hasPrefix(#"invalid argument for "math.raw": "#) == true)
    }

    @Test func errorMessagesNeverCarryAWholePayload() throws {
        let big = String(repeating: "x", count: 10_000)
        let answer = try read(page.prompt("errors.needsInt", argumentText: #"{"data":"\#(big)"}"#))
        let message = try #require(answer.error?.message)
        #expect(message.count < 400)
    }

    @Test func anUnencodableResultIsACodedError() throws {
        struct Refuses: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
            }
        }
        struct Bad: BridgeInterface {
            func exposeMethods(to methods: inout MethodList) { methods.sync("bad") { Refuses() } }
        }
        try keystone.register(Bad(), namespace: "bad")
        let error = #expect(throws: BridgeError.self) { try page.call("bad.bad", as: Int.self) }
        #expect(error?.code == .unencodableValue)
    }
}
