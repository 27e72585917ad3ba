// SameViewFloor.swift — WebKit's own transports in the benchmark's web view, beside the bridge.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import KeystoneGTK

/// The raw floor's transports (as Tests/Benchmark/floor.c answers them), registered in the same
/// web view as the bridge, so the page can interleave them with the bridge's paths round by round:
/// `webkit.messageHandlers.floor` (a message with a reply, echoed), `floorAsync` (a message in,
/// `__floorResult(text)` evaluated out) and `floorChain` (a message in, `__floorCall(text)` out,
/// whose `prompt("answer", value)` the host's dialog handler sends back as `__floorResult`).
/// Only digits are ever evaluated.
enum SameViewFloor {
    static func install(in host: WebKitGTKHost) {
        let view = ks_web_view(OpaquePointer(host.widget))!
        let manager = webkit_web_view_get_user_content_manager(view)!
        let data = UnsafeMutableRawPointer(view)
        _ = ks_on_message_with_reply(
            manager, "floor", nil,
            { _, value, reply, _ in
                guard let value, let reply else { return 0 }
                let text = jsc_value_to_string(value)
                let answer = jsc_value_new_string(jsc_value_get_context(value), text)
                webkit_script_message_reply_return_value(reply, answer)
                g_object_unref(UnsafeMutableRawPointer(answer))
                g_free(text)
                return 1
            }, nil)
        _ = ks_on_message(
            manager, "floorAsync",
            { _, result, data in
                guard let result, let data else { return }
                SameViewFloor.callPage(data, "__floorResult", result)
            }, data)
        _ = ks_on_message(
            manager, "floorChain",
            { _, result, data in
                guard let result, let data else { return }
                SameViewFloor.callPage(data, "__floorCall", result)
            }, data)
        let address = UInt(bitPattern: data)
        host.dialogHandler = ScriptDialogHandler(prompt: { message, defaultText in
            if message == "answer", let defaultText { evaluate(UnsafeMutableRawPointer(bitPattern: address)!, "__floorResult", defaultText) }
            return defaultText
        })
    }

    fileprivate static func callPage(_ view: UnsafeMutableRawPointer, _ function: String, _ result: OpaquePointer) {
        guard let text = ks_message_text(result) else { return }
        defer { g_free(text) }
        evaluate(view, function, String(cString: text))
    }

    private static func evaluate(_ view: UnsafeMutableRawPointer, _ function: String, _ digits: String) {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return }
        webkit_web_view_evaluate_javascript(OpaquePointer(view), "\(function)(\(digits))", -1, nil, nil, nil, nil, nil)
    }
}
#endif
