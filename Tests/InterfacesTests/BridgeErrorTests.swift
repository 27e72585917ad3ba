// BridgeErrorTests.swift — wrapping thrown errors into coded ones, and the wire form.
import Foundation
import KeystoneInterfaces
import Testing

@Suite("BridgeError")
struct BridgeErrorTests {
    struct Plain: Error, CustomStringConvertible {
        var description: String { "plain failure" }
    }

    struct AppError: Error, BridgeErrorConvertible {
        var bridgeError: BridgeError { BridgeError(code: .init(rawValue: 1001), message: "not signed in") }
    }

    @Test func keepsABridgeErrorAsItIs() {
        let error = BridgeError(code: .invalidArgument, message: "bad")
        #expect(BridgeError(error) == error)
    }

    @Test func anAppErrorChoosesItsOwnCode() {
        let error = BridgeError(AppError())
        #expect(error.code.rawValue == 1001)
        #expect(error.message == "not signed in")
    }

    @Test func cancellationBecomesCancelled() {
        #expect(BridgeError(CancellationError()).code == .cancelled)
    }

    @Test func anyOtherErrorBecomesFailedWithItsDescriptionAndCause() {
        let error = BridgeError(Plain())
        #expect(error.code == .failed)
        #expect(error.message == "plain failure")
        #expect(error.cause is Plain)
    }

    @Test func wireFormIsCodeAndMessageOnly() throws {
        let error = BridgeError(code: .notFound, message: "no \"x\"", cause: Plain())
        let text = String(decoding: try JSONEncoder().encode(error), as: UTF8.self)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?.keys.sorted() == ["code", "message"])
        #expect(try JSONDecoder().decode(BridgeError.self, from: Data(text.utf8)) == error)
    }

    @Test func codesHaveReadableNames() {
        #expect(BridgeError.Code.unsupportedCallKind.description == "unsupportedCallKind")
        #expect(BridgeError.Code(rawValue: 1234).description == "code 1234")
    }
}
