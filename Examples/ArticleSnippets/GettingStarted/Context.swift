// What the getting-started article leaves to the reader: the app's own types and functions.
import Keystone

#if canImport(WebKit)
import WebKit

/// The web view a view controller already has.
@MainActor let webView = WKWebView()
#endif

struct PickOptions: Codable, Sendable {
    var title: String
}

struct Photo: Codable, Sendable {
    var name: String
}

/// The app's photo picker.
struct PhotoPicker: Sendable {
    func pick(_ options: PickOptions, for origin: String?) async throws -> Photo { Photo(name: options.title) }
}

/// Asks the user to confirm `message`.
func askUser(_ message: String) -> Bool { true }

/// Checks the page's credentials with the app's server.
func verify(_ credentials: JSONValue, for origin: String?) async throws -> Bool { credentials != .null && origin != nil }
