// BridgeHub+TransferNow.swift — a request on the byte channel that the hub answers before it
// returns, as every request but a stream's chunk waiting for room is.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

extension BridgeHub {
    /// The hub's answer to one request on the byte channel, or `nil` when it answers later.
    func transferNow(method: String, url: String, origin: String?, readBody: (_ limit: Int) -> Data?) -> TransferResponse? {
        let answered = Locked<TransferResponse?>(nil)
        handleTransfer(method: method, url: url, origin: origin, readBody: readBody) { response in
            answered.withLock { $0 = response }
        }
        return answered.withLock { $0 }
    }
}
