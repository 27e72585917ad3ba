// KeystoneDemo.swift — a real web view calling Swift and back, printed as a timed transcript.
import Foundation
import Keystone

#if canImport(KeystoneGTK) && os(Linux)
import KeystoneGTK
#endif

/// `keystone-demo [--page FILE] [--bare] [--allow-subframes] [--allow-origin ORIGIN]… [--public NAMESPACE]…
/// [--authorize-with TOKEN] [--strict] [--timeout SECONDS] [--call METHOD]…`
///
/// Without `--page`: opens the bundled demo page in a real web view and prints every kind of call
/// with its result and time. With `--page`: serves FILE against the same interfaces and prints the
/// page's console lines; exits 0 when the page calls `window.close()`, 2 on timeout. `--bare`
/// injects only `window._dswk = true`, for a page that brings its own dsbridge.js;
/// `--allow-subframes` answers subframes too (and injects into them). The policy flags: only
/// `--allow-origin` origins get the bridge; with `--authorize-with`, only `--public` namespaces
/// answer until the page presents `{"token": TOKEN}`; `--strict` answers only declared methods.
/// Each `--call` makes Swift call the page handler METHOD before the page has loaded, and prints
/// its result.
@main
struct KeystoneDemo {
    struct Arguments {
        var page: String?
        var bare = false
        var timeout: Double = 30
        var calls: [String] = []
        var allowsSubframes = false
        var allowedOrigins: Set<String>?
        var publicNamespaces: [String] = []
        var authorizationToken: String?
        var isStrict = false
        var wire = PageWire.dsbridge
        var flushPolicy = FlushPolicy.whenIdle

        init(_ arguments: [String]) throws {
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--page": page = rest.popFirst()
                case "--bare": bare = true
                case "--allow-subframes": allowsSubframes = true
                case "--timeout": timeout = rest.popFirst().flatMap(Double.init) ?? timeout
                case "--call": calls += rest.popFirst().map { [$0] } ?? []
                case "--allow-origin": allowedOrigins = (allowedOrigins ?? []).union(rest.popFirst().map { [$0] } ?? [])
                case "--public": publicNamespaces += rest.popFirst().map { [$0] } ?? []
                case "--authorize-with": authorizationToken = rest.popFirst()
                case "--strict": isStrict = true
                case "--fixed-window": flushPolicy = .fixedWindow
                case "--wire":
                    switch rest.popFirst() {
                    case "wvjb": wire = .webViewJavascriptBridge
                    case "dsbridge": wire = .dsbridge
                    default: throw BridgeError(code: .invalidArgument, message: "--wire takes dsbridge or wvjb")
                    }
                default: throw BridgeError(code: .invalidArgument, message: "unknown argument \(argument)")
                }
            }
        }

        /// The Keystone's call policy, as the flags set it.
        var policy: DefaultCallPolicy {
            var policy = DefaultCallPolicy(allowsSubframes: allowsSubframes, allowedOrigins: allowedOrigins, requiresDeclaration: isStrict)
            for namespace in publicNamespaces { policy.namespaceRules[namespace] = NamespaceRule(allowsSubframes: allowsSubframes, isPublic: true) }
            if let token = authorizationToken {
                // The page presents {"token": TOKEN}; a real app would verify a signature here.
                policy.authorizer = { credentials, _ in credentials == ["token": .string(token)] }
            }
            return policy
        }
    }

    static let usage = """
        usage: keystone-demo [--page FILE] [--bare] [--wire dsbridge|wvjb] [--fixed-window] [--allow-subframes] [--allow-origin ORIGIN]…
                             [--public NAMESPACE]… [--authorize-with TOKEN] [--strict] [--timeout SECONDS] [--call METHOD]…
        """

    static func main() {
        let arguments: Arguments
        do {
            arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
        } catch {
            Output.line(Self.usage)
            exit(64)
        }
        #if canImport(KeystoneGTK) && os(Linux)
        rerunUnderXvfbWithoutDisplay()
        exit(WebViewDemo(arguments: arguments).run())
        #else
        Output.line("keystone-demo drives WebKitGTK and runs on Linux.")
        exit(1)
        #endif
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

/// Prints whole lines from any thread.
enum Output {
    private static let lock = Locked(())

    static func line(_ text: String) {
        lock.withLock { _ in FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    }

    static func row(_ kind: String, _ call: String, _ result: String, _ milliseconds: Double) {
        func pad(_ text: String, _ width: Int) -> String {
            text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
        }
        line("\(pad(kind, 23)) \(pad(call, 52)) → \(pad(result, 16)) \(String(format: "%8.2f ms", milliseconds))")
    }
}
