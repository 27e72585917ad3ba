#!/usr/bin/env python3
"""jsc-apple.py — whether KeystoneTesting's use of JavaScriptCore's C API compiles the same against
Apple's JavaScriptCore framework as against Debian's libjavascriptcoregtk-4.1.

Both are WebKit's public headers (JSBase.h, JSContextRef.h, JSObjectRef.h, JSStringRef.h,
JSTypedArray.h, JSValueRef.h). What differs on Apple is that the Objective-C API is enabled there
(JSBase.h's JSC_OBJC_API_ENABLED), which turns on the headers' nullability (JSC_ASSUME_NONNULL_BEGIN
regions, JSC_NULLABLE, JSC_NONNULL) and their availability (JSC_API_AVAILABLE). So for every
function Sources/CJavaScriptCore/CJavaScriptCore.h declares (the ones KeystoneTesting calls), in the
real headers:
- it lies in no JSC_ASSUME_NONNULL region and names no JSC_NONNULL or JSC_NULLABLE: Swift imports
  its pointers as implicitly unwrapped on both systems, so the same Swift compiles on both
  (JSC_NULL_UNSPECIFIED is what an unannotated pointer is);
- its availability is no newer than the package's minimum (Package.swift's platforms), so no call
  needs an `if #available` on Apple.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def include_dir():
    flags = subprocess.run(["pkg-config", "--cflags-only-I", "javascriptcoregtk-4.1"], capture_output=True, text=True, check=True).stdout.split()
    for flag in flags:
        path = os.path.join(flag[2:], "JavaScriptCore")
        if os.path.exists(os.path.join(path, "JSBase.h")):
            return path
    sys.exit("jsc-apple: JavaScriptCore's headers were not found")


def version(text):
    return tuple(int(part) for part in text.split("."))


def minimums():
    package = open(os.path.join(ROOT, "Package.swift")).read()
    found = {}
    for platform, name in (("iOS", "ios"), ("macOS", "macos")):
        match = re.search(r"\." + platform + r"\(\.v([0-9_]+)\)", package)
        if not match:
            sys.exit(f"jsc-apple: no {platform} minimum in Package.swift")
        found[name] = version(match.group(1).replace("_", "."))
    return found


def declarations(directory):
    """Each exported function's declaration text, and whether it lies in a non-null region."""
    found = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".h"):
            continue
        text = open(os.path.join(directory, name)).read()
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        nonnull = False
        statement = ""
        for line in text.splitlines():
            stripped = line.strip()
            if stripped == "JSC_ASSUME_NONNULL_BEGIN":
                nonnull = True
                continue
            if stripped == "JSC_ASSUME_NONNULL_END":
                nonnull = False
                continue
            if statement or stripped.startswith("JS_EXPORT"):
                statement += " " + stripped
                if ";" in stripped:
                    match = re.search(r"(\w+)\s*\(", statement.split("JS_EXPORT", 1)[1])
                    if match:
                        found[match.group(1)] = (statement.strip(), nonnull, name)
                    statement = ""
    return found


def main():
    ours = open(os.path.join(ROOT, "Sources", "CJavaScriptCore", "CJavaScriptCore.h")).read()
    used = sorted(set(re.findall(r"^extern [^;]*?\b(JS\w+)\s*\(", ours, flags=re.M)))
    real = declarations(include_dir())
    least = minimums()
    problems = []
    for function in used:
        if function not in real:
            problems.append(f"{function}: not in JavaScriptCore's headers")
            continue
        text, nonnull, header = real[function]
        if nonnull:
            problems.append(f"{function} ({header}): in a JSC_ASSUME_NONNULL region, imported non-optional on Apple only")
        if re.search(r"JSC_(NONNULL|NULLABLE)\b", text):
            problems.append(f"{function} ({header}): annotated for nullability, imported differently on Apple")
        for platform, required in re.findall(r"\b(macos|ios)\(([0-9.]+)\)", text):
            if version(required) > least[platform]:
                problems.append(f"{function} ({header}): {platform} {required}, newer than the package's minimum")
    if problems:
        print("jsc-apple: JavaScriptCore's C API as KeystoneTesting uses it differs on Apple:", file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        sys.exit(1)
    print(f"jsc-apple: the {len(used)} JavaScriptCore functions KeystoneTesting calls import the same on Apple (none non-null there, none newer than iOS {'.'.join(map(str, least['ios']))} / macOS {'.'.join(map(str, least['macos']))})")


if __name__ == "__main__":
    main()
