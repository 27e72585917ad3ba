// WebProcessExtensionBuilder.swift — builds KeystoneGTK's web-process extension, a C shared object
// WebKitGTK loads into its web processes, as a resource of the KeystoneGTK module.
import Foundation
import PackagePlugin

/// Compiles `Sources/KeystoneGTK/WebProcessExtension/keystone-web-process-extension.c` with the toolchain's `clang` into `keystone-web-process-extension.so`, which SwiftPM copies into
/// the resources of the target it is applied to, KeystoneGTK. An app that depends on `KeystoneGTK` gets it that way, with nothing of its
/// own to build, copy or name. SwiftPM would link a dynamic-library product of its own against the
/// Swift runtime and build it only for an app that names that product; this object needs neither:
/// it names no library, and its WebKit and GLib symbols are the web process's own. Elsewhere than
/// Linux there is no WebKitGTK, and nothing is built.
@main
struct WebProcessExtensionBuilder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        #if os(Linux)
        let folder = context.package.directoryURL.appending(path: "Sources/KeystoneGTK/WebProcessExtension")
        let source = folder.appending(path: "keystone-web-process-extension.c")
        let header = folder.appending(path: "keystone-web-process-extension.h")
        let output = context.pluginWorkDirectoryURL.appending(path: "keystone-web-process-extension.so")
        return [
            .buildCommand(
                displayName: "Building Keystone's web-process extension",
                executable: try context.tool(named: "clang").url,
                arguments: [
                    "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O2", "-fPIC", "-fvisibility=hidden", "-shared",
                    "-o", output.path, source.path,
                ],
                inputFiles: [source, header],
                outputFiles: [output]
            )
        ]
        #else
        return []
        #endif
    }
}
