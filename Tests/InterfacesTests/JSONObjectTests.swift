// JSONObjectTests.swift — JSONObject: members in the order the page wrote them.
import Foundation
import KeystoneInterfaces
import Testing

@Suite("JSONObject")
struct JSONObjectTests {
    @Test func keepsInsertionOrderAndReplacesInPlace() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 4
        #expect(object.orderedKeys == ["b", "a", "c"])
        #expect(object["b"] == 4)
        object["a"] = nil
        #expect(object.orderedKeys == ["b", "c"])
    }

    @Test func equalityAndHashingIgnoreOrder() {
        let one: JSONObject = ["a": 1, "b": [2]]
        let other: JSONObject = ["b": [2], "a": 1]
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(one != ["a": 1])
    }

    @Test func manyKeysStayFindableAndOrdered() {
        var object = JSONObject()
        for n in 0..<50 { object["k\(n)"] = .number(Double(n)) }
        object["k10"] = nil
        #expect(object.count == 49)
        #expect(object["k49"] == 49)
        #expect(object["k10"] == nil)
        #expect(object.orderedKeys.first == "k0" && object.orderedKeys.last == "k49")
    }
}
