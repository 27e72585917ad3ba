#!/usr/bin/env python3
"""trace.py TRACE DIR — turns a Keystone trace (JSON lines, `Tracing` / `keystone-demo --trace`)
into DIR/trace.json, in the Trace Event format Perfetto and Chrome's tracing load, and
DIR/timeline.html, a page that draws the same timeline with no network access.

Tracks: a process per page (web view), a thread per frame (the main frame, each subframe
document), and per page a track of its page loads, one of its byte transfers, one of its durable
calls and one of the marks its page made of its own work (`dsBridge.mark`). Each call from the page
is a slice from its arrival until its answer, or, for an asynchronous call answered through its
callback, until the message that ends it; each transfer a slice of its own; each durable call a
slice from its start (`begun`) to the end of its run (`ended`), paired in order by page, origin and
method; each mark a slice from its begin to its end (an instant when never ended); messages to the
page, the other durable steps and page-load steps are instants. The runtime's own `_dsb.mark` calls,
which carry the marks, are not drawn as calls.

`trace.py --check DIR/trace.json` checks a Trace Event file: required fields, complete slices with
a duration, one process per page named, and every thread named."""
import html
import json
import os
import sys

MAIN, LOADS, TRANSFERS, DURABLE, MARKS = 0, 1 << 40, (1 << 40) + 1, (1 << 40) + 2, (1 << 40) + 3
ENDS = {"result", "failure", "noResult", "completion", "release"}


def us(ms):
    return round(ms * 1000, 3)


def convert(records):
    events, threads, pages = [], {}, set()
    # The messages that end an async call's callback, by its page, page load, document and name: an
    # end can be written before the call's own record, which waits for the call's answer.
    ends = {}
    for record in records:
        if record["kind"] == "message" and record.get("step") in ENDS and (record.get("step") != "result" or record.get("outcome") == "ok"):
            key = (record["page"], record.get("pageLoad"), record.get("document"), record.get("callback"))
            ends.setdefault(key, []).append(record)
    load_began = {}
    # Durable calls running, by page, origin and method: each `begun` until the `ended` after it.
    durable_begun = {}
    # Marks begun and not yet ended, by page, page load, document and span.
    marks_begun = {}

    def thread(page, tid, name):
        pages.add(page)
        threads[(page, tid)] = name
        return tid

    for record in records:
        page, kind, time = record["page"], record["kind"], record["time"]
        document = record.get("document")
        frame = thread(page, MAIN, "main frame") if document is None else thread(page, document, f"frame document {document}")
        args = {k: v for k, v in record.items() if k not in ("kind", "time", "page", "duration", "value")}
        if kind == "call" and record.get("name") == "_dsb.mark":
            continue
        if kind == "call":
            duration = record.get("duration", 0)
            event = {"name": record.get("name") or "(name past its limit)", "cat": "call", "ph": "X", "ts": us(time - duration),
                     "dur": us(duration), "pid": page, "tid": frame, "args": args}
            events.append(event)
            key = (page, record.get("pageLoad"), document, record.get("callback"))
            if record.get("outcome") in ("accepted", "ticket") and key in ends:
                later = [end for end in ends[key] if end["time"] >= time - duration]
                if later:
                    end = min(later, key=lambda end: end["time"])
                    event["dur"] = max(0.0, us(end["time"]) - event["ts"])
                    event["args"]["ended"] = end["step"]
        elif kind == "message":
            step = record.get("step")
            events.append({"name": f"to page: {step}" + (f" {record['name']}" if record.get("name") else ""), "cat": "message", "ph": "i",
                           "s": "t", "ts": us(time), "pid": page, "tid": frame, "args": args})
        elif kind == "transfer":
            duration = record.get("duration", 0)
            carried = f" ({record['transport']})" if record.get("transport") else ""
            events.append({"name": f"bytes: {record.get('step')}{carried}", "cat": "transfer", "ph": "X", "ts": us(time - duration), "dur": us(duration),
                           "pid": page, "tid": thread(page, TRANSFERS, "byte transfers"), "args": args})
        elif kind == "durable":
            tid = thread(page, DURABLE, "durable calls")
            step, key = record.get("step"), (page, record.get("origin"), record.get("name"))
            if step == "begun":
                durable_begun.setdefault(key, []).append(record)
            elif step == "ended" and durable_begun.get(key):
                begun = durable_begun[key].pop(0)
                events.append({"name": f"durable {record.get('name')}", "cat": "durable", "ph": "X", "ts": us(begun["time"]),
                               "dur": us(time - begun["time"]), "pid": page, "tid": tid, "args": args})
            else:
                events.append({"name": f"durable {step}" + (f" {record['name']}" if record.get("name") else ""), "cat": "durable",
                               "ph": "i", "s": "t", "ts": us(time), "pid": page, "tid": tid, "args": args})
        elif kind == "mark":
            tid = thread(page, MARKS, "page marks")
            key = (page, record.get("pageLoad"), document, record.get("span"))
            if record.get("step") == "begin":
                marks_begun[key] = record
            elif key in marks_begun:
                begun = marks_begun.pop(key)
                events.append({"name": begun.get("name") or "mark", "cat": "mark", "ph": "X", "ts": us(begun["time"]),
                               "dur": max(0.0, us(time - begun["time"])), "pid": page, "tid": tid, "args": args})
        elif kind == "pageLoad":
            tid = thread(page, LOADS, "page loads")
            load = record.get("pageLoad")
            step = record.get("step")
            if step == "began":
                load_began[(page, load)] = time
            elif step == "ended" and (page, load) in load_began:
                began = load_began.pop((page, load))
                events.append({"name": f"page load {load}", "cat": "pageLoad", "ph": "X", "ts": us(began), "dur": us(time - began),
                               "pid": page, "tid": tid, "args": args})
            else:
                events.append({"name": f"page load {load} {step}", "cat": "pageLoad", "ph": "i", "s": "t", "ts": us(time), "pid": page,
                               "tid": tid, "args": args})
    for (page, *_), begun in marks_begun.items():
        events.append({"name": begun.get("name") or "mark", "cat": "mark", "ph": "i", "s": "t", "ts": us(begun["time"]), "pid": page,
                       "tid": MARKS, "args": {k: v for k, v in begun.items() if k not in ("kind", "time", "page")}})
    for (page, *_), runs in durable_begun.items():
        for begun in runs:
            events.append({"name": f"durable begun {begun.get('name')}", "cat": "durable", "ph": "i", "s": "t", "ts": us(begun["time"]),
                           "pid": page, "tid": DURABLE, "args": {k: v for k, v in begun.items() if k not in ("kind", "time", "page")}})
    end = max([e["ts"] + e.get("dur", 0) for e in events], default=0)
    for (page, load), began in load_began.items():
        events.append({"name": f"page load {load}", "cat": "pageLoad", "ph": "X", "ts": us(began), "dur": max(0.0, end - us(began)),
                       "pid": page, "tid": LOADS, "args": {"pageLoad": load, "step": "current"}})
    for page in sorted(pages):
        events.append({"name": "process_name", "ph": "M", "pid": page, "tid": 0, "args": {"name": f"page {page}"}})
        events.append({"name": "process_sort_index", "ph": "M", "pid": page, "tid": 0, "args": {"sort_index": page}})
    for (page, tid), name in sorted(threads.items()):
        events.append({"name": "thread_name", "ph": "M", "pid": page, "tid": tid, "args": {"name": name}})
    return {"traceEvents": events, "displayTimeUnit": "ms"}


def check(trace):
    """The problems of a Trace Event file, as lines."""
    problems = []
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not isinstance(events, list):
        return ["no traceEvents list"]
    named_pages, named_threads, used = set(), set(), set()
    for index, event in enumerate(events):
        for field in ("name", "ph", "pid", "tid"):
            if field not in event:
                problems.append(f"event {index} has no {field}")
        phase = event.get("ph")
        if phase == "M":
            if event.get("name") == "process_name":
                named_pages.add(event["pid"])
            if event.get("name") == "thread_name":
                named_threads.add((event["pid"], event["tid"]))
            continue
        if not isinstance(event.get("ts"), (int, float)):
            problems.append(f"event {index} has no time")
        if phase == "X" and not (isinstance(event.get("dur"), (int, float)) and event["dur"] >= 0):
            problems.append(f"slice {index} ({event.get('name')}) has no duration")
        if phase in ("B", "E"):
            problems.append(f"event {index} is a begin or end, not a complete slice")
        used.add((event.get("pid"), event.get("tid")))
    for pid, tid in sorted(used):
        if pid not in named_pages:
            problems.append(f"page {pid} has no track name")
        if (pid, tid) not in named_threads:
            problems.append(f"track {tid} of page {pid} has no name")
    return problems


# The timeline's page, the trace put into it.
TIMELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "timeline.html")


def main():
    if sys.argv[1:2] == ["--check"] and len(sys.argv) == 3:
        problems = check(json.load(open(sys.argv[2], encoding="utf-8")))
        for problem in problems:
            print(f"trace: {problem}")
        print(f"trace: {sys.argv[2]} is a Trace Event file" if not problems else f"trace: {len(problems)} problems")
        sys.exit(1 if problems else 0)
    if len(sys.argv) != 3:
        sys.exit("usage: trace.py TRACE DIR | trace.py --check TRACE.json")
    records = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    trace = convert(records)
    os.makedirs(sys.argv[2], exist_ok=True)
    with open(os.path.join(sys.argv[2], "trace.json"), "w", encoding="utf-8") as out:
        json.dump(trace, out)
    # The data is JSON inside a script element: `</` never appears in it as written.
    embedded = json.dumps(trace).replace("</", "<\\/")
    with open(os.path.join(sys.argv[2], "timeline.html"), "w", encoding="utf-8") as out:
        page = open(TIMELINE, encoding="utf-8").read()
        out.write(page.replace('id="trace">__TRACE__<', 'id="trace">' + embedded + "<"))
    print(f"trace: {len(records)} records → {os.path.join(sys.argv[2], 'trace.json')} and timeline.html")


if __name__ == "__main__":
    main()
