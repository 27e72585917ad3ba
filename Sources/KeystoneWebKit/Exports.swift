// Exports.swift — an app that imports the host imports Keystone with it.

// A host is used only with Keystone's own types (the hub, interfaces, method lists, errors) and
// the host kit's (its options, the web process's terminations), so an app's `import KeystoneWebKit` brings them, as the view controller in the articles shows.
@_exported import Keystone
@_exported import KeystoneHost
