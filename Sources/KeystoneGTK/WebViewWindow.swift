// WebViewWindow.swift — a top-level GTK window around a host's web view.
#if canImport(CWebKitGTK)
import CWebKitGTK

/// A top-level GTK window showing a host's web view.
public final class WebViewWindow {
    private let window: OpaquePointer

    /// Creates a window of `width` × `height` around `host`'s web view and shows it.
    public init(showing host: WebKitGTKHost, title: String = "Keystone", width: Int = 800, height: Int = 600) {
        window = gtk_window_new(KS_GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(ks_window(window), title)
        gtk_window_set_default_size(ks_window(window), Int32(width), Int32(height))
        gtk_container_add(ks_container(window), OpaquePointer(host.widget))
        gtk_widget_show_all(window)
    }

    deinit {
        gtk_widget_destroy(window)
    }
}
#endif
