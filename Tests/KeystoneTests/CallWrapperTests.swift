// CallWrapperTests.swift — splitting the page's wrapper into `data` bytes and a callback name.
import Foundation
import KeystoneInterfaces
import Testing

@testable import Keystone

@Suite("CallWrapper")
struct CallWrapperTests {
    func split(_ text: String) throws -> (data: String?, stub: String?) {
        let wrapper = try CallWrapper(splitting: Data(text.utf8))
        return (wrapper.data.map { String(decoding: $0, as: UTF8.self) }, wrapper.callbackStub)
    }

    @Test(
        arguments: [
            (#"{"data":{"a":[1,{"b":"}"}]},"_dscbstub":"dscb3"}"#, #"{"a":[1,{"b":"}"}]}"#, "dscb3"),
            (#" { "_dscbstub" : "dscb0" , "data" : "x" } "#, #""x""#, "dscb0"),
            (#"{"data":null}"#, "null", nil),
            (#"{"data":""}"#, #""""#, nil),
            (#"{"other":[1,2],"data":-1.5e3}"#, "-1.5e3", nil),
            (#"{}"#, nil, nil),
            (#"{"_dscbstub":"a\"b\u00e9"}"#, nil, "a\"bé"),
            (#"{"data":1,"data":2}"#, "2", nil),
            // As JSON.parse reads them: escaped keys by what they say, the last of a repeated key.
            (#"{"d\u0061ta":[1,2]}"#, "[1,2]", nil),
            (#"{"_dscbstu\u0062":"dscb1"}"#, nil, "dscb1"),
            (#"{"data":1,"d\u0061ta":2,"\u005f\u0064scbstub":"x","_dscbstub":"y"}"#, "2", "y"),
            (#"{"d\u0061ta":1,"data":2}"#, "2", nil),
            (#"{"dat\u0061x":1,"dat":2,"\ud800":3}"#, nil, nil),
        ] as [(String, String?, String?)])
    func findsDataAndTheCallback(_ text: String, _ data: String?, _ stub: String?) throws {
        let parts = try split(text)
        #expect(parts.data == data)
        #expect(parts.stub == stub)
    }

    @Test func dataIsASliceOfTheOriginalBytes() throws {
        let text = Data(#"{"data":[1,2]}"#.utf8).dropFirst(0)
        let wrapper = try CallWrapper(splitting: text)
        #expect(try JSONDecoder().decode([Int].self, from: #require(wrapper.data)) == [1, 2])
    }

    @Test(arguments: [
        "", "null", "[]", #""data""#, "{", #"{"data"}"#, #"{"data":}"#, #"{"data":1,}"#, #"{"data":1} x"#,
        #"{"data":[1,2}"#, #"{"_dscbstub":7}"#, #"{"_dscbstub":null}"#, #"{data:1}"#, #"{"data":tru}"#,
    ])
    func refusesAnythingButOneJSONObject(_ text: String) {
        let error = #expect(throws: BridgeError.self) { try CallWrapper(splitting: Data(text.utf8)) }
        #expect(error?.code == .malformedMessage)
    }

    @Test(
        arguments: [
            (#"{"data":1,"_dsparts":[]}"#, true, nil),
            (#"{"data":0,"_dsparts":[0]}"#, true, .sizes([0])),
            (#"{"data":{"a":0,"b":[1]},"_dsparts":[3,67108864]}"#, true, .sizes([3, 67_108_864])),
            (#"{"data":0,"_dsparts":"stream"}"#, true, .stream),
            (#"{"data":1}"#, false, nil),
        ] as [(String, Bool, CallWrapper.Parts?)])
    func partsAreAnnouncedBySizesOrAsAStream(text: String, speaksParts: Bool, parts: CallWrapper.Parts?) throws {
        let wrapper = try CallWrapper(splitting: Data(text.utf8))
        #expect(wrapper.speaksParts == speaksParts)
        #expect(wrapper.parts == parts)
    }

    @Test func aCallCarriesAtMostSoManyParts() throws {
        let most = "[" + Array(repeating: "0", count: CallWrapper.maximumParts).joined(separator: ",") + "]"
        let parts = try CallWrapper(splitting: Data(#"{"data":0,"_dsparts":\#(most)}"#.utf8)).parts
        guard case .sizes(let sizes) = parts else { return #expect(Bool(false), "the most parts were refused") }
        #expect(sizes.count == CallWrapper.maximumParts)
        let more = "[0," + most.dropFirst()
        let error = #expect(throws: BridgeError.self) { _ = try CallWrapper(splitting: Data(#"{"data":0,"_dsparts":\#(more)}"#.utf8)).parts.map { _ in 0 } }
        #expect(error?.code == .limitExceeded)
    }

    @Test(arguments: [
        #"-1"#, #"[1.5]"#, #"[1e3]"#, #"[007]"#, #"["8"]"#, #""Stream""#, #"[1234567890123456]"#, #"null"#, #"true"#, #"[1,]"#, #"[,1]"#,
        #"[1 2]"#, #"{}"#,
    ])
    func anAnnouncementThatIsNotOneIsRefusedWithoutAnEcho(token: String) {
        let error = #expect(throws: BridgeError.self) { try CallWrapper(splitting: Data(#"{"data":null,"_dsparts":\#(token)}"#.utf8)) }
        #expect(error?.code == .malformedMessage)
        #expect(error.map { !$0.message.contains(token) || token.count < 3 } ?? false)
    }
}
