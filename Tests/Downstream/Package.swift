// swift-tools-version: 6.0
// Greeter — a small app built on Keystone as any app would be: Keystone by path, its products, and
// nothing else. An interface with in-memory tests, and (Linux) a GTK executable that serves its own page at the app origin,
// keeps state on the main actor, and exits. scripts/downstream.sh builds, tests and runs it where
// nothing of Keystone's own is installed.
import PackageDescription

let package = Package(
    name: "Greeter",
    platforms: [.iOS(.v16), .macOS(.v13)],
    dependencies: [.package(name: "Keystone", path: "../..")],
    targets: [
        .target(name: "Greeting", dependencies: [.product(name: "Keystone", package: "Keystone")]),
        .executableTarget(
            name: "GreeterApp",
            dependencies: [
                "Greeting",
                .product(name: "Keystone", package: "Keystone"),
                .product(name: "KeystoneGTK", package: "Keystone", condition: .when(platforms: [.linux])),
            ],
            resources: [.copy("www")]
        ),
        .testTarget(
            name: "GreetingTests",
            dependencies: ["Greeting", .product(name: "KeystoneTesting", package: "Keystone")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
