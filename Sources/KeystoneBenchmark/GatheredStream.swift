// GatheredStream.swift — a page's stream gathered for a method that takes `Data`, for the gate.
import Foundation
import Keystone

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
        keystone.serveTransfers(at: "keystone://transfer/")
        _ = keystone.handlePrompt("_dsbridge=_dsb.dsinit", defaultText: #"{"data":{"runtime":"keystone"}}"#)
    }

    func evaluate(_ batch: ScriptBatch) {
        handedOn.signal()
    }

    /// One stream, from its announcement to the method's result handed on.
    func run() -> Int {
        var answer = Data(keystone.handleMessage("bench.size", arguments: #"{"data":null,"_dscbstub":"dscb1_g","_dsbytes":"stream"}"#).utf8)
        for index in 0...chunks {
            guard let address = Self.upload(in: answer) else { return -1 }
            // The end of the stream is posted to the last ticket's address with `?end`.
            let (body, url) = index < chunks ? (chunk, address) : (Data(), address + "?end")
            answer = keystone.transferNow(method: "POST", url: url, origin: nil) { _ in body }?.body ?? Data()
        }
        handedOn.wait()
        return answer.count
    }

    /// The next piece's address in an answer.
    private static func upload(in answer: Data) -> String? {
        struct Upload: Decodable { var upload: String? }
        return (try? JSONDecoder().decode(Upload.self, from: answer))?.upload
    }
}
