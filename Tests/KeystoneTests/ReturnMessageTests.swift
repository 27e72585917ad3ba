// ReturnMessageTests.swift — the page's answer to a Swift call, split once before it is decoded.
import Foundation
import KeystoneInterfaces
import Testing

@testable import Keystone

@Suite("ReturnMessage")
struct ReturnMessageTests {
    func split(_ text: String) throws(BridgeError) -> ReturnMessage {
        try ReturnMessage(splitting: Data(text.utf8), maximumDepth: 8)
    }

    func text(_ bytes: Data?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func findsTheCallAndKeepsTheAnswerAsBytes() throws {
        let message = try split(#"{"id":12,"data":{"a":[1,2]},"complete":false}"#)
        #expect(message.id == 12)
        #expect(!message.complete)
        #expect(text(message.answer.value) == #"{"a":[1,2]}"#)
        #expect(message.answer.error == nil)
    }

    @Test func aMissingOrNullCompleteIsTheLastAnswerAndANullErrorIsNone() throws {
        #expect(try split(#"{"id":1}"#).complete)
        let message = try split(#"{"id":1,"complete":null,"error":null}"#)
        #expect(message.complete)
        #expect(message.answer.error == nil)
        #expect(message.answer.value == nil)
    }

    /// `undelivered` is Keystone's runtime's word that the handler never saw the call; only `true` says so.
    @Test func readsWhetherTheHandlerNeverSawTheCall() throws {
        #expect(try split(#"{"id":1,"error":{"code":5,"message":"Load failed"},"undelivered":true}"#).isUndelivered)
        #expect(try !split(#"{"id":1,"undelivered":"true"}"#).isUndelivered)
        #expect(try !split(#"{"id":1,"data":2}"#).isUndelivered)
    }

    /// Keys are read as `JSON.parse` reads them: escapes say the key, and a later member wins.
    @Test func readsKeysAsJSONParseDoes() throws {
        let message = try split(#"{"\u0069d":3,"data":1,"data":2,"id":4,"err\u006Fr":{"code":5,"message":"m"}}"#)
        #expect(message.id == 4)
        #expect(text(message.answer.value) == "2")
        #expect(text(message.answer.error) == #"{"code":5,"message":"m"}"#)
    }

    @Test(arguments: [
        #"{"data":1}"#, #"{"id":"1"}"#, #"{"id":1.5}"#, #"{"id":1,"complete":"yes"}"#, "nope", #"{"id":1"#, #"[1]"#,
        #"{"id":12345678901234567890}"#,
    ])
    func refusesWhatIsNotAnAnswerWithACodedErrorThatEchoesNothing(_ text: String) {
        let error = #expect(throws: BridgeError.self) { try split(text) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("yes") == false)
    }

    @Test func anAnswerNestedPastTheLimitIsRefused() {
        let error = #expect(throws: BridgeError.self) { try split(#"{"id":1,"data":[[[[[[[[[[1]]]]]]]]]]}"#) }
        #expect(error?.code == .limitExceeded)
    }

    @Test func decodesTheValueOnceAsTheCallAsked() throws {
        let serializer = DefaultJSONSerializer()
        #expect(try split(#"{"id":1,"data":[1,2]}"#).answer.decode(as: [Int].self, serializer: serializer, method: "m").get() == [1, 2])
        #expect(try split(#"{"id":1}"#).answer.decode(as: Int?.self, serializer: serializer, method: "m").get() == nil)
        let failure = try split(#"{"id":1,"error":{"code":5,"message":"broke"}}"#).answer.decode(as: Int.self, serializer: serializer, method: "m")
        #expect(throws: BridgeError(code: .failed, message: "broke")) { try failure.get() }
        let wrongType = try split(#"{"id":1,"data":"x"}"#).answer.decode(as: Int.self, serializer: serializer, method: "m")
        #expect(throws: BridgeError.self) { try wrongType.get() }
        if case .failure(let error) = wrongType { #expect(error.code == .invalidResult) }
    }
}
