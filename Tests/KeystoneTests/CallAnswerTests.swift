// CallAnswerTests.swift — a call's answer as a value, its text, and the text read back.
import Foundation
import Testing

@testable import Keystone

@Suite("A call's answer")
struct CallAnswerTests {
    static let answers: [CallAnswer] = [
        .result(Data("[1,\"x\"]".utf8), inline: false),
        .result(Data(), inline: false),
        .result(Data("{\"a\":2}".utf8), inline: true),
        .result(Data(), inline: true),
        .failure(BridgeError(code: .notFound, message: "no \"x\"")),
    ]

    @Test func eachAnswerIsWrittenAsTheTextAPromptReturns() {
        #expect(
            Self.answers.map(\.text) == [
                #"{"code":0,"data":[1,"x"]}"#,
                #"{"code":0,"data":"","void":true}"#,
                #"{"code":0,"data":{"a":2},"inline":true}"#,
                #"{"code":0,"data":"","inline":true,"void":true}"#,
                #"{"code":-1,"data":"","error":{"code":1,"message":"no \"x\""}}"#,
            ])
        #expect(CallAnswer.accepted.text == #"{"code":0,"data":""}"#)
    }

    @Test(arguments: answers)
    func aHubsTextIsReadBackAsTheSameAnswer(_ answer: CallAnswer) {
        #expect(CallAnswer(text: answer.text, calledWithCallback: false) == answer)
        #expect(CallAnswer(text: answer.text, calledWithCallback: true) == answer)
    }

    @Test func anEmptyStringIsAcceptedForACallWithACallbackAndAResultForOneWithout() {
        #expect(CallAnswer(text: CallAnswer.accepted.text, calledWithCallback: true) == .accepted)
        #expect(CallAnswer(text: CallAnswer.accepted.text, calledWithCallback: false) == .result(Data(#""""#.utf8), inline: false))
    }

    @Test(arguments: ["", "secret-payload", #"{"data":"secret-payload"}"#, #"[{"code":0}]"#, #"{"code":0} secret-payload"#])
    func textThatIsNoHubsAnswerFailsWithoutEchoingIt(_ text: String) throws {
        guard case .failure(let error) = CallAnswer(text: text, calledWithCallback: false) else {
            Issue.record("\(text) was read as an answer")
            return
        }
        #expect(error.code == .failed)
        #expect(!error.message.contains("secret-payload"))
    }

    @Test func aFailureWithoutAnErrorObjectIsStillAFailure() {
        #expect(CallAnswer(text: #"{"code":-1,"data":""}"#, calledWithCallback: true) == .failure(BridgeError(code: .failed, message: "the call failed")))
    }
}
