// DefaultJSONSerializerTests.swift — defaultJSONSerializer.
import Foundation
import KeystoneInterfaces
import Testing

private let serializer = DefaultJSONSerializer()

private func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
    try serializer.decode(type, from: Data(text.utf8))
}

private func encode(_ value: some Encodable) throws -> String {
    String(decoding: try serializer.encode(value), as: UTF8.self)
}

struct Everything: Codable, Equatable, Sendable {
    enum Shape: Codable, Equatable, Sendable {
        case circle(radius: Double)
        case square(Int)
        case none
    }

    enum Tint: String, Codable, Sendable { case red, blue }

    var text: String
    var flag: Bool
    var int: Int
    var int8: Int8
    var int64: Int64
    var uint64: UInt64
    var double: Double
    var float: Float
    var optional: String?
    var missing: Int?
    var list: [Int]
    var nested: [[String]]
    var dictionary: [String: Int]
    var shapes: [Shape]
    var tint: Tint
    var data: Data
    var date: Date
    var url: URL
    var decimal: Decimal
    var any: JSONValue
}

let everything = Everything(
    text: "é漢😀 \"quoted\" \\ \n\u{2028}</script>\u{0}", flag: true, int: -42, int8: -128, int64: .min, uint64: .max,
    double: 1.0 / 3, float: 0.1, optional: "here", missing: nil, list: [1, 2, 3], nested: [["a"], [], ["b", "c"]],
    dictionary: ["one": 1, "two": 2], shapes: [.circle(radius: 2.5), .square(3), .none], tint: .blue,
    data: Data([0, 1, 2, 250, 255]), date: Date(timeIntervalSinceReferenceDate: 12345.5),
    url: URL(string: "https://example.com/a?b=c")!, decimal: Decimal(string: "12.34")!,
    any: ["z": 1, "a": [true, nil, "s"], "m": ["k": 2.5]]
)

class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal, @unchecked Sendable {
    var barks: Bool
    init(name: String, barks: Bool) {
        self.barks = barks
        super.init(name: name)
    }
    private enum CodingKeys: String, CodingKey { case barks }
    required init(from decoder: any Decoder) throws {
        barks = try decoder.container(keyedBy: CodingKeys.self).decode(Bool.self, forKey: .barks)
        try super.init(from: decoder.container(keyedBy: CodingKeys.self).superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(barks, forKey: .barks)
        try super.encode(to: container.superEncoder())
    }
}

@Suite("DefaultJSONSerializer")
struct DefaultJSONSerializerTests {
    @Test func roundTripsEveryKindOfValue() throws {
        #expect(try serializer.decode(Everything.self, from: serializer.encode(everything)) == everything)
    }

    @Test func agreesWithFoundationBothWays() throws {
        let ours = try serializer.encode(everything)
        #expect(try JSONDecoder().decode(Everything.self, from: ours) == everything)
        let foundations = try JSONEncoder().encode(everything)
        #expect(try serializer.decode(Everything.self, from: foundations) == everything)
    }

    @Test func writesNumbersAsJavaScriptDoes() throws {
        #expect(try encode([1.0, -0.5, 1e21, 1.0 / 3, 123_456_789_012]) == "[1,-0.5,1e+21,0.3333333333333333,123456789012]")
        #expect(try encode([Int64.min]) == "[-9223372036854775808]")
        #expect(try encode([UInt64.max]) == "[18446744073709551615]")
    }

    @Test func readsWholeNumbersWrittenWithAFractionOrExponentAsIntegers() throws {
        #expect(try decode([Int].self, "[1.0,1e2,-0]") == [1, 100, 0])
        #expect(throws: DecodingError.self) { try decode(Int.self, "1.5") }
        #expect(throws: DecodingError.self) { try decode(Int8.self, "128") }
        #expect(throws: DecodingError.self) { try decode(UInt.self, "-1") }
        #expect(try decode(Int64.self, "-9223372036854775808") == .min)
    }

    @Test func keepsObjectKeysInTheirOrderBothWays() throws {
        let text = #"{"zeta":1,"alpha":{"y":[{"b":1,"a":2}],"x":null},"mid":"m"}"#
        #expect(try encode(decode(JSONValue.self, text)) == text)
        struct Holder: Codable { var inner: JSONValue; var list: [JSONValue] }
        let held = #"{"inner":{"q":1,"b":2,"k":3},"list":[{"z":0,"y":1}]}"#
        #expect(try encode(decode(Holder.self, held)) == held)
    }

    @Test func theLastOfARepeatedKeyWinsAsWithJSONParse() throws {
        #expect(try decode([String: Int].self, #"{"a":1,"a":2}"#) == ["a": 2])
        struct Pair: Decodable { var a: Int }
        #expect(try decode(Pair.self, #"{"a":1,"b":0,"a":3}"#).a == 3)
        // In place of the first, with the last value, as JSON.parse orders it.
        #expect(try encode(decode(JSONValue.self, #"{"a":1,"b":2,"a":3}"#)) == #"{"a":3,"b":2}"#)
    }

    @Test func escapedKeysMatchTheirMeaning() throws {
        struct Pair: Decodable { var data: Int }
        #expect(try decode(Pair.self, #"{"d\u0061ta":7}"#).data == 7)
        #expect(try decode(Pair.self, #"{"data":1,"d\u0061ta":7}"#).data == 7)
    }

    @Test func largeObjectsAreIndexedAndStillLastWins() throws {
        let members = (0..<100).map { #""k\#($0)":\#($0)"# } + [#""k5":500"#]
        let decoded = try decode([String: Int].self, "{" + members.joined(separator: ",") + "}")
        #expect(decoded.count == 100)
        #expect(decoded["k5"] == 500)
        #expect(decoded["k99"] == 99)
    }

    @Test func classesEncodeTheirSuperclassUnderSuper() throws {
        let text = try encode(Dog(name: "Rex", barks: true))
        #expect(text == #"{"barks":true,"super":{"name":"Rex"}}"#)
        let dog = try decode(Dog.self, text)
        #expect(dog.name == "Rex" && dog.barks)
    }

    @Test func errorsSayWhereTheyHappened() throws {
        struct Outer: Decodable { var items: [Inner] }
        struct Inner: Decodable { var count: Int }
        do {
            _ = try decode(Outer.self, #"{"items":[{"count":1},{"count":"two"}]}"#)
            Issue.record("no error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["items", "1", "count"])
        }
        do {
            _ = try decode(Outer.self, #"{"items":[{}]}"#)
            Issue.record("no error")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "count")
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["items", "0"])
        }
        do {
            _ = try decode(Outer.self, #"{"items":null}"#)
            Issue.record("no error")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["items"])
        }
    }

    @Test func aNonFiniteNumberIsAnEncodingErrorWithItsPath() throws {
        struct Holder: Encodable { var values: [Double] }
        do {
            _ = try serializer.encode(Holder(values: [1, .nan]))
            Issue.record("no error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["values", "1"])
        }
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":}", "[1 2]", "tru", "\"unterminated", "\"\\x\"", "\"\\u12\"", "01",
        "1.", "-", "{\"a\" 1}", "[]]", "\"raw\ttab\"",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: DecodingError.self) { try decode(JSONValue.self, text) }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22]] {
            #expect(throws: DecodingError.self) { try serializer.decode(JSONValue.self, from: Data(bytes)) }
        }
    }

    @Test func aLoneSurrogateIsRefusedAndAPairIsRead() throws {
        #expect(throws: DecodingError.self) { try decode(String.self, #""\ud800""#) }
        #expect(throws: DecodingError.self) { try decode(String.self, #""\udc00x""#) }
        #expect(try decode(String.self, #""\ud83d\ude00\u0041\n""#) == "😀A\n")
    }

    @Test func nestingDeeperThanTheLimitIsRefusedWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try decode(JSONValue.self, deep)
            Issue.record("no error")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "the text nests arrays and objects deeper than 512 levels")
        }
        let shallow = DefaultJSONSerializer(maximumDepth: 3)
        #expect(throws: DecodingError.self) { try shallow.decode(JSONValue.self, from: Data("[[[[]]]]".utf8)) }
        #expect(try shallow.decode(JSONValue.self, from: Data("[[[]]]".utf8)) == [[[]]])
    }

    @Test func foundationsSerializerReadsAndWritesAWholeJSONValueInOrderToo() throws {
        let text = #"{"z":1,"a":2}"#
        let foundation = FoundationJSONSerializer()
        #expect(String(decoding: try foundation.encode(foundation.decode(JSONValue.self, from: Data(text.utf8))), as: UTF8.self) == text)
    }
}
