// RequestBodyTests.swift — a byte-channel body read in pieces, never past its limit.
import Foundation
import KeystoneHost
import Testing

@Suite("Transfer bodies")
struct RequestBodyTests {
    /// A reader that hands `bytes` over at most `piece` bytes at a time, counting its reads.
    final class Pieces {
        let bytes: [UInt8]
        let piece: Int
        var offset = 0
        var reads = 0

        init(_ bytes: [UInt8], piece: Int) {
            self.bytes = bytes
            self.piece = piece
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            reads += 1
            let count = min(piece, buffer.count, bytes.count - offset)
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.withUnsafeBytes { $0 }[offset..<(offset + count)]))
            offset += count
            return count
        }
    }

    @Test(arguments: [(0, 1), (1, 1), (1000, 7), (5000, 4096)])
    func aBodyWithinItsLimitIsReadWhole(size: Int, piece: Int) {
        let bytes = (0..<size).map { UInt8($0 % 251) }
        let reader = Pieces(bytes, piece: piece)
        #expect(URLSchemeTransport.readBody(limit: size, reader.read) == Data(bytes))
    }

    @Test func aBodyPastItsLimitIsRefusedAtThePieceThatGoesOver() {
        let reader = Pieces(Array(repeating: 1, count: 1 << 16), piece: 10)
        #expect(URLSchemeTransport.readBody(limit: 25, reader.read) == nil)
        #expect(reader.reads == 3)
    }

    @Test func aBodyThatCannotBeReadIsRefused() {
        #expect(URLSchemeTransport.readBody(limit: 10) { _ in -1 } == nil)
    }

    @Test func aLimitOfIntMaxReadsABodyWhole() {
        let reader = Pieces(Array(repeating: 2, count: 3000), piece: 1000)
        #expect(URLSchemeTransport.readBody(limit: .max, reader.read) == Data(repeating: 2, count: 3000))
    }
}
