// RandomToken.swift — an unguessable token: 128 bits written as 32 lowercase hexadecimal digits.

/// Unguessable tokens, for what must not be guessed or repeated: a byte channel's tickets, the ids
/// of durable calls.
package enum RandomToken {
    /// 32 lowercase hexadecimal digits: 128 bits from `generator`.
    package static func hex128(using generator: inout some RandomNumberGenerator) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for _ in 0..<2 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
