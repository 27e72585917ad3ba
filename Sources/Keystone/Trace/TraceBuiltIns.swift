// TraceBuiltIns.swift — the built-in a tracing Keystone's runtime calls to mark the page's own work
// on the trace (`dsBridge.mark`).
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// `_dsb.mark`: a span of the page's own work begins or ends, and the trace records it beside the
/// bridge's events. Registered only where the Keystone traces, which the runtime learns from its
/// announcement's answer (`"marks":true`): a page that is not traced sends no marks.
///
/// A mark is the page's word about itself: it is kept only as a record, its name held to
/// ``MarkLimits/nameBytes``, and a time the page gives (how long ago it made a mark it had to hold)
/// moves the record back at most ``MarkLimits/longestHold``.
struct TraceBuiltIns: BridgeInterface {
    let tracer: Tracer
    let page: PageID

    /// What a mark carries: `{"step":"begin"|"end","name":…,"span":…,"ago":…}`.
    struct Mark: Decodable, Sendable {
        var step: String
        var name: String
        var span: Int
        var ago: Double?
    }

    enum MarkLimits {
        /// The longest mark name kept, in UTF-8 bytes.
        static let nameBytes = 256
        /// The longest a runtime holds a mark before it can send it, in milliseconds.
        static let longestHold = 60_000.0
    }

    func exposeMethods(to methods: inout MethodList) {
        let (tracer, page) = (tracer, page)
        methods.sync("mark") { (mark: Mark, context: CallContext) in
            guard let pageLoad = (context.page as? any PageLoadBound)?.pageLoad else {
                throw BridgeError(code: .failed, message: "a built-in method ran outside a Keystone's call")
            }
            guard mark.step == "begin" || mark.step == "end" else {
                throw BridgeError(code: .invalidArgument, message: "a mark's step is \"begin\" or \"end\"")
            }
            guard mark.name.utf8.count <= MarkLimits.nameBytes else {
                throw BridgeError(code: .limitExceeded, message: "a mark's name is longer than \(MarkLimits.nameBytes) bytes")
            }
            let ago = mark.ago.map { $0.isFinite ? min(max($0, 0), MarkLimits.longestHold) : 0 } ?? 0
            tracer.mark(mark.step, name: mark.name, span: mark.span, ago: ago, page: page, pageLoad: pageLoad, frame: context.frame)
            return ""
        }
    }
}
