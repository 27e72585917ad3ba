// PromptAnswerTests.swift — the texts a bridge prompt returns, built straight into a string.
import Foundation
import Testing

@testable import Keystone

@Suite("Prompt answers")
struct PromptAnswerTests {
    @Test(arguments: ["0", #""é漢😀\u2028""#, String(repeating: #"["x",1]"#, count: 100_000)])
    func successWrapsTheValueExactly(_ value: String) {
        #expect(PromptAnswer.success(Data(value.utf8)) == #"{"code":0,"data":"# + value + "}")
    }

    @Test func noValueIsTheEmptyStringMarkedVoid() {
        // dsbridge.js reads `data` (""), as DSBridge answers; Keystone's runtime reads `void`.
        #expect(PromptAnswer.success(Data()) == #"{"code":0,"data":"","void":true}"#)
        #expect(PromptAnswer.inline(Data()) == #"{"code":0,"data":"","inline":true,"void":true}"#)
        #expect(PromptAnswer.inline(Data("1".utf8)) == #"{"code":0,"data":1,"inline":true}"#)
    }

    @Test func failureCarriesTheErrorObject() {
        let answer = PromptAnswer.failure(BridgeError(code: .notFound, message: "no \"x\""))
        #expect(answer == #"{"code":-1,"data":"","error":{"code":1,"message":"no \"x\""}}"#)
        #expect(BridgeError(code: .notAllowed, message: "m").promptAnswer.contains(#""code":11"#))
    }
}
