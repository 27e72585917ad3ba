// JSONObject.swift — a JSON object that keeps its keys in insertion order, as JavaScript does.
/// The members of a JSON object, in the order their keys were first inserted.
///
/// It reads like a dictionary (`object["name"]`), iterates in order, and is written out in that
/// order, so an object the page sends comes back with its keys where they were. Setting a key that
/// is already there replaces its value and keeps its place; parsing a text that repeats a key keeps
/// the last value at the first key's place, as `JSON.parse` does.
///
/// Two objects are equal when they have the same keys with equal values, in any order.
public struct JSONObject: Sendable, Hashable {
    private var members = OrderedMembers<JSONValue>()

    /// An empty object.
    public init() {}

    /// An object of `members` in order; a repeated key keeps its first place and its last value.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        for (key, value) in members { self[key] = value }
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.count == 0 }

    /// The keys, in order.
    public var orderedKeys: [String] { members.keys }

    /// The value under `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { members[key] }
        set { members[key] = newValue }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { key, value in rhs[key] == value }
    }

    public func hash(into hasher: inout Hasher) {
        // Independent of order: the members' hashes are combined commutatively.
        var combined = 0
        for (key, value) in self {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }
    /// The member at `position`, in order.
    public subscript(position: Int) -> (key: String, value: JSONValue) { (members.keys[position], members.values[position]) }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
