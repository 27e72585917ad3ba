// What the binary-data article leaves to the reader: the app's own photo store.
import Foundation

/// The app's photo store.
actor PhotoStore {
    func save(_ bytes: Data, named name: String, to recordID: String) async throws {}
    func thumbnails(_ id: String) async throws -> [Data] { [] }
}

let store = PhotoStore()
