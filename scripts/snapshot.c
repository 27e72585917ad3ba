// snapshot.c — snapshot URL PNG [WIDTH]: loads URL in a WebKitGTK web view WIDTH pixels wide and
// writes the whole document as a PNG, once it has loaded and drawn. scripts/pictures.sh builds it
// to picture the timelines in the documentation; nothing of Keystone runs in it.
#include <webkit2/webkit2.h>

static const char *output;
static int status = 1;

static void snapshot_taken(GObject *view, GAsyncResult *result, gpointer data) {
    (void)data;
    GError *error = NULL;
    cairo_surface_t *surface = webkit_web_view_get_snapshot_finish(WEBKIT_WEB_VIEW(view), result, &error);
    if (surface) {
        status = cairo_surface_write_to_png(surface, output) == CAIRO_STATUS_SUCCESS ? 0 : 1;
        cairo_surface_destroy(surface);
    } else {
        g_printerr("snapshot: %s\n", error->message);
        g_error_free(error);
    }
    gtk_main_quit();
}

static gboolean take(gpointer view) {
    webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT, WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, snapshot_taken, NULL);
    return G_SOURCE_REMOVE;
}

static void load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)data;
    // A moment after the load ends, so that the page's script has drawn.
    if (event == WEBKIT_LOAD_FINISHED) g_timeout_add(500, take, view);
}

static gboolean give_up(gpointer data) {
    (void)data;
    g_printerr("snapshot: the page did not load in time\n");
    gtk_main_quit();
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        g_printerr("usage: snapshot URL PNG [WIDTH]\n");
        return 2;
    }
    output = argv[2];
    gtk_init(&argc, &argv);
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), argc > 3 ? atoi(argv[3]) : 1100, 600);
    GtkWidget *view = webkit_web_view_new();
    gtk_container_add(GTK_CONTAINER(window), view);
    g_signal_connect(view, "load-changed", G_CALLBACK(load_changed), NULL);
    gtk_widget_show_all(window);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), argv[1]);
    g_timeout_add_seconds(60, give_up, NULL);
    gtk_main();
    return status;
}
