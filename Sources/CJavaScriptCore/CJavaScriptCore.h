// CJavaScriptCore.h — the part of JavaScriptCore's C API (the same API as Apple's JavaScriptCore
// framework) that KeystoneTesting's page uses on Linux, from Debian's libjavascriptcoregtk-4.1,
// declared here so the package builds with no header search paths and no flags. Every type is the
// real headers' (JavaScriptCore/JSBase.h, JSContextRef.h, JSObjectRef.h, JSStringRef.h, JSTypedArray.h,
// JSValueRef.h), every function declared as they declare it: Tests/Declarations/check-jsc.c
// compiles this file after them.
#ifndef KEYSTONE_CJAVASCRIPTCORE_H
#define KEYSTONE_CJAVASCRIPTCORE_H

#include <stdbool.h>
#include <stddef.h>

typedef const struct OpaqueJSContext *JSContextRef;
typedef struct OpaqueJSContext *JSGlobalContextRef;
typedef struct OpaqueJSString *JSStringRef;
typedef struct OpaqueJSClass *JSClassRef;
typedef const struct OpaqueJSValue *JSValueRef;
typedef struct OpaqueJSValue *JSObjectRef;
typedef unsigned short JSChar;
typedef unsigned JSPropertyAttributes;
typedef JSValueRef (*JSObjectCallAsFunctionCallback)(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argumentCount,
                                                      const JSValueRef arguments[], JSValueRef *exception);

// JSContextRef.h
extern JSGlobalContextRef JSGlobalContextCreate(JSClassRef globalObjectClass);
extern void JSGlobalContextRelease(JSGlobalContextRef ctx);
extern JSObjectRef JSContextGetGlobalObject(JSContextRef ctx);
extern JSGlobalContextRef JSContextGetGlobalContext(JSContextRef ctx);

// JSBase.h
extern JSValueRef JSEvaluateScript(JSContextRef ctx, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL, int startingLineNumber,
                                   JSValueRef *exception);
extern void JSGarbageCollect(JSContextRef ctx);

// JSStringRef.h
extern JSStringRef JSStringCreateWithCharacters(const JSChar *chars, size_t numChars);
extern JSStringRef JSStringCreateWithUTF8CString(const char *string);
extern void JSStringRelease(JSStringRef string);
extern size_t JSStringGetLength(JSStringRef string);
extern const JSChar *JSStringGetCharactersPtr(JSStringRef string);

// JSValueRef.h
extern bool JSValueIsUndefined(JSContextRef ctx, JSValueRef value);
extern bool JSValueIsString(JSContextRef ctx, JSValueRef value);
extern bool JSValueIsNumber(JSContextRef ctx, JSValueRef value);
extern bool JSValueIsObject(JSContextRef ctx, JSValueRef value);
extern JSValueRef JSValueMakeUndefined(JSContextRef ctx);
extern JSValueRef JSValueMakeNull(JSContextRef ctx);
extern JSValueRef JSValueMakeBoolean(JSContextRef ctx, bool boolean);
extern JSValueRef JSValueMakeNumber(JSContextRef ctx, double number);
extern JSValueRef JSValueMakeString(JSContextRef ctx, JSStringRef string);
extern double JSValueToNumber(JSContextRef ctx, JSValueRef value, JSValueRef *exception);
extern JSStringRef JSValueToStringCopy(JSContextRef ctx, JSValueRef value, JSValueRef *exception);
extern JSObjectRef JSValueToObject(JSContextRef ctx, JSValueRef value, JSValueRef *exception);
extern JSStringRef JSValueCreateJSONString(JSContextRef ctx, JSValueRef value, unsigned indent, JSValueRef *exception);
extern void JSValueProtect(JSContextRef ctx, JSValueRef value);
extern void JSValueUnprotect(JSContextRef ctx, JSValueRef value);

// JSObjectRef.h
extern JSObjectRef JSObjectMakeFunctionWithCallback(JSContextRef ctx, JSStringRef name, JSObjectCallAsFunctionCallback callAsFunction);
extern void JSObjectSetProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSPropertyAttributes attributes,
                                JSValueRef *exception);
extern JSValueRef JSObjectGetProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception);
extern JSValueRef JSObjectCallAsFunction(JSContextRef ctx, JSObjectRef object, JSObjectRef thisObject, size_t argumentCount,
                                         const JSValueRef arguments[], JSValueRef *exception);
extern bool JSObjectIsFunction(JSContextRef ctx, JSObjectRef object);

// JSTypedArray.h: bytes in and out without a copy through strings (no function that names the
// array type is declared: the headers' enum has no tag to declare it by again).
typedef void (*JSTypedArrayBytesDeallocator)(void *bytes, void *deallocatorContext);
extern JSObjectRef JSObjectMakeArrayBufferWithBytesNoCopy(JSContextRef ctx, void *bytes, size_t byteLength,
                                                          JSTypedArrayBytesDeallocator bytesDeallocator, void *deallocatorContext,
                                                          JSValueRef *exception);
extern void *JSObjectGetTypedArrayBytesPtr(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);
extern size_t JSObjectGetTypedArrayByteLength(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);
extern size_t JSObjectGetTypedArrayByteOffset(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

#endif
