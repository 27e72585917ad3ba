// GatheredStream.swift — a page's stream gathered for a method that takes `Data`, for the gate.
import Foundation
import Keystone
import KeystoneHost

/// A page's stream of `chunks` pieces of 16 KiB into a method that takes `Data`, over the byte
/// channel's requests as the hub answers them, until the method's script is handed on: the cost of
/// gathering, which must grow with the bytes and no faster.
final class GatheredStream: EvaluationTarget, @unchecked Sendable {
    static let chunkBytes = 16 << 10
    /// The lengths the gate compares: 1 MiB and 16 MiB.
    static let chunkCounts = [64, 1024]
    private let keystone: Keystone
    private let handedOn = DispatchSemaphore(value: 0)
    private let chunks: Int
    private let chunk = Data(repeating: 7, count: GatheredStream.chunkBytes)

    /// The stream's bytes in all.
    var bytes: Int { chunks * Self.chunkBytes }

    init(chunks: Int) throws {
        self.chunks = chunks
        keystone = Keystone()
        try keystone.register(namespace: "bench") { $0.async("size") { (bytes: Data) in bytes.count } }
        keystone.attach(to: self)
        keystone.serveBytes(over: URLSchemeTransport.keystone)
        _ = keystone.handlePrompt("_dsbridge=_dsb.dsinit", defaultText: #"{"data":{"runtime":"keystone"}}"#)
    }

    func evaluate(_ batch: ScriptBatch) {
        handedOn.signal()
    }

    /// One stream, from its announcement to the method's result handed on.
    func run() -> Int {
        let answer = Data(keystone.handleMessage("bench.size", arguments: #"{"data":0,"_dscbstub":"dscb1_g","_dsparts":"stream"}"#).utf8)
        struct Ticket: Decodable { var ticket: String? }
        guard let address = (try? JSONDecoder().decode(Ticket.self, from: answer))?.ticket else { return -1 }
        let ticket = String(address.dropFirst(URLSchemeTransport.keystone.base.count))
        var last: ByteResponse?
        for index in 0...chunks {
            // The end of the stream comes after its last piece.
            let (body, kind) = index < chunks ? (chunk, ByteRequest.Kind.piece(index)) : (Data(), .end(chunks))
            last = keystone.receiveBytesNow(ByteRequest(ticket: ticket, kind: kind, origin: nil)) { _ in body }
            guard last == .more || index == chunks else { return -1 }
        }
        handedOn.wait()
        return last == .done ? 1 : -1
    }
}
