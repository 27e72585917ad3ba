// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Keystone",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "Keystone", targets: ["Keystone"]),
        .library(name: "KeystoneTesting", targets: ["KeystoneTesting"]),
        .executable(name: "keystone-demo", targets: ["KeystoneDemo"]),
        .executable(name: "keystone-benchmark", targets: ["KeystoneBenchmark"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "Interfaces"),
        .target(name: "Evaluator", dependencies: ["Interfaces"]),
        .target(
            name: "Keystone",
            dependencies: ["Interfaces", "Evaluator"],
            resources: [.copy("Resources/keystone-bridge.js"), .copy("Resources/keystone-bridge.d.ts")]
        ),
        .target(name: "KeystoneTesting", dependencies: ["Keystone"]),
        .executableTarget(name: "KeystoneDemo", dependencies: ["Keystone", "KeystoneTesting"]),
        .executableTarget(name: "KeystoneBenchmark", dependencies: ["Keystone"]),
        .testTarget(name: "InterfacesTests", dependencies: ["Interfaces"]),
        .testTarget(name: "EvaluatorTests", dependencies: ["Evaluator", "KeystoneTesting"]),
        .testTarget(name: "KeystoneTests", dependencies: ["Keystone", "KeystoneTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
