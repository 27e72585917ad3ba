// CodingPathPosition.swift — where a coder's container sits on the coder's stack of keys.
/// Where a container of ``TapeDecoder`` or ``TreeEncoder`` sits on its coder's stack of keys: the
/// first `depth` keys of the stack, then `extra`, the keys of containers opened with
/// `nestedContainer`, which the stack does not hold. Containers keep no copy of the path, so the
/// coder's own stack grows and shrinks without being copied; a path is built only when asked for
/// (an error, or code that reads `codingPath`).
struct CodingPathPosition {
    var depth: Int
    var extra: [any CodingKey]

    /// The whole path, on `stack`.
    func path(on stack: [any CodingKey]) -> [any CodingKey] {
        Array(stack.prefix(depth)) + extra
    }

    /// The position of a container opened under `key` with `nestedContainer`.
    func nested(_ key: any CodingKey) -> CodingPathPosition {
        CodingPathPosition(depth: depth, extra: extra + [key])
    }
}

extension Array where Element == any CodingKey {
    /// Enters a value at `depth` keys, then `extra`, then `key`: the stack is cut back to `depth`
    /// and the rest pushed, each step skipped when there is nothing to do, as for most values.
    mutating func enter(depth: Int, extra: [any CodingKey], key: (any CodingKey)?) {
        leave(to: depth)
        if !extra.isEmpty { append(contentsOf: extra) }
        if let key { append(key) }
    }

    /// Cuts the stack back to `depth` keys; nothing to do when it holds no more.
    mutating func leave(to depth: Int) {
        if count > depth { removeSubrange(depth...) }
    }
}
