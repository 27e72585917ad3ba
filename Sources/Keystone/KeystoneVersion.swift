// KeystoneVersion.swift — the package's version, written here and nowhere else.
extension Keystone {
    /// This package's version, as `CHANGELOG.md` names its newest release.
    public static let version = "0.1.0"
}
