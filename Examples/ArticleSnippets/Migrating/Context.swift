// What the migration article leaves to the reader: the app's Keystone and its own types.
import Keystone

let keystone = Keystone()

struct UserRequest: Codable, Sendable {
    var id: String
}

struct UserInfo: Codable, Sendable {
    var name: String
}

/// The app's account service.
struct Accounts: Sendable {
    func info(for id: String) async throws -> UserInfo { UserInfo(name: id) }
}

let accounts = Accounts()
