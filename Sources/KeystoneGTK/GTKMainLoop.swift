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
        g_timeout_add_full(G_PRIORITY_DEFAULT, UInt32(max(0, seconds * 1000)), { data in
            Unmanaged<ScheduledWork>.fromOpaque(data!).takeUnretainedValue().body()
            return 0  // G_SOURCE_REMOVE
        }, work, { data in Unmanaged<ScheduledWork>.fromOpaque(data!).release() })
    }
}

/// A top-level GTK window showing a host's web view.
public final class WebViewWindow {
    private let window: UnsafeMutablePointer<GtkWidget>

    /// Creates a window of `width` × `height` around `host`'s web view and shows it.
    public init(showing host: WebKitGTKHost, title: String = "Keystone", width: Int = 800, height: Int = 600) {
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(ks_window(window), title)
        gtk_window_set_default_size(ks_window(window), Int32(width), Int32(height))
        gtk_container_add(ks_container(window), host.widget.assumingMemoryBound(to: GtkWidget.self))
        gtk_widget_show_all(window)
    }

    deinit {
        gtk_widget_destroy(window)
    }
}

private final class ScheduledWork {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}
#endif
