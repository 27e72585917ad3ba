// MainQueueSource.swift — libdispatch's main queue drained by the GLib main loop, as Foundation's
// run loop drains it: the main actor, `DispatchQueue.main` and `MainActor.run` work under GTK.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation

/// The main queue as a source of the GLib main loop. libdispatch wakes whoever runs the main
/// thread's loop through a handle (on Linux an eventfd it writes to when the queue has work);
/// Foundation's run loop watches it, and so does this source: when the handle is readable, the
/// source reads it (clearing the count, or the loop would wake again at once) and drains the queue
/// on the loop's thread. Swift's main actor runs its jobs on the main queue, so without this
/// `@MainActor` code never runs while GTK's loop has the main thread.
///
/// Installed once per process, on the main thread, by ``GTKMainLoop`` and ``WebKitGTKHost``.
enum MainQueueSource {
    /// Watches the main queue's handle from the default main context. Call on the main thread.
    static func install() {
        _ = installed
    }

    private static let installed: Bool = {
        let handle = _dispatch_get_main_queue_handle_4CF()
        guard handle >= 0 else { return false }
        _ = g_unix_fd_add_full(KS_G_PRIORITY_DEFAULT, handle, KS_G_IO_IN, drain, nil, nil)
        // Work queued before the handle was watched is drained once the loop runs.
        MainLoopWork.enqueue({ _dispatch_main_queue_callback_4CF(nil) }, dropped: {})
        return true
    }()

    private static let drain: KSUnixFDSourceFunc = { handle, _, _ in
        var count: UInt64 = 0
        _ = read(handle, &count, MemoryLayout<UInt64>.size)
        _dispatch_main_queue_callback_4CF(nil)
        return 1  // G_SOURCE_CONTINUE
    }
}
#endif
