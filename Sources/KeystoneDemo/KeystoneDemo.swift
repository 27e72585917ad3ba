// KeystoneDemo.swift — a real web view calling Swift and back, printed as a timed transcript.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(KeystoneGTK) && os(Linux)
import KeystoneGTK
#endif

/// `keystone-demo [FLAG]…`: every flag is listed, with an example, in ``DemoCommandLine/flags`` and
/// by `keystone-demo --help`.
///
/// Without `--page`: opens the bundled demo page in a real web view and prints every kind of call
/// with its result, its time and what it proves. With `--page`: serves FILE against the same
/// interfaces and prints the page's console lines; exits 0 when the page calls `window.close()`, 2
/// on timeout. A flag it does not know, a flag without its value, or a page file that is not there
/// is one line on standard error and exit status 1.
@main
struct KeystoneDemo {
    /// The command line, in DemoCommandLine.swift (which keystone-demo-webkit and the Apple host's
    /// tests read too).
    typealias Arguments = DemoCommandLine.Arguments

    static func main() {
        let arguments: Arguments
        do {
            switch try DemoCommandLine.request(Array(CommandLine.arguments.dropFirst())) {
            case .help:
                Output.line(DemoCommandLine.help)
                exit(0)
            case .emitTypes(let file):
                exit(emitTypes(to: file))
            case .emitPolicy(let requested, let file):
                exit(emitPolicy(requested, to: file))
            case .run(let requested):
                arguments = requested
            }
        } catch {
            let message = (error as? DemoCommandLine.UsageError)?.message ?? "\(error)"
            FileHandle.standardError.write(Data("\(DemoCommandLine.command): \(message) (see \(DemoCommandLine.command) --help)\n".utf8))
            exit(1)
        }
        #if KEYSTONE_DEMO_WEBKIT && os(Linux)
        rerunUnderXvfbWithoutDisplay()
        exit(MainActor.assumeIsolated { WebKitDemo(arguments: arguments).run() })
        #elseif canImport(KeystoneGTK) && os(Linux)
        rerunUnderXvfbWithoutDisplay()
        exit(WebViewDemo(arguments: arguments).run())
        #else
        Output.line("keystone-demo drives WebKitGTK and runs on Linux.")
        exit(1)
        #endif
    }

    /// The page handlers the demo's Swift calls: `page.greet` (the web view demo's Swift → JS call)
    /// and `durable.photo` (`durable.sendPhoto`'s durable call, with a photo's bytes). It emits no
    /// events.
    static var pageDeclarations: PageDeclarations {
        var page = PageDeclarations()
        page.handler("page.greet", arguments: String.self, answer: String.self)
        page.handler("durable.photo", arguments: Data.self, answer: JSONValue.self)
        return page
    }

    /// Writes the TypeScript declarations of the demo's interfaces to `file`: every namespace the
    /// demo serves, `host` included, and the page handlers its Swift calls. Returns the exit status.
    static func emitTypes(to file: String) -> Int32 {
        let keystone = Keystone()
        do {
            try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())
            try keystone.register(HostInterface(evaluate: { _, _ in .null }, terminate: { _ in }, terminations: { 0 }), namespace: "host")
            try Data(keystone.typeScriptDeclarations(page: pageDeclarations).utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            FileHandle.standardError.write(Data("keystone-demo: could not write \(file): \(error)\n".utf8))
            return 1
        }
        return 0
    }

    /// Writes what each origin may call of the demo, as the other flags set its policy and app
    /// origin, to `file`: the file Docs/DemoAccess.txt is, and a test compares with it. Returns the
    /// exit status.
    static func emitPolicy(_ arguments: Arguments, to file: String) -> Int32 {
        let keystone = arguments.keystone {}
        do {
            try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())
            try keystone.register(HostInterface(evaluate: { _, _ in .null }, terminate: { _ in }, terminations: { 0 }), namespace: "host")
            if let app = arguments.appOrigin { keystone.servesAppOrigin(app.origin) }
            try Data(keystone.accessDescription().utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            FileHandle.standardError.write(Data("keystone-demo: could not write \(file): \(error)\n".utf8))
            return 1
        }
        return 0
    }

    #if canImport(KeystoneGTK) && os(Linux)
    /// With no display, runs this same command again under `xvfb-run`.
    static func rerunUnderXvfbWithoutDisplay() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] == nil, environment["WAYLAND_DISPLAY"] == nil else { return }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let argv = ["xvfb-run", "-a", executable] + CommandLine.arguments.dropFirst()
        var cArguments = argv.map { strdup($0) } + [nil]
        execvp("xvfb-run", &cArguments)
        Output.line("no display, and xvfb-run could not be started: install xvfb and xauth")
        exit(1)
    }
    #endif
}
