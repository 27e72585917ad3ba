// Exports.swift — `import Keystone` brings in everything an app needs.
@_exported import KeystoneEvaluator
@_exported import KeystoneInterfaces
