// main.swift — the Greeter app on Linux: a window with a page, a Keystone, and the main loop.
// Top-level code runs on the main actor; the GTK main loop runs it, and everything else that
// hops to the main actor, until the app has what it came for.
import Foundation
import Greeting
import Keystone

#if os(Linux)
import KeystoneGTK

let loop = GTKMainLoop()
let guestbook = Guestbook()
let keystone = Keystone()
var status: Int32 = 1
do {
    try keystone.register(Greeter(guestbook: guestbook), namespace: "greeter")
    // The app's own page, shipped as the target's resources, at the app origin app://localhost.
    guard let www = Bundle.module.url(forResource: "www", withExtension: nil) else { throw CocoaError(.fileNoSuchFile) }
    let app = AppOrigin(folder: www)
    let host = try WebKitGTKHost(hub: keystone, options: HostOptions(appOrigin: app))
    let window = WebViewWindow(showing: host, title: "Greeter")
    host.load(uri: app.url().absoluteString)
    Task { @MainActor in
        defer { loop.quit() }
        do {
            try await keystone.pageReady()
            let greeting = try await keystone.call("page.greeting", arguments: [], as: String.self)
            let origin = try await keystone.call("page.origin", arguments: [], as: String.self)
            // The page answers once both its signatures are in; the guestbook is main-actor
            // state, read here on the main actor.
            let signatures = try await keystone.call("page.signed", arguments: [], as: Int.self)
            print("page at \(origin) says: \(greeting)")
            print("guestbook (\(signatures) signed): \(guestbook.names.joined(separator: ", "))")
            status = greeting == "Hello, Ada!" && origin == "app://localhost" && signatures == 2 && guestbook.names == ["Ada", "Grace"] ? 0 : 1
        } catch {
            print("greeter failed: \(error)")
        }
    }
    loop.after(seconds: 120) {
        print("greeter timed out")
        loop.quit()
    }
    loop.run()
    _ = window
} catch {
    print("greeter could not start: \(error)")
}
exit(status)
#else
print("The Greeter app's window is the Linux host's; on Apple systems see the iOS view controller in the docs.")
#endif
