#!/usr/bin/env python3
"""convert_test.py — scripts/trace.py's conversion of records no demo page makes: durable calls
paired into slices by page, origin and method, in order; a mark never ended drawn as an instant; the
runtime's `_dsb.mark` calls not drawn as calls; and the result held to the format's checks."""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location("trace", os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "trace.py"))
trace = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trace)

origin = "https://app.example"
records = [
    {"kind": "durable", "time": 1, "page": 1, "pageLoad": 0, "origin": origin, "name": "cart.pay", "step": "begun"},
    {"kind": "durable", "time": 2, "page": 1, "pageLoad": 0, "origin": origin, "name": "cart.pay", "step": "begun"},
    {"kind": "durable", "time": 5, "page": 1, "pageLoad": 0, "origin": origin, "name": "cart.pay", "step": "ended", "outcome": "ok"},
    {"kind": "durable", "time": 9, "page": 1, "pageLoad": 1, "origin": origin, "name": "cart.pay", "step": "recovered"},
    {"kind": "mark", "time": 3, "page": 1, "pageLoad": 0, "name": "render", "span": 1, "step": "begin"},
    {"kind": "mark", "time": 4, "page": 1, "pageLoad": 0, "name": "render", "span": 1, "step": "end"},
    {"kind": "mark", "time": 6, "page": 1, "pageLoad": 0, "name": "clicked", "span": 2, "step": "begin"},
    {"kind": "call", "time": 3, "page": 1, "pageLoad": 0, "name": "_dsb.mark", "outcome": "ok", "duration": 0.1},
    {"kind": "call", "time": 7, "page": 1, "pageLoad": 0, "name": "cart.total", "outcome": "ok", "duration": 0.5},
]
converted = trace.convert(records)
events = [e for e in converted["traceEvents"] if e["ph"] != "M"]
durable = sorted((e["ph"], e["name"], e["ts"], e.get("dur")) for e in events if e["cat"] == "durable")
assert durable == [("X", "durable cart.pay", 1000, 4000), ("i", "durable begun cart.pay", 2000, None), ("i", "durable recovered cart.pay", 9000, None)], durable
marks = sorted((e["ph"], e["name"], e["ts"], e.get("dur")) for e in events if e["cat"] == "mark")
assert marks == [("X", "render", 3000, 1000), ("i", "clicked", 6000, None)], marks
assert [e["name"] for e in events if e["cat"] == "call"] == ["cart.total"]
assert trace.check(converted) == [], trace.check(converted)
print("ok - trace.py pairs durable calls and marks into slices, and draws the rest as instants")
