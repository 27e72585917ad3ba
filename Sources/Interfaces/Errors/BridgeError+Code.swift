// BridgeError+Code.swift — the codes Keystone itself answers with; apps use 1000 and above.
extension BridgeError {
    /// The number that identifies a kind of failure on the wire.
    ///
    /// Keystone's own codes are small positive numbers. Codes from 1000 up are left to apps.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// No interface is registered under the namespace, or it has no method of that name.
        public static let notFound = Code(rawValue: 1)
        /// The call's `data` does not decode into the method's input type.
        public static let invalidArgument = Code(rawValue: 2)
        /// A synchronous call reached an asynchronous or multi-response method, or the reverse.
        public static let unsupportedCallKind = Code(rawValue: 3)
        /// The message itself is unusable: not JSON, not an object, or a required field is missing.
        public static let malformedMessage = Code(rawValue: 4)
        /// The method threw an error that carries no code of its own.
        public static let failed = Code(rawValue: 5)
        /// The call was cancelled before it settled.
        public static let cancelled = Code(rawValue: 6)
        /// The page that the call was bound for has gone (navigation, reload, or a closed view).
        public static let pageGone = Code(rawValue: 7)
        /// A value could not be encoded to JSON, or the serializer produced text that is not JSON.
        public static let unencodableValue = Code(rawValue: 8)
        /// A namespace or method name given to `register` is not usable.
        public static let invalidRegistration = Code(rawValue: 9)
        /// The page's answer to a Swift call does not decode into the requested result type.
        public static let invalidResult = Code(rawValue: 10)
        /// The host refuses calls from where this one came (a subframe, by default).
        public static let notAllowed = Code(rawValue: 11)
        /// The call goes past one of the limits a Keystone keeps (its size, its nesting, a name's
        /// length, how many calls may be open at once); the message names the limit.
        public static let limitExceeded = Code(rawValue: 12)
        /// A Swift call of a page handler made with a timeout had no answer in time; the call was
        /// withdrawn (Keystone's page runtime is told).
        public static let timedOut = Code(rawValue: 13)

        public var description: String {
            switch self {
            case .notFound: "notFound"
            case .invalidArgument: "invalidArgument"
            case .unsupportedCallKind: "unsupportedCallKind"
            case .malformedMessage: "malformedMessage"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .pageGone: "pageGone"
            case .unencodableValue: "unencodableValue"
            case .invalidRegistration: "invalidRegistration"
            case .invalidResult: "invalidResult"
            case .notAllowed: "notAllowed"
            case .limitExceeded: "limitExceeded"
            case .timedOut: "timedOut"
            default: "code \(rawValue)"
            }
        }
    }
}

extension BridgeError.Code: ExpressibleByIntegerLiteral {
    /// A code written as a number: `throw BridgeError(code: 1001, message: "not signed in")`.
    public init(integerLiteral value: Int) {
        self.init(rawValue: value)
    }
}
