// OrderedMembers.swift — an object's members in insertion order, found by key: JSONObject's storage
// and the encoder's objects.
/// Keys with values, in the order each key was first inserted. Setting a key that is there keeps
/// its place and replaces the value. Past a dozen keys, an index finds a key without searching.
package struct OrderedMembers<Value> {
    package private(set) var keys: [String] = []
    package private(set) var values: [Value] = []
    /// Where each key is, once there are enough keys that a linear search would cost too much.
    private var positions: [String: Int]?

    private static var indexedFrom: Int { 12 }

    package init() {}

    package var count: Int { keys.count }

    package func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return keys.firstIndex(of: key)
    }

    package subscript(key: String) -> Value? {
        get { position(of: key).map { values[$0] } }
        set {
            switch (position(of: key), newValue) {
            case (let position?, let value?):
                values[position] = value
            case (nil, let value?):
                keys.append(key)
                values.append(value)
                if positions != nil {
                    positions?[key] = keys.count - 1
                } else if keys.count >= Self.indexedFrom {
                    reindex()
                }
            case (let position?, nil):
                keys.remove(at: position)
                values.remove(at: position)
                positions = nil
                if keys.count >= Self.indexedFrom { reindex() }
            case (nil, nil):
                break
            }
        }
    }

    private mutating func reindex() {
        positions = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension OrderedMembers: Sendable where Value: Sendable {}
