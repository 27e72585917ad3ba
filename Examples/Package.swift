// swift-tools-version: 6.0
// Examples — parts of a Keystone written outside its package, against its public API only: a
// serializer, a registry, a dispatcher, middleware, an evaluator, an evaluation target and a host.
import Foundation
import PackageDescription

/// Keystone's own package, one directory up; its identity is its directory's name.
let keystone = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

/// The DocC articles with Swift snippets, each compiled as an executable target whose `main.swift`
/// Tests/Docs/snippets.py writes (and checks this list against). Listed by name, never read from
/// the folder: SwiftPM caches a manifest's evaluation by its text, so a folder read here would be
/// missed by a machine that evaluated this manifest before the folder existed.
let articles = [
    "AddingKeystoneToAnApp", "BinaryData", "CallsThatOutliveThePage", "GettingStarted", "Migrating", "Security", "ServingYourAppsPages",
    "SeeingAndReplayingCalls", "SeveralWebViews", "SwappingComponents", "Testing", "TypedPages", "Workers",
]

let snippetTargets: [Target] = articles.map { article in
    .executableTarget(
        name: "\(article)Snippets",
        dependencies: [
            .product(name: "Keystone", package: keystone.lastPathComponent),
            .product(name: "KeystoneTesting", package: keystone.lastPathComponent),
            .product(name: "KeystoneGTK", package: keystone.lastPathComponent, condition: .when(platforms: [.linux])),
            .product(name: "KeystoneWebKit", package: keystone.lastPathComponent, condition: .when(platforms: [.macOS, .iOS])),
        ],
        path: "ArticleSnippets/\(article)"
    )
}

let package = Package(
    name: "KeystoneExamples",
    // `Synchronization.Mutex` needs these; Keystone itself supports iOS 16 and macOS 13.
    platforms: [.iOS(.v18), .macOS(.v15)],
    dependencies: [.package(path: keystone.path)],
    targets: [
        .target(
            name: "CustomParts",
            dependencies: [
                .product(name: "Keystone", package: keystone.lastPathComponent),
                .product(name: "KeystoneHost", package: keystone.lastPathComponent),
            ]
        ),
        .executableTarget(
            name: "ExamplesCheck",
            dependencies: [
                "CustomParts",
                .product(name: "Keystone", package: keystone.lastPathComponent),
                .product(name: "KeystoneHost", package: keystone.lastPathComponent),
                .product(name: "KeystoneTesting", package: keystone.lastPathComponent),
            ]
        ),
    ] + snippetTargets,
    swiftLanguageModes: [.v6]
)
