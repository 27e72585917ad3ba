// ArgumentBytes.swift — one `Data` argument of a Swift call of a page handler, sent as bytes.

/// One argument of a Swift call of a page handler that goes as bytes
/// (``PageMessage/callWithBytes(method:callbackId:arguments:bytes:)``): the page fetches it from
/// `source`, a ticketed address on the host's byte channel.
public struct ArgumentBytes: Sendable, Hashable {
    /// The argument's position in the call's arguments.
    public var index: Int
    /// Where the page fetches the bytes, once.
    public var source: String
    /// How many bytes they are.
    public var size: Int

    /// The argument at `index`, `size` bytes to be fetched from `source`.
    public init(index: Int, source: String, size: Int) {
        self.index = index
        self.source = source
        self.size = size
    }
}
