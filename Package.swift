// swift-tools-version: 6.0
// Keystone builds with Swift 6.0 and later (Xcode 16 and later): newer standard-library API is used
// only behind `#if compiler(>=…)`. iOS 16 and macOS 13 are the minimums because the evaluator's
// injected clock is the standard library's `Clock` (SE-0329); the WebKit API the Apple host uses
// exists from iOS 14 and macOS 11 (Docs: Adding Keystone to an app).
import PackageDescription

let package = Package(
    name: "Keystone",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "Keystone", targets: ["Keystone"]),
        .library(name: "KeystoneHost", targets: ["KeystoneHost"]),
        .library(name: "KeystoneTesting", targets: ["KeystoneTesting"]),
        .library(name: "KeystoneGTK", targets: ["KeystoneGTK"]),
        .library(name: "KeystoneWebKit", targets: ["KeystoneWebKit"]),
        .executable(name: "keystone-demo", targets: ["KeystoneDemo"]),
        .executable(name: "keystone-benchmark", targets: ["KeystoneBenchmark"]),
        .executable(name: "keystone-engine-benchmark", targets: ["KeystoneEngineBenchmark"]),
        .executable(name: "keystone-fuzz", targets: ["KeystoneFuzz"]),
        .executable(name: "keystone-demo-webkit", targets: ["KeystoneDemoWebKit"]),
    ],
    dependencies: [],
    targets: [
        // Module names that cannot clash with an app's own modules; the folders keep the short names.
        .target(name: "KeystoneInterfaces", path: "Sources/Interfaces"),
        .target(name: "KeystoneEvaluator", dependencies: ["KeystoneInterfaces"], path: "Sources/Evaluator"),
        .target(
            name: "Keystone",
            dependencies: ["KeystoneInterfaces", "KeystoneEvaluator"],
            resources: [
                .copy("Resources/keystone-bridge.js"), .copy("Resources/keystone-bridge.d.ts"), .copy("Resources/wvjb-bridge.js"),
            ]
        ),
        // What a host is built with: the decisions every host makes alike, its options and scripts,
        // and the byte channel's custom-scheme transport.
        .target(name: "KeystoneHost", dependencies: ["Keystone"]),
        // The in-memory page runs the page runtime that ships in JavaScriptCore: Apple's framework,
        // and on Linux Debian's libjavascriptcoregtk-4.1, whose C API is declared by CJavaScriptCore.
        .target(
            name: "KeystoneTesting",
            dependencies: ["Keystone", "KeystoneHost", .target(name: "CJavaScriptCore", condition: .when(platforms: [.linux]))],
            resources: [.copy("Resources/page-world.js"), .copy("Resources/page-calls.js"), .copy("Resources/dsbridge-standin.js")]
        ),
        .systemLibrary(name: "CJavaScriptCore", providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]),
        .executableTarget(
            name: "KeystoneDemo",
            dependencies: [
                "Keystone",
                "KeystoneHost",
                .target(name: "KeystoneGTK", condition: .when(platforms: [.linux])),
                .target(name: "CWebKitGTK", condition: .when(platforms: [.linux])),
            ],
            resources: [.copy("Resources/demo.html")]
        ),
        .executableTarget(name: "KeystoneBenchmark", dependencies: ["Keystone", "KeystoneHost"]),
        // Keystone's side of the real-engine benchmark (scripts/bench.sh); the raw floor it is
        // compared with is Tests/Benchmark/floor.c, WebKitGTK with nothing else.
        .executableTarget(
            name: "KeystoneEngineBenchmark",
            dependencies: [
                "Keystone",
                "KeystoneTesting",
                .target(name: "KeystoneGTK", condition: .when(platforms: [.linux])),
                .target(name: "CWebKitGTK", condition: .when(platforms: [.linux])),
            ]
        ),
        // The fuzz harness: libFuzzer's target when built by scripts/fuzz.sh, a corpus replay otherwise.
        .executableTarget(name: "KeystoneFuzz", dependencies: ["Keystone", "KeystoneHost", "CLibFuzzer"]),
        .target(name: "CLibFuzzer"),
        // WebKitGTK for the Linux host: the functions it uses are declared in the target's own header
        // (checked against the real headers by Tests/Declarations/check.c), and the module map links
        // the system libraries by name. Nothing but Debian's package is needed: no pkg-config file,
        // no flags (Docs: Adding Keystone to an app).
        .systemLibrary(name: "CWebKitGTK", providers: [.apt(["libwebkit2gtk-4.1-dev"])]),
        .target(
            name: "KeystoneGTK",
            dependencies: ["Keystone", "KeystoneHost", .target(name: "CWebKitGTK", condition: .when(platforms: [.linux]))],
            exclude: ["WebProcessExtension"],
            resources: [.copy("Resources/gtk-relay.js"), .copy("Resources/gtk-isolated.js")],
            plugins: ["KeystoneWebProcessExtensionBuilder"]
        ),
        // Builds the GTK host's web-process extension (C, Sources/KeystoneGTK/WebProcessExtension)
        // into KeystoneGTK's resources: an app gets it by depending on KeystoneGTK, with no product,
        // file or flag of its own (Docs/Architecture.md, "The web process"). The shim's own extension
        // (Tests/WebKitShim/WebProcessExtension) is built the same way.
        .plugin(name: "KeystoneWebProcessExtensionBuilder", capability: .buildTool(), path: "Sources/KeystoneWebProcessExtensionBuilder"),
        .target(name: "KeystoneWebKit", dependencies: ["Keystone", "KeystoneHost"]),
        // The Apple host's own source files, built on Linux with the Cocoa WebKit API implemented over
        // WebKitGTK (Tests/WebKitShim/README.md): test support, not a product.
        .target(
            name: "WebKitShim",
            dependencies: ["Keystone", "KeystoneHost", .target(name: "CWebKitGTK", condition: .when(platforms: [.linux]))],
            path: "Tests/WebKitShim",
            exclude: ["README.md", "SDK", "WebProcessExtension"],
            swiftSettings: [.define("KEYSTONE_WEBKIT_SHIM")],
            plugins: ["KeystoneWebProcessExtensionBuilder"]
        ),
        // `keystone-demo-webkit`: keystone-demo's pages through the Apple host on the shim; its
        // interfaces and command line are keystone-demo's own files.
        .executableTarget(
            name: "KeystoneDemoWebKit",
            dependencies: [
                "Keystone",
                "KeystoneHost",
                .target(name: "KeystoneGTK", condition: .when(platforms: [.linux])),
                .target(name: "WebKitShim", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/DemoWebKit",
            swiftSettings: [.define("KEYSTONE_DEMO_WEBKIT")]
        ),
        // On a Mac, every end-to-end page in a real WKWebView through WKWebViewHost; on Linux built
        // against the shim, with the suite off (Docs/Development.md).
        .testTarget(
            name: "AppleHostTests",
            dependencies: [
                "Keystone",
                "KeystoneHost",
                .target(name: "KeystoneWebKit", condition: .when(platforms: [.macOS, .iOS])),
                .target(name: "WebKitShim", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [.define("KEYSTONE_DEMO_WEBKIT")]
        ),
        // What no page can show of the Apple host, checked on the shim; Tests/E2E/run.sh runs it.
        .executableTarget(
            name: "AppleHostChecks",
            dependencies: [
                "Keystone",
                "KeystoneHost",
                .target(name: "KeystoneGTK", condition: .when(platforms: [.linux])),
                .target(name: "WebKitShim", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/AppleHostChecks"
        ),
        // The feature matrix in memory: the demo's interfaces (its own files) against the shipped
        // runtime, the outcomes Tests/E2E/pages/matrix.html checks in both real hosts.
        .testTarget(name: "MatrixTests", dependencies: ["Keystone", "KeystoneTesting"]),
        .testTarget(name: "InterfacesTests", dependencies: ["KeystoneInterfaces"]),
        .testTarget(name: "EvaluatorTests", dependencies: ["KeystoneEvaluator", "KeystoneTesting"]),
        .testTarget(name: "KeystoneTests", dependencies: ["Keystone", "KeystoneHost", "KeystoneTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
