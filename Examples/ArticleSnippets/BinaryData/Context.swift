// What the binary-data article leaves to the reader: the app's own photo store.
import Foundation

/// The app's photo store.
actor PhotoStore {
    func save(_ bytes: Data) async throws {}
    func thumbnail(_ id: String) async throws -> Data { Data() }
}

let store = PhotoStore()
