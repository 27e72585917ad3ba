// KeystoneLogging.swift — where Keystone's log lines go: nowhere by default.
/// Where Keystone reports what it does. Silent unless configured.
///
/// ``warnings(_:)`` reports what Keystone dropped or refused; ``debug(payloadLimit:_:)`` also reports
/// every message in both directions, with payloads cut to `payloadLimit` characters.
public struct KeystoneLogging: Sendable {
    /// How much a log line matters.
    public enum Level: Int, Sendable, Comparable {
        /// Detail for finding a problem: every call, with its payload cut short.
        case debug
        /// Something went wrong that the page or the app should hear about.
        case warning

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One log line.
    public struct Record: Sendable, Hashable {
        /// How much the line matters.
        public var level: Level
        /// The line itself; a payload in it is cut short to the logging's payload limit.
        public var message: String
    }

    private let sink: (@Sendable (Record) -> Void)?
    private let lowestLevel: Level
    /// How many characters of a payload a debug line shows.
    public let payloadLimit: Int

    /// Logs nothing.
    public static let silent = KeystoneLogging(sink: nil, lowestLevel: .warning, payloadLimit: 0)

    /// Logs what Keystone dropped or refused.
    public static func warnings(_ sink: @escaping @Sendable (Record) -> Void) -> KeystoneLogging {
        KeystoneLogging(sink: sink, lowestLevel: .warning, payloadLimit: 0)
    }

    /// Logs every message in both directions too, payloads cut to `payloadLimit` characters.
    public static func debug(payloadLimit: Int = 256, _ sink: @escaping @Sendable (Record) -> Void) -> KeystoneLogging {
        KeystoneLogging(sink: sink, lowestLevel: .debug, payloadLimit: payloadLimit)
    }

    /// Whether lines of `level` go anywhere.
    package func isEnabled(_ level: Level) -> Bool {
        sink != nil && level >= lowestLevel
    }

    /// Logs the line `message` builds, building it only when lines of `level` go anywhere.
    package func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard isEnabled(level), let sink else { return }
        sink(Record(level: level, message: message()))
    }

    /// `text` cut to ``payloadLimit`` characters, with the full length noted when cut.
    func excerpt(_ text: some StringProtocol) -> String {
        guard text.count > payloadLimit else { return String(text) }
        return "\(text.prefix(payloadLimit))… (\(text.utf8.count) bytes)"
    }
}
