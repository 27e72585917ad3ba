// WebProcessExtensionBuilder.swift — builds a web-process extension, a C shared object WebKitGTK
// loads into its web processes, as a resource of the module it is applied to.
import Foundation
import PackagePlugin

/// Compiles the one C file in the `WebProcessExtension` folder of the target it is applied to
/// (KeystoneGTK's: `Sources/KeystoneGTK/WebProcessExtension/keystone-web-process-extension.c`) with
/// the toolchain's `clang` into a shared object of the same name, which SwiftPM copies into that
/// target's resources. An app that depends on `KeystoneGTK` gets Keystone's extension that way, with
/// nothing of its own to build, copy or name. SwiftPM would link a dynamic-library product of its
/// own against the Swift runtime and build it only for an app that names that product; this object
/// needs neither: it names no library, and its WebKit and GLib symbols are the web process's own.
/// Elsewhere than Linux there is no WebKitGTK, and nothing is built.
@main
struct WebProcessExtensionBuilder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        #if os(Linux)
        // The folders of the targets it is applied to (the package's tools version has no target
        // directory for a plugin to read).
        let folders = ["KeystoneGTK": "Sources/KeystoneGTK", "WebKitShim": "Tests/WebKitShim"]
        guard let path = folders[target.name] else { return [] }
        let folder = context.package.directoryURL.appending(path: path + "/WebProcessExtension")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).sorted { $0.path < $1.path }
        guard let source = files.first(where: { $0.pathExtension == "c" }) else { return [] }
        // Every extension declares WebKitGTK's API, and keeps its frames, through Keystone's headers.
        let shared = context.package.directoryURL.appending(path: "Sources/KeystoneGTK/WebProcessExtension")
        let headers = ["keystone-web-process-extension.h", "keystone-frame-list.h", "keystone-extension-wire.h"].map { shared.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: source.deletingPathExtension().lastPathComponent + ".so")
        return [
            .buildCommand(
                displayName: "Building the web-process extension \(source.lastPathComponent)",
                executable: try context.tool(named: "clang").url,
                arguments: [
                    "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O2", "-fPIC", "-fvisibility=hidden", "-shared",
                    "-o", output.path, source.path,
                ],
                inputFiles: Array(Set(files + headers)).sorted { $0.path < $1.path },
                outputFiles: [output]
            )
        ]
        #else
        return []
        #endif
    }
}
