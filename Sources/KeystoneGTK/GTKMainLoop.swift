// GTKMainLoop.swift — GTK's start-up and main loop, for an app that shows a WebKitGTKHost.
#if canImport(CWebKitGTK)
import CWebKitGTK

/// GTK's main loop: initializes GTK, runs until ``quit()``, and runs work on the loop's thread.
/// An app shows a ``WebKitGTKHost`` with this and ``WebViewWindow``, without the C API.
///
/// The loop also drains libdispatch's main queue, as Foundation's run loop does: while it runs on
/// the main thread, `@MainActor` code, `DispatchQueue.main.async` and `await MainActor.run { }`
/// run on it, as they do under UIKit or AppKit.
public final class GTKMainLoop: @unchecked Sendable {
    private let loop: OpaquePointer

    /// Initializes GTK (once per process) and creates the loop. Call on the main thread, which will
    /// run it.
    public init() {
        gtk_init(nil, nil)
        loop = g_main_loop_new(nil, 0)
        MainQueueSource.install()
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
        MainLoopWork.after(milliseconds: UInt32(max(0, seconds * 1000)), body, dropped: {})
    }
}

/// Work for the default main loop, run once on its thread: `body` when its source fires, or
/// `dropped` instead when the source is destroyed without firing (the loop went away first), so
/// whoever waits for the work always hears of it. The source owns the work until it is destroyed.
final class MainLoopWork {
    private let body: () -> Void
    private let dropped: () -> Void
    private var hasRun = false

    private init(_ body: @escaping () -> Void, dropped: @escaping () -> Void) {
        self.body = body
        self.dropped = dropped
    }

    /// Runs `body` on the loop's thread after everything queued the same way before it: the queue
    /// keeps its work in order, from any thread, the loop's own included.
    static func enqueue(_ body: @escaping () -> Void, dropped: @escaping () -> Void) {
        g_idle_add_full(KS_G_PRIORITY_DEFAULT, fire, Unmanaged.passRetained(MainLoopWork(body, dropped: dropped)).toOpaque(), destroy)
    }

    /// Runs `body` on the loop's thread after `milliseconds`.
    static func after(milliseconds: UInt32, _ body: @escaping () -> Void, dropped: @escaping () -> Void) {
        g_timeout_add_full(KS_G_PRIORITY_DEFAULT, milliseconds, fire, Unmanaged.passRetained(MainLoopWork(body, dropped: dropped)).toOpaque(), destroy)
    }

    private static let fire: GSourceFunc = { data in
        let work = Unmanaged<MainLoopWork>.fromOpaque(data!).takeUnretainedValue()
        work.hasRun = true
        work.body()
        return 0  // G_SOURCE_REMOVE
    }

    private static let destroy: GDestroyNotify = { data in
        let work = Unmanaged<MainLoopWork>.fromOpaque(data!).takeRetainedValue()
        if !work.hasRun { work.dropped() }
    }
}
#endif
