// DemoCommandLine.swift — keystone-demo's command line, which keystone-demo-webkit reads too, and
// the Apple host's tests read from each page's `e2e-flags:` comment.
import Foundation
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

/// `keystone-demo [FLAG]…`: every flag is listed, with an example, in ``flags`` and by
/// `keystone-demo --help`.
enum DemoCommandLine {
    /// The demo's hosts by the page each serves, held weakly: the `host` interface reaches the
    /// calling page's.
    struct Hosts<Host: AnyObject & Sendable>: Sendable {
        private struct Entry: Sendable {
            weak var host: Host?
        }

        private let entries: [PageID: Entry]

        init(_ hosts: [(PageID, Host)]) {
            entries = Dictionary(uniqueKeysWithValues: hosts.map { ($0.0, Entry(host: $0.1)) })
        }

        subscript(page: PageID) -> Host? { entries[page]?.host }
    }

    /// A command-line flag: its name, the value it takes (if any), what it does, and an example.
    struct Flag {
        var name: String
        var value: String?
        var help: String
        var example: String
    }

    /// The command's name: this file also reads `keystone-demo-webkit`'s command line.
    #if KEYSTONE_DEMO_WEBKIT
    static let command = "keystone-demo-webkit"
    #else
    static let command = "keystone-demo"
    #endif

    static let flags = [
        Flag(
            name: "--page", value: "FILE|URL", help: "serve FILE (or load an http(s) URL) against the demo interfaces and print its console lines",
            example: "--page Tests/E2E/pages/calls.html"
        ),
        Flag(
            name: "--app", value: "DIR", help: "serve DIR at the app origin app://localhost and load its index.html (or the path, or http(s) URL, --page names)",
            example: "--app Examples/WebApp --page settings.html"
        ),
        Flag(
            name: "--csp", value: "POLICY", help: "with --app, send POLICY as the Content-Security-Policy of every file", example: "--app Examples/WebApp --csp img-src"
        ),
        Flag(name: "--bare", value: nil, help: "inject only window._dswk = true, for a page that brings its own dsbridge.js", example: "--page my.html --bare"),
        Flag(name: "--wire", value: "dsbridge|wvjb", help: "the wire a --bare page speaks (default dsbridge)", example: "--page wvjb.html --bare --wire wvjb"),
        Flag(name: "--no-byte-channel", value: nil, help: "serve no byte channel: every Data goes as base64, as on a host without one", example: "--page binary.html --no-byte-channel"),
        Flag(
            name: "--no-web-process-extension", value: nil, help: "run the web process without Keystone's extension, as where it cannot be loaded (WebKitGTK)",
            example: "--page extension.html --no-web-process-extension"
        ),
        Flag(
            name: "--windows", value: "N", help: "open N web views (1 to 16) on the one Keystone, each loading the page; pages.whoami tells them apart",
            example: "--page Tests/E2E/pages/windows.html --windows 4"
        ),
        Flag(name: "--fixed-window", value: nil, help: "send to the page once per 50 ms window instead of as soon as it is idle", example: "--fixed-window"),
        Flag(name: "--allow-subframes", value: nil, help: "answer subframes too, and inject into them", example: "--page frames.html --allow-subframes"),
        Flag(name: "--allow-origin", value: "ORIGIN", help: "give the bridge only to this origin (repeatable)", example: "--allow-origin file://"),
        Flag(name: "--public", value: "NAMESPACE", help: "with --authorize-with, a namespace that answers before authorisation (repeatable)", example: "--public math"),
        Flag(name: "--authorize-with", value: "TOKEN", help: "answer only --public namespaces until the page presents {token: TOKEN}", example: "--authorize-with s3cret"),
        Flag(name: "--strict", value: nil, help: "answer only methods the page declared with dsBridge.declare", example: "--page my.html --strict"),
        Flag(
            name: "--trust-certificate", value: "FILE", help: "trust this PEM certificate for https://127.0.0.1 (the end-to-end suite's own server)",
            example: "--trust-certificate certificate.pem"
        ),
        Flag(
            name: "--trace", value: "FILE", help: "write a trace of every message, page load, transfer and durable call to FILE, as JSON lines",
            example: "--page Tests/E2E/pages/calls.html --trace calls.jsonl"
        ),
        Flag(name: "--trace-values", value: nil, help: "with --trace, keep each message's value in the trace (at most 64 KiB of it)", example: "--trace run.jsonl --trace-values"),
        Flag(name: "--timeout", value: "SECONDS", help: "give up after SECONDS, exit status 2 (default 30)", example: "--timeout 60"),
        Flag(name: "--call", value: "METHOD", help: "have Swift call the page handler METHOD once the page is ready (repeatable)", example: "--page my.html --call page.title"),
        Flag(
            name: "--emit-policy", value: "FILE", help: "write what each origin may call of the demo (as the other flags set it) to FILE, and exit",
            example: "--app Examples/WebApp --emit-policy access.txt"
        ),
        Flag(name: "--emit-types", value: "FILE", help: "write the demo's interfaces as TypeScript to FILE, and exit", example: "--emit-types demo.d.ts"),
        Flag(name: "--help", value: nil, help: "print this and exit", example: "--help"),
    ]

    static var help: String {
        let width = flags.map { $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
        let lines = flags.map { flag -> String in
            let usage = flag.name + (flag.value.map { " " + $0 } ?? "")
            return "  " + usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + flag.help + "\n"
                + "  " + String(repeating: " ", count: width) + "  e.g. \(command) " + flag.example
        }
        return """
            usage: \(command) [FLAG]…
            Without --page, runs the bundled demo page: every kind of call between a real WebKitGTK page and
            Swift, each row with its result, its time and what it proves.

            \(lines.joined(separator: "\n"))
            """
    }

    /// What the command line asks for.
    enum Request {
        case run(Arguments)
        case emitTypes(String)
        /// Write what each origin may call, as the arguments set the policy, to the file.
        case emitPolicy(Arguments, String)
        case help
    }

    /// A command line the demo cannot run, said in one line.
    struct UsageError: Error {
        var message: String
    }

    struct Arguments {
        var page: String?
        /// The folder served at the app origin, when there is one: `page` is then a path inside it.
        var app: String?
        /// The Content-Security-Policy of the app origin's files, if any.
        var contentSecurityPolicy: String?
        var bare = false
        var servesBytes = true
        var loadsWebProcessExtension = true
        var timeout: Double = 30
        var calls: [String] = []
        var allowsSubframes = false
        var allowedOrigins: Set<String>?
        var publicNamespaces: [String] = []
        var authorizationToken: String?
        var isStrict = false
        var wire = PageWire.dsbridge
        var flushPolicy = FlushPolicy.whenIdle
        var trustedCertificate: String?
        /// How many web views the demo opens on its Keystone, each loading the page.
        var windows = 1
        /// Where the trace goes, if anywhere, and whether it keeps values.
        var trace: String?
        var tracesValues = false

        init() {}

        /// Sets what `flag` asks for; `value` is its value, empty for a flag that takes none.
        mutating func apply(_ flag: String, value: String) throws {
            switch flag {
            case "--page": page = value
            case "--app": app = value
            case "--csp": contentSecurityPolicy = value
            case "--bare": bare = true
            case "--no-byte-channel": servesBytes = false
            case "--no-web-process-extension": loadsWebProcessExtension = false
            case "--allow-subframes": allowsSubframes = true
            case "--timeout":
                guard let seconds = Double(value), seconds > 0 else { throw UsageError(message: "--timeout takes a number of seconds above 0") }
                timeout = seconds
            case "--call": calls.append(value)
            case "--trace": trace = value
            case "--trace-values": tracesValues = true
            case "--windows":
                guard let count = Int(value), (1...16).contains(count) else { throw UsageError(message: "--windows takes a number from 1 to 16") }
                windows = count
            case "--allow-origin": allowedOrigins = (allowedOrigins ?? []).union([value])
            case "--public": publicNamespaces.append(value)
            case "--authorize-with": authorizationToken = value
            case "--strict": isStrict = true
            case "--fixed-window": flushPolicy = .fixedWindow
            case "--trust-certificate": trustedCertificate = value
            case "--wire":
                switch value {
                case "wvjb": wire = .webViewJavascriptBridge
                case "dsbridge": wire = .dsbridge
                default: throw UsageError(message: "--wire takes dsbridge or wvjb")
                }
            default: throw UsageError(message: "unknown flag \(flag)")
            }
        }

        /// The demo's Keystone: the policy and evaluator the flags ask for, and `closePage` for the
        /// page's `window.close()`.
        func keystone(closePage: @escaping @Sendable () -> Void) -> Keystone {
            var components = KeystoneComponents()
            components.policy = policy
            components.evaluator = BatchingEvaluator(clock: ContinuousClock(), window: .milliseconds(50), policy: flushPolicy)
            components.closePage = closePage
            if let trace {
                do {
                    components.tracing = Tracing(to: try TraceFileWriter(url: URL(fileURLWithPath: trace)), includesValues: tracesValues)
                } catch {
                    FileHandle.standardError.write(Data("\(DemoCommandLine.command): \(error)\n".utf8))
                }
            }
            return Keystone(components: components)
        }

        /// Makes Swift's calls of the page handlers `--call` names, at once and in order (they wait
        /// for the page's dsinit and reach it in the order they were made), and tells `print` each
        /// one's outcome, in order.
        func startSwiftCalls(on keystone: Keystone, print: @escaping @Sendable (String) -> Void) -> Task<Void, Never> {
            let calls = self.calls.map { ($0, keystone.start($0, as: JSONValue.self)) }
            return Task {
                for (method, call) in calls {
                    do {
                        print("swift call \(method) → \(try await call.value)")
                    } catch {
                        print("swift call \(method) failed: \(error)")
                    }
                }
            }
        }

        /// The prefix of a console line of the page `id`: none for the first, whose lines (its results
        /// and its summary) are the run's; `page N: ` for each other window's.
        static func linePrefix(_ id: PageID) -> String {
            id == .first ? "" : "page \(id.rawValue): "
        }

        /// The app origin `--app` serves, if any.
        var appOrigin: AppOrigin? {
            app.map { AppOrigin(folder: URL(fileURLWithPath: $0).standardizedFileURL, contentSecurityPolicy: contentSecurityPolicy) }
        }

        /// The address the demo loads: the page's http(s) address, its path inside the app origin, or
        /// its file's; `nil` for the bundled demo page.
        var address: String? {
            if let page, Self.isURL(page) { return page }
            if let appOrigin { return appOrigin.url(page ?? "index.html").absoluteString }
            return page.map { URL(fileURLWithPath: $0).standardizedFileURL.absoluteString }
        }

        /// Whether `page` is an http(s) address to load rather than a file to serve.
        static func isURL(_ page: String) -> Bool {
            page.hasPrefix("http://") || page.hasPrefix("https://")
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

    /// Reads the command line: every flag is one of ``flags``, each value is present, and the page
    /// file (or the app's folder) exists.
    static func request(_ commandLine: [String]) throws -> Request {
        var arguments = Arguments()
        var policyFile: String?
        var rest = commandLine[...]
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" { return .help }
            if argument == "--emit-types" {
                guard let file = rest.popFirst(), !file.hasPrefix("--") else { throw UsageError(message: "--emit-types needs a value: FILE") }
                return .emitTypes(file)
            }
            if argument == "--emit-policy" {
                guard let file = rest.popFirst(), !file.hasPrefix("--") else { throw UsageError(message: "--emit-policy needs a value: FILE") }
                policyFile = file
                continue
            }
            guard let flag = flags.first(where: { $0.name == argument }) else {
                throw UsageError(message: argument.hasPrefix("-") ? "unknown flag \(argument)" : "unexpected argument \(argument)")
            }
            var value = ""
            if let placeholder = flag.value {
                guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw UsageError(message: "\(flag.name) needs a value: \(placeholder)") }
                value = next
            }
            try arguments.apply(flag.name, value: value)
        }
        if let app = arguments.app {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: app, isDirectory: &isFolder), isFolder.boolValue else { throw UsageError(message: "no folder at \(app)") }
        } else if let page = arguments.page, !Arguments.isURL(page), !FileManager.default.fileExists(atPath: page) {
            throw UsageError(message: "no page file at \(page)")
        }
        if let policyFile { return .emitPolicy(arguments, policyFile) }
        return .run(arguments)
    }
}

/// Prints whole lines from any thread.
enum Output {
    private static let lock = Locked(())

    static func line(_ text: String) {
        lock.withLock { _ in FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    }

    /// A transcript row: the kind of call, the call, its result and time, and under it what the
    /// row proves.
    static func row(_ kind: String, _ call: String, _ result: String, _ milliseconds: Double, proves: String) {
        func pad(_ text: String, _ width: Int) -> String {
            text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
        }
        line("\(pad(kind, 23)) \(pad(call, 52)) → \(pad(result, 16)) \(String(format: "%8.2f ms", milliseconds))\n\(pad("", 23)) proves: \(proves)")
    }
}
