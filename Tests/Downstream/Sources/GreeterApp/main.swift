// main.swift — the Greeter app on Linux: a window with a page, a Keystone, and the main loop.
// Top-level code runs on the main actor; the GTK main loop runs it, and everything else that
// hops to the main actor, until the app has what it came for.
import Foundation
import Greeting
import Keystone

#if os(Linux)
import KeystoneGTK

let page = """
    <!doctype html>
    <title>Greeter</title>
    <p id="greeting"></p>
    <script>
    dsBridge.register('page.greeting', function () { return document.getElementById('greeting').textContent; });
    document.getElementById('greeting').textContent = dsBridge.call('greeter.hello', 'Ada');
    var signed = dsBridge.invoke('greeter.sign', 'Ada').then(function () { return dsBridge.invoke('greeter.sign', 'Grace'); });
    dsBridge.registerAsyn('page.signed', function (done) { signed.then(function (count) { done(count); }); });
    </script>
    """

let loop = GTKMainLoop()
let guestbook = Guestbook()
let keystone = Keystone()
var status: Int32 = 1
do {
    try keystone.register(Greeter(guestbook: guestbook), namespace: "greeter")
    let host = try WebKitGTKHost(hub: keystone)
    let window = WebViewWindow(showing: host, title: "Greeter")
    host.loadHTML(page, baseURI: "https://greeter.example/")
    Task { @MainActor in
        defer { loop.quit() }
        do {
            try await keystone.pageReady()
            let greeting = try await keystone.call("page.greeting", arguments: [], as: String.self)
            // The page answers once both its signatures are in; the guestbook is main-actor
            // state, read here on the main actor.
            let signatures = try await keystone.call("page.signed", arguments: [], as: Int.self)
            print("page says: \(greeting)")
            print("guestbook (\(signatures) signed): \(guestbook.names.joined(separator: ", "))")
            status = greeting == "Hello, Ada!" && signatures == 2 && guestbook.names == ["Ada", "Grace"] ? 0 : 1
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
