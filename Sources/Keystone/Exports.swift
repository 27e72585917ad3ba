// Exports.swift — `import Keystone` brings in everything an app needs.
@_exported import Evaluator
@_exported import Interfaces
