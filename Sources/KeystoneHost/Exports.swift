// Exports.swift — `import KeystoneHost` brings the hub it hosts.
@_exported import Keystone
