// GTKMainLoop.swift — GTK's start-up and main loop, for an app that shows a WebKitGTKHost.
#if canImport(CWebKitGTK)
import CWebKitGTK

/// GTK's main loop: initializes GTK, runs until ``quit()``, and runs work on the loop's thread.
/// An app shows a ``WebKitGTKHost`` with this and ``WebViewWindow``, without the C API.
public final class GTKMainLoop: @unchecked Sendable {
    private let loop: OpaquePointer

    /// Initializes GTK (once per process) and creates the loop. Call on the thread that will run it.
    public init() {
        gtk_init(nil, nil)
        loop = g_main_loop_new(nil, 0)
    }

    deinit {
        g_main_loop_unref(loop)
    }

    /// Runs the loop until ``quit()``.
    public func run() {
        g_main_loop_run(loop)
    }

    /// Stops the loop; callable from any thread.
    public func quit() {
        g_main_loop_quit(loop)
    }

    /// Runs `body` on the loop's thread after `seconds`.
    public func after(seconds: Double, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(ScheduledWork(body)).toOpaque()
        g_timeout_add_full(
            G_PRIORITY_DEFAULT, UInt32(max(0, seconds * 1000)),
            { data in
                Unmanaged<ScheduledWork>.fromOpaque(data!).takeUnretainedValue().body()
                return 0  // G_SOURCE_REMOVE
            }, work, { data in Unmanaged<ScheduledWork>.fromOpaque(data!).release() })
    }
}

private final class ScheduledWork {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}
#endif
