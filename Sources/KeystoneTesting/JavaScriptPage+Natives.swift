// JavaScriptPage+Natives.swift — the C functions a JavaScriptPage's window calls into Swift with:
// each finds its page by its context.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

func nativePrompt(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let context, let page = JavaScriptPage.page(of: context), let arguments else { return nil }
    let text = count > 0 ? page.text(arguments[0]!) : ""
    let defaultText = count > 1 && JSValueIsString(context, arguments[1]) ? page.text(arguments[1]!) : nil
    guard let answer = page.hub.handlePrompt(text, defaultText: defaultText, frame: CallerFrame(isMainFrame: true, origin: page.origin)) else {
        return JSValueMakeNull(context)
    }
    let string = JavaScriptPage.string(answer)
    defer { JSStringRelease(string) }
    return JSValueMakeString(context, string)
}

func nativeSchedule(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let context, let page = JavaScriptPage.page(of: context), let arguments, count > 1 else { return nil }
    page.schedule(timer: Int(JSValueToNumber(context, arguments[0], nil)), after: JSValueToNumber(context, arguments[1], nil))
    return JSValueMakeUndefined(context)
}

func nativeConsole(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let context, let page = JavaScriptPage.page(of: context), let arguments, count > 0 else { return nil }
    page.lines.append(page.text(arguments[0]!))
    return JSValueMakeUndefined(context)
}

func nativeError(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let context, let page = JavaScriptPage.page(of: context), let arguments, count > 0 else { return nil }
    page.lines.append("error: " + page.text(arguments[0]!))
    return JSValueMakeUndefined(context)
}

func nativeSettled(
    _ context: JSContextRef?, _ function: JSObjectRef?, _ this: JSObjectRef?, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    guard let context, let page = JavaScriptPage.page(of: context), let arguments, count > 2 else { return nil }
    let id = Int(JSValueToNumber(context, arguments[0], nil))
    let fulfilled = JSValueToNumber(context, arguments[1], nil) != 0
    let json = (try? DefaultJSONSerializer().decode(JSONValue.self, from: Data(page.text(arguments[2]!).utf8))) ?? .null
    page.settlements.removeValue(forKey: id)?.resume(returning: fulfilled ? .success(json) : .failure(JavaScriptPage.error(json)))
    return JSValueMakeUndefined(context)
}
