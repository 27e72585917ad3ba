// JSONValueTests.swift — the untyped value: every JSON shape decodes and encodes back.
import Foundation
import KeystoneInterfaces
import Testing

@Suite("JSONValue")
struct JSONValueTests {
    @Test(arguments: [
        #"null"#, #"true"#, #"false"#, #"1.5"#, #"-3"#, #""text""#, #"[1,"a",null,[true]]"#,
        #"{"a":{"b":[1,2]},"c":"\u2028"}"#,
    ])
    func roundTripsEveryShape(_ text: String) throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(again == value)
    }

    @Test func decodesToTheExpectedCases() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"n":2,"s":"x","b":true,"z":null,"a":[1]}"#.utf8))
        #expect(value == ["n": 2, "s": "x", "b": true, "z": nil, "a": [1]])
    }
}

@Suite("A JSON value's description")
struct JSONValueDescriptionTests {
    @Test func printsAsTheJSONItStandsFor() {
        let value: JSONValue = ["name": "Ada", "tags": [1, 2.5, true, nil], "nested": ["quote": "say \"hi\""]]
        #expect(value.description == #"{"name":"Ada","tags":[1,2.5,true,null],"nested":{"quote":"say \"hi\""}}"#)
        #expect("\(value)" == value.description)
        #expect(String(reflecting: value) == value.description)
        #expect(JSONValue.string("a").description == #""a""#)
        guard case .object(let object) = value else { return }
        #expect(object.description == value.description)
    }
}
