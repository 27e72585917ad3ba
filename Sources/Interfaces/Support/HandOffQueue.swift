// HandOffQueue.swift — items handed on in the order they were queued, by one thread at a time.
/// A queue whose items are handed on — to a component, a target — outside the lock that guards
/// it, in the order they were queued, by one thread at a time.
///
/// Kept inside a ``Locked`` state: ``append(_:)`` under the lock says whether the caller must hand
/// the queue on (nobody else is doing so); that caller then calls ``takeAll()`` under the lock and
/// hands the items on outside it, until ``takeAll()`` returns `nil`. Items queued meanwhile, from any
/// thread or from inside the hand-off itself, join the queue and follow in order.
///
/// It is inlinable, like ``Locked`` and behind the same SPI, so each module specialises it for its
/// own items and a hand-off looks up no generic metadata.
@_spi(KeystoneInternal)
public struct HandOffQueue<Item> {
    @usableFromInline var items: [Item] = []
    @usableFromInline var isHandingOff = false

    @inlinable
    public init() {}

    /// Queues `item`; returns `true` when the caller must now hand the queue on.
    @inlinable
    public mutating func append(_ item: Item) -> Bool {
        items.append(item)
        guard !isHandingOff else { return false }
        isHandingOff = true
        return true
    }

    /// Everything queued, oldest first, for the thread handing on; `nil` when nothing is left,
    /// which ends its turn.
    @inlinable
    public mutating func takeAll() -> [Item]? {
        guard !items.isEmpty else {
            isHandingOff = false
            return nil
        }
        defer { items.removeAll(keepingCapacity: true) }
        return items
    }
}
