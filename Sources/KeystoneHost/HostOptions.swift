// HostOptions.swift — how a host serves pages: one set of options for every host.
import Foundation
import Keystone

/// How a host serves pages. Every host takes these (`WebKitGTKHost.Options` and
/// `WKWebViewHost.Options` are this type), so an app that targets both sets them once.
public struct HostOptions: Sendable, Hashable {
    /// Inject Keystone's page runtime. `false` is bare mode: only `window._dswk = true`, for a
    /// page that brings its own dsbridge.js 3.1.4 (or, with ``wire``, WebViewJavascriptBridge's
    /// script), served exactly as DSBridge-iOS would.
    public var injectsPageRuntime: Bool
    /// Inject into subframes too, so they can call. Whether their calls are answered is the
    /// hub's policy (`DefaultCallPolicy/allowsSubframes`).
    public var injectsIntoSubframes: Bool
    /// Relay the console lines of the documents the hub admits to the host's console handler.
    /// WebKitGTK only: on Apple systems, Safari's Web Inspector shows a page's console.
    public var relaysConsole: Bool
    /// Reload the page when its web process ends (a crash, the memory limit): the blank view a
    /// user would otherwise be left with. On by default; the host backs off and stops as
    /// `HostCore/TerminationLimit` says.
    public var reloadsAfterTermination: Bool
    /// The wire the page's own bridge script speaks, in bare mode: dsbridge.js's, or
    /// WebViewJavascriptBridge's (the host then answers its signals and fetches its queue).
    public var wire: PageWire
    /// Serve the page runtime a byte channel, so the `Data` in values moves as raw bytes (on Apple
    /// systems, where the configuration has one: `WKWebViewHost.serveBytes(in:)`). Without it, the
    /// runtime hears it has none, and `Data` moves as base64 in the values, as for every other page.
    public var servesBytes: Bool
    /// Offer the engine Keystone's web-process extension (WebKitGTK only; Apple systems have none).
    /// Where it cannot be loaded the host says so once, to the hub's logging, and works as without it.
    /// With it, the byte channel goes through the extension both ways and the host registers no
    /// byte scheme; a web process that runs no extension gets no channel (its bytes go as base64).
    /// Without it, the channel is the scheme `keystone:`.
    public var loadsWebProcessExtension: Bool
    /// Serve the app's own web files at an origin of the app's own scheme (`nil`: none). The hub
    /// is told (`BridgeHub/servesAppOrigin(_:)`): unless the app's policy lists origins, the app's
    /// pages are then the only ones that get the bridge. On WebKitGTK the host registers the
    /// scheme; on Apple systems the web view's configuration carries it
    /// (`WKWebViewHost.serveApp(_:in:)`), since WebKit takes a scheme handler only before a web
    /// view is made.
    public var appOrigin: AppOrigin?

    /// Creates options; each parameter sets the property of the same name.
    public init(
        injectsPageRuntime: Bool = true,
        injectsIntoSubframes: Bool = false,
        relaysConsole: Bool = false,
        reloadsAfterTermination: Bool = true,
        wire: PageWire = .dsbridge,
        servesBytes: Bool = true,
        loadsWebProcessExtension: Bool = true,
        appOrigin: AppOrigin? = nil
    ) {
        self.injectsPageRuntime = injectsPageRuntime
        self.injectsIntoSubframes = injectsIntoSubframes
        self.relaysConsole = relaysConsole
        self.reloadsAfterTermination = reloadsAfterTermination
        self.wire = wire
        self.servesBytes = servesBytes
        self.loadsWebProcessExtension = loadsWebProcessExtension
        self.appOrigin = appOrigin
    }
}
